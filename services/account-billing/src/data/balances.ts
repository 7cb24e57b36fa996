// Redis mirror of PostgreSQL's unexpired grant balances (what charging reads). The key cache: key-cache.ts.
import type { Redis } from 'ioredis';
import type { Pool } from '@pra/platform';
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
