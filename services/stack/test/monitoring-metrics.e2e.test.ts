// The alerts (charts/property-api/files/alerts.rules.yaml) and the dashboard (files/dashboard.json) watch only metrics
// the services really export: the system runs with telemetry started as in production (metrics only), serves a
// charged look-up and a 402 through the local gateway, the usage pipeline writes the charge, and the
// internal server's /metrics (on port 0) is scraped. Every metric name in every rule expression and panel query
// must be in that scrape (a typo, or a metric renamed in the code, fails here).
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { startInternalServer, startTelemetry } from '@pra/platform/telemetry';

const telemetry = startTelemetry({ env: { OTEL_SERVICE_NAME: 'monitoring-test' } });

const { createPool } = await import('@pra/platform');
const { billingFixture } = await import('@pra/account-billing/testing');
const { UsagePipeline } = await import('@pra/account-billing/pipeline');
const { insertProperties, makeProperty, uniqueStreet } = await import('@pra/ingest/testing');
const { startSystem } = await import('../src/system.js');

const CHART_FILES = fileURLToPath(new URL('../../../charts/property-api/files/', import.meta.url));

/** The metric names a PromQL expression reads (label matchers, ranges, strings, functions and clauses set aside). */
function metricNames(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ')
    .replace(/\$\w+/g, ' ');
  const keywords = new Set(['and', 'or', 'unless', 'bool', 'offset', 'by', 'without', 'on', 'ignoring', 'inf', 'nan']);
  const names = new Set<string>();
  for (const m of bare.matchAll(/(?<![\w.])([a-zA-Z_:][\w:]*)\s*(\()?/g))
    if (!m[2] && !keywords.has(m[1]!.toLowerCase())) names.add(m[1]!);
  return [...names];
}

let pool: ReturnType<typeof createPool>;
let f: Awaited<ReturnType<typeof billingFixture>>;
let system: Awaited<ReturnType<typeof startSystem>>;
let pipeline: InstanceType<typeof UsagePipeline>;
let metricsUrl: string;
let close: () => void;

beforeAll(async () => {
  pool = createPool(inject('databaseUrl'), 4);
  f = await billingFixture(pool, inject('redisUrl'), `${inject('redisPrefix')}mon${randomBytes(3).toString('hex')}:`);
  pipeline = new UsagePipeline({
    pool,
    redisUrl: inject('redisUrl'),
    layout: f.layout,
    log: () => {},
    roles: { ledgerWriter: true, maintenance: false },
  });
  await pipeline.start();
  system = await startSystem({
    placement: 'in-process',
    pool,
    billing: f,
    gatewayKey: `hmac-${randomBytes(8).toString('hex')}`,
    only: ['lookup'],
  });
  const internal = await startInternalServer({ port: 0, host: '127.0.0.1' });
  metricsUrl = `http://127.0.0.1:${(internal.address() as AddressInfo).port}/metrics`;
  close = () => internal.close();
});
afterAll(async () => {
  close?.();
  await system?.stop();
  await pipeline?.stop();
  await f?.close();
  await pool?.end();
  await telemetry.shutdown();
});

describe('alerts and dashboard name exported metrics', () => {
  let exported: Set<string>;

  it('a real scrape after a charged look-up and a 402 holds the metrics the alerts and the dashboard read', async () => {
    const s = uniqueStreet();
    await insertProperties(pool, [makeProperty({ line1: `9 ${s} AVE`, zip: '95814' })]);
    const path = `/api/v1/property/address?address=${encodeURIComponent(`9 ${s} AVE`)}&zip=95814`;
    const a = await f.fundedAccount(1);
    const statuses: number[] = [];
    for (let i = 0; i < 2; i++) {
      const res = await fetch(system.gatewayUrl + path, { headers: { authorization: `Bearer ${a.key}` } });
      statuses.push(res.status);
      await res.text();
    }
    expect(statuses).toEqual([200, 402]);
    await pipeline.drained(f.redis);

    const res = await fetch(metricsUrl);
    expect(res.status).toBe(200);
    const text = await res.text();
    exported = new Set(
      text
        .split('\n')
        .filter((l) => l && !l.startsWith('#'))
        .map((l) => l.split(/[{\s]/)[0]!),
    );
    for (const name of [
      'pra_http_server_request_duration_bucket',
      'pra_http_server_request_duration_count',
      'pra_billing_credits_charged_total',
      'pra_usage_lag',
      'pra_usage_pending',
      'pra_usage_outbox_length',
      'pra_usage_dead_letters',
      'pra_billing_loaded',
      'process_cpu_time_total',
      'process_memory_usage',
      'target_info',
    ])
      expect(exported, name).toContain(name);
    // The service name the dashboard groups CPU by (joined from target_info).
    expect(text).toMatch(/^target_info\{[^}]*service_name="monitoring-test"/m);
  });

  it('every alert expression names only exported metrics', () => {
    const rules = parseYaml(readFileSync(`${CHART_FILES}alerts.rules.yaml`, 'utf8')) as {
      groups: { rules: { alert: string; expr: string }[] }[];
    };
    const all = rules.groups.flatMap((g) => g.rules);
    expect(all.length).toBeGreaterThan(0);
    for (const r of all) {
      const names = metricNames(r.expr);
      expect(names.length, r.alert).toBeGreaterThan(0);
      for (const n of names) expect(exported, `${r.alert}: ${n}`).toContain(n);
    }
  });

  it('every dashboard panel query names only exported metrics', () => {
    const dashboard = JSON.parse(readFileSync(`${CHART_FILES}dashboard.json`, 'utf8')) as {
      panels: { title: string; targets: { expr: string }[] }[];
    };
    const exprs = dashboard.panels.flatMap((p) => p.targets.map((t) => [p.title, t.expr] as const));
    expect(exprs.length).toBeGreaterThan(0);
    for (const [title, expr] of exprs) {
      const names = metricNames(expr);
      expect(names.length, title).toBeGreaterThan(0);
      for (const n of names) expect(exported, `${title}: ${n}`).toContain(n);
    }
  });

  it('the expression reader finds a misspelt metric', () => {
    expect(
      metricNames(
        'sum by (le, http_route) (rate(pra_http_server_request_duration_buckets{http_route=~"/x"}[5m])) * on (job) group_left (service_name) target_info > 0.25',
      ).sort(),
    ).toEqual(['pra_http_server_request_duration_buckets', 'target_info']);
  });
});
