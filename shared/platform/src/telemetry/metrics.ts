// The instruments SREs read, made on first use from the global meter (no-ops when telemetry was not started).
// Names follow OpenTelemetry's conventions; the Prometheus endpoint shows them with `_` and unit suffixes.
import { metrics, type Attributes, type Counter, type Histogram, type ObservableResult } from '@opentelemetry/api';

const meter = () => metrics.getMeter('property-api');
const once = <T>(make: () => T) => {
  let made: T | undefined;
  return () => (made ??= make());
};

const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

const requestDuration = once<Histogram>(() =>
  meter().createHistogram('pra.http.server.request.duration', {
    description: 'Requests answered, by route and status: rate, errors and duration',
    unit: 's',
    advice: { explicitBucketBoundaries: LATENCY_BUCKETS },
  }),
);
const creditsCharged = once<Counter>(() =>
  meter().createCounter('pra.billing.credits.charged', {
    description: 'Credits charged (one per record returned)',
    unit: '{credit}',
  }),
);
const refusals = once<Counter>(() =>
  meter().createCounter('pra.requests.refused', {
    description: 'Requests refused for credits (402) or rate limits (429)',
    unit: '{request}',
  }),
);
const truncations = once<Counter>(() =>
  meter().createCounter('pra.billing.truncations', {
    description: 'Pages cut short because the balance ran out',
    unit: '{request}',
  }),
);
const searchDuration = once<Histogram>(() =>
  meter().createHistogram('pra.autocomplete.search.duration', {
    description: 'Time the type-ahead index took to answer',
    unit: 's',
    advice: { explicitBucketBoundaries: LATENCY_BUCKETS },
  }),
);
const keyCacheLookups = once<Counter>(() =>
  meter().createCounter('pra.keycache.lookups', {
    description:
      'API key lookups by where they were answered: local (in-process), redis (the entry), negative (the negative cache), resolved (asked of account-billing), miss (unknown in a loaded cache, no lookup configured)',
    unit: '{lookup}',
  }),
);
const keyResolveFailures = once<Counter>(() =>
  meter().createCounter('pra.keycache.resolve.failures', {
    description:
      'Key lookups through account-billing that gave no answer (a 503), by reason (unreachable, timeout, status, bad-answer, bounded) and status',
    unit: '{lookup}',
  }),
);
const reconcileRepairs = once<Counter>(() =>
  meter().createCounter('pra.billing.reconcile.repairs', {
    description: 'Grants whose Redis balance reconciliation corrected',
    unit: '{grant}',
  }),
);
const reconcileDrift = once<Histogram>(() =>
  meter().createHistogram('pra.billing.reconcile.drift', {
    description: 'Credits by which Redis differed from PostgreSQL, per corrected grant',
    unit: '{credit}',
    advice: { explicitBucketBoundaries: [1, 10, 100, 1000, 10000] },
  }),
);

export const telemetryMetrics = {
  request(seconds: number, attrs: { method: string; route: string; status: number }): void {
    requestDuration().record(seconds, {
      'http.request.method': attrs.method,
      'http.route': attrs.route,
      'http.response.status_code': attrs.status,
    });
  },
  charged(credits: number, attrs: { endpoint: string; tier: string }): void {
    if (credits > 0) creditsCharged().add(credits, attrs);
  },
  refused(reason: 'credits' | 'rate-minute' | 'quota-day', attrs: Attributes = {}): void {
    refusals().add(1, { reason, 'http.response.status_code': reason === 'credits' ? 402 : 429, ...attrs });
  },
  truncated(endpoint: string): void {
    truncations().add(1, { endpoint });
  },
  searched(seconds: number, backend: string): void {
    searchDuration().record(seconds, { backend });
  },
  keyLookup(result: 'local' | 'redis' | 'negative' | 'resolved' | 'miss'): void {
    keyCacheLookups().add(1, { result });
  },
  keyResolveFailed(reason: 'unreachable' | 'timeout' | 'status' | 'bad-answer' | 'bounded', status?: number): void {
    keyResolveFailures().add(1, status === undefined ? { reason } : { reason, 'http.response.status_code': status });
  },
  reconciled(drifts: number[]): void {
    for (const d of drifts) {
      reconcileRepairs().add(1);
      reconcileDrift().record(Math.abs(d));
    }
  },
};

/** Gauges read at collection time (queue depth, outbox length...): each callback reports its own observations. */
export function observeGauges(
  gauges: { name: string; description: string; unit: string }[],
  collect: () => Promise<Record<string, number>>,
): () => void {
  const m = meter();
  const instruments = gauges.map(
    (g) => [g.name, m.createObservableGauge(g.name, { description: g.description, unit: g.unit })] as const,
  );
  const callback = async (batch: import('@opentelemetry/api').BatchObservableResult) => {
    let values: Record<string, number>;
    try {
      values = await collect();
    } catch {
      return; // Redis down: no reading rather than a wrong one
    }
    for (const [name, instrument] of instruments)
      if (values[name] !== undefined) batch.observe(instrument, values[name]!);
  };
  m.addBatchObservableCallback(
    callback,
    instruments.map(([, i]) => i),
  );
  return () =>
    m.removeBatchObservableCallback(
      callback,
      instruments.map(([, i]) => i),
    );
}
export type { ObservableResult };
