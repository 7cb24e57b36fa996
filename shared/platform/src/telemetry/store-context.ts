// The trace context a store call (PostgreSQL, Redis) is made in. Only @opentelemetry/api: the Redis client and the
// pool use it, and so does the gateway plugin's bundle.
import { type Context, context, TraceFlags, trace } from '@opentelemetry/api';

/**
 * The given context, or, inside a request that is not sampled, the same without its span: the pg and ioredis
 * instrumentations (requireParentSpan) then skip the call at once instead of building a span nobody records
 * (attributes, callbacks, a sampler call); with the chart's 1-in-10 sampling that work was most of what tracing
 * cost a lookup (docs/benchmarks.md, bench:tracing). Calls inside a sampled request are traced as before.
 */
export function storeCallContext(ctx: Context = context.active()): Context {
  const span = trace.getSpan(ctx);
  // The sampled flag, not isRecording(): a sampled request's span that has ended (a call counted as its response
  // finished) still parents the calls made in its context.
  const sampled = span !== undefined && (span.spanContext().traceFlags & TraceFlags.SAMPLED) !== 0;
  return span === undefined || sampled ? ctx : trace.deleteSpan(ctx);
}
