// Credit exhaustion under concurrency: 20 VUs spend an account of exactly CREDITS credits with address and owner
// lookups (pages of up to 10 records). The records returned across all requests must equal the starting balance
// exactly; afterwards every call is a 402.
import { check } from 'k6';
import http from 'k6/http';
import { Counter, Rate } from 'k6/metrics';
import { API, addresses, owners, pick, provisioned } from '../lib/config.ts';
import { enc } from '../lib/api.ts';
import { summarize } from '../lib/summary.ts';

const account = provisioned.exhaust!;
const recordsReturned = new Counter('records_returned');
const paymentRequired = new Counter('payment_required');
const after402 = new Rate('after_exhaustion_402');

export const options = {
  scenarios: {
    spend: { executor: 'constant-vus', vus: 20, duration: __ENV.DURATION || '20s', exec: 'spend', gracefulStop: '5s' },
    // Starts once the balance is long gone: every call must now be refused.
    after: {
      executor: 'per-vu-iterations',
      vus: 5,
      iterations: 4,
      startTime: __ENV.AFTER_START || '26s',
      exec: 'after',
    },
  },
  summaryTrendStats: ['avg', 'min', 'med', 'max', 'p(95)', 'p(99)'],
  thresholds: {
    records_returned: [`count==${account.credits}`],
    payment_required: ['count>0'],
    after_exhaustion_402: ['rate==1'],
    'checks{check:no 5xx}': ['rate==1'],
  },
};

function lookup(): ReturnType<typeof http.get> {
  const path =
    Math.random() < 0.5
      ? (() => {
          const a = pick(addresses);
          return `/property/address?address=${enc(a.line1)}&zip=${a.zip}`;
        })()
      : (() => {
          const o = pick(owners);
          return `/property/owner?lastName=${enc(o.lastName)}&state=${o.state}&pagesize=10`;
        })();
  return http.get(`${API}${path}`, {
    headers: { Authorization: `Bearer ${account.key}` },
    tags: { name: path.split('?')[0]! },
  });
}

export function spend(): void {
  const res = lookup();
  check(res, { 'no 5xx': (r) => r.status < 500 });
  if (res.status === 200) {
    const status = (res.json() as { status: { records_returned: number } }).status;
    recordsReturned.add(status.records_returned);
  } else if (res.status === 402) {
    paymentRequired.add(1);
  }
}

export function after(): void {
  const res = lookup();
  check(res, { 'no 5xx': (r) => r.status < 500 });
  after402.add(res.status === 402 || res.status === 404);
}

export const handleSummary = summarize('credit-exhaustion');
