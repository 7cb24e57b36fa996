// The end-of-test summary: a short text on stdout, the whole k6 summary as JSON in RESULT_FILE.
import { RESULT_FILE } from './config.ts';

type Metric = { type: string; values: Record<string, number>; thresholds?: Record<string, { ok: boolean }> };
type Data = { metrics: Record<string, Metric>; state: { testRunDurationMs: number } };

export function summarize(scenario: string) {
  return (data: Data): Record<string, string> => {
    const m = data.metrics;
    const d = m.http_req_duration?.values ?? {};
    const lines = [
      `\n${scenario}: ${m.http_reqs?.values.count ?? 0} requests in ${(data.state.testRunDurationMs / 1000).toFixed(1)} s ` +
        `(${(m.http_reqs?.values.rate ?? 0).toFixed(1)}/s), failed ${(100 * (m.http_req_failed?.values.rate ?? 0)).toFixed(2)}%, ` +
        `checks ${(100 * (m.checks?.values.rate ?? 0)).toFixed(2)}%`,
      `  latency ms: p50 ${(d.med ?? 0).toFixed(1)}  p95 ${(d['p(95)'] ?? 0).toFixed(1)}  p99 ${(d['p(99)'] ?? 0).toFixed(1)}  max ${(d.max ?? 0).toFixed(1)}`,
    ];
    for (const [name, metric] of Object.entries(m)) {
      for (const [expr, t] of Object.entries(metric.thresholds ?? {})) {
        const shown =
          metric.type === 'counter'
            ? `count ${metric.values.count}`
            : metric.type === 'rate'
              ? `rate ${metric.values.rate?.toFixed(4)}`
              : metric.type === 'gauge'
                ? `value ${metric.values.value?.toFixed(2)}`
                : metric.type === 'trend' && /^max/.test(expr)
                  ? `max ${metric.values.max?.toFixed(2)}`
                  : '';
        lines.push(`  ${t.ok ? 'PASS' : 'FAIL'}  ${name}: ${expr}  (${shown || 'see JSON'})`);
      }
    }
    const out: Record<string, string> = { stdout: `${lines.join('\n')}\n` };
    if (RESULT_FILE) out[RESULT_FILE] = JSON.stringify(data, null, 2);
    return out;
  };
}
