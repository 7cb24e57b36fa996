// Auto-pipelined Redis commands are traced under the request that issued them. The request-path client batches the
// commands of many requests into one write (redis.ts); the ioredis instrumentation makes each command's span when the
// batch is sent, so without care every command of a batch would land under the first request's span. Real Redis, the
// real instrumentation, patched before ioredis loads (as `node --import register.ts` does).
import { createRequire, register } from 'node:module';
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { InMemorySpanExporter, SimpleSpanProcessor } from './testing.js';
import { instrumentedModules } from './settings.js';
import { startTelemetry } from './sdk.js';

register('import-in-the-middle/hook.mjs', import.meta.url, { data: { include: instrumentedModules({}) } });
const exporter = new InMemorySpanExporter();
const telemetry = startTelemetry({
  env: { OTEL_SERVICE_NAME: 'redis-contexts-test' },
  spanProcessors: [new SimpleSpanProcessor(exporter)],
});
createRequire(import.meta.url)('ioredis');
const { context, trace } = await import('@opentelemetry/api');
const { createRedis, redisReady } = await import('../redis.js');

const redis = createRedis(inject('redisUrl'), 'producer');
await redisReady(redis);
afterAll(async () => {
  await redis.quit();
  await telemetry.shutdown();
});

describe('auto-pipelined Redis commands', () => {
  it('are sent in one batch, each traced under the span of the request that issued it', async () => {
    const key = `${inject('redisPrefix')}ctx:${randomBytes(4).toString('hex')}`;
    const tracer = trace.getTracer('redis-contexts-test');
    const requests = ['first', 'second', 'third'];
    // Three "requests" in one turn of the event loop, each issuing its command inside its own active span.
    const pending = requests.map((name) =>
      tracer.startActiveSpan(name, async (span) => {
        await redis.incr(key);
        span.end();
        return span.spanContext().spanId;
      }),
    );
    expect(redis.autoPipelineQueueSize).toBe(3); // one batch, not yet sent
    const parents = await Promise.all(pending);
    expect(await redis.get(key)).toBe('3');
    const spans = exporter.getFinishedSpans();
    const incr = spans.filter((s) => s.name === 'incr');
    expect(incr).toHaveLength(3);
    // One per request, each under its own parent (not all three under the first).
    expect(incr.map((s) => s.parentSpanContext?.spanId).sort()).toEqual([...parents].sort());
  });

  it('a sampled request whose span has ended (a call counted as its response finished) still parents its commands', async () => {
    const key = `${inject('redisPrefix')}ctx:${randomBytes(4).toString('hex')}`;
    const tracer = trace.getTracer('redis-contexts-test');
    const span = tracer.startSpan('finished request');
    span.end();
    await context.with(trace.setSpan(context.active(), span), () => redis.incr(key));
    const incr = exporter
      .getFinishedSpans()
      .filter((s) => s.name === 'incr' && s.parentSpanContext?.spanId === span.spanContext().spanId);
    expect(incr).toHaveLength(1);
  });
});
