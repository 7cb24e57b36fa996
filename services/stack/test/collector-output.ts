// Reading what a real OpenTelemetry Collector's file exporter wrote: one OTLP JSON export request per line
// (resourceSpans or resourceMetrics), as the collector's pdata JSON marshaler writes it (trace and span ids in hex).
import { existsSync, readFileSync } from 'node:fs';

interface AnyValue {
  stringValue?: string;
  intValue?: string | number;
  doubleValue?: number;
  boolValue?: boolean;
}
interface KeyValue {
  key: string;
  value?: AnyValue;
}
export type Attributes = Record<string, string | number | boolean | undefined>;

const plainValue = (v: AnyValue = {}) =>
  v.stringValue ?? (v.intValue !== undefined ? Number(v.intValue) : undefined) ?? v.doubleValue ?? v.boolValue;
const attributes = (list: KeyValue[] = []): Attributes =>
  Object.fromEntries(list.map((a) => [a.key, plainValue(a.value)]));

/** The JSON lines of a file written so far (a line still being written is left for the next read). */
function lines(file: string): unknown[] {
  if (!existsSync(file)) return [];
  const out: unknown[] = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    try {
      out.push(JSON.parse(line));
    } catch {
      // the last line, half written
    }
  }
  return out;
}

export interface CollectedSpan {
  service: string;
  scope: string;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  /** OTLP SpanKind: 1 internal, 2 server, 3 client, 4 producer, 5 consumer. */
  kind: number;
  attributes: Attributes;
  links: { traceId: string; spanId: string }[];
}

export function readSpans(file: string): CollectedSpan[] {
  const spans: CollectedSpan[] = [];
  for (const req of lines(file) as { resourceSpans?: any[] }[])
    for (const rs of req.resourceSpans ?? []) {
      const service = String(attributes(rs.resource?.attributes)['service.name'] ?? '?');
      for (const ss of rs.scopeSpans ?? [])
        for (const s of ss.spans ?? [])
          spans.push({
            service,
            scope: ss.scope?.name ?? '',
            traceId: s.traceId,
            spanId: s.spanId,
            parentSpanId: s.parentSpanId ?? '',
            name: s.name,
            kind: s.kind ?? 0,
            attributes: attributes(s.attributes),
            links: (s.links ?? []).map((l: { traceId: string; spanId: string }) => ({
              traceId: l.traceId,
              spanId: l.spanId,
            })),
          });
    }
  return spans;
}

export interface CollectedPoint {
  service: string;
  metric: string;
  /** sum, gauge or histogram. */
  type: string;
  attributes: Attributes;
  /** A sum's or gauge's value; a histogram's count. */
  value: number;
}

export function readMetricPoints(file: string): CollectedPoint[] {
  const points: CollectedPoint[] = [];
  for (const req of lines(file) as { resourceMetrics?: any[] }[])
    for (const rm of req.resourceMetrics ?? []) {
      const service = String(attributes(rm.resource?.attributes)['service.name'] ?? '?');
      for (const sm of rm.scopeMetrics ?? [])
        for (const m of sm.metrics ?? [])
          for (const type of ['sum', 'gauge', 'histogram'])
            for (const p of m[type]?.dataPoints ?? [])
              points.push({
                service,
                metric: m.name,
                type,
                attributes: attributes(p.attributes),
                value: Number(type === 'histogram' ? p.count : (p.asInt ?? p.asDouble ?? 0)),
              });
    }
  return points;
}
