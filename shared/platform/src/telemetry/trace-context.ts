// Small helpers over the OpenTelemetry API for application code: name the request's span attributes, carry the
// trace context through Redis and BullMQ, start a span. All are no-ops when tracing is off.
import {
  context,
  createContextKey,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  trace,
  type Attributes,
  type Context,
  type Link,
  type Span,
} from '@opentelemetry/api';
import { getRPCMetadata, RPCType, setRPCMetadata } from '@opentelemetry/core';
import { BullMQOtel } from 'bullmq-otel';

export const tracer = () => trace.getTracer('property-api');

/** Set on the parent context of a span whose remote parent came from outside the system (a client): sampling.ts. */
export const UNTRUSTED_PARENT = createContextKey('pra.untrusted-parent');

/** The span of the HTTP request being served (the server span, not a middleware's), if any. */
export function requestSpan(): Span | undefined {
  return getRPCMetadata(context.active())?.span ?? trace.getActiveSpan();
}

/** Sets attributes on the current request's span (account id, tier, credits charged...). */
export function annotateRequest(attrs: Attributes): void {
  requestSpan()?.setAttributes(attrs);
}

/** A client's context as the edge keeps it: its trace id and span id only (no trace state, no baggage). */
function ownedByUs(extracted: Context): Context {
  const client = trace.getSpanContext(extracted);
  const bare = propagation.deleteBaggage(extracted);
  return client?.traceState ? trace.setSpanContext(bare, { ...client, traceState: undefined }) : bare;
}

/**
 * The server span of one incoming request, continuing the caller's traceparent. Ours rather than the http and
 * express instrumentations': those cost 30-40% of a lookup's throughput on Node 20 (measured, README), this costs
 * one span. `run` executes the handler inside the span's context; `end` names it by route and status.
 * With `edge` (the gateway: the caller is a client), the trace id is kept but the client's sampled flag is not
 * obeyed: the span is sampled at the configured ratio by our own draw (sampling.ts), and its children and the
 * services behind follow that decision.
 */
export function serverSpan(
  method: string,
  path: string,
  headers: Record<string, string | string[] | undefined>,
  o: { edge?: boolean } = {},
) {
  const parent = o.edge
    ? ownedByUs(propagation.extract(ROOT_CONTEXT, headers))
    : propagation.extract(ROOT_CONTEXT, headers);
  const span = tracer().startSpan(
    method,
    { kind: SpanKind.SERVER, attributes: { 'http.request.method': method, 'url.path': path } },
    // The mark is on this span's decision only: its children see the plain parent and follow the span.
    o.edge ? parent.setValue(UNTRUSTED_PARENT, true) : parent,
  );
  const ctx = span.isRecording()
    ? setRPCMetadata(trace.setSpan(parent, span), { type: RPCType.HTTP, span })
    : trace.setSpan(parent, span);
  return {
    run: <T>(fn: () => T): T => context.with(ctx, fn),
    end(status: number, route?: string): void {
      if (!span.isRecording()) return;
      if (route) span.updateName(`${method} ${route}`);
      span.setAttributes({ 'http.response.status_code': status, ...(route ? { 'http.route': route } : {}) });
      if (status >= 500) span.setStatus({ code: 2 });
      span.end();
    },
  };
}

/** The W3C traceparent of the active context ('' when there is none or it is not sampled). */
export function currentTraceparent(): string {
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier.traceparent ?? '';
}

/** The context a stored traceparent names, to parent spans made later in another process. */
export function contextFromTraceparent(traceparent: string | undefined): Context {
  if (!traceparent) return ROOT_CONTEXT;
  return propagation.extract(ROOT_CONTEXT, { traceparent });
}

/** Propagation headers for a context (traceparent, tracestate). */
export function traceHeaders(ctx: Context = context.active()): Record<string, string> {
  const carrier: Record<string, string> = {};
  propagation.inject(ctx, carrier);
  return carrier;
}

/** Runs fn in a new span (ended when fn settles; an error is recorded on it). */
export async function inSpan<T>(
  name: string,
  o: { kind?: SpanKind; attributes?: Attributes; parent?: Context; links?: Link[] },
  fn: (span: Span) => Promise<T>,
): Promise<T> {
  const span = tracer().startSpan(
    name,
    { kind: o.kind ?? SpanKind.INTERNAL, attributes: o.attributes, links: o.links },
    o.parent ?? context.active(),
  );
  try {
    return await context.with(trace.setSpan(o.parent ?? context.active(), span), () => fn(span));
  } catch (err) {
    span.recordException(err as Error);
    span.setStatus({ code: 2, message: String((err as Error)?.message ?? err) });
    throw err;
  } finally {
    span.end();
  }
}

export { SpanKind, context, trace, ROOT_CONTEXT };
export type { SpanContext } from '@opentelemetry/api';

/** BullMQ's telemetry option: producer spans on add, consumer spans around each job, context in the job, and
 * BullMQ's own job metrics (completed, failed, durations). */
export const queueTelemetry = () => new BullMQOtel({ tracerName: 'bullmq', meterName: 'bullmq', enableMetrics: true });
