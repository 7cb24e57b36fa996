// The express routes the services really serve, against the endpoint table and the OpenAPI document: a route
// nobody documented, or a documented path nobody serves, fails here.
import { inject, describe, expect, it, afterAll } from 'vitest';
import type { Express } from 'express';
import type {} from '@pra/platform/testing';
import { BASE_PATH, buildOpenApiDocument, DOCUMENT_PATHS, expressPath, routedPaths } from '@pra/core/contracts';
import { createPool, createRedis } from '@pra/platform';
import { KeyCache, RedisCallCounter, RedisCreditMeter } from '@pra/account-billing/client';
import { createLookupApp } from '@pra/lookup/app';
import { createAutocompleteApp } from '@pra/autocomplete/app';
import { PostgresSearchIndex } from '@pra/autocomplete/postgres-index';
import { createBillingApp } from '@pra/account-billing/app';
import { createPlansApp } from '@pra/plans/app';

/** The `METHOD path` pairs an express app routes (express 5: app.router.stack), HEAD and catch-alls left out. */
function routesOf(app: Express): string[] {
  const stack = (
    app as unknown as { router: { stack: { route?: { path: string; methods: Record<string, boolean> } }[] } }
  ).router.stack;
  return stack.flatMap((l) =>
    Object.keys(l.route?.methods ?? {})
      .filter((m) => m !== 'head' && m !== '_all')
      .map((m) => `${m.toUpperCase()} ${l.route!.path}`),
  );
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

  it('are exactly the operations of the OpenAPI document, each on the service the table names', () => {
    const paths = (buildOpenApiDocument() as unknown as { paths: Record<string, Record<string, unknown>> }).paths;
    const documented = Object.entries(paths).flatMap(([path, operations]) =>
      Object.keys(operations).map((m) => `${m.toUpperCase()} ${expressPath(BASE_PATH + path)}`),
    );
    const served = new Map<string, string>();
    for (const [service, app] of Object.entries(apps)) {
      for (const route of routesOf(app)) {
        expect(served.has(route), `${route} served twice`).toBe(false);
        served.set(route, service);
      }
    }
    const api = [...served.keys()].filter((r) => !(DOCUMENT_PATHS as readonly string[]).includes(r.split(' ')[1]!));
    expect(api.sort()).toEqual([...documented].sort());
    // Each path on the service kong.yml routes it to (the OpenAPI document's paths and the reference page's).
    const byPath = new Map([...served].map(([route, service]) => [route.split(' ')[1]!, service]));
    expect(byPath).toEqual(new Map([...routedPaths()].map(([path, service]) => [expressPath(path), service])));
    // Any other method on a path of the table is refused there, naming the ones it takes (a 405 with Allow).
    const catchAlls = Object.values(apps).flatMap((app) =>
      (
        app as unknown as { router: { stack: { route?: { path: string; methods: Record<string, boolean> } }[] } }
      ).router.stack
        .filter((l) => l.route?.methods._all)
        .map((l) => l.route!.path),
    );
    expect(catchAlls.sort()).toEqual([...new Set(api.map((r) => r.split(' ')[1]!))].sort());
  });
});
