// The realistic mixed workload through the gateway at a constant arrival rate (RATE iterations/s, DURATION).
import { provisioned, DURATION } from '../lib/config.ts';
import { mixedIteration } from '../lib/workload.ts';
import { summarize } from '../lib/summary.ts';

export const options = {
  scenarios: {
    mixed: {
      executor: 'constant-arrival-rate',
      rate: Number(__ENV.RATE ?? 30),
      timeUnit: '1s',
      duration: DURATION || '2m',
      preAllocatedVUs: 20,
      maxVUs: 200,
    },
  },
  summaryTrendStats: ['avg', 'min', 'med', 'max', 'p(95)', 'p(99)'],
  thresholds: {
    http_req_failed: ['rate<0.01'],
    checks: ['rate>0.99'],
    'http_req_duration{name:property/address}': ['p(95)<800', 'p(99)<2000'],
    'http_req_duration{name:property/autocomplete}': ['p(95)<300', 'p(99)<1000'],
    typeahead_found: ['rate>0.9'],
  },
};

export default function (): void {
  mixedIteration(provisioned.main!.key);
}

export const handleSummary = summarize('mixed');
