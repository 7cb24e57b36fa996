// Soak: the mixed workload at a steady RATE for DURATION (default 10 minutes). Fails when the error rate of the
// last third exceeds 1% (creep), or when a watched process's resident memory grows more than MAX_GROWTH_PCT (25)
// between the end of the first sixth (warm) and the end of the run.
import http from 'k6/http';
import { sleep } from 'k6';
import exec from 'k6/execution';
import { Counter, Trend } from 'k6/metrics';
import { tagErrors } from '../lib/api.ts';
import { DURATION, METRICS_URLS, provisioned } from '../lib/config.ts';
import { mixedIteration } from '../lib/workload.ts';
import { summarize } from '../lib/summary.ts';

const duration = DURATION || '10m';
const seconds = (d: string) =>
  Number(/^(\d+)/.exec(d)![1]) * ({ s: 1, m: 60, h: 3600 }[d.replace(/^\d+/, '') as 's' | 'm' | 'h'] ?? 1);
const total = seconds(duration);
/** Growth of each watched process's RSS over its warm baseline, every sample: its max is the worst process. */
const growth = new Trend('memory_growth_pct');
const samples = new Counter('memory_samples');

export const options = {
  scenarios: {
    soak: {
      executor: 'constant-arrival-rate',
      rate: Number(__ENV.RATE ?? 20),
      timeUnit: '1s',
      duration,
      preAllocatedVUs: 20,
      maxVUs: 200,
      exec: 'work',
    },
    ...(METRICS_URLS.length ? { memory: { executor: 'constant-vus', vus: 1, duration, exec: 'watch' } } : {}),
  },
  summaryTrendStats: ['avg', 'min', 'med', 'max', 'p(95)', 'p(99)'],
  thresholds: {
    'errors{phase:early}': ['rate<0.01'],
    'errors{phase:late}': ['rate<0.01'],
    http_req_failed: ['rate<0.01'],
    // Memory is watched only if it could be read: no sample fails the run rather than passing it blind.
    ...(METRICS_URLS.length
      ? { memory_growth_pct: [`max<${Number(__ENV.MAX_GROWTH_PCT ?? 25)}`], memory_samples: ['count>0'] }
      : {}),
  },
};

function phase(): string {
  const t = exec.instance.currentTestRunDuration / 1000;
  return t < total / 3 ? 'early' : t > (2 * total) / 3 ? 'late' : 'middle';
}

tagErrors(() => ({ phase: phase() }));

export function work(): void {
  mixedIteration(provisioned.main!.key);
}

function rss(url: string): number | null {
  const res = http.get(url, { tags: { name: 'metrics scrape' } });
  const m = /^process_memory_usage(?:_bytes)?(?:\{[^}]*\})? ([0-9.e+]+)/m.exec(String(res.body));
  return m ? Number(m[1]) : null;
}

const baseline: Record<string, number> = {};
export function watch(): void {
  const t = exec.instance.currentTestRunDuration / 1000;
  for (const url of METRICS_URLS) {
    const value = rss(url);
    if (value === null) continue;
    samples.add(1, { url });
    if (t >= total / 6 && baseline[url] === undefined) baseline[url] = value;
    if (baseline[url] !== undefined) growth.add((100 * (value - baseline[url]!)) / baseline[url]!, { url });
  }
  sleep(10);
}

export const handleSummary = summarize('soak');
