// The alerts (charts/property-api/files/alerts.rules.yaml) and the dashboard (files/dashboard.json) watch only metrics
// the services really export: the system runs with telemetry started as in production (metrics only), serves a
// charged look-up and a 402 through the local gateway, the usage pipeline writes the charge, and the
// internal server's /metrics (on port 0) is scraped. Every metric name in every rule expression and panel query
// must be in that scrape (a typo, or a metric renamed in the code, fails here).
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { startInternalServer, startTelemetry } from '@pra/platform/telemetry';
import { findGoBinary, freePort } from '@pra/platform/testing';

const telemetry = startTelemetry({ env: { OTEL_SERVICE_NAME: 'monitoring-test' } });

const { createPool } = await import('@pra/platform');
const { billingFixture } = await import('@pra/account-billing/testing');
const { UsagePipeline } = await import('@pra/account-billing/pipeline');
const { insertProperties, makeProperty, uniqueStreet } = await import('@pra/ingest/testing');
const { startSystem } = await import('../src/system.js');
const { dropDatabase, ensureDatabase, withDatabase } = await import('@pra/platform');
const { migrateAll } = await import('../src/migrate-all.js');
const { observeWebhookBacklog } = await import('@pra/webhooks/backlog-gauges');
const { startInProcessLookup } = await import('./in-process-lookup.js');

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
let lookup: Awaited<ReturnType<typeof startInProcessLookup>>;
let metricsUrl: string;
let close: () => void;
/** The webhook worker's gauges, on a database of this test's own (nothing owed, nothing to dispatch). */
let webhooks: { pool: ReturnType<typeof createPool>; url: string; stop: () => void } | undefined;

beforeAll(async () => {
  lookup = await startInProcessLookup('mon', { gatewayKey: `hmac-${randomBytes(8).toString('hex')}` });
  ({ pool, f, pipeline, system } = lookup);
  const base = inject('databaseUrl');
  const whUrl = withDatabase(base, `${new URL(base).pathname.slice(1)}_monitoring_wh`);
  await ensureDatabase(whUrl);
  const whPool = createPool(whUrl, 2, 'monitoring-webhooks');
  await migrateAll(whPool, () => {});
  webhooks = { pool: whPool, url: whUrl, stop: observeWebhookBacklog(whPool) };
  const internal = await startInternalServer({ port: 0, host: '127.0.0.1' });
  metricsUrl = `http://127.0.0.1:${(internal.address() as AddressInfo).port}/metrics`;
  close = () => internal.close();
});
afterAll(async () => {
  close?.();
  if (webhooks) {
    webhooks.stop();
    await webhooks.pool.end();
    await dropDatabase(webhooks.url);
  }
  await lookup?.stop();
  await telemetry.shutdown();
});

let exported = new Set<string>();

describe('alerts and dashboard name exported metrics', () => {
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
      'pra_webhooks_owed',
      'pra_webhooks_dispatch_lag',
      'pra_webhooks_dispatch_idle',
      'process_cpu_time_total',
      'process_memory_usage',
      'target_info',
    ])
      expect(exported, name).toContain(name);
    // The 402 is counted (it is refused by the pre-check, before any store read).
    expect(text).toMatch(/^pra_requests_refused_total\{[^}]*reason="credits"[^}]*\} [1-9]/m);
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

// A real Prometheus (go install github.com/prometheus/prometheus/cmd/prometheus@v0.316.0), when one is installed:
// it scrapes the same /metrics, loads the rules file, evaluates every rule without error, and answers every
// dashboard query from what it scraped.
const PROMETHEUS_VERSION = 'v0.316.0';
const prometheusBin = findGoBinary('prometheus', 'PROMETHEUS');
if (!prometheusBin)
  console.log(
    `[alerts] SKIP: prometheus not installed, the real scrape is skipped (go install github.com/prometheus/prometheus/cmd/prometheus@${PROMETHEUS_VERSION})`,
  );

describe.skipIf(!prometheusBin)('a real Prometheus scraping the running system', () => {
  let prom: ChildProcess;
  let promUrl: string;
  let dir: string;
  const output: string[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'pra-prometheus-'));
    const target = new URL(metricsUrl).host;
    writeFileSync(
      join(dir, 'prometheus.yml'),
      [
        'global: { scrape_interval: 1s, evaluation_interval: 1s }',
        `rule_files: [${JSON.stringify(`${CHART_FILES}alerts.rules.yaml`)}]`,
        'scrape_configs:',
        '  - job_name: property-api',
        `    static_configs: [{ targets: [${JSON.stringify(target)}] }]`,
      ].join('\n'),
    );
    const port = await freePort();
    promUrl = `http://127.0.0.1:${port}`;
    prom = spawn(
      prometheusBin!,
      [
        `--config.file=${join(dir, 'prometheus.yml')}`,
        `--storage.tsdb.path=${join(dir, 'data')}`,
        `--web.listen-address=127.0.0.1:${port}`,
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    prom.stdout!.on('data', (d) => output.push(String(d)));
    prom.stderr!.on('data', (d) => output.push(String(d)));
  });
  afterAll(async () => {
    if (prom && prom.exitCode === null) {
      const exited = new Promise((r) => prom.once('exit', r));
      prom.kill('SIGTERM');
      await exited;
    }
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const api = async (path: string): Promise<{ status: string; data: any; error?: string }> => {
    const res = await fetch(promUrl + path);
    return (await res.json()) as { status: string; data: any; error?: string };
  };
  /** Polls until check passes (the scrape and the rule evaluations run every second); the test timeout is the bound. */
  async function eventually<T>(get: () => Promise<T>, ok: (v: T) => boolean): Promise<T> {
    for (;;) {
      const v = await get().catch(() => undefined);
      if (v !== undefined && ok(v)) return v;
      if (prom.exitCode !== null) throw new Error(`prometheus exited ${prom.exitCode}:\n${output.join('')}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }

  it('scrapes the system, and every metric the alerts and the dashboard read is stored', {
    timeout: 60_000,
  }, async () => {
    await eventually(
      () => api('/api/v1/query?query=up'),
      (r) => r.data?.result?.[0]?.value?.[1] === '1',
    );
    const names = await eventually(
      () => api('/api/v1/label/__name__/values'),
      (r) => r.status === 'success' && r.data.includes('pra_usage_lag'),
    );
    for (const n of [...exported].filter((n) => /^(pra_|process_|target_info)/.test(n)))
      expect(names.data, n).toContain(n);
  });

  it('loads every rule and evaluates each without error', { timeout: 60_000 }, async () => {
    const rules = await eventually(
      () => api('/api/v1/rules'),
      (r) =>
        r.status === 'success' &&
        r.data.groups
          .flatMap((g: any) => g.rules)
          .every((x: any) => x.lastEvaluation && !x.lastEvaluation.startsWith('0001')),
    );
    const all = rules.data.groups.flatMap((g: any) => g.rules) as {
      name: string;
      health: string;
      lastError?: string;
    }[];
    expect(all.map((r) => r.name).sort()).toEqual(
      parseYaml(readFileSync(`${CHART_FILES}alerts.rules.yaml`, 'utf8'))
        .groups.flatMap((g: { rules: { alert: string }[] }) => g.rules.map((r) => r.alert))
        .sort(),
    );
    for (const r of all)
      expect({ name: r.name, health: r.health, lastError: r.lastError ?? '' }).toEqual({
        name: r.name,
        health: 'ok',
        lastError: '',
      });
    // The system is healthy: no alert fires or is pending (billing loaded, nothing lags, no dead letter). A rule on a
    // series' absence is pending at the evaluations made before the first scrape, until the next one: waited out.
    let firing = await api('/api/v1/alerts');
    for (let i = 0; i < 40 && firing.data.alerts.length > 0; i++) {
      await new Promise((r) => setTimeout(r, 250));
      firing = await api('/api/v1/alerts');
    }
    expect(
      firing.data.alerts.map(
        (a: { labels: { alertname: string }; state: string }) => `${a.labels.alertname} ${a.state}`,
      ),
    ).toEqual([]);
  });

  it('answers every dashboard query with data from the scrape', { timeout: 60_000 }, async () => {
    const dashboard = JSON.parse(readFileSync(`${CHART_FILES}dashboard.json`, 'utf8')) as {
      panels: { title: string; targets: { expr: string }[] }[];
    };
    for (const p of dashboard.panels)
      for (const t of p.targets) {
        const q = encodeURIComponent(t.expr.replaceAll('$__rate_interval', '1m'));
        const r = await api(`/api/v1/query?query=${q}`);
        expect({ title: p.title, status: r.status, error: r.error ?? '' }).toEqual({
          title: p.title,
          status: 'success',
          error: '',
        });
      }
    // The panels that read gauges and the per-service CPU join have series (the others need two scrapes of traffic).
    const cpu = dashboard.panels
      .find((p) => /CPU per service/.test(p.title))!
      .targets[0]!.expr.replaceAll('$__rate_interval', '1m');
    const r = await eventually(
      () => api(`/api/v1/query?query=${encodeURIComponent(cpu)}`),
      (x) => x.data?.result?.length > 0,
    );
    expect(r.data.result[0].metric).toEqual({ service_name: 'monitoring-test' });
  });
});
