// Rate-limit accuracy per tier: each tier's account sends three times its per-minute limit within 30 s (inside one
// rolling minute). Exactly the limit must be admitted, every other call refused with 429 and its headers.
import { check } from 'k6';
import http from 'k6/http';
import { Counter } from 'k6/metrics';
import { API, provisioned } from '../lib/config.ts';
import { summarize } from '../lib/summary.ts';
import type { Account } from '../lib/types.ts';

// 429 is the answer this scenario provokes, not a failure.
http.setResponseCallback(http.expectedStatuses(200, 429));

const admitted = new Counter('admitted');
const refused = new Counter('refused');
const tiers: Account[] = provisioned.tiers ?? [];
const WINDOW_S = 30;

export const options = {
  scenarios: Object.fromEntries(
    tiers.map((a) => [
      a.tier,
      {
        executor: 'shared-iterations',
        vus: Math.min(20, a.ratePerMinute),
        iterations: a.ratePerMinute * 3,
        maxDuration: `${WINDOW_S}s`,
        exec: 'call',
        env: { TIER: a.tier },
      },
    ]),
  ),
  summaryTrendStats: ['avg', 'min', 'med', 'max', 'p(95)', 'p(99)'],
  thresholds: Object.fromEntries([
    ['http_req_failed', ['rate==0']],
    ...tiers.flatMap((a) => [
      [`admitted{tier:${a.tier}}`, [`count==${a.ratePerMinute}`]],
      [`refused{tier:${a.tier}}`, [`count==${a.ratePerMinute * 2}`]],
    ]),
  ]),
};

export function call(): void {
  const account = tiers.find((a) => a.tier === __ENV.TIER)!;
  const res = http.get(`${API}/usage`, {
    headers: { Authorization: `Bearer ${account.key}` },
    tags: { name: 'usage', tier: account.tier },
  });
  if (res.status === 200) admitted.add(1, { tier: account.tier });
  else if (res.status === 429) refused.add(1, { tier: account.tier });
  check(res, {
    '200 or 429': (r) => r.status === 200 || r.status === 429,
    '429 carries Retry-After and RateLimit-*': (r) =>
      r.status !== 429 ||
      (Number(r.headers['Retry-After']) > 0 && r.headers['Ratelimit-Limit'] === String(account.ratePerMinute)),
  });
}

export const handleSummary = summarize('rate-limit');
