// The express routes the services really serve, against the endpoint table and the OpenAPI document: a route
// nobody documented, or a documented path nobody serves, fails here.
import { inject, describe, expect, it, afterAll } from 'vitest';
import type { Express } from 'express';
import type {} from '@pra/platform/testing';
import { BASE_PATH, buildOpenApiDocument, DOCUMENT_PATHS, routedPaths } from '@pra/core/contracts';
import { createPool, createRedis } from '@pra/platform';
import { KeyCache, RedisCallCounter, RedisCreditMeter } from '@pra/account-billing/client';
import { createLookupApp } from '@pra/lookup/app';
import { createAutocompleteApp } from '@pra/autocomplete/app';
import { PostgresSearchIndex } from '@pra/autocomplete/postgres-index';
import { createBillingApp } from '@pra/account-billing/app';
import { createPlansApp } from '@pra/plans/app';

/** The GET paths an express app routes (express 5: app.router.stack). */
function getRoutes(app: Express): string[] {
  const stack = (
    app as unknown as { router: { stack: { route?: { path: string; methods: Record<string, boolean> } }[] } }
  ).router.stack;
  return stack.filter((l) => l.route?.methods.get).map((l) => l.route!.path);
}

describe('served routes', () => {
  const pool = createPool(inject('databaseUrl'), 1, 'routes-test');
  const redis = createRedis(inject('redisUrl'), 'producer');
  afterAll(async () => {
    await pool.end();
    redis.disconnect();
  });
  const auth = { development: true as const, keys: new KeyCache(redis, inject('redisPrefix')) };
  const meter = new RedisCreditMeter(redis, inject('redisPrefix'));
  const calls = new RedisCallCounter(redis, inject('redisPrefix'));
  const apps = {
    lookup: createLookupApp({ pool, meter, calls, auth }),
    autocomplete: createAutocompleteApp({ index: new PostgresSearchIndex(pool), meter, calls, auth }),
    'account-billing': createBillingApp({ pool, auth }),
    plans: createPlansApp({ purchaseUrl: 'https://example.com/buy', publicBaseUrl: BASE_PATH }),
  };

  it('are exactly the paths of the OpenAPI document, each on the service the table names', () => {
    const documented = Object.keys((buildOpenApiDocument() as { paths: object }).paths).map((p) => BASE_PATH + p);
    const served = new Map<string, string>();
    for (const [service, app] of Object.entries(apps)) {
      for (const path of getRoutes(app)) {
        expect(served.has(path), `${path} served twice`).toBe(false);
        served.set(path, service);
      }
    }
    const api = [...served.keys()].filter((p) => !(DOCUMENT_PATHS as readonly string[]).includes(p));
    expect(api.sort()).toEqual([...documented].sort());
    expect(new Map(served)).toEqual(routedPaths());
  });
});
