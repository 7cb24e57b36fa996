// startSystem's in-process placement: the system in one process, for component tests that need to reach inside (a fixture's accounts, an in-memory
// span exporter): the same apps the services run, in gateway auth mode, on port 0, behind the local gateway with the
// kong.yml routes and the pra-gateway plugin. A part not started is routed to a closed port (the gateway's 503).
import type { Redis } from 'ioredis';
import type { Pool } from '@pra/platform';
import { startApp, type RunningApp } from '@pra/platform/testing';
import { httpKeyResolver, KeyCache, RedisCallCounter, type CreditMeter } from '@pra/account-billing/client';
import type { ServiceName } from '@pra/core/contracts';
import { createBillingApp, KeyLookupService } from '@pra/account-billing/app';
import { createAdminApp } from '@pra/account-billing/admin-app';
import type { BillingDeps } from '@pra/account-billing/domain';
import { createLookupApp } from '@pra/lookup/app';
import { createAutocompleteApp } from '@pra/autocomplete/app';
import { PostgresSearchIndex } from '@pra/autocomplete/postgres-index';
import { createPlansApp } from '@pra/plans/app';
import { RateLimiter } from '@pra/gateway-plugin';
import { createGateway } from '@pra/gateway-local';
import { loadRoutes } from '@pra/gateway-local/routes';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RunningSystem } from './system.js';

export interface InProcessOptions {
  pool: Pool;
  /** Billing's clients (a test's billing fixture): the meter, the key cache, and the Redis and prefix the rate limiter uses. */
  billing: { meter: CreditMeter; keys: KeyCache; redis: Redis; layout: { prefix: string } };
  gatewayKey: string;
  marketplaceSecret?: string;
  /** The services to run (default all four). */
  only?: readonly ServiceName[];
  /** The admin API too, with this token. */
  admin?: { deps: BillingDeps; token: string };
  /** Put something between the gateway and a service (a tap that records what the gateway sends): its URL. */
  interpose?: (service: ServiceName, url: string) => Promise<string> | string;
}

const CLOSED_PORT = 'http://127.0.0.1:9';

/** startSystem({ placement: 'in-process' }): the apps on port 0 behind the local gateway. */
export async function startInProcess(o: InProcessOptions): Promise<RunningSystem> {
  const auth = { gatewayKey: o.gatewayKey };
  const calls = new RedisCallCounter(o.billing.redis, o.billing.layout.prefix);
  const makers: Record<ServiceName, () => Parameters<typeof startApp>[0]> = {
    lookup: () => createLookupApp({ pool: o.pool, meter: o.billing.meter, calls, auth }),
    autocomplete: () =>
      createAutocompleteApp({ index: new PostgresSearchIndex(o.pool), meter: o.billing.meter, calls, auth }),
    'account-billing': () =>
      createBillingApp({
        pool: o.pool,
        auth,
        keyLookup: new KeyLookupService({ pool: o.pool, redis: o.billing.redis, prefix: o.billing.layout.prefix }),
        calls,
        // A system on one machine: webhooks may point at a receiver on loopback (as npm start allows).
        webhookUrls: { allowInsecureLocal: true },
      }),
    plans: () => createPlansApp({ purchaseUrl: 'https://example.com/pricing', publicBaseUrl: '/api/v1' }),
  };
  const names = o.only ?? (Object.keys(makers) as ServiceName[]);
  const running: RunningApp[] = [];
  const urls: RunningSystem['urls'] = {};
  const upstreams: Record<string, string> = {
    lookup: CLOSED_PORT,
    autocomplete: CLOSED_PORT,
    'account-billing': CLOSED_PORT,
    plans: CLOSED_PORT,
  };
  for (const name of names) {
    const app = await startApp(makers[name]());
    running.push(app);
    urls[name] = app.url;
    upstreams[name] = o.interpose ? await o.interpose(name, app.url) : app.url;
  }
  if (o.admin) {
    const admin = await startApp(createAdminApp(o.admin.deps, o.admin.token));
    running.push(admin);
    urls.admin = admin.url;
  }
  // As the gateway process is wired: a key missing from Redis is looked up through account-billing, when it runs.
  const billingUrl = urls['account-billing'];
  const keys = billingUrl
    ? new KeyCache(o.billing.redis, o.billing.layout.prefix, {
        ttlMs: 0,
        resolver: httpKeyResolver(billingUrl, o.gatewayKey),
      })
    : o.billing.keys;
  const plugin = {
    keys,
    limiter: new RateLimiter(o.billing.redis, o.billing.layout.prefix),
    hmacKey: o.gatewayKey,
    marketplaceSecret: o.marketplaceSecret,
  };
  const gateway: Server = createGateway({ routes: loadRoutes(upstreams), plugin });
  await new Promise<void>((r) => gateway.listen(0, '127.0.0.1', () => r()));
  return {
    gatewayUrl: `http://127.0.0.1:${(gateway.address() as AddressInfo).port}`,
    urls,
    async stop() {
      await new Promise((r) => gateway.close(r));
      await Promise.all(running.map((a) => a.close()));
    },
  };
}
