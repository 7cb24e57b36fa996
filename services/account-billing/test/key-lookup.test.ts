// A key the Redis cache does not hold is not a verdict (issue 22, point 9): it is looked up in PostgreSQL through
// account-billing's key lookup, restored in the cache (never over a newer entry) and answered as the database says;
// unknown keys are remembered briefly in Redis, and random keys cannot reach PostgreSQL more than a fixed number of
// times a second. Real PostgreSQL and Redis, this run's prefix.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { createPool, type Pool } from '@pra/platform';
import { startApp, type RunningApp } from '@pra/platform/testing';
import { hashApiKey, KEY_LOOKUP_SIGNATURE_HEADER, signKeyLookup } from '@pra/core/auth';
import {
  httpKeyResolver,
  KEY_MISS_TTL_MS,
  KEY_RESOLVES_PER_SECOND,
  KeyCache,
  keyCacheKey,
  keyCacheLoadedKey,
  keyLookupPath,
  keyMissKey,
  type KeyCacheEntry,
} from '@pra/account-billing/client';
import { createBillingApp } from '../src/app.js';
import { KEY_LOOKUP_LIMITS, KeyLookupService, keyLookupBucketKey } from '../src/routes/key-lookup.js';
import { restoreKey } from '../src/data/key-cache.js';
import { setKeyStatus } from '../src/domain/accounts.js';
import { RedisCallCounter } from '../src/client/call-counter.js';
import { billingFixture, type BillingFixture } from './billing-fixtures.js';

const GATEWAY_KEY = `gw-${randomBytes(16).toString('hex')}`;
let pool: Pool;
let f: BillingFixture;
let app: RunningApp;
/** Transactions the key lookup opened on PostgreSQL (each is one key looked up). */
let dbLookups = 0;

/** The pool, counting every connection taken from it. */
function counting(p: Pool): Pool {
  const wrapper = Object.create(p) as Pool;
  wrapper.connect = ((...a: unknown[]) => {
    dbLookups++;
    return (p.connect as (...x: unknown[]) => unknown)(...a);
  }) as Pool['connect'];
  return wrapper;
}

beforeAll(async () => {
  pool = createPool(inject('databaseUrl'), 6);
  f = await billingFixture(pool, inject('redisUrl'), `${inject('redisPrefix')}kl${randomBytes(3).toString('hex')}:`);
  const keyLookup = new KeyLookupService({ pool: counting(pool), redis: f.redis, prefix: f.layout.prefix });
  app = await startApp(
    createBillingApp({
      pool,
      calls: new RedisCallCounter(f.redis, f.layout.prefix),
      auth: { gatewayKey: GATEWAY_KEY },
      keyLookup,
    }),
  );
});
afterAll(async () => {
  await app?.close();
  await f.close();
  await pool.end();
});

/** A gateway's key cache, as the plugin process makes it: no local cache here, lookups through account-billing. */
const gatewayCache = () => new KeyCache(f.redis, f.layout.prefix, 0, httpKeyResolver(app.url, GATEWAY_KEY));
const cached = async (key: string) => {
  const text = await f.redis.get(keyCacheKey(f.layout.prefix, hashApiKey(key)));
  return text ? (JSON.parse(text) as KeyCacheEntry) : null;
};
const forget = (key: string) => f.redis.del(keyCacheKey(f.layout.prefix, hashApiKey(key)));

describe('a key missing from the cache', () => {
  it('is looked up in PostgreSQL, restored in the cache, and answered as the database says', async () => {
    const a = await f.fundedAccount(1);
    const before = await cached(a.key);
    expect(before).toMatchObject({ status: 'active', kind: 'standard' });
    await forget(a.key);
    expect(await cached(a.key)).toBeNull();
    const entry = await gatewayCache().lookup(a.key);
    expect(entry).toMatchObject({ keyId: a.keyId, accountId: a.accountId, status: 'active', kind: 'standard' });
    expect(await cached(a.key)).toEqual(before); // restored, with its version
    // A disabled key is restored disabled (the gateway's 403).
    await setKeyStatus(f.deps, a.keyId, 'disabled');
    await forget(a.key);
    expect((await gatewayCache().lookup(a.key))?.status).toBe('disabled');
    expect((await cached(a.key))?.status).toBe('disabled');
  });

  it('is looked up also while the cache is not loaded (no marker): a valid key is served, not a 503', async () => {
    const a = await f.fundedAccount(1);
    const prefix = `${f.layout.prefix}cold${randomBytes(2).toString('hex')}:`;
    const service = new KeyLookupService({ pool, redis: f.redis, prefix });
    const cold = new KeyCache(f.redis, prefix, 0, (h) => service.lookup(h));
    expect(await f.redis.exists(keyCacheLoadedKey(prefix))).toBe(0);
    expect(await cold.lookup(a.key)).toMatchObject({ keyId: a.keyId, status: 'active' });
    expect(await cold.lookup(`pra_live_${randomBytes(12).toString('hex')}`)).toBeNull();
  });

  it('an unknown key is a null (401), remembered in Redis for a few seconds: the next ask does not reach PostgreSQL', async () => {
    const key = `pra_live_${randomBytes(16).toString('hex')}`;
    const hash = hashApiKey(key);
    const start = dbLookups;
    expect(await gatewayCache().lookup(key)).toBeNull();
    expect(dbLookups - start).toBe(1);
    const ttl = await f.redis.pttl(keyMissKey(f.layout.prefix, hash));
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(KEY_MISS_TTL_MS);
    expect(await gatewayCache().lookup(key)).toBeNull(); // another gateway: Redis's negative cache answers
    expect(dbLookups - start).toBe(1);
  });

  it('a hit costs what it cost before: no lookup, one Redis call', async () => {
    const a = await f.fundedAccount(1);
    let asked = 0;
    const cache = new KeyCache(f.redis, f.layout.prefix, 0, async () => {
      asked++;
      return null;
    });
    const hash = hashApiKey(a.key);
    const sent: string[] = [];
    const monitor = await f.redis.duplicate().monitor();
    monitor.on('monitor', (_t: string, args: string[]) => {
      if (args.some((x) => x.includes(hash))) sent.push(args[0]!.toLowerCase());
    });
    try {
      for (let i = 0; i < 5; i++) expect((await cache.lookup(a.key))?.keyId).toBe(a.keyId);
      await new Promise((r) => setTimeout(r, 100));
    } finally {
      monitor.disconnect();
    }
    expect(asked).toBe(0);
    // Every command that named this key: five MGETs (entry, loaded marker, negative cache), nothing else.
    expect(sent).toEqual(['mget', 'mget', 'mget', 'mget', 'mget']);
  });

  it('is never restored over a newer entry (a change written meanwhile wins)', async () => {
    const a = await f.fundedAccount(1);
    const hash = hashApiKey(a.key);
    const current = (await cached(a.key))!;
    const newer = { ...current, status: 'disabled', v: (current.v ?? 0) + 1_000 };
    await f.redis.set(keyCacheKey(f.layout.prefix, hash), JSON.stringify(newer));
    expect(await restoreKey(pool, f.redis, f.layout.prefix, hash)).toEqual(newer);
    expect(await cached(a.key)).toEqual(newer);
  });

  it('account-billing unreachable or refusing: a 503 with Retry-After, never an unknown key', async () => {
    const a = await f.fundedAccount(1);
    await forget(a.key);
    const nowhere = new KeyCache(f.redis, f.layout.prefix, 0, httpKeyResolver('http://127.0.0.1:9', GATEWAY_KEY));
    await expect(nowhere.lookup(a.key)).rejects.toMatchObject({ status: 503, headers: { 'retry-after': '2' } });
    const wrongKey = new KeyCache(f.redis, f.layout.prefix, 0, httpKeyResolver(app.url, `x${GATEWAY_KEY}`));
    await expect(wrongKey.lookup(a.key)).rejects.toMatchObject({ status: 503 });
  });

  it('the lookup endpoint takes only the gateway key’s signature and a key hash', async () => {
    const hash = hashApiKey(`pra_live_${randomBytes(8).toString('hex')}`);
    expect((await app.get(keyLookupPath(hash))).status).toBe(401);
    const forged = await app.get(keyLookupPath(hash), {
      [KEY_LOOKUP_SIGNATURE_HEADER]: signKeyLookup(hash, 'another-key-another-key-another-key'),
    });
    expect(forged).toMatchObject({ status: 401, body: { property: [], status: { code: 401 } } });
    const old = await app.get(keyLookupPath(hash), {
      [KEY_LOOKUP_SIGNATURE_HEADER]: signKeyLookup(hash, GATEWAY_KEY, Math.floor(Date.now() / 1000) - 120),
    });
    expect(old.status).toBe(401);
    const bad = await app.get(keyLookupPath('not-a-hash'), {
      [KEY_LOOKUP_SIGNATURE_HEADER]: signKeyLookup('not-a-hash', GATEWAY_KEY),
    });
    expect(bad).toMatchObject({ status: 400, body: { status: { code: 400 } } });
    const ok = await app.get(keyLookupPath(hash), { [KEY_LOOKUP_SIGNATURE_HEADER]: signKeyLookup(hash, GATEWAY_KEY) });
    expect(ok).toMatchObject({ status: 200, body: { key: null } });
  });
});

describe('the bound on lookups', () => {
  it(`holds PostgreSQL to ${KEY_LOOKUP_LIMITS.perProcessPerSecond} lookups/s a process and ${KEY_LOOKUP_LIMITS.systemPerSecond}/s in all; past it a 503 with Retry-After`, async () => {
    const prefix = `${f.layout.prefix}rb${randomBytes(2).toString('hex')}:`;
    let looked = 0;
    const countingPool = Object.create(pool) as Pool;
    countingPool.connect = ((...a: unknown[]) => {
      looked++;
      return (pool.connect as (...x: unknown[]) => unknown)(...a);
    }) as Pool['connect'];
    // Three account-billing processes: each bounded by its own bucket, all three by the one in Redis.
    const processes = [0, 1, 2].map(() => new KeyLookupService({ pool: countingPool, redis: f.redis, prefix }));
    const started = Date.now();
    const outcomes = await Promise.all(
      Array.from({ length: 600 }, (_, i) =>
        processes[i % 3]!.lookup(hashApiKey(`pra_live_${randomBytes(16).toString('hex')}`)).then(
          (entry) => ({ entry }),
          (err: { status?: number; headers?: Record<string, string> }) => ({ err }),
        ),
      ),
    );
    const seconds = (Date.now() - started) / 1000;
    const refused = outcomes.filter((o) => 'err' in o);
    // Everything else was looked up: unknown keys.
    expect(outcomes.filter((o) => 'entry' in o).every((o) => 'entry' in o && o.entry === null)).toBe(true);
    expect(looked).toBe(600 - refused.length);
    // The system's bucket: its size (one second's worth) plus what refills while the burst runs.
    expect(looked).toBeLessThanOrEqual(
      KEY_LOOKUP_LIMITS.systemPerSecond + Math.ceil(KEY_LOOKUP_LIMITS.systemPerSecond * seconds),
    );
    expect(looked).toBeGreaterThanOrEqual(KEY_LOOKUP_LIMITS.systemPerSecond - 1);
    for (const o of refused)
      expect((o as { err: { status?: number; headers?: Record<string, string> } }).err).toMatchObject({
        status: 503,
        headers: { 'retry-after': '1' },
      });
    // One process alone: its own bucket holds it to its rate, whatever the system's budget.
    const alone = new KeyLookupService({ pool: countingPool, redis: f.redis, prefix: `${prefix}alone:` });
    looked = 0;
    const t0 = Date.now();
    await Promise.allSettled(
      Array.from({ length: 200 }, () => alone.lookup(hashApiKey(randomBytes(16).toString('hex')))),
    );
    expect(looked).toBeLessThanOrEqual(
      KEY_LOOKUP_LIMITS.perProcessPerSecond +
        Math.ceil((KEY_LOOKUP_LIMITS.perProcessPerSecond * (Date.now() - t0)) / 1000),
    );
    // A second later the budget is back: a real key is served.
    await new Promise((r) => setTimeout(r, 1_100));
    const a = await f.fundedAccount(1);
    expect((await processes[0]!.lookup(hashApiKey(a.key)))?.keyId).toBe(a.keyId);
    expect(await f.redis.exists(keyLookupBucketKey(prefix))).toBe(1);
  });

  it(`a gateway asks account-billing about at most ${KEY_RESOLVES_PER_SECOND} keys a second; past it, a 503 with Retry-After`, async () => {
    let asked = 0;
    const cache = new KeyCache(f.redis, f.layout.prefix, 0, async () => {
      asked++;
      return null;
    });
    const started = Date.now();
    const outcomes = await Promise.allSettled(
      Array.from({ length: 300 }, () => cache.lookup(`pra_live_${randomBytes(16).toString('hex')}`)),
    );
    const seconds = (Date.now() - started) / 1000;
    expect(asked).toBeLessThanOrEqual(KEY_RESOLVES_PER_SECOND + Math.ceil(KEY_RESOLVES_PER_SECOND * seconds));
    const refused = outcomes.filter((o) => o.status === 'rejected');
    expect(refused.length).toBe(300 - asked);
    for (const o of refused) expect(o.reason).toMatchObject({ status: 503, headers: { 'retry-after': '1' } });
  });
});
