// Billing for tests: real PostgreSQL and Redis under this run's prefix; accounts made through the domain code.
import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { createPool, createRedis, redisReady, type Pool } from '@pra/platform';
import { proxyUrl, type TcpProxy } from '@pra/platform/testing';
import { KeyCache, keyCacheLayoutFor } from '@pra/account-billing/client';
import type { TierName } from '@pra/core/tiers';
import { RedisCreditMeter } from '../src/client/credit-meter.js';
import { RedisCallCounter } from '../src/client/call-counter.js';
import { layoutFor, type RedisLayout } from '../src/data/redis-layout.js';
import { createAccount, grantCredits, issueKey, type BillingDeps } from '../src/domain/accounts.js';

export interface BillingFixture {
  redis: Redis;
  layout: RedisLayout;
  deps: BillingDeps;
  meter: RedisCreditMeter;
  calls: RedisCallCounter;
  keys: KeyCache;
  /** A new account with a key and (unless 0) one grant of `credits`. */
  fundedAccount(
    credits: number,
    opts?: { tier?: TierName; validDays?: number; grantedAt?: Date },
  ): Promise<{ accountId: number; key: string; keyId: number }>;
  /** Empties this fixture's key cache (entries, negative cache, loaded markers), as a FLUSH of its prefix would. */
  flushKeyCache(): Promise<void>;
  close(): Promise<void>;
}

/** Billing on the Redis at redisUrl: a redis:// URL, or a cluster's target (redis-cluster://, see redisTarget). */
export async function billingFixture(pool: Pool, redisUrl: string, prefix: string): Promise<BillingFixture> {
  const redis = createRedis(redisUrl, 'producer');
  await redisReady(redis);
  // The layout of this Redis (a cluster's when redisUrl is a cluster target); loaded as after the pipeline's first load.
  const layout = layoutFor(redis, prefix);
  await Promise.all(
    [...layout.shards.map((s) => s.loaded), ...keyCacheLayoutFor(redis, prefix).loadedMarkers].map((m) =>
      redis.set(m, 'test'),
    ),
  );
  const deps = { pool, redis, layout };
  return {
    redis,
    layout,
    deps,
    meter: new RedisCreditMeter(redis, prefix),
    calls: new RedisCallCounter(redis, prefix),
    keys: new KeyCache(redis, prefix, { ttlMs: 0 }),
    async fundedAccount(credits, opts = {}) {
      const tag = randomBytes(6).toString('hex');
      const account = await createAccount(deps, {
        email: `t-${tag}@example.com`,
        name: `Test ${tag}`,
        tier: opts.tier ?? 'starter',
      });
      const { key, keyId } = await issueKey(deps, account.id);
      if (credits > 0)
        await grantCredits(deps, account.id, { amount: credits, validDays: opts.validDays ?? 30 }, opts.grantedAt);
      return { accountId: account.id, key, keyId };
    },
    async flushKeyCache() {
      let cursor = '0';
      do {
        const [next, keys] = await redis.scan(cursor, 'MATCH', `${layout.prefix}key*`, 'COUNT', 1000);
        if (keys.length > 0) await redis.del(...keys);
        cursor = next;
      } while (cursor !== '0');
    },
    close: async () => {
      await redis.quit();
    },
  };
}

/** A pool that reaches PostgreSQL through a TCP proxy the test can cut (an outage of the database for that pool). */
export async function poolThroughProxy(databaseUrl: string, name: string): Promise<{ pool: Pool; proxy: TcpProxy }> {
  const { proxy, url } = await proxyUrl(databaseUrl);
  return { pool: createPool(url, 2, name), proxy };
}
