// The processes of the whole system on one machine and how they are wired: which entry point, which port, which
// upstream. npm start runs them under the Supervisor; the fault tests run the same set.
import type { ChildSpec } from './supervisor.js';

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
  redisUrl: string;
  redisPrefix: string;
  gatewayKey: string;
  adminToken: string;
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
  const stores = { DATABASE_URL: s.databaseUrl, REDIS_URL: s.redisUrl, REDIS_PREFIX: s.redisPrefix, GATEWAY_HMAC_KEY: s.gatewayKey, PRA_DEVELOPMENT: '1' };
  const spec = (name: string, entry: string, env: Record<string, string>): ChildSpec => ({ name, entry, env: { ...env, ...s.env?.(name) } });
  const { ports } = s;
  return [
    spec('account-billing', 'services/account-billing/src/server.ts', {
      ...stores, BILLING_PORT: String(ports.billing), ADMIN_PORT: String(ports.admin), ADMIN_TOKEN: s.adminToken, INTERNAL_PORT: internal(3),
    }),
    spec('lookup', 'services/lookup/src/server.ts', { ...stores, LOOKUP_PORT: String(ports.lookup), INTERNAL_PORT: internal(1) }),
    spec('autocomplete', 'services/autocomplete/src/server.ts', { ...stores, AUTOCOMPLETE_PORT: String(ports.autocomplete), INTERNAL_PORT: internal(2) }),
    spec('plans', 'services/plans/src/server.ts', { PLANS_PORT: String(ports.plans), PUBLIC_BASE_URL: s.publicBaseUrl, INTERNAL_PORT: internal(4) }),
    spec('gateway', 'gateway/local/src/server.ts', {
      REDIS_URL: s.redisUrl, REDIS_PREFIX: s.redisPrefix, GATEWAY_HMAC_KEY: s.gatewayKey, GATEWAY_PORT: String(ports.gateway),
      UPSTREAM_LOOKUP: local(ports.lookup), UPSTREAM_AUTOCOMPLETE: local(ports.autocomplete),
      UPSTREAM_ACCOUNT_BILLING: local(ports.billing), UPSTREAM_PLANS: local(ports.plans), INTERNAL_PORT: internal(0),
    }),
  ];
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
