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

/** Rewrites the whole key cache from PostgreSQL (a suspended account's keys count as disabled). */
export async function rebuildKeyCache(pool: Pool, redis: Redis, prefix: string): Promise<number> {
  const { rows } = await pool.query<KeyRow>(`${KEY_ROWS} ORDER BY k.id`);
  const m = redis.multi();
  for (const r of rows) m.set(keyCacheKey(prefix, r.key_hash), JSON.stringify(keyCacheEntry(r)));
  await m.exec();
  return rows.length;
}

interface KeyRow {
  id: number;
  account_id: number;
  key_hash: string;
  status: string;
  tier: string;
  account_status: string;
  rate_limit_override: number | null;
  daily_quota_override: number | null;
}

const KEY_ROWS = `SELECT k.id, k.account_id, k.key_hash, k.status, a.tier, a.status AS account_status,
    a.rate_limit_override, a.daily_quota_override
  FROM billing.api_keys k JOIN billing.accounts a ON a.id = k.account_id`;

function keyCacheEntry(r: KeyRow): KeyCacheEntry {
  return {
    keyId: r.id,
    accountId: r.account_id,
    tier: r.tier as KeyCacheEntry['tier'],
    status: r.status === 'active' && r.account_status === 'active' ? 'active' : 'disabled',
    ...(r.rate_limit_override !== null ? { ratePerMinute: r.rate_limit_override } : {}),
    ...(r.daily_quota_override !== null ? { dailyQuota: r.daily_quota_override } : {}),
  };
}

/** Rewrites the key cache entries of one account (after a key or limit change), from PostgreSQL. */
export async function refreshAccountKeys(pool: Pool, redis: Redis, prefix: string, accountId: number): Promise<void> {
  const { rows } = await pool.query<KeyRow>(`${KEY_ROWS} WHERE k.account_id = $1`, [accountId]);
  const m = redis.multi();
  for (const r of rows) m.set(keyCacheKey(prefix, r.key_hash), JSON.stringify(keyCacheEntry(r)));
  await m.exec();
}
