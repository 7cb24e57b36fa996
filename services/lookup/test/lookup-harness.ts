// Starts the real lookup app on port 0 against this run's database (or a test file's own: `pool`) and Redis prefix,
// with a well-funded account.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, inject } from 'vitest';
import { createPool, type Pool } from '@pra/platform';
import { startApp, type RunningApp } from '@pra/platform/testing';
import { billingFixture, type BillingFixture } from '@pra/account-billing/testing';
import { createLookupApp } from '../src/app.js';

export interface LookupContext {
  readonly pool: Pool;
  readonly app: RunningApp;
  readonly billing: BillingFixture;
  /** The account's `Authorization` header. */
  readonly auth: Record<string, string>;
  /** GET with the account's key. */
  get(path: string, headers?: Record<string, string>): ReturnType<RunningApp['get']>;
}

/** `pool`: the database to serve (its owner ends it; read when the app starts), else this run's shared one. */
export function useLookupApp(credits = 10_000_000, pool?: () => Pool): LookupContext {
  const ctx = {} as { pool: Pool; app: RunningApp; billing: BillingFixture; auth: Record<string, string> };
  beforeAll(async () => {
    ctx.pool = pool ? pool() : createPool(inject('databaseUrl'), 4);
    // A Redis prefix of the file's own: a file on a database of its own numbers its accounts from 1, and balances
    // kept under another file's prefix would be shared with that file's accounts of the same ids.
    const prefix = `${inject('redisPrefix')}lk${randomBytes(3).toString('hex')}:`;
    ctx.billing = await billingFixture(ctx.pool, inject('redisUrl'), prefix);
    const { key } = await ctx.billing.fundedAccount(credits);
    ctx.auth = { authorization: `Bearer ${key}` };
    ctx.app = await startApp(
      createLookupApp({
        pool: ctx.pool,
        meter: ctx.billing.meter,
        calls: ctx.billing.calls,
        auth: { development: true, keys: ctx.billing.keys },
      }),
    );
  });
  afterAll(async () => {
    await ctx.app.close();
    await ctx.billing.close();
    if (!pool) await ctx.pool.end();
  });
  return {
    get pool() {
      return ctx.pool;
    },
    get app() {
      return ctx.app;
    },
    get billing() {
      return ctx.billing;
    },
    get auth() {
      return ctx.auth;
    },
    get: (path, headers = {}) => ctx.app.get(path, { ...ctx.auth, ...headers }),
  };
}
