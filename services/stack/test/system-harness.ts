// The whole system in this process behind the local gateway, on this run's database and a Redis prefix of the
// test file's own (startSystem in-process): what the end-to-end tests through the gateway start and stop.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, inject } from 'vitest';
import { createPool, type Pool } from '@pra/platform';
import type { ServiceName } from '@pra/core/contracts';
import { billingFixture, type BillingFixture } from '@pra/account-billing/testing';
import { UsagePipeline } from '@pra/account-billing/pipeline';
import { migrateSearch } from '@pra/autocomplete/migrate';
import { startSystem, type RunningSystem } from '../src/system.js';

export interface SystemContext {
  readonly pool: Pool;
  readonly billing: BillingFixture;
  readonly system: RunningSystem;
  /** A GET through the gateway, below /api/v1, with a Bearer key. */
  get(path: string, key: string, headers?: Record<string, string>): Promise<Response>;
}

/**
 * Starts the system before the file's tests (`tag` names its Redis prefix) and stops it after; `setup` runs once it
 * is up (inserting the file's records). `usagePipeline`: billing's usage pipeline runs too (the ledger and /usage's
 * calls are written), with its hourly reconcile and expiry out of the way.
 */
export function useSystem(
  tag: string,
  o: {
    marketplaceSecret?: string;
    only?: readonly ServiceName[];
    usagePipeline?: boolean;
    setup?: (pool: Pool) => Promise<void>;
  } = {},
): SystemContext {
  const ctx = {} as { pool: Pool; billing: BillingFixture; system: RunningSystem; pipeline?: UsagePipeline };
  beforeAll(async () => {
    ctx.pool = createPool(inject('databaseUrl'), 4);
    await migrateSearch(ctx.pool);
    const prefix = `${inject('redisPrefix')}${tag}${randomBytes(3).toString('hex')}:`;
    ctx.billing = await billingFixture(ctx.pool, inject('redisUrl'), prefix);
    if (o.usagePipeline) {
      ctx.pipeline = new UsagePipeline({
        pool: ctx.pool,
        redisUrl: inject('redisUrl'),
        layout: ctx.billing.layout,
        log: () => {},
        reconcileEveryMs: 3_600_000,
        expireEveryMs: 3_600_000,
      });
      await ctx.pipeline.start();
    }
    ctx.system = await startSystem({
      placement: 'in-process',
      pool: ctx.pool,
      billing: ctx.billing,
      gatewayKey: randomBytes(16).toString('hex'),
      ...(o.marketplaceSecret ? { marketplaceSecret: o.marketplaceSecret } : {}),
      ...(o.only ? { only: o.only } : {}),
    });
    await o.setup?.(ctx.pool);
  }, 60_000);
  afterAll(async () => {
    await ctx.system?.stop();
    await ctx.pipeline?.stop();
    await ctx.billing?.close();
    await ctx.pool?.end();
  });
  return {
    get pool() {
      return ctx.pool;
    },
    get billing() {
      return ctx.billing;
    },
    get system() {
      return ctx.system;
    },
    get: (path, key, headers = {}) =>
      fetch(`${ctx.system.gatewayUrl}/api/v1${path}`, { headers: { authorization: `Bearer ${key}`, ...headers } }),
  };
}
