// The system's telemetry, accepted by a real OpenTelemetry Collector: pra-otelcol, built with the OpenTelemetry
// Collector Builder from observability/collector/builder-config.yaml (the OTLP receiver, the contrib file exporter;
// observability/collector/build.sh, which .ci/run calls). The collector runs on a free port with
// observability/collector/e2e-config.yaml, writing what it receives as OTLP JSON lines. The system runs as npm
// start runs it (account-billing, lookup and the local gateway as processes under the Supervisor, OpenTelemetry
// started by `node --import register.ts`, on a database and a Redis prefix of their own), configured by the
// standard variables only: OTEL_EXPORTER_OTLP_ENDPOINT names the collector, each process's default OTLP/HTTP
// exporters send to it (protobuf). One look-up through the gateway with a client's traceparent must come out of
// the collector as one trace: the gateway's spans, the lookup service's, and account-billing's ledger write under
// the span that charged; and the services' metrics (request durations, credits charged, the usage gauges) too.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createPool, dropDatabase, ensureDatabase, withDatabase, type Pool } from '@pra/platform';
import { COLLECTOR_CONFIGS, findCollector, startCollector, type RunningCollector } from '@pra/platform/testing';
import { TELEMETRY_NODE_ARGS } from '@pra/platform/telemetry';
import { insertProperties, makeProperty, uniqueStreet } from '@pra/ingest/testing';
import { migrateAll } from '../src/migrate-all.js';
import { ensureDemoAccount } from '../src/demo-account.js';
import { Supervisor } from '../src/supervisor.js';
import { startSystem, type RunningSystem } from '../src/system.js';
import { freeSystemPorts } from './free-ports.js';
import { type CollectedPoint, type CollectedSpan, readMetricPoints, readSpans } from './collector-output.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const CONFIG = join(COLLECTOR_CONFIGS, 'e2e-config.yaml');
const otelcol = findCollector();
if (!otelcol)
  console.log(
    '[collector] SKIP: pra-otelcol not built, the real-collector test is skipped (observability/collector/build.sh)',
  );

/** Polls until `get` returns something `ok` accepts; past the deadline, fails with `what` and the last value. */
async function until<T>(what: string, ms: number, get: () => T, ok: (v: T) => boolean, alive: () => void): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = get();
    if (ok(v)) return v;
    alive();
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms / 1000} s; last read: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

describe.skipIf(!otelcol)('a real OpenTelemetry Collector receiving from the system', () => {
  const TRACE_ID = randomBytes(16).toString('hex');
  const CLIENT_SPAN = randomBytes(8).toString('hex');
  const prefix = `${inject('redisPrefix')}col${randomBytes(3).toString('hex')}:`;
  const logged: string[] = [];
  let out: string;
  let collector: RunningCollector;
  let databaseUrl: string;
  let pool: Pool;
  let supervisor: Supervisor;
  let system: RunningSystem;
  let apiKey: string;
  let path: string;

  const collectorAlive = () => collector.alive();

  beforeAll(async () => {
    out = mkdtempSync(join(tmpdir(), 'pra-collector-'));
    collector = await startCollector(otelcol!, CONFIG, { PRA_COLLECTOR_OUT: out });
    const endpoint = collector.endpoint;

    databaseUrl = withDatabase(inject('databaseUrl'), `pra_collector_${randomBytes(4).toString('hex')}`);
    await ensureDatabase(databaseUrl);
    pool = createPool(databaseUrl, 2);
    await migrateAll(pool, () => {});
    const s = uniqueStreet();
    await insertProperties(pool, [makeProperty({ line1: `5 ${s} AVE`, zip: '95814' })]);
    path = `/api/v1/property/address?address=${encodeURIComponent(`5 ${s} AVE`)}&zip=95814`;
    const keys = await ensureDemoAccount(pool, inject('redisUrl'), prefix, join(out, 'demo-api-key'), (l) =>
      logged.push(l),
    );
    apiKey = keys.apiKey;

    supervisor = new Supervisor({
      cwd: root,
      nodeArgs: TELEMETRY_NODE_ARGS,
      log: (l) => logged.push(l),
      stdout: 'ignore',
    });
    system = await startSystem({
      placement: 'processes',
      supervisor,
      ports: await freeSystemPorts(),
      firstInternalPort: 0,
      databaseUrl,
      redisUrl: inject('redisUrl'),
      redisPrefix: prefix,
      gatewayKey: randomBytes(32).toString('hex'),
      adminToken: randomBytes(24).toString('hex'),
      publicBaseUrl: '/api/v1',
      only: ['account-billing', 'lookup', 'gateway'],
      // The standard variables only, as the chart sets them (every request sampled here, where the chart keeps 1 in 10). OTEL_BSP_SCHEDULE_DELAY shortens the span batches'
      // wait, OTEL_METRIC_EXPORT_INTERVAL the metric exports' (60 s by default).
      env: (service) => ({
        OTEL_SERVICE_NAME: service,
        OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
        OTEL_TRACES_SAMPLER: 'parentbased_always_on',
        OTEL_BSP_SCHEDULE_DELAY: '200',
        OTEL_METRIC_EXPORT_INTERVAL: '1000',
        LOG_LEVEL: 'silent',
      }),
      readyTimeoutMs: 90_000,
    });
  }, 180_000);

  afterAll(async () => {
    await supervisor?.stop();
    await pool?.end();
    if (databaseUrl) await dropDatabase(databaseUrl);
    await collector?.stop();
    if (out) rmSync(out, { recursive: true, force: true });
  });

  it('one look-up through the gateway is one trace in the collector: gateway, lookup, and the ledger write', {
    timeout: 60_000,
  }, async () => {
    const res = await fetch(system.gatewayUrl + path, {
      headers: { authorization: `Bearer ${apiKey}`, traceparent: `00-${TRACE_ID}-${CLIENT_SPAN}-01` },
    });
    const body = await res.text();
    expect(res.status, body).toBe(200);
    expect(JSON.parse(body).status.records_returned).toBe(1);

    const isServer = (service: string) => (s: CollectedSpan) => s.service === service && s.kind === 2;
    const spans = await until(
      'the gateway, lookup and ledger-write spans of the trace',
      30_000,
      () => readSpans(join(out, 'traces.jsonl')).filter((s) => s.traceId === TRACE_ID),
      (t) =>
        t.some(isServer('gateway')) &&
        t.some(isServer('lookup')) &&
        t.some((s) => s.service === 'account-billing' && s.name === 'usage ledger write'),
      collectorAlive,
    );
    const listing = spans.map((s) => `${s.service} | ${s.scope} | ${s.name}`).join('\n');
    expect(new Set(spans.map((s) => s.service)), listing).toEqual(new Set(['gateway', 'lookup', 'account-billing']));

    // One tree: the gateway's server span hangs from the client's span, every other span from a span of the trace.
    const ids = new Set(spans.map((s) => s.spanId));
    const roots = spans.filter((s) => !ids.has(s.parentSpanId));
    expect(
      roots.map((s) => [s.service, s.name, s.parentSpanId]),
      listing,
    ).toEqual([['gateway', 'GET /api/v1/property/address', CLIENT_SPAN]]);
    const byId = new Map(spans.map((s) => [s.spanId, s]));
    const parentOf = (s: CollectedSpan) => byId.get(s.parentSpanId);

    // The gateway: its plugin's span and its upstream (client) span, under which the lookup's server span runs.
    expect(
      spans.some((s) => s.service === 'gateway' && s.name === 'pra-gateway access'),
      listing,
    ).toBe(true);
    const lookup = spans.find(isServer('lookup'))!;
    expect(lookup.name).toBe('GET /api/v1/property/address');
    expect(parentOf(lookup)).toMatchObject({ service: 'gateway', name: 'proxy lookup', kind: 3 });
    expect(lookup.attributes).toMatchObject({
      'pra.endpoint': '/property/address',
      'pra.records.returned': 1,
      'pra.credits.charged': 1,
      'pra.truncated': false,
    });
    // The lookup's store calls, as spans of their instrumentations.
    const scopes = new Set(spans.filter((s) => s.service === 'lookup').map((s) => s.scope));
    expect(scopes, listing).toContain('@opentelemetry/instrumentation-pg');
    expect(scopes, listing).toContain('@opentelemetry/instrumentation-ioredis');

    // account-billing's ledger writer continues the trace under the span that charged, and its write is traced.
    const write = spans.find((s) => s.service === 'account-billing' && s.name === 'usage ledger write')!;
    expect(parentOf(write)?.spanId).toBe(lookup.spanId);
    expect(write.attributes['pra.usage.batch.size']).toBeGreaterThanOrEqual(1);
    expect(write.links.map((l) => l.traceId)).toContain(TRACE_ID);
  });

  it('the services’ metrics arrive too: request durations, credits charged, the usage pipeline', {
    timeout: 60_000,
  }, async () => {
    // A charged look-up of its own (the metrics are cumulative: the trace test's, if it ran, counts too).
    const res = await fetch(system.gatewayUrl + path, { headers: { authorization: `Bearer ${apiKey}` } });
    expect(res.status, await res.text()).toBe(200);
    const has = (points: CollectedPoint[], service: string, metric: string, match: (p: CollectedPoint) => boolean) =>
      points.some((p) => p.service === service && p.metric === metric && match(p));
    const lookupRequest = (p: CollectedPoint) =>
      p.type === 'histogram' &&
      p.attributes['http.route'] === '/api/v1/property/address' &&
      p.attributes['http.response.status_code'] === 200 &&
      p.value >= 1;
    const charged = (p: CollectedPoint) =>
      p.type === 'sum' && p.attributes.endpoint === '/property/address' && p.value >= 1;
    const points = await until(
      'the metrics of lookup, the gateway and account-billing',
      // Exported every second (OTEL_METRIC_EXPORT_INTERVAL): far less than this unless the variable is ignored.
      30_000,
      () => readMetricPoints(join(out, 'metrics.jsonl')),
      (m) =>
        has(m, 'lookup', 'pra.http.server.request.duration', lookupRequest) &&
        has(m, 'lookup', 'pra.billing.credits.charged', charged) &&
        has(m, 'gateway', 'pra.http.server.request.duration', () => true) &&
        has(m, 'account-billing', 'pra.usage.lag', () => true),
      collectorAlive,
    );
    const names = (service: string) => new Set(points.filter((p) => p.service === service).map((p) => p.metric));
    // The gauges the alerts watch (pra_usage_lag, pra_usage_pending, pra_usage_outbox_length, pra_billing_loaded
    // once Prometheus names them), and CPU and memory for every process.
    for (const n of ['pra.usage.lag', 'pra.usage.pending', 'pra.usage.outbox.length', 'pra.billing.loaded'])
      expect(names('account-billing'), n).toContain(n);
    for (const service of ['gateway', 'lookup', 'account-billing'])
      for (const n of ['process.cpu.time', 'process.memory.usage'])
        expect(names(service), `${service} ${n}`).toContain(n);
  });
});
