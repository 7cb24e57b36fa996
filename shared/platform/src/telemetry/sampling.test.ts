// The sampling decision at the edge belongs to us: a client's sampled flag (or a trace id chosen to please a
// trace-id ratio sampler) does not raise the rate; inside the system a span follows its parent.
import { describe, expect, it } from 'vitest';
import { ROOT_CONTEXT, SpanKind, TraceFlags, trace, type Context } from '@opentelemetry/api';
import { SamplingDecision } from '@opentelemetry/sdk-trace-base';
import { EdgeAwareSampler, rootSamplingRatio, samplerFromEnv } from './sampling.js';
import { UNTRUSTED_PARENT } from './trace-context.js';

const remoteParent = (traceId: string, sampled: boolean): Context =>
  trace.setSpanContext(ROOT_CONTEXT, {
    traceId,
    spanId: '1111222233334444',
    traceFlags: sampled ? TraceFlags.SAMPLED : TraceFlags.NONE,
    isRemote: true,
  });
const LOW_TRACE_ID = '00000000000000000000000000000001'; // what a trace-id ratio sampler keeps at any ratio > 0

/** n draws spread evenly over [0, 1), in a fixed order: a ratio r samples exactly r of every n (no Math.random). */
function evenDraws(n: number): () => number {
  let i = 0;
  return () => (((i++ * 7_919) % n) + 0.5) / n;
}

/**
 * The share of n spans sampled by the sampler an environment configures: samplerFromEnv's, with its edge draw made
 * from evenDraws instead of Math.random (the decision for a trusted parent is samplerFromEnv's own).
 */
function sampledShare(env: NodeJS.ProcessEnv, parent: Context, traceId: string, n = 2_000): number {
  const sampler = new EdgeAwareSampler(samplerFromEnv(env), rootSamplingRatio(env), evenDraws(n));
  let sampled = 0;
  for (let i = 0; i < n; i++)
    if (sampler.shouldSample(parent, traceId, 'GET', SpanKind.SERVER, {}, []).decision !== SamplingDecision.NOT_RECORD)
      sampled++;
  return sampled / n;
}

describe('sampling', () => {
  const tenth = { OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.1' };

  it('at the edge, a client that sends a sampled traceparent is sampled at the configured ratio, not always', () => {
    const edge = remoteParent(LOW_TRACE_ID, true).setValue(UNTRUSTED_PARENT, true);
    expect(
      sampledShare(
        { OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0' },
        edge,
        LOW_TRACE_ID,
      ),
    ).toBe(0);
    // At 0.1 the edge decision is our draw against the ratio: with draws spread evenly, exactly a tenth (a trace-id
    // ratio sampler or the client's flag would have sampled every one).
    expect(sampledShare(tenth, edge, LOW_TRACE_ID)).toBe(0.1);
    // Nor can it lower the rate by sending an unsampled one.
    const unsampled = remoteParent(LOW_TRACE_ID, false).setValue(UNTRUSTED_PARENT, true);
    expect(sampledShare({}, unsampled, LOW_TRACE_ID)).toBe(1);
  });

  it("inside the system, a span follows its parent's decision (the gateway's), whatever the ratio", () => {
    const zero = { OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0' };
    expect(sampledShare(zero, remoteParent(LOW_TRACE_ID, true), LOW_TRACE_ID, 50)).toBe(1);
    expect(sampledShare({}, remoteParent(LOW_TRACE_ID, false), LOW_TRACE_ID, 50)).toBe(0);
  });

  it('reads the ratio as the SDK does', () => {
    expect(rootSamplingRatio({})).toBe(1);
    expect(rootSamplingRatio({ OTEL_TRACES_SAMPLER: 'always_off' })).toBe(0);
    expect(rootSamplingRatio({ OTEL_TRACES_SAMPLER: 'parentbased_always_off' })).toBe(0);
    expect(rootSamplingRatio(tenth)).toBe(0.1);
    expect(samplerFromEnv(tenth).toString()).toContain('edgeRatio=0.1'); // the edge draws against it
    expect(rootSamplingRatio({ OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '2' })).toBe(1);
    expect(rootSamplingRatio({ OTEL_TRACES_SAMPLER: 'traceidratio' })).toBe(1);
  });
});
