// One request is one trace: a client's traceparent through the local gateway, the lookup service (its server
// span, pg, ioredis), the usage outbox and the ledger writer, down to the ledger write. Spans are kept
// by an in-memory exporter. The same run's spans and log lines are then searched for every secret in play.
//
// OpenTelemetry must patch pg and ioredis before they load, as `node --import register.ts` does in
// production: this file starts it first and imports the application modules afterwards. vitest imports packages
// by their resolved file path, which the ESM hook does not match by name, so they are required here first (the
// instrumentations patch them as they load) and vitest's later import finds them in the CommonJS cache.
import { createRequire, register } from 'node:module';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@pra/platform/telemetry/testing';
import { captureLogs, instrumentedModules, SpanKind, startTelemetry } from '@pra/platform/telemetry';

register('import-in-the-middle/hook.mjs', import.meta.url, { data: { include: instrumentedModules({}) } });
const exporter = new InMemorySpanExporter();
const telemetry = startTelemetry({
  env: { OTEL_SERVICE_NAME: 'trace-test' },
  spanProcessors: [new SimpleSpanProcessor(exporter)],
});
for (const m of ['pg', 'ioredis']) createRequire(import.meta.url)(m);

const { createPool } = await import('@pra/platform');
const { billingFixture } = await import('@pra/account-billing/testing');
const { UsagePipeline } = await import('@pra/account-billing/pipeline');
const { insertProperties, makeProperty, uniqueStreet } = await import('@pra/ingest/testing');
const { startSystem } = await import('../src/system.js');
const { startInProcessLookup } = await import('./in-process-lookup.js');

const HMAC = `hmac-${randomBytes(16).toString('hex')}`;
const MARKETPLACE_SECRET = `mkt-${randomBytes(16).toString('hex')}`;
const TRACE_ID = randomBytes(16).toString('hex');
const logLines: string[] = [];
let stopCapture: () => void;
let pool: ReturnType<typeof createPool>;
let f: Awaited<ReturnType<typeof billingFixture>>;
let system: Awaited<ReturnType<typeof startSystem>>;
let pipeline: InstanceType<typeof UsagePipeline>;
let lookup: Awaited<ReturnType<typeof startInProcessLookup>>;
let base: string;
let path: string;

beforeAll(async () => {
  stopCapture = captureLogs((line) => logLines.push(line));
  lookup = await startInProcessLookup('trace', { gatewayKey: HMAC, marketplaceSecret: MARKETPLACE_SECRET });
  ({ pool, f, pipeline, system } = lookup);
  base = system.gatewayUrl;
  const s = uniqueStreet();
  await insertProperties(pool, [makeProperty({ line1: `7 ${s} AVE`, zip: '95814' })]);
  path = `/api/v1/property/address?address=${encodeURIComponent(`7 ${s} AVE`)}&zip=95814`;
});
afterAll(async () => {
  stopCapture?.();
  await lookup?.stop();
  await telemetry.shutdown();
});

const scope = (s: ReadableSpan) => s.instrumentationScope.name;
const spansOf = (traceId: string) => exporter.getFinishedSpans().filter((s) => s.spanContext().traceId === traceId);

async function waitForSpan(traceId: string, match: (s: ReadableSpan) => boolean): Promise<void> {
  for (let i = 0; i < 200 && !spansOf(traceId).some(match); i++) await new Promise((r) => setTimeout(r, 50));
}

describe('OpenTelemetry through the gateway', () => {
  let key: string;

  it('one request with a traceparent is one trace, from the gateway to the ledger writer', async () => {
    const a = await f.fundedAccount(10, { tier: 'growth' });
    key = a.key;
    const res = await fetch(base + path, {
      headers: { authorization: `Bearer ${a.key}`, traceparent: `00-${TRACE_ID}-${randomBytes(8).toString('hex')}-01` },
    });
    expect(res.status).toBe(200);
    await res.text();
    await pipeline.drained(f.redis);
    await waitForSpan(TRACE_ID, (s) => s.name === 'usage ledger write');

    const spans = spansOf(TRACE_ID);
    const names = spans.map((s) => `${scope(s)}: ${s.name}`);
    const has = (what: string, m: (s: ReadableSpan) => boolean) =>
      expect(spans.some(m), `${what} in\n${names.join('\n')}`).toBe(true);
    has('the gateway plugin span', (s) => s.name === 'pra-gateway access');
    has('the gateway upstream span', (s) => s.name === 'proxy lookup' && s.kind === SpanKind.CLIENT);
    has('two HTTP server spans (gateway, lookup)', () => spans.filter((s) => s.kind === SpanKind.SERVER).length === 2);
    has(
      'the lookup server span, named by its express route',
      (s) => s.kind === SpanKind.SERVER && s.name === 'GET /api/v1/property/address',
    );
    has('a pg query span', (s) => scope(s) === '@opentelemetry/instrumentation-pg' && s.name.startsWith('pg.query'));
    has('an ioredis span (the charge)', (s) => scope(s) === '@opentelemetry/instrumentation-ioredis');
    has(
      'the ledger write, under the span that charged (the outbox carries its context)',
      (s) =>
        s.name === 'usage ledger write' &&
        spans.some((p) => p.spanContext().spanId === s.parentSpanContext?.spanId && p.kind === SpanKind.SERVER),
    );

    // The lookup's server span names the caller and what was charged.
    const server = spans.find((s) => s.kind === SpanKind.SERVER && s.attributes['pra.records.returned'] !== undefined);
    expect(server?.attributes).toMatchObject({
      'pra.account.id': a.accountId,
      'pra.tier': 'growth',
      'pra.endpoint': '/property/address',
      'pra.records.returned': 1,
      'pra.credits.charged': 1,
      'pra.truncated': false,
    });
    // Every span of the trace hangs from the client's span: no orphan subtree.
    const ids = new Set(spans.map((s) => s.spanContext().spanId));
    const roots = spans.filter((s) => !s.parentSpanContext || !ids.has(s.parentSpanContext.spanId));
    expect(roots.map((s) => s.name)).toHaveLength(1);
  });

  it('no API key, proxy secret or HMAC key in any span or log line of the run', async () => {
    // Calls that put each secret on the wire: a marketplace call, a bad key, a spoofed identity header.
    const a = await f.fundedAccount(5, { tier: 'growth' });
    const calls: Record<string, string>[] = [
      { 'x-marketplace-proxy-secret': MARKETPLACE_SECRET, 'x-marketplace-key': a.key },
      { 'x-marketplace-proxy-secret': `${MARKETPLACE_SECRET}x`, 'x-marketplace-key': a.key },
      { authorization: `Bearer ${a.key}x` },
      { authorization: `Bearer ${a.key}`, 'x-pra-signature': HMAC },
    ];
    for (const headers of calls) await (await fetch(base + path, { headers })).text();
    await pipeline.drained(f.redis);
    const spanText = JSON.stringify(
      exporter
        .getFinishedSpans()
        .map((s) => ({ name: s.name, attributes: s.attributes, events: s.events, links: s.links, status: s.status })),
    );
    const logText = logLines.join('');
    expect(logLines.some((l) => l.includes('"msg":"request"'))).toBe(true); // logs were captured at all
    expect(logText).toMatch(/"trace_id":"[0-9a-f]{32}"/); // and carry the trace id
    for (const secret of [key, a.key, HMAC, MARKETPLACE_SECRET]) {
      expect(spanText.includes(secret), 'a secret in a span').toBe(false);
      expect(logText.includes(secret), 'a secret in a log line').toBe(false);
    }
  });
});
