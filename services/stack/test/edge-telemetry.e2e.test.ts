// What a client can and cannot make the system record. With a sampling ratio of 0, a client that sends a sampled
// traceparent gets no trace (tracing costs a third of a lookup's throughput: a client able to force it could slow
// every tenant), and its trace context never reaches a service; a service still follows the decision the gateway
// sends. And an owner name sent in the query string appears in no log line of the gateway or the service.
// Telemetry is started first with pg and ioredis instrumented, as trace.e2e.test.ts explains.
import { createRequire, register } from 'node:module';
import { randomBytes, randomInt } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@pra/platform/telemetry/testing';
import { captureLogs, instrumentedModules, SpanKind, startTelemetry } from '@pra/platform/telemetry';

register('import-in-the-middle/hook.mjs', import.meta.url, { data: { include: instrumentedModules({}) } });
const exporter = new InMemorySpanExporter();
const telemetry = startTelemetry({
  env: {
    OTEL_SERVICE_NAME: 'edge-test',
    OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
    OTEL_TRACES_SAMPLER_ARG: '0',
  },
  spanProcessors: [new SimpleSpanProcessor(exporter)],
});
for (const m of ['pg', 'ioredis']) createRequire(import.meta.url)(m);

const { createPool } = await import('@pra/platform');
const { billingFixture } = await import('@pra/account-billing/testing');
const { insertProperties, makeProperty, uniqueStreet } = await import('@pra/ingest/testing');
const { startSystem } = await import('../src/system.js');

const letters = (n: number) => Array.from({ length: n }, () => String.fromCharCode(65 + randomInt(26))).join('');
const SECRET = `SECRETNAME${letters(8)}`;
const logLines: string[] = [];
let stopCapture: () => void;
let pool: ReturnType<typeof createPool>;
let f: Awaited<ReturnType<typeof billingFixture>>;
let system: Awaited<ReturnType<typeof startSystem>>;
let tap: Server;
let base: string;
let addressPath: string;
/** What the gateway sent the lookup service last. */
let received: IncomingHttpHeaders = {};
/** When set, the tap turns the gateway's traceparent into a sampled one (as a gateway that decided to sample). */
let markSampled = false;

/** Between the gateway and lookup: records the headers, passes the request on. */
async function tapInFront(to: string): Promise<string> {
  tap = createServer((req, res) => {
    received = { ...req.headers };
    const headers = Object.fromEntries(
      Object.entries(req.headers).filter(([k]) => !['host', 'connection'].includes(k)),
    ) as Record<string, string>;
    if (markSampled && headers.traceparent) headers.traceparent = headers.traceparent.replace(/-00$/, '-01');
    void fetch(to + req.url, { headers }).then(async (r) => {
      res.writeHead(r.status, Object.fromEntries(r.headers));
      res.end(Buffer.from(await r.arrayBuffer()));
    });
  });
  await new Promise<void>((r) => tap.listen(0, '127.0.0.1', () => r()));
  return `http://127.0.0.1:${(tap.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  stopCapture = captureLogs((line) => logLines.push(line));
  pool = createPool(inject('databaseUrl'), 4);
  f = await billingFixture(pool, inject('redisUrl'), `${inject('redisPrefix')}edge${randomBytes(3).toString('hex')}:`);
  system = await startSystem({
    placement: 'in-process',
    pool,
    billing: f,
    gatewayKey: `hmac-${randomBytes(16).toString('hex')}`,
    only: ['lookup'],
    interpose: (_service, url) => tapInFront(url),
  });
  base = system.gatewayUrl;
  const s = uniqueStreet();
  await insertProperties(pool, [
    makeProperty({
      line1: `9 ${s} AVE`,
      zip: '95814',
      owner1: { firstName: 'JANE', lastName: SECRET, fullName: `JANE ${SECRET}`, type: 'Individual' },
    }),
  ]);
  addressPath = `/api/v1/property/address?address=${encodeURIComponent(`9 ${s} AVE`)}&zip=95814`;
});
afterAll(async () => {
  stopCapture?.();
  await system?.stop();
  await new Promise((r) => tap?.close(r));
  await f?.close();
  await pool?.end();
  await telemetry.shutdown();
});

const spansOf = (traceId: string) => exporter.getFinishedSpans().filter((s) => s.spanContext().traceId === traceId);
/** Retries `check` (it throws until it holds) until it holds, or fails with its last error at the deadline. */
const eventually = <T>(check: () => T | Promise<T>) => vi.waitFor(check, { timeout: 15_000, interval: 20 });

/**
 * A request the system must trace (the tap marks the gateway's context sampled; lookup follows it), and its lookup
 * server span exported: the positive marker an assertion that something was NOT exported waits for. Spans of the
 * requests sent before it have ended and been exported by then, so "none" cannot pass for being asked too early.
 */
async function tracedMarker(key: string): Promise<string> {
  const traceId = randomBytes(16).toString('hex');
  markSampled = true;
  try {
    const res = await fetch(base + addressPath, {
      headers: { authorization: `Bearer ${key}`, traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-01` },
    });
    expect(res.status).toBe(200);
    await res.text();
  } finally {
    markSampled = false;
  }
  await eventually(() =>
    expect(spansOf(traceId).some((s) => s.kind === SpanKind.SERVER && s.name === 'GET /api/v1/property/address')).toBe(
      true,
    ),
  );
  return traceId;
}

describe('the edge decides what is traced', () => {
  it("a client's sampled traceparent does not make its request traced (ratio 0), nor reach the service", async () => {
    const a = await f.fundedAccount(10, { tier: 'growth' });
    const traceId = randomBytes(16).toString('hex');
    exporter.reset();
    for (let i = 0; i < 5; i++) {
      const res = await fetch(base + addressPath, {
        headers: {
          authorization: `Bearer ${a.key}`,
          traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-01`,
          tracestate: 'client=forced',
          baggage: 'client=forced',
        },
      });
      expect(res.status).toBe(200);
      await res.text();
    }
    const forwarded = received;
    // Once a request the system does trace has been exported, the client's five have had every chance to be.
    const marker = await tracedMarker(a.key);
    expect(spansOf(traceId)).toEqual([]);
    // Nothing sampled anywhere but the marker.
    expect(
      exporter
        .getFinishedSpans()
        .filter((s) => s.spanContext().traceId !== marker)
        .map((s) => s.name),
    ).toEqual([]);
    // The service got the gateway's context (the client's trace id, kept for correlation), marked not sampled,
    // and none of the client's own trace state.
    expect(forwarded.traceparent).toMatch(new RegExp(`^00-${traceId}-[0-9a-f]{16}-00$`));
    expect(forwarded.tracestate).toBeUndefined();
    expect(forwarded.baggage).toBeUndefined();
  });

  it("inside the system a service follows the gateway's decision: sampled, it traces at ratio 0", async () => {
    const a = await f.fundedAccount(10, { tier: 'growth' });
    const traceId = randomBytes(16).toString('hex');
    exporter.reset();
    markSampled = true;
    try {
      const res = await fetch(base + addressPath, {
        headers: {
          authorization: `Bearer ${a.key}`,
          traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-01`,
        },
      });
      expect(res.status).toBe(200);
      await res.text();
    } finally {
      markSampled = false;
    }
    await eventually(() => {
      const spans = spansOf(traceId);
      expect(spans.some((s) => s.kind === SpanKind.SERVER && s.name === 'GET /api/v1/property/address')).toBe(true);
      expect(spans.some((s) => s.name.startsWith('pg.query'))).toBe(true);
    });
    // The gateway's own spans were not sampled: it decided, with ratio 0, not to trace (asked once a later request
    // has been traced, so that they had every chance to be exported).
    await tracedMarker(a.key);
    expect(spansOf(traceId).some((s) => s.name === 'pra-gateway access' || s.name === 'proxy lookup')).toBe(false);
  });
});

describe('no owner name in any log line', () => {
  it('an owner search answered, one not found, and a call the gateway could not pass on leave the name in no line', async () => {
    const a = await f.fundedAccount(10, { tier: 'growth' });
    logLines.length = 0;
    const auth = { authorization: `Bearer ${a.key}` };
    const owner = await fetch(`${base}/api/v1/property/owner?lastName=${SECRET}&state=CA`, { headers: auth });
    expect(owner.status).toBe(200);
    expect(await owner.text()).toContain(SECRET); // it was answered, with the name
    const missing = await fetch(`${base}/api/v1/property/owner?lastName=${SECRET}X&firstName=${SECRET}`, {
      headers: auth,
    });
    expect(missing.status).toBe(404);
    await missing.text();
    // autocomplete is not running here: the gateway's 503 (its log line is upstream-failure.test.ts's).
    const down = await fetch(`${base}/api/v1/property/autocomplete?q=${SECRET}`, { headers: auth });
    expect(down.status).toBe(503);
    await down.text();
    // The gateway's three request lines and lookup's two, each written when its response finished.
    await eventually(() => {
      const requestLines = logLines.filter((l) => l.includes('"msg":"request"'));
      expect(requestLines.length).toBeGreaterThanOrEqual(5);
      expect(requestLines.some((l) => l.includes('"route":"/api/v1/property/owner"'))).toBe(true);
    });
    expect(logLines.join('')).not.toContain('SECRETNAME');
  });
});
