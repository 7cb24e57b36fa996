// The alerts and the dashboard: charts/property-api/files/alerts.rules.yaml checked and unit-tested by promtool
// (observability/alerts.test.yaml: every alert fires on the series it names and stays quiet just short of them), and
// the chart's monitoring values render the same rules as a PrometheusRule and the dashboard in a ConfigMap for
// Grafana's sidecar. That every query names a metric the services export is checked against a real scrape in
// services/stack/test/monitoring-metrics.e2e.test.ts.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { CHART, findHelm, render, type K8sObject } from './helm.js';
import { schemaProblems } from './kube-schemas.js';
import { findGoBinary } from '@pra/platform/testing';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const RULES_FILE = join(CHART, 'files', 'alerts.rules.yaml');
const DASHBOARD_FILE = join(CHART, 'files', 'dashboard.json');
const RULES_TEST = join(ROOT, 'observability', 'alerts.test.yaml');
/** The promtool .ci/run installs (go install github.com/prometheus/prometheus/cmd/promtool@PROMTOOL_VERSION). */
const PROMTOOL_VERSION = 'v0.316.0';

const promtool = findGoBinary('promtool', 'PROMTOOL');
if (!promtool)
  console.log(
    `[alerts] SKIP: promtool not installed (go install github.com/prometheus/prometheus/cmd/promtool@${PROMTOOL_VERSION})`,
  );
const helmBin = findHelm();

type Rule = { alert: string; expr: string; for?: string; labels?: Record<string, string> };
const rules = parseYaml(readFileSync(RULES_FILE, 'utf8')) as { groups: { name: string; rules: Rule[] }[] };
const alerts = rules.groups.flatMap((g) => g.rules);

describe('alert rules', () => {
  it('covers what must wake someone, each alert paging', () => {
    const names = alerts.map((r) => r.alert);
    expect(names).toEqual(
      expect.arrayContaining([
        'PraUsageLagHigh',
        'PraUsagePendingStuck',
        'PraUsageOutboxNearBound',
        'PraUsageDeadLetter',
        'PraBillingReloadTooLong',
        'PraHttp5xxRateHigh',
        'PraHttp503RateHigh',
        'PraLookupLatencyP99OverSlo',
        'PraWebhooksDispatchStalled',
        'PraWebhooksOwedHigh',
      ]),
    );
    expect(new Set(names).size).toBe(names.length);
    for (const r of alerts) expect(r.labels?.severity, r.alert).toBe('page');
  });

  it('has a promtool unit test that fires each alert and one that keeps it quiet', () => {
    const tests = parseYaml(readFileSync(RULES_TEST, 'utf8')) as {
      rule_files: string[];
      tests: { alert_rule_test: { alertname: string; exp_alerts: unknown[] }[] }[];
    };
    expect(tests.rule_files.map((f) => join(ROOT, 'observability', f))).toEqual([RULES_FILE]);
    const cases = tests.tests.flatMap((t) => t.alert_rule_test);
    for (const { alert } of alerts) {
      const mine = cases.filter((c) => c.alertname === alert);
      expect(
        mine.some((c) => c.exp_alerts.length > 0),
        `${alert}: a case where it fires`,
      ).toBe(true);
      expect(
        mine.some((c) => c.exp_alerts.length === 0),
        `${alert}: a case where it does not`,
      ).toBe(true);
    }
  });

  it.skipIf(!promtool)('promtool check rules accepts the file', () => {
    const r = spawnSync(promtool!, ['check', 'rules', RULES_FILE], { encoding: 'utf8' });
    expect(r.status, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain(`${alerts.length} rules found`);
  });

  it.skipIf(!promtool)('promtool test rules: every unit test passes', () => {
    const r = spawnSync(promtool!, ['test', 'rules', RULES_TEST], { encoding: 'utf8', cwd: ROOT });
    expect(r.status, r.stdout + r.stderr).toBe(0);
    expect(r.stdout + r.stderr).toContain('SUCCESS');
  });
});

describe('dashboard', () => {
  const dashboard = JSON.parse(readFileSync(DASHBOARD_FILE, 'utf8')) as {
    uid: string;
    panels: { title: string; targets: { expr: string }[] }[];
  };
  it('has the request rate, latency, credits charged, pipeline lag and per-service CPU, each with a query', () => {
    const text = (title: RegExp) => dashboard.panels.filter((p) => title.test(p.title)).flatMap((p) => p.targets);
    expect(text(/request rate/i)[0]?.expr).toContain('pra_http_server_request_duration_count');
    expect(text(/latency/i).map((t) => t.expr)).toEqual([
      expect.stringMatching(/histogram_quantile\(0\.5,.*pra_http_server_request_duration_bucket/),
      expect.stringMatching(/histogram_quantile\(0\.99,.*pra_http_server_request_duration_bucket/),
    ]);
    expect(text(/credits charged/i)[0]?.expr).toContain('pra_billing_credits_charged_total');
    expect(text(/lag/i)[0]?.expr).toContain('pra_usage_lag');
    expect(text(/CPU per service/)[0]?.expr).toMatch(/process_cpu_time_total.*group_left \(service_name\) target_info/);
    for (const p of dashboard.panels) expect(p.targets.length, p.title).toBeGreaterThan(0);
  });
});

describe.skipIf(!helmBin)('chart: monitoring values', () => {
  const enabled = ['--set', 'monitoring.prometheusRule.enabled=true', '--set', 'monitoring.dashboard.enabled=true'];
  const find = (objs: K8sObject[], kind: string) =>
    objs.filter((o) => o.kind === kind && /alerts|dashboard/.test(o.metadata.name));

  it('renders neither by default', () => {
    const objs = render(helmBin!);
    expect(objs.filter((o) => o.kind === 'PrometheusRule')).toEqual([]);
    expect(objs.filter((o) => o.metadata.labels?.grafana_dashboard)).toEqual([]);
  });

  it('renders the rules file as a PrometheusRule, unchanged, with the labels asked for', () => {
    const objs = render(helmBin!, undefined, [...enabled, '--set', 'monitoring.prometheusRule.labels.release=kps']);
    const [rule, ...more] = find(objs, 'PrometheusRule');
    expect(more).toEqual([]);
    expect(rule).toMatchObject({
      apiVersion: 'monitoring.coreos.com/v1',
      metadata: { name: 'pra-property-api-alerts', labels: { release: 'kps' } },
    });
    expect(rule!.spec).toEqual(rules);
  });

  it('renders the dashboard in a ConfigMap labelled for the Grafana sidecar, valid for Kubernetes', () => {
    const objs = render(helmBin!, undefined, [
      ...enabled,
      '--set',
      'monitoring.dashboard.annotations.grafana_folder=Property API',
    ]);
    const [cm, ...more] = find(objs, 'ConfigMap');
    expect(more).toEqual([]);
    expect(cm!.metadata.labels).toMatchObject({ grafana_dashboard: '1' });
    expect(cm!.metadata.annotations).toEqual({ grafana_folder: 'Property API' });
    expect(JSON.parse(cm!.data['property-api.json'])).toEqual(JSON.parse(readFileSync(DASHBOARD_FILE, 'utf8')));
    expect(schemaProblems(cm!)).toBe('');
  });

  it('refuses unknown monitoring values', () => {
    const r = spawnSync(
      helmBin!,
      ['template', 'pra', CHART, '--kube-version', '1.31.0', '--set', 'monitoring.dashboard.enable=true'],
      { encoding: 'utf8' },
    );
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/enable/);
  });
});
