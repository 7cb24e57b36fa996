// The whole system on one machine and how it is wired: which entry point, which port, which upstream, in which
// order it starts and how each part is known to be ready. startSystem is the one way to bring it up: npm start, the
// fault tests and bench:gateway run it as processes under the Supervisor; the component tests (gateway e2e, trace,
// k6 smoke) run the same apps in their own process (in-process.ts), wired by the same routes.
import type { ServiceName } from '@pra/core/contracts';
import type { InProcessOptions } from './in-process.js';
import type { ChildSpec, Supervisor } from './supervisor.js';

export interface SystemPorts {
  gateway: number;
  lookup: number;
  autocomplete: number;
  billing: number;
  plans: number;
  admin: number;
}

export interface SystemSettings {
  ports: SystemPorts;
  /** First internal port (/metrics, /livez, /readyz), one per process from there; 0: any free port. */
  firstInternalPort: number;
  databaseUrl: string;
  /** Where reads that may lag go (a streaming replica): DATABASE_READ_URL of every service; unset: the primary. */
  databaseReadUrl?: string;
  redisUrl: string;
  /** Redis Cluster seeds (REDIS_CLUSTER_NODES of every process); unset: the single Redis at redisUrl. */
  redisClusterNodes?: string;
  redisPrefix: string;
  gatewayKey: string;
  adminToken: string;
  /** The marketplace proxy's secret (SPEC 5); without it, marketplace headers are refused. */
  marketplaceSecret?: string;
  /** The base URL the plans service writes into the OpenAPI document. */
  publicBaseUrl: string;
  /** Extra environment for every process (telemetry, timeouts). */
  env?: (service: string) => Record<string, string>;
}

const local = (p: number) => `http://127.0.0.1:${p}`;

/** Every process, in the order they start: billing first (it loads balances and keys), the gateway last. */
export function systemProcesses(s: SystemSettings): ChildSpec[] {
  const internal = (i: number) => String(s.firstInternalPort === 0 ? 0 : s.firstInternalPort + i);
  // PRA_DEVELOPMENT: a development machine (a service may also run alone without the gateway's key, set here).
  const redis = {
    REDIS_URL: s.redisUrl,
    ...(s.redisClusterNodes ? { REDIS_CLUSTER_NODES: s.redisClusterNodes } : {}),
    REDIS_PREFIX: s.redisPrefix,
  };
  const stores = {
    DATABASE_URL: s.databaseUrl,
    ...(s.databaseReadUrl ? { DATABASE_READ_URL: s.databaseReadUrl } : {}),
    ...redis,
    GATEWAY_HMAC_KEY: s.gatewayKey,
    PRA_DEVELOPMENT: '1',
    // Webhooks to http:// and loopback receivers: a system on one machine (never set in production).
    WEBHOOKS_ALLOW_INSECURE_LOCAL: '1',
  };
  const spec = (name: string, entry: string, env: Record<string, string>): ChildSpec => ({
    name,
    entry,
    env: { ...env, ...s.env?.(name) },
  });
  const { ports } = s;
  return [
    spec('account-billing', 'services/account-billing/src/server.ts', {
      ...stores,
      BILLING_PORT: String(ports.billing),
      ADMIN_PORT: String(ports.admin),
      ADMIN_TOKEN: s.adminToken,
      INTERNAL_PORT: internal(3),
    }),
    spec('lookup', 'services/lookup/src/server.ts', {
      ...stores,
      LOOKUP_PORT: String(ports.lookup),
      INTERNAL_PORT: internal(1),
    }),
    spec('autocomplete', 'services/autocomplete/src/server.ts', {
      ...stores,
      AUTOCOMPLETE_PORT: String(ports.autocomplete),
      INTERNAL_PORT: internal(2),
    }),
    spec('plans', 'services/plans/src/server.ts', {
      PLANS_PORT: String(ports.plans),
      PUBLIC_BASE_URL: s.publicBaseUrl,
      INTERNAL_PORT: internal(4),
    }),
    // The webhook delivery worker: no public port; its internal one serves /metrics and the probes.
    spec('webhooks-worker', 'services/webhooks/src/worker.ts', {
      ...stores,
      INTERNAL_PORT: internal(5),
    }),
    spec('gateway', 'gateway/local/src/server.ts', {
      ...redis,
      GATEWAY_HMAC_KEY: s.gatewayKey,
      ...(s.marketplaceSecret ? { MARKETPLACE_PROXY_SECRET: s.marketplaceSecret } : {}),
      GATEWAY_PORT: String(ports.gateway),
      UPSTREAM_LOOKUP: local(ports.lookup),
      UPSTREAM_AUTOCOMPLETE: local(ports.autocomplete),
      UPSTREAM_ACCOUNT_BILLING: local(ports.billing),
      UPSTREAM_PLANS: local(ports.plans),
      // A key missing from the Redis key cache is looked up in PostgreSQL by account-billing.
      KEY_LOOKUP_URL: local(ports.billing),
      INTERNAL_PORT: internal(0),
    }),
  ];
}

/** The processes startSystem runs: every one by default. */
export type SystemPart = ChildSpec['name'];

export interface RunningSystem {
  /** http://127.0.0.1:<port> of the gateway. */
  gatewayUrl: string;
  /** The services' own URLs (behind the gateway). */
  urls: Partial<Record<ServiceName | 'admin', string>>;
  stop(): Promise<void>;
}

/**
 * Where the system runs. `processes`: every part a supervised child process, as npm start runs it. `in-process`:
 * the same apps in this process on port 0, for tests that reach inside (a fixture's accounts, a span exporter).
 */
export type StartSystemOptions =
  | ({ placement: 'processes' } & SystemSettings & {
        supervisor: Supervisor;
        only?: readonly string[];
        readyTimeoutMs?: number;
      })
  | ({ placement: 'in-process' } & InProcessOptions);

/** How each process is known to be ready: a path and the statuses that count (a 401 says the auth is up). */
const READY: Record<string, { port: keyof SystemPorts; path: string; statuses: number[] }> = {
  'account-billing': { port: 'billing', path: '/api/v1/usage', statuses: [401] },
  lookup: { port: 'lookup', path: '/api/v1/health', statuses: [] },
  autocomplete: { port: 'autocomplete', path: '/api/v1/property/autocomplete', statuses: [401] },
  plans: { port: 'plans', path: '/api/v1/plans', statuses: [] },
  gateway: { port: 'gateway', path: '/api/v1/health', statuses: [] },
};

/**
 * Starts the system and resolves once every part answers. As processes: account-billing first (it loads the
 * balances and the key cache the others read), then the rest; `only` runs a subset (the gateway is always wired to
 * every service's port; a service not started is answered 503 by it).
 */
export async function startSystem(o: StartSystemOptions): Promise<RunningSystem> {
  if (o.placement === 'in-process') {
    // Loaded on demand: npm start's own process never loads the apps.
    const { startInProcess } = await import('./in-process.js');
    return startInProcess(o);
  }
  const chosen = systemProcesses(o).filter((c) => !o.only || o.only.includes(c.name));
  const ready = async (c: ChildSpec) => {
    const r = READY[c.name];
    // A worker without a public port (webhooks-worker) is not on a request's path: started is enough.
    if (!r) return;
    return waitForHealth(`http://127.0.0.1:${o.ports[r.port]}${r.path}`, r.statuses, o.readyTimeoutMs);
  };
  const [first, ...rest] = chosen;
  if (first?.name === 'account-billing') {
    o.supervisor.start(first);
    await ready(first);
  } else if (first) rest.unshift(first);
  for (const c of rest) o.supervisor.start(c);
  await Promise.all(rest.map(ready));
  const url = (p: number) => `http://127.0.0.1:${p}`;
  return {
    gatewayUrl: url(o.ports.gateway),
    urls: {
      lookup: url(o.ports.lookup),
      autocomplete: url(o.ports.autocomplete),
      'account-billing': url(o.ports.billing),
      plans: url(o.ports.plans),
      admin: url(o.ports.admin),
    },
    stop: () => o.supervisor.stop(),
  };
}

/** Waits until a URL answers (2xx, or one of `alsoReady`); a clear error after `timeoutMs`. */
export async function waitForHealth(url: string, alsoReady: number[] = [], timeoutMs = 60_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      if (res.ok || alsoReady.includes(res.status)) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not answer within ${timeoutMs / 1000} s`);
}
