// CI's smoke run (20 s): every endpoint through the gateway, every check must pass.
import { check } from 'k6';
import http from 'k6/http';
import { API, BASE_URL, DURATION, provisioned } from '../lib/config.ts';
import {
  addressLookup,
  batchLookup,
  costPreview,
  history,
  ownerLookup,
  parcelLookup,
  radiusSearch,
  typeahead,
  usage,
} from '../lib/workload.ts';
import { summarize } from '../lib/summary.ts';

export const options = {
  scenarios: { smoke: { executor: 'constant-vus', vus: 2, duration: DURATION || '20s' } },
  summaryTrendStats: ['avg', 'min', 'med', 'max', 'p(95)', 'p(99)'],
  thresholds: {
    checks: ['rate==1'],
    http_req_failed: ['rate==0'],
    typeahead_found: ['rate>0.9'],
  },
};

export default function (): void {
  const key = provisioned.main!.key;
  check(http.get(`${API}/health`, { tags: { name: 'health' } }), { 'health 200': (r) => r.status === 200 });
  check(http.get(`${API}/plans`, { tags: { name: 'plans' } }), { 'plans 200': (r) => r.status === 200 });
  check(http.get(`${BASE_URL}/openapi.yaml`, { tags: { name: 'openapi' } }), {
    'openapi 200': (r) => r.status === 200 && String(r.body).startsWith('openapi'),
  });
  const bad = http.get(`${API}/property/address?address=1%20Main%20St`, {
    headers: { Authorization: `Bearer ${key}` },
    tags: { name: 'bad request' },
    responseCallback: http.expectedStatuses(400),
  });
  check(bad, {
    'a query without city/state or zip is a 400 naming the parameter': (r) =>
      r.status === 400 && String(r.body).includes("'city'"),
  });
  addressLookup(key);
  batchLookup(key);
  ownerLookup(key);
  costPreview(key);
  radiusSearch(key);
  parcelLookup(key);
  history(key, 'sale/history');
  history(key, 'assessment/detail');
  typeahead(key);
  usage(key);
}

export const handleSummary = summarize('smoke');
