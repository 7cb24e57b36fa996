// A key the Redis cache does not hold is not a verdict (issue 22, point 9): it is looked up in PostgreSQL through
// account-billing's key lookup, restored in the cache (never over a newer entry) and answered as the database says;
// unknown keys are remembered briefly in Redis, and random keys cannot reach PostgreSQL more than a fixed number of
// times a second. Real PostgreSQL and Redis, this run's prefix.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { createNoopMeter, metrics, type Attributes, type Counter } from '@opentelemetry/api';
import type { Redis } from 'ioredis';
import { createPool, redisReady, type Pool } from '@pra/platform';
import { freePort, startApp, type RunningApp } from '@pra/platform/testing';
import { authorizeKey, hashApiKey, KEY_LOOKUP_SIGNATURE_HEADER, signKeyLookup } from '@pra/core/auth';
import {
  httpKeyResolver,
  KEY_RESOLVE_LOG_EVERY_MS,
  KEY_MISS_TTL_MS,
  KEY_RESOLVES_PER_SECOND,
  KeyCache,
  keyCacheKey,
  keyCacheLayout,
  keyCacheLoadedKey,
  keyLookupPath,
  keyMissKey,
  type KeyCacheEntry,
  type KeyResolveWarning,
} from '@pra/account-billing/client';
import { createBillingApp } from '../src/app.js';
import { KEY_LOOKUP_LIMITS, KeyLookupService } from '../src/domain/key-lookup.js';
import { rebuildKeyCache, restoreKey } from '../src/data/key-cache-writer.js';
import { issueKey, setKeyStatus } from '../src/domain/accounts.js';
import { billingFixture, type BillingFixture } from './billing-fixtures.js';

/** Every counter increment this file's code makes (telemetryMetrics), read by the tests of what is counted. */
const counted: { name: string; attributes: Attributes }[] = [];
{
  const noop = createNoopMeter();
  const meter = Object.assign(Object.create(noop) as typeof noop, {
    createCounter: (name: string): Counter => ({
      add: (value: number, attributes: Attributes = {}) => {
        for (let i = 0; i < value; i++) counted.push({ name, attributes });
      },
    }),
  });
  // Before any instrument is made (they are made on first use, from the global meter).
  if (!metrics.setGlobalMeterProvider({ getMeter: () => meter })) throw new Error('a meter provider was already set');
}
/** How many increments of `name` since `from` (an index into `counted`) had these attributes. */
const countOf = (name: string, attributes: Attributes, from = 0) =>
  counted
    .slice(from)
    .filter((c) => c.name === name && Object.entries(attributes).every(([k, v]) => c.attributes[k] === v)).length;

const GATEWAY_KEY = `gw-${randomBytes(16).toString('hex')}`;
let pool: Pool;
let f: BillingFixture;
let app: RunningApp;

/** The pool, counting every connection taken from it (each is one key looked up in PostgreSQL). */
function connectionCountingPool(p: Pool): { pool: Pool; connections: () => number } {
  let n = 0;
  const wrapper = Object.create(p) as Pool;
  wrapper.connect = ((...a: unknown[]) => {
    n++;
    return (p.connect as (...x: unknown[]) => unknown)(...a);
  }) as Pool['connect'];
  return { pool: wrapper, connections: () => n };
}
/** A URL nothing listens on (a free port, reserved: no other test's server is given it, so connections are refused). */
async function closedPort(): Promise<string> {
  return `http://127.0.0.1:${await freePort()}`;
}

/** Transactions the app's key lookup opened on PostgreSQL. */
let dbLookups: () => number;

beforeAll(async () => {
  pool = createPool(inject('databaseUrl'), 6);
  f = await billingFixture(pool, inject('redisUrl'), `${inject('redisPrefix')}kl${randomBytes(3).toString('hex')}:`);
  const counting = connectionCountingPool(pool);
  dbLookups = counting.connections;
  const keyLookup = new KeyLookupService({ pool: counting.pool, redis: f.redis, prefix: f.layout.prefix });
  app = await startApp(
    createBillingApp({
      pool,
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
const gatewayCache = () =>
  new KeyCache(f.redis, f.layout.prefix, { ttlMs: 0, resolver: httpKeyResolver(app.url, GATEWAY_KEY) });
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
    const cold = new KeyCache(f.redis, prefix, { ttlMs: 0, resolver: (h) => service.lookup(h) });
    expect(await f.redis.exists(keyCacheLoadedKey(prefix))).toBe(0);
    expect(await cold.lookup(a.key)).toMatchObject({ keyId: a.keyId, status: 'active' });
    expect(await cold.lookup(`pra_live_${randomBytes(12).toString('hex')}`)).toBeNull();
  });

  it('an unknown key is a null (401), remembered in Redis for a few seconds: the next ask does not reach PostgreSQL', async () => {
    const key = `pra_live_${randomBytes(16).toString('hex')}`;
    const hash = hashApiKey(key);
    const start = dbLookups();
    expect(await gatewayCache().lookup(key)).toBeNull();
    expect(dbLookups() - start).toBe(1);
    const ttl = await f.redis.pttl(keyMissKey(f.layout.prefix, hash));
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(KEY_MISS_TTL_MS);
    expect(await gatewayCache().lookup(key)).toBeNull(); // another gateway: Redis's negative cache answers
    expect(dbLookups() - start).toBe(1);
  });

  it('a hit costs what it cost before: no lookup, one Redis call', async () => {
    const a = await f.fundedAccount(1);
    let asked = 0;
    // A client of its own that records every command it sends (nothing else uses it: no sleep, no MONITOR).
    const hash = hashApiKey(a.key);
    const sent: string[] = [];
    const recording = f.redis.duplicate();
    const send = recording.sendCommand.bind(recording);
    recording.sendCommand = ((command: { name: string; args: unknown[] }, ...rest: unknown[]) => {
      if (command.args.some((x) => String(x).includes(hash))) sent.push(command.name.toLowerCase());
      return (send as (...x: unknown[]) => unknown)(command, ...rest);
    }) as Redis['sendCommand'];
    try {
      await redisReady(recording);
      const cache = new KeyCache(recording, f.layout.prefix, {
        ttlMs: 0,
        resolver: async () => {
          asked++;
          return null;
        },
      });
      for (let i = 0; i < 5; i++) expect((await cache.lookup(a.key))?.keyId).toBe(a.keyId);
      expect(asked).toBe(0);
      // Every command that named this key: five MGETs (entry, loaded marker, negative cache), nothing else.
      expect(sent).toEqual(['mget', 'mget', 'mget', 'mget', 'mget']);
    } finally {
      recording.disconnect();
    }
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
    const quiet = { warn: () => {} };
    const nowhere = new KeyCache(f.redis, f.layout.prefix, {
      ttlMs: 0,
      resolver: httpKeyResolver('http://127.0.0.1:9', GATEWAY_KEY, quiet),
    });
    await expect(nowhere.lookup(a.key)).rejects.toMatchObject({ status: 503, headers: { 'retry-after': '2' } });
    const wrongKey = new KeyCache(f.redis, f.layout.prefix, {
      ttlMs: 0,
      resolver: httpKeyResolver(app.url, `x${GATEWAY_KEY}`, quiet),
    });
    await expect(wrongKey.lookup(a.key)).rejects.toMatchObject({ status: 503 });
  });

  it('the lookup endpoint takes only the gateway key’s signature and a key hash', async () => {
    const hash = hashApiKey(`pra_live_${randomBytes(8).toString('hex')}`);
    expect((await app.get(keyLookupPath(hash))).status).toBe(401);
    const forged = await app.get(keyLookupPath(hash), {
      [KEY_LOOKUP_SIGNATURE_HEADER]: signKeyLookup(hash, 'another-key-another-key-another-key'),
    });
    expect(forged).toMatchObject({
      status: 401,
      body: { property: [], status: { code: 401, reason: 'unauthorized' } },
    });
    const old = await app.get(keyLookupPath(hash), {
      [KEY_LOOKUP_SIGNATURE_HEADER]: signKeyLookup(hash, GATEWAY_KEY, Math.floor(Date.now() / 1000) - 120),
    });
    expect(old.status).toBe(401);
    const bad = await app.get(keyLookupPath('not-a-hash'), {
      [KEY_LOOKUP_SIGNATURE_HEADER]: signKeyLookup('not-a-hash', GATEWAY_KEY),
    });
    expect(bad).toMatchObject({ status: 400, body: { status: { code: 400, reason: 'invalid_parameter' } } });
    const ok = await app.get(keyLookupPath(hash), { [KEY_LOOKUP_SIGNATURE_HEADER]: signKeyLookup(hash, GATEWAY_KEY) });
    expect(ok).toMatchObject({ status: 200, body: { key: null } });
  });
});

describe('a cache entry written before kinds (no kind)', () => {
  /** The key's entry as the cache held it before kinds were cached: the same version, no kind. */
  const writeOldFormat = async (key: string) => {
    const entryKey = keyCacheKey(f.layout.prefix, hashApiKey(key));
    const { kind: _kind, ...old } = JSON.parse((await f.redis.get(entryKey))!) as KeyCacheEntry;
    await f.redis.set(entryKey, JSON.stringify(old));
  };
  const marketplace = (key: string) => ({ marketplaceSecret: 'proxy-secret-0123456', marketplaceKey: key });

  it('is looked up again and rewritten with its kind: a marketplace key is accepted behind the marketplace secret', async () => {
    const a = await f.fundedAccount(1);
    const m = await issueKey(f.deps, a.accountId, 'marketplace');
    const written = (await cached(m.key))!;
    expect(written.kind).toBe('marketplace');
    await writeOldFormat(m.key);
    const entry = await authorizeKey(marketplace(m.key), gatewayCache(), 'proxy-secret-0123456');
    expect(entry).toMatchObject({ keyId: m.keyId, kind: 'marketplace' });
    expect(await cached(m.key)).toEqual(written); // rewritten, with its kind, though its version did not change
    // And as Bearer it is refused for what it is (403), not served as a standard key.
    await writeOldFormat(m.key);
    await expect(authorizeKey({ authorization: `Bearer ${m.key}` }, gatewayCache())).rejects.toMatchObject({
      status: 403,
    });
  });

  it('is replaced by a restore and by a rebuild whatever its version, and is not an answer of the key lookup', async () => {
    const a = await f.fundedAccount(1);
    const m = await issueKey(f.deps, a.accountId, 'marketplace');
    const written = (await cached(m.key))!;
    await writeOldFormat(m.key);
    expect(await restoreKey(pool, f.redis, f.layout.prefix, hashApiKey(m.key))).toEqual(written);
    await writeOldFormat(m.key);
    const service = new KeyLookupService({ pool, redis: f.redis, prefix: f.layout.prefix });
    expect(await service.lookup(hashApiKey(m.key))).toEqual(written);
    await writeOldFormat(m.key);
    await rebuildKeyCache(pool, f.redis, f.layout.prefix);
    expect(await cached(m.key)).toEqual(written);
  });

  it('while account-billing cannot answer, counts as a standard key as before (the key exists: not a 503)', async () => {
    const a = await f.fundedAccount(1);
    await writeOldFormat(a.key);
    const cut = new KeyCache(f.redis, f.layout.prefix, {
      ttlMs: 0,
      resolver: httpKeyResolver('http://127.0.0.1:9', GATEWAY_KEY, { warn: () => {} }),
    });
    expect(await authorizeKey({ authorization: `Bearer ${a.key}` }, cut)).toMatchObject({ keyId: a.keyId });
  });
});

describe('what a key lookup costs and what is counted', () => {
  it('a key the cache holds, or knows not to exist, is answered from Redis without a token: a flood does not refuse it', async () => {
    const a = await f.fundedAccount(1);
    const counting = connectionCountingPool(pool);
    // One token a second and a stopped clock: after one look-up in PostgreSQL this process may make no other.
    const frozen = Date.now();
    const service = new KeyLookupService(
      { pool: counting.pool, redis: f.redis, prefix: f.layout.prefix },
      { perProcessPerSecond: 1, systemPerSecond: 1_000 },
      () => frozen,
    );
    const unknown = hashApiKey(`pra_live_${randomBytes(16).toString('hex')}`);
    expect(await service.lookup(unknown)).toBeNull(); // the token, spent on PostgreSQL
    expect(counting.connections()).toBe(1);
    await expect(service.lookup(hashApiKey(`pra_live_${randomBytes(16).toString('hex')}`))).rejects.toMatchObject({
      status: 503,
      headers: { 'retry-after': '1' },
    });
    // Held (another gateway restored it) and negatively cached: answered, no token, no PostgreSQL.
    expect((await service.lookup(hashApiKey(a.key)))?.keyId).toBe(a.keyId);
    expect(await service.lookup(unknown)).toBeNull();
    expect(counting.connections()).toBe(1);
  });

  it('counts negative-cache answers apart from look-ups through account-billing', async () => {
    const key = `pra_live_${randomBytes(16).toString('hex')}`;
    const from = counted.length;
    expect(await gatewayCache().lookup(key)).toBeNull(); // asked of account-billing
    expect(await gatewayCache().lookup(key)).toBeNull(); // the negative cache
    expect(await gatewayCache().lookup(key)).toBeNull();
    expect(countOf('pra.keycache.lookups', { result: 'resolved' }, from)).toBe(1);
    expect(countOf('pra.keycache.lookups', { result: 'negative' }, from)).toBe(2);
    expect(countOf('pra.keycache.lookups', { result: 'miss' }, from)).toBe(0);
  });

  it('a failed look-up through account-billing is counted by reason and logged at most once every 10 s a reason, never with the key', async () => {
    const a = await f.fundedAccount(1);
    const hash = hashApiKey(a.key);
    let clock = Date.now();
    const lines: KeyResolveWarning[] = [];
    const options = { warn: (w: KeyResolveWarning) => lines.push(w), now: () => clock };
    const nowhere = await closedPort();
    const unreachable = httpKeyResolver(nowhere, GATEWAY_KEY, options);
    const from = counted.length;
    for (let i = 0; i < 3; i++) await expect(unreachable(hash)).rejects.toMatchObject({ status: 503 });
    expect(countOf('pra.keycache.resolve.failures', { reason: 'unreachable' }, from)).toBe(3);
    expect(lines).toEqual([
      expect.objectContaining({ reason: 'unreachable', error: 'ECONNREFUSED', url: nowhere, suppressed: 0 }),
    ]);
    clock += KEY_RESOLVE_LOG_EVERY_MS;
    await expect(unreachable(hash)).rejects.toMatchObject({ status: 503 });
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatchObject({ reason: 'unreachable', suppressed: 2 });
    // Refused by account-billing (another key than the gateway's): its own reason, with the status.
    const refused = httpKeyResolver(app.url, `x${GATEWAY_KEY}`, options);
    await expect(refused(hash)).rejects.toMatchObject({ status: 503 });
    await expect(refused(hash)).rejects.toMatchObject({ status: 503 });
    expect(countOf('pra.keycache.resolve.failures', { reason: 'status', 'http.response.status_code': 401 }, from)).toBe(
      2,
    );
    expect(lines).toHaveLength(3);
    expect(lines[2]).toMatchObject({ reason: 'status', status: 401, suppressed: 0 });
    const logged = JSON.stringify(lines);
    expect(logged).not.toContain(hash);
    expect(logged).not.toContain(a.key);
  });
});

describe('the bound on lookups', () => {
  it(`holds PostgreSQL to ${KEY_LOOKUP_LIMITS.perProcessPerSecond} lookups/s a process and ${KEY_LOOKUP_LIMITS.systemPerSecond}/s in all; past it a 503 with Retry-After`, async () => {
    const prefix = `${f.layout.prefix}rb${randomBytes(2).toString('hex')}:`;
    const counting = connectionCountingPool(pool);
    let lookedBefore = 0;
    const looked = () => counting.connections() - lookedBefore;
    // Three account-billing processes: each bounded by its own bucket, all three by the one in Redis.
    const processes = [0, 1, 2].map(() => new KeyLookupService({ pool: counting.pool, redis: f.redis, prefix }));
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
    expect(looked()).toBe(600 - refused.length);
    // The system's bucket: its size (one second's worth) plus what refills while the burst runs.
    expect(looked()).toBeLessThanOrEqual(
      KEY_LOOKUP_LIMITS.systemPerSecond + Math.ceil(KEY_LOOKUP_LIMITS.systemPerSecond * seconds),
    );
    expect(looked()).toBeGreaterThanOrEqual(KEY_LOOKUP_LIMITS.systemPerSecond - 1);
    for (const o of refused)
      expect((o as { err: { status?: number; headers?: Record<string, string> } }).err).toMatchObject({
        status: 503,
        headers: { 'retry-after': '1' },
      });
    // One process alone: its own bucket holds it to its rate, whatever the system's budget.
    const alone = new KeyLookupService({ pool: counting.pool, redis: f.redis, prefix: `${prefix}alone:` });
    lookedBefore = counting.connections();
    const t0 = Date.now();
    await Promise.allSettled(
      Array.from({ length: 200 }, () => alone.lookup(hashApiKey(randomBytes(16).toString('hex')))),
    );
    expect(looked()).toBeLessThanOrEqual(
      KEY_LOOKUP_LIMITS.perProcessPerSecond +
        Math.ceil((KEY_LOOKUP_LIMITS.perProcessPerSecond * (Date.now() - t0)) / 1000),
    );
    // A second later the budget is back: a real key is served.
    await new Promise((r) => setTimeout(r, 1_100));
    const a = await f.fundedAccount(1);
    expect((await processes[0]!.lookup(hashApiKey(a.key)))?.keyId).toBe(a.keyId);
    expect(await f.redis.exists(keyCacheLayout(prefix, false).lookupBudget)).toBe(1);
  });

  it(`a gateway asks account-billing about at most ${KEY_RESOLVES_PER_SECOND} keys a second; past it, a 503 with Retry-After`, async () => {
    let asked = 0;
    const cache = new KeyCache(f.redis, f.layout.prefix, {
      ttlMs: 0,
      resolver: async () => {
        asked++;
        return null;
      },
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
