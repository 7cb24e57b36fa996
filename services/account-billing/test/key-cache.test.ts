// The key cache as the gateway and the services read it: a disable is in effect everywhere within a second or not
// at all, and nothing but an enable brings a disabled key back (not a rebuild that raced the disable).
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { createPool, createRedis, type Pool } from '@pra/platform';
import { KeyCache, keyCacheKey, keyCacheLoadedKey } from '@pra/account-billing/client';
import { redisLayout } from '../src/data/redis-layout.js';
import { hashApiKey } from '@pra/core/auth';
import { UsagePipeline } from '../src/workers/pipeline.js';
import { issueKey, setKeyStatus } from '../src/domain/accounts.js';
import { rebuildKeyCache } from '../src/data/key-cache-writer.js';
import { KeyLookupService } from '../src/domain/key-lookup.js';
import { billingFixture, type BillingFixture } from './billing-fixtures.js';

let pool: Pool;
let f: BillingFixture;

beforeAll(async () => {
  pool = createPool(inject('databaseUrl'), 4);
  f = await billingFixture(pool, inject('redisUrl'), `${inject('redisPrefix')}kc${randomBytes(3).toString('hex')}:`);
});
afterAll(async () => {
  await f.close();
  await pool.end();
});

const status = async (keyId: number) =>
  (await pool.query<{ status: string }>('SELECT status FROM billing.api_keys WHERE id = $1', [keyId])).rows[0]!.status;

describe('key cache', () => {
  it('a rebuild that read the database before a key was disabled cannot bring the key back', async () => {
    const a = await f.fundedAccount(1);
    // The rebuild's snapshot is taken before the disable commits...
    const snapshot = await pool.connect();
    try {
      await snapshot.query('BEGIN ISOLATION LEVEL REPEATABLE READ');
      await snapshot.query('SELECT 1 FROM billing.api_keys LIMIT 1');
      await setKeyStatus(f.deps, a.keyId, 'disabled');
      expect((await f.keys.lookup(a.key))?.status).toBe('disabled');
      // ...and its writes land after it: they are older than the disable and are not applied.
      await rebuildKeyCache(snapshot, f.redis, f.layout.prefix);
      await snapshot.query('COMMIT');
    } finally {
      snapshot.release();
    }
    expect((await f.keys.lookup(a.key))?.status).toBe('disabled');
    await setKeyStatus(f.deps, a.keyId, 'active');
    expect((await f.keys.lookup(a.key))?.status).toBe('active');
    await rebuildKeyCache(pool, f.redis, f.layout.prefix);
    expect((await f.keys.lookup(a.key))?.status).toBe('active');
  });

  it('when Redis cannot take the change, the disable fails with 503 and nothing changes', async () => {
    const a = await f.fundedAccount(1);
    const down = createRedis('redis://127.0.0.1:1', 'producer');
    down.on('error', () => {});
    try {
      await expect(setKeyStatus({ ...f.deps, redis: down }, a.keyId, 'disabled')).rejects.toMatchObject({
        status: 503,
      });
    } finally {
      down.disconnect();
    }
    expect(await status(a.keyId)).toBe('active'); // not disabled in PostgreSQL while the cache still says active
    expect((await f.keys.lookup(a.key))?.status).toBe('active');
    await setKeyStatus(f.deps, a.keyId, 'disabled');
    expect(await status(a.keyId)).toBe('disabled');
  });

  it("a disable reaches a gateway's in-process cache within one second", async () => {
    const a = await f.fundedAccount(1);
    const gatewayCache = new KeyCache(f.redis, f.layout.prefix); // the default 1 s local cache
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      expect((await gatewayCache.lookup(a.key))?.status).toBe('active');
      await setKeyStatus(f.deps, a.keyId, 'disabled');
      vi.setSystemTime(Date.now() + 1_000);
      expect((await gatewayCache.lookup(a.key))?.status).toBe('disabled');
    } finally {
      vi.useRealTimers();
    }
  });
});

/**
 * Runs `body` while every transaction that touches the rows `where` picks fails at COMMIT (a deferred constraint
 * trigger of this test's own): after the point where a key change writes the cache before committing.
 */
async function failingCommit(event: 'UPDATE' | 'INSERT', where: string, body: () => Promise<void>): Promise<void> {
  const name = `test_fail_commit_${randomBytes(4).toString('hex')}`;
  await pool.query(
    `CREATE FUNCTION billing.${name}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'the commit fails (test)'; END $$`,
  );
  await pool.query(
    `CREATE CONSTRAINT TRIGGER ${name} AFTER ${event} ON billing.api_keys DEFERRABLE INITIALLY DEFERRED
     FOR EACH ROW WHEN (${where}) EXECUTE FUNCTION billing.${name}()`,
  );
  try {
    await body();
  } finally {
    await pool.query(`DROP TRIGGER ${name} ON billing.api_keys`);
    await pool.query(`DROP FUNCTION billing.${name}()`);
  }
}

describe('a cache of the format before kinds', () => {
  it('is rebuilt by the first account-billing of the new format: its entries get their kinds', async () => {
    const a = await f.fundedAccount(1);
    const m = await issueKey(f.deps, a.accountId, 'marketplace');
    const prefix = `${f.layout.prefix}fmt${randomBytes(2).toString('hex')}:`;
    const layout = redisLayout(prefix);
    await rebuildKeyCache(pool, f.redis, prefix);
    // As the previous version left it: the marker it knew (`keys:loaded`), entries without a kind.
    const entryKey = keyCacheKey(prefix, hashApiKey(m.key));
    const { kind: _kind, ...old } = JSON.parse((await f.redis.get(entryKey))!);
    await f.redis.set(entryKey, JSON.stringify(old));
    await f.redis.del(keyCacheLoadedKey(prefix));
    await f.redis.set(`${prefix}keys:loaded`, 'format 1');
    await f.redis.set(layout.shards[0]!.loaded, 'test'); // balances are loaded: only the keys are rebuilt
    const pipeline = new UsagePipeline({ pool, redisUrl: inject('redisUrl'), layout, log: () => {} });
    try {
      expect(await pipeline.ensureLoaded(f.redis)).toBe(true);
    } finally {
      await pipeline.stop();
    }
    expect(JSON.parse((await f.redis.get(entryKey))!)).toMatchObject({ kind: 'marketplace', v: old.v });
    expect(await f.redis.exists(keyCacheLoadedKey(prefix))).toBe(1);
  });
});

describe('key-cache writes cannot outlive a rolled-back change', () => {
  /** A gateway's view: the cache, and for a key it does not hold, the database through the key lookup. */
  const gateway = () => {
    const lookups = new KeyLookupService({ pool, redis: f.redis, prefix: f.layout.prefix });
    return new KeyCache(f.redis, f.layout.prefix, { ttlMs: 0, resolver: (hash) => lookups.lookup(hash) });
  };

  it('an enable whose commit fails leaves the key disabled in the cache', async () => {
    const a = await f.fundedAccount(1);
    await setKeyStatus(f.deps, a.keyId, 'disabled');
    await failingCommit('UPDATE', `NEW.id = ${a.keyId}`, async () => {
      await expect(setKeyStatus(f.deps, a.keyId, 'active')).rejects.toThrow(/the commit fails/);
    });
    expect(await status(a.keyId)).toBe('disabled');
    expect((await f.keys.lookup(a.key))?.status).not.toBe('active');
    expect((await gateway().lookup(a.key))?.status).toBe('disabled');
    // The enable, done again, works.
    await setKeyStatus(f.deps, a.keyId, 'active');
    expect((await gateway().lookup(a.key))?.status).toBe('active');
  });

  it('a disable whose commit fails does not lock the key out: its entry is dropped and reloaded as active', async () => {
    const a = await f.fundedAccount(1);
    await failingCommit('UPDATE', `NEW.id = ${a.keyId}`, async () => {
      await expect(setKeyStatus(f.deps, a.keyId, 'disabled')).rejects.toThrow(/the commit fails/);
    });
    expect(await status(a.keyId)).toBe('active');
    expect((await gateway().lookup(a.key))?.status).toBe('active');
    // And a rebuild agrees (the entry restored carries the committed version, not the rolled-back one).
    await rebuildKeyCache(pool, f.redis, f.layout.prefix);
    expect((await f.keys.lookup(a.key))?.status).toBe('active');
  });

  it('a disable whose Redis write landed but whose reply was lost (rolled back) does not lock the key out', async () => {
    const a = await f.fundedAccount(1);
    // The write reaches Redis, then the client gives up on the reply (a command timeout on a slow Redis).
    const lossy = new Proxy(f.redis, {
      get(target, prop) {
        if (prop === 'eval') {
          // The cache's writes go as EVAL (data/key-cache-writer.ts).
          return async (...args: unknown[]) => {
            await (target as unknown as { eval(...a: unknown[]): Promise<number> }).eval(...args);
            throw new Error('Command timed out');
          };
        }
        const v = Reflect.get(target, prop);
        return typeof v === 'function' ? v.bind(target) : v;
      },
    });
    await expect(setKeyStatus({ ...f.deps, redis: lossy }, a.keyId, 'disabled')).rejects.toMatchObject({
      status: 503,
    });
    expect(await status(a.keyId)).toBe('active');
    expect((await gateway().lookup(a.key))?.status).toBe('active');
    await rebuildKeyCache(pool, f.redis, f.layout.prefix);
    expect((await f.keys.lookup(a.key))?.status).toBe('active');

    // The same, and the delete that follows fails too: the keys get newer versions, and a rebuild replaces the entry.
    const b = await f.fundedAccount(1);
    const deaf = new Proxy(lossy, {
      get(target, prop) {
        if (prop === 'del') return async () => Promise.reject(new Error('Connection is closed'));
        return Reflect.get(target, prop);
      },
    });
    await expect(setKeyStatus({ ...f.deps, redis: deaf }, b.keyId, 'disabled')).rejects.toMatchObject({ status: 503 });
    expect((await f.keys.lookup(b.key))?.status).toBe('disabled'); // what the lost write left
    await rebuildKeyCache(pool, f.redis, f.layout.prefix);
    expect((await f.keys.lookup(b.key))?.status).toBe('active');
  });

  it('a new key whose creation fails to commit never reaches the cache', async () => {
    const a = await f.fundedAccount(1);
    const entriesOfAccount = async () => {
      let n = 0;
      let cursor = '0';
      do {
        const [next, keys] = await f.redis.scan(cursor, 'MATCH', `${f.layout.prefix}key:*`, 'COUNT', 1000);
        for (const text of keys.length ? await f.redis.mget(...keys) : [])
          if (text && JSON.parse(text).accountId === a.accountId) n++;
        cursor = next;
      } while (cursor !== '0');
      return n;
    };
    expect(await entriesOfAccount()).toBe(1);
    await failingCommit('INSERT', `NEW.account_id = ${a.accountId}`, async () => {
      await expect(issueKey(f.deps, a.accountId)).rejects.toThrow(/the commit fails/);
    });
    expect(await entriesOfAccount()).toBe(1);
  });
});
