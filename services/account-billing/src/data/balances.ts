// Redis mirror of PostgreSQL's unexpired grant balances (what charging reads). The key cache: key-cache.ts.
import type { Redis } from 'ioredis';
import type { Pool } from '@pra/platform';
import { BILLING_BUCKETS, byShard, type BillingShard, type RedisLayout } from './redis-layout.js';

interface GrantRow {
  id: number;
  account_id: number;
  remaining: number;
  expires_at: Date;
}

/** Writes grants into Redis (replacing the remaining count of each): one MULTI per shard. */
export async function putGrants(redis: Redis, l: RedisLayout, grants: readonly GrantRow[]): Promise<void> {
  await Promise.all(
    [...byShard(l, grants, (g) => g.account_id).values()].map((group) => {
      const m = redis.multi();
      for (const g of group) {
        m.hset(l.grants(g.account_id), String(g.id), g.remaining);
        m.zadd(l.expiry(g.account_id), g.expires_at.getTime(), String(g.id));
      }
      return m.exec();
    }),
  );
}

const NODE_CLOCK = `local t = redis.call('TIME') return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)`;

/**
 * The clock (ms) of the Redis node that serves a shard: its outbox ids are stamped by that clock, so a shard's
 * `loaded` time must come from it too (the script names the shard's key, so a cluster runs it on that node).
 */
export async function shardClock(redis: Redis, shard: BillingShard): Promise<number> {
  return Number(await redis.eval(NODE_CLOCK, 1, shard.loaded));
}

/**
 * Loads the unexpired balances of the given shards (all by default) from PostgreSQL, then sets their `loaded`
 * markers: until then charging their accounts fails closed. Used at start and after Redis (or one node of a
 * cluster) comes back empty; charges already in flight were lost with the wipe, in the customer's favour, and
 * nothing can be charged twice or past the balance.
 */
export async function reloadBalances(
  pool: Pool,
  redis: Redis,
  l: RedisLayout,
  shards: readonly BillingShard[] = l.shards,
): Promise<number> {
  // Each node's own clock at the start: every charge made before the wipe has an outbox id older than this, every
  // charge after the reload a newer one. The marker keeps it, so reconciliation can order events across the wipe
  // (the outbox stream's own ids start again from 0 after it).
  const started = await Promise.all(shards.map((s) => shardClock(redis, s)));
  const buckets = shards.flatMap((s) => s.buckets);
  const { rows } = await pool.query<GrantRow>(
    `SELECT id, account_id, remaining, expires_at FROM billing.credit_grants
      WHERE remaining > 0 AND expires_at > now() AND account_id % $2 = ANY($1::int[])`,
    [buckets, BILLING_BUCKETS],
  );
  for (let i = 0; i < rows.length; i += 1_000) await putGrants(redis, l, rows.slice(i, i + 1_000));
  await Promise.all(shards.map((s, i) => redis.set(s.loaded, String(started[i]))));
  return rows.length;
}
