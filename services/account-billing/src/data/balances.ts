// Redis mirrors of PostgreSQL: unexpired grant balances (what charging reads) and the API key cache.
import type { Redis } from 'ioredis';
import { keyCacheKey, type KeyCacheEntry, type Pool } from '@pra/shared/platform';
import type { RedisLayout } from './redis-layout.js';

interface GrantRow {
  id: number;
  account_id: number;
  remaining: number;
  expires_at: Date;
}

/** Writes grants into Redis (replacing the remaining count of each). */
export async function putGrants(redis: Redis, l: RedisLayout, grants: readonly GrantRow[]): Promise<void> {
  const m = redis.multi();
  for (const g of grants) {
    m.hset(l.grants(g.account_id), String(g.id), g.remaining);
    m.zadd(l.expiry(g.account_id), g.expires_at.getTime(), String(g.id));
  }
  await m.exec();
}

/**
 * Loads every unexpired balance from PostgreSQL, then sets the `loaded` marker: until then charging fails closed.
 * Used at start and after Redis comes back empty; charges already in flight were lost with the wipe, in the
 * customer's favour, and nothing can be charged twice or past the balance.
 */
export async function reloadBalances(pool: Pool, redis: Redis, l: RedisLayout): Promise<number> {
  // Redis's own clock at the start: every charge made before the wipe has an outbox id older than this, every
  // charge after the reload a newer one. The marker keeps it, so reconciliation can order events across the wipe
  // (the outbox stream's own ids start again from 0 after it).
  const [seconds, micros] = await redis.time();
  const startedMs = Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
  const { rows } = await pool.query<GrantRow>(
    'SELECT id, account_id, remaining, expires_at FROM billing.credit_grants WHERE remaining > 0 AND expires_at > now()',
  );
  for (let i = 0; i < rows.length; i += 1_000) await putGrants(redis, l, rows.slice(i, i + 1_000));
  await redis.set(l.loaded, String(startedMs));
  return rows.length;
}

export async function putKeyCache(redis: Redis, prefix: string, keyHash: string, entry: KeyCacheEntry): Promise<void> {
  await redis.set(keyCacheKey(prefix, keyHash), JSON.stringify(entry));
}

/** Rewrites the whole key cache from PostgreSQL (a suspended account's keys count as disabled). */
export async function rebuildKeyCache(pool: Pool, redis: Redis, prefix: string): Promise<number> {
  const { rows } = await pool.query<{ id: number; account_id: number; key_hash: string; status: string; tier: string; account_status: string }>(
    `SELECT k.id, k.account_id, k.key_hash, k.status, a.tier, a.status AS account_status
       FROM billing.api_keys k JOIN billing.accounts a ON a.id = k.account_id`,
  );
  const m = redis.multi();
  for (const r of rows) {
    const entry: KeyCacheEntry = {
      keyId: r.id,
      accountId: r.account_id,
      tier: r.tier as KeyCacheEntry['tier'],
      status: r.status === 'active' && r.account_status === 'active' ? 'active' : 'disabled',
    };
    m.set(keyCacheKey(prefix, r.key_hash), JSON.stringify(entry));
  }
  await m.exec();
  return rows.length;
}
