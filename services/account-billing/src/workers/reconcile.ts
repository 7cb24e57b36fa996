// Reconciles Redis balances against PostgreSQL without stopping traffic. Per shard (one on a single Redis, one per
// bucket in a cluster: data/redis-layout.ts), one atomic Redis snapshot (MULTI) takes its balances and its outbox
// stream's last id L; the outbox (every charge not yet in the ledger: an entry leaves it only
// after its write commits, however long PostgreSQL is away) is then read up to L in chunks. Then, per grant:
//   expected Redis remaining = PostgreSQL remaining
//     + credits of events already in PostgreSQL but charged after L (the snapshot predates them)
//     - credits of events charged up to L that PostgreSQL does not have yet (still in the outbox)
// Drift is repaired with HINCRBY by the difference, so later charges are kept and a second run finds nothing.
import type { Redis } from 'ioredis';
import type { Pool } from '@pra/platform';
import { byShard, type BillingShard, type RedisLayout } from '../data/redis-layout.js';
import { eventFromStream, streamIdAfter, type UsageEvent } from '../domain/usage-event.js';

export interface Drift {
  accountId: number;
  grantId: number;
  redis: number;
  expected: number;
}

/** Outbox entries read, and transaction ids looked up, per round trip: memory stays flat whatever the outbox. */
export const RECONCILE_CHUNK = 2_000;

/** The credits taken by each charge up to `watermark` still in the outbox, by event id, read `chunk` at a time. */
async function pendingCharges(
  redis: Redis,
  outbox: string,
  watermark: string,
  chunk: number,
): Promise<Map<string, UsageEvent['consumed']>> {
  const pending = new Map<string, UsageEvent['consumed']>();
  for (let start = '-'; ; ) {
    const entries = (await redis.xrange(outbox, start, watermark, 'COUNT', chunk)) as [string, string[]][];
    for (const [id, fields] of entries) {
      const e = eventFromStream(id, fields);
      // Charges and reversals (negative: credits given back in Redis that PostgreSQL does not have yet).
      if (e.credits !== 0) pending.set(e.txid, e.consumed);
    }
    if (entries.length < chunk) return pending;
    start = `(${entries[entries.length - 1]![0]}`;
  }
}

/** What one shard's atomic snapshot says: its accounts' balances in Redis and how far its outbox goes. */
interface ShardSnapshot {
  shard: BillingShard;
  accounts: number[];
  redisRemaining: Map<number, number>;
  /** The `loaded` marker the snapshot saw (repairs are applied only while it is still the same). */
  loadedMarker: string;
  watermark: string;
  /** Credits of charges up to the watermark still in the outbox, by transaction id. */
  pending: Map<string, UsageEvent['consumed']>;
}

/**
 * One shard's snapshot (one MULTI: all its keys are of one slot), then its outbox up to the snapshot, read in chunks.
 * Null when the shard is not loaded (the reload owns it: nothing to compare against).
 */
async function snapshotShard(
  redis: Redis,
  layout: RedisLayout,
  shard: BillingShard,
  accounts: number[],
  chunk: number,
): Promise<ShardSnapshot | null> {
  const m = redis.multi();
  for (const a of accounts) m.hgetall(layout.grants(a));
  m.xinfo('STREAM', shard.outbox);
  m.get(shard.loaded);
  const replies = (await m.exec()) ?? [];
  const redisRemaining = new Map<number, number>();
  accounts.forEach((_, i) => {
    const h = (replies[i]?.[1] ?? {}) as Record<string, string>;
    for (const [g, v] of Object.entries(h)) redisRemaining.set(Number(g), Number(v));
  });
  const info = replies[accounts.length];
  const infoFields = (info && !info[0] ? (info[1] as unknown[]) : []) as unknown[];
  const lastIdIndex = infoFields.indexOf('last-generated-id');
  const streamWatermark = lastIdIndex >= 0 ? String(infoFields[lastIdIndex + 1]) : '0-0';
  // Redis emptied between the caller's check and the snapshot: the reload owns it.
  const loadedMarker = replies[accounts.length + 1]?.[1] as string | null | undefined;
  if (!loadedMarker) return null;
  // After a wipe the stream's ids restart at 0: events charged before the reload are older than its start.
  const loadedAtMs = Number(loadedMarker) || 0;
  const reloadWatermark = `${loadedAtMs}-${Number.MAX_SAFE_INTEGER}`;
  const watermark = streamIdAfter(reloadWatermark, streamWatermark) ? reloadWatermark : streamWatermark;
  // Charges up to the watermark that may not be in PostgreSQL yet: still in the outbox. Read in chunks, after the
  // snapshot and before PostgreSQL's: an entry gone by the time its chunk is read was committed before that, so
  // PostgreSQL's snapshot has it. Calls (0 credits) take no credit and are not kept.
  const pending = await pendingCharges(redis, shard.outbox, watermark, chunk);
  return { shard, accounts, redisRemaining, loadedMarker, watermark, pending };
}

export async function reconcile(
  pool: Pool,
  redis: Redis,
  layout: RedisLayout,
  chunk = RECONCILE_CHUNK,
): Promise<{ checked: number; drift: Drift[] }> {
  const { rows: grants } = await pool.query<{ id: number; account_id: number; expires_at: Date }>(
    'SELECT id, account_id, expires_at FROM billing.credit_grants WHERE expires_at > now()',
  );
  const accounts = [...new Set(grants.map((g) => g.account_id))];
  if (accounts.length === 0) return { checked: 0, drift: [] };

  // Every shard's Redis snapshot (and its outbox read) comes before PostgreSQL's snapshot below: each shard's
  // argument is the single Redis's, with its own watermark.
  const snapshotAt = new Date();
  const snapshots = (
    await Promise.all(
      [...byShard(layout, accounts, (a) => a).entries()].map(([index, shardAccounts]) =>
        snapshotShard(redis, layout, layout.shards[index]!, shardAccounts, chunk),
      ),
    )
  ).filter((s): s is ShardSnapshot => s !== null);
  if (snapshots.length === 0) return { checked: 0, drift: [] };
  const snapshotOf = new Map<number, ShardSnapshot>();
  for (const snap of snapshots) for (const a of snap.accounts) snapshotOf.set(a, snap);

  const client = await pool.connect();
  const adjust = new Map<number, number>();
  const pg = new Map<number, number>();
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ');
    const { rows: remaining } = await client.query<{ id: number; remaining: number }>(
      'SELECT id, remaining FROM billing.credit_grants WHERE id = ANY($1)',
      [grants.map((g) => g.id)],
    );
    for (const r of remaining) pg.set(r.id, r.remaining);
    for (const snap of snapshots) {
      const ids = [...snap.pending.keys()];
      for (let i = 0; i < ids.length; i += chunk) {
        const { rows: applied } = await client.query<{ transaction_id: string }>(
          'SELECT transaction_id FROM billing.usage_events WHERE transaction_id = ANY($1::uuid[])',
          [ids.slice(i, i + chunk)],
        );
        for (const r of applied) snap.pending.delete(r.transaction_id);
      }
    }
    const { rows: later } = await client.query<{
      grant_id: number;
      account_id: number;
      credits: number;
      stream_id: string;
    }>(
      `SELECT l.grant_id, e.account_id, -l.amount AS credits, e.stream_id FROM billing.usage_events e
         JOIN billing.ledger_entries l ON l.transaction_id = e.transaction_id AND l.kind IN ('charge', 'refund')
        WHERE e.recorded_at >= $1::timestamptz - interval '10 seconds'`,
      [snapshotAt],
    );
    for (const r of later) {
      const snap = snapshotOf.get(r.account_id);
      if (snap && streamIdAfter(r.stream_id, snap.watermark))
        adjust.set(r.grant_id, (adjust.get(r.grant_id) ?? 0) + r.credits);
    }
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    throw err;
  } finally {
    client.release();
  }
  for (const snap of snapshots)
    for (const consumed of snap.pending.values())
      for (const c of consumed) adjust.set(c.grantId, (adjust.get(c.grantId) ?? 0) - c.credits);

  let checked = 0;
  const drift: Drift[] = [];
  await Promise.all(
    snapshots.map(async (snap) => {
      const mine = new Set(snap.accounts);
      const found: Drift[] = [];
      const keys: string[] = [snap.shard.loaded];
      const args: (string | number)[] = [snap.loadedMarker];
      for (const g of grants) {
        if (!mine.has(g.account_id)) continue;
        checked++;
        const expected = (pg.get(g.id) ?? 0) + (adjust.get(g.id) ?? 0);
        const actual = snap.redisRemaining.get(g.id) ?? 0;
        if (expected !== actual) {
          found.push({ accountId: g.account_id, grantId: g.id, redis: actual, expected });
          keys.push(layout.grants(g.account_id), layout.expiry(g.account_id));
          args.push(String(g.id), expected - actual, g.expires_at.getTime());
        }
      }
      if (found.length === 0) return;
      // Applied only if Redis is still the one the snapshot read (same `loaded` marker): a repair computed before a
      // wipe must not be added on top of the reload that followed it.
      const applied = (await redis.eval(APPLY_REPAIRS, keys.length, ...keys, ...args)) as number;
      if (applied >= 0) drift.push(...found);
    }),
  );
  return { checked, drift };
}

const APPLY_REPAIRS = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return -1 end
for i = 2, #KEYS, 2 do
  local j = (i - 2) / 2 * 3 + 2
  redis.call('HINCRBY', KEYS[i], ARGV[j], ARGV[j + 1])
  redis.call('ZADD', KEYS[i + 1], ARGV[j + 2], ARGV[j])
end
return (#KEYS - 1) / 2
`;
