// A small OTLP/HTTP receiver (JSON encoding) for one machine: `npm start -- --trace` prints each request's span
// tree from every process, and the benchmarks export to it to measure what tracing costs. Not a collector: it
// keeps recent traces in memory only.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SinkSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  service: string;
  startNs: bigint;
  endNs: bigint;
  attributes: Record<string, unknown>;
}

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  doubleValue?: number;
  boolValue?: boolean;
}
interface OtlpAttr {
  key: string;
  value: OtlpValue;
}
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  startTimeUnixNano: string | number;
  endTimeUnixNano: string | number;
  attributes?: OtlpAttr[];
}
interface OtlpTraces {
  resourceSpans?: { resource?: { attributes?: OtlpAttr[] }; scopeSpans?: { spans?: OtlpSpan[] }[] }[];
}

const value = (v: OtlpValue): unknown =>
  v.stringValue ?? (v.intValue !== undefined ? Number(v.intValue) : undefined) ?? v.doubleValue ?? v.boolValue;
const attrs = (list: OtlpAttr[] = []) => Object.fromEntries(list.map((a) => [a.key, value(a.value)]));

/** Spans from one OTLP/HTTP JSON export request. */
export function spansFromOtlp(body: OtlpTraces): SinkSpan[] {
  const out: SinkSpan[] = [];
  for (const rs of body.resourceSpans ?? []) {
    const service = String(attrs(rs.resource?.attributes)['service.name'] ?? '?');
    for (const ss of rs.scopeSpans ?? []) {
      for (const s of ss.spans ?? []) {
        out.push({
          traceId: s.traceId,
          spanId: s.spanId,
          parentSpanId: s.parentSpanId || undefined,
          name: s.name,
          kind: s.kind,
          service,
          startNs: BigInt(s.startTimeUnixNano),
          endNs: BigInt(s.endTimeUnixNano),
          attributes: attrs(s.attributes),
        });
      }
    }
  }
  return out;
}

const SHOWN_ATTRIBUTES = [
  'http.response.status_code',
  'pra.account.id',
  'pra.tier',
  'pra.records.returned',
  'pra.credits.charged',
  'pra.truncated',
  'pra.usage.batch.size',
  'db.query.summary',
];

/** A trace as an indented tree: service, span name, duration, and the attributes an SRE looks at first. */
export function renderTrace(spans: SinkSpan[]): string {
  const byParent = new Map<string | undefined, SinkSpan[]>();
  const ids = new Set(spans.map((s) => s.spanId));
  for (const s of spans) {
    const parent = s.parentSpanId && ids.has(s.parentSpanId) ? s.parentSpanId : undefined;
    byParent.set(parent, [...(byParent.get(parent) ?? []), s]);
  }
  // biome-ignore lint/complexity/useMathMinMax: bigint nanoseconds (Math.min takes numbers)
  const t0 = spans.reduce((m, s) => (s.startNs < m ? s.startNs : m), spans[0]!.startNs);
  const lines = [`trace ${spans[0]!.traceId} (${spans.length} spans)`];
  const walk = (parent: string | undefined, depth: number) => {
    for (const s of (byParent.get(parent) ?? []).sort((a, b) => (a.startNs < b.startNs ? -1 : 1))) {
      const ms = (n: bigint) => (Number(n) / 1e6).toFixed(2);
      const shown = SHOWN_ATTRIBUTES.filter((k) => s.attributes[k] !== undefined).map(
        (k) => `${k.replace(/^pra\./, '')}=${s.attributes[k]}`,
      );
      lines.push(
        `${'  '.repeat(depth + 1)}${s.service} | ${s.name}  ${ms(s.endNs - s.startNs)} ms (at +${Math.round(Number(s.startNs - t0) / 1e6)} ms)${shown.length ? `  [${shown.join(' ')}]` : ''}`,
      );
      walk(s.spanId, depth + 1);
    }
  };
  walk(undefined, 0);
  return lines.join('\n');
}

export interface OtlpSink {
  url: string;
  /** Spans received so far. */
  received(): number;
  close(): Promise<void>;
}

/**
 * Listens on 127.0.0.1. With `onTrace`, a trace is handed over once no span of it has arrived for `quietMs`
 * (spans come from several processes, each on its own export schedule).
 */
export async function startOtlpSink(
  o: { onTrace?: (spans: SinkSpan[]) => void; quietMs?: number; port?: number } = {},
): Promise<OtlpSink> {
  let count = 0;
  const pending = new Map<string, { spans: SinkSpan[]; timer: NodeJS.Timeout }>();
  const quietMs = o.quietMs ?? 1_500;
  const take = (spans: SinkSpan[]) => {
    count += spans.length;
    if (!o.onTrace) return;
    for (const s of spans) {
      const p = pending.get(s.traceId) ?? { spans: [], timer: setTimeout(() => {}, 0) };
      clearTimeout(p.timer);
      p.spans.push(s);
      p.timer = setTimeout(() => {
        pending.delete(s.traceId);
        o.onTrace!(p.spans);
      }, quietMs);
      pending.set(s.traceId, p);
    }
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method === 'POST' && req.url === '/v1/traces') {
        try {
          take(spansFromOtlp(JSON.parse(Buffer.concat(chunks).toString('utf8')) as OtlpTraces));
        } catch {
          res
            .writeHead(400, { 'content-type': 'application/json' })
            .end('{"message":"send OTLP/HTTP JSON (OTEL_EXPORTER_OTLP_PROTOCOL=http/json)"}');
          return;
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}'); // metrics and logs are accepted and dropped
    });
  });
  await new Promise<void>((r) => server.listen(o.port ?? 0, '127.0.0.1', () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received: () => count,
    close: () => {
      for (const p of pending.values()) clearTimeout(p.timer);
      return new Promise((r) => server.close(() => r()));
    },
  };
}

/** The environment that sends a child process's spans to a sink, quickly (console use) or in batches (benchmarks). */
export function sinkEnv(sinkUrl: string, serviceName: string, delayMs = 200): Record<string, string> {
  return {
    OTEL_SERVICE_NAME: serviceName,
    OTEL_EXPORTER_OTLP_ENDPOINT: sinkUrl,
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    OTEL_METRICS_EXPORTER: 'none',
    OTEL_BSP_SCHEDULE_DELAY: String(delayMs),
  };
}
