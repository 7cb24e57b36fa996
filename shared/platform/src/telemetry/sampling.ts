// Who decides whether a request is traced. Inside the system a span follows its parent (the gateway's decision
// reaches every service through traceparent). At the edge the parent is a client's traceparent, which anyone can
// send with the sampled flag set: tracing costs about a third of a lookup's throughput, so a client that could
// raise the sampling rate could slow every tenant down. The gateway's server span (serverSpan with `edge`, its
// parent context marked UNTRUSTED_PARENT) is therefore decided by the configured ratio alone, with our own random
// draw: neither the client's sampled flag nor its trace id (which it chooses, and which a trace-id ratio sampler
// would read) changes the odds.
import type { Attributes, Context, Link, SpanKind } from '@opentelemetry/api';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  ParentBasedSampler,
  SamplingDecision,
  TraceIdRatioBasedSampler,
  type Sampler,
  type SamplingResult,
} from '@opentelemetry/sdk-trace-base';
import { UNTRUSTED_PARENT } from './trace-context.js';

/** The ratio of new traces the environment asks for (OTEL_TRACES_SAMPLER, OTEL_TRACES_SAMPLER_ARG). */
export function rootSamplingRatio(env: NodeJS.ProcessEnv = process.env): number {
  const name = env.OTEL_TRACES_SAMPLER?.trim() || 'parentbased_always_on';
  if (name === 'always_off' || name === 'parentbased_always_off') return 0;
  if (name === 'traceidratio' || name === 'parentbased_traceidratio') {
    const arg = env.OTEL_TRACES_SAMPLER_ARG?.trim();
    const ratio = arg ? Number(arg) : Number.NaN;
    return Number.isFinite(ratio) && ratio >= 0 && ratio <= 1 ? ratio : 1; // the SDK's default for a bad value
  }
  return 1; // always_on, parentbased_always_on, and any name the SDK does not know (it falls back to always on)
}

/** The sampler the standard variables name (as the SDK builds it), for spans whose parent is ours. */
function standardSampler(env: NodeJS.ProcessEnv, ratio: number): Sampler {
  switch (env.OTEL_TRACES_SAMPLER?.trim() || 'parentbased_always_on') {
    case 'always_on':
      return new AlwaysOnSampler();
    case 'always_off':
      return new AlwaysOffSampler();
    case 'traceidratio':
      return new TraceIdRatioBasedSampler(ratio);
    case 'parentbased_always_off':
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case 'parentbased_traceidratio':
      return new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(ratio) });
    default:
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
  }
}

/** The configured sampler, except that a span marked UNTRUSTED_PARENT is sampled at the root ratio, by our own draw. */
export class EdgeAwareSampler implements Sampler {
  constructor(
    private readonly inner: Sampler,
    private readonly ratio: number,
    private readonly random: () => number = Math.random,
  ) {}

  shouldSample(
    context: Context,
    traceId: string,
    spanName: string,
    spanKind: SpanKind,
    attributes: Attributes,
    links: Link[],
  ): SamplingResult {
    if (context.getValue(UNTRUSTED_PARENT) === true) {
      return {
        decision: this.random() < this.ratio ? SamplingDecision.RECORD_AND_SAMPLED : SamplingDecision.NOT_RECORD,
      };
    }
    return this.inner.shouldSample(context, traceId, spanName, spanKind, attributes, links);
  }

  toString(): string {
    return `EdgeAwareSampler{edgeRatio=${this.ratio}, inner=${this.inner.toString()}}`;
  }
}

/** The sampler every process runs: the standard variables' choice, with the edge rule above. */
export function samplerFromEnv(env: NodeJS.ProcessEnv = process.env): EdgeAwareSampler {
  const ratio = rootSamplingRatio(env);
  return new EdgeAwareSampler(standardSampler(env, ratio), ratio);
}
