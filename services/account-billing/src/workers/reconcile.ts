// Reconciles Redis balances against PostgreSQL without stopping traffic. One atomic Redis snapshot (MULTI) takes
// the balances and the stream's last id L; the outbox (every charge not yet in the ledger: an entry leaves it only
// after its write commits, however long PostgreSQL is away) is then read up to L in chunks. Then, per grant:
//   expected Redis remaining = PostgreSQL remaining
//     + credits of events already in PostgreSQL but charged after L (the snapshot predates them)
//     - credits of events charged up to L that PostgreSQL does not have yet (still in the outbox)
// Drift is repaired with HINCRBY by the difference, so later charges are kept and a second run finds nothing.
import type { Redis } from 'ioredis';
import type { Pool } from '@pra/platform';
import type { RedisLayout } from '../data/redis-layout.js';
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
  layout: RedisLayout,
  watermark: string,
  chunk: number,
): Promise<Map<string, UsageEvent['consumed']>> {
  const pending = new Map<string, UsageEvent['consumed']>();
  for (let start = '-'; ; ) {
    const entries = (await redis.xrange(layout.outbox, start, watermark, 'COUNT', chunk)) as [string, string[]][];
    for (const [id, fields] of entries) {
      const e = eventFromStream(id, fields);
      if (e.credits > 0) pending.set(e.txid, e.consumed);
    }
    if (entries.length < chunk) return pending;
    start = `(${entries[entries.length - 1]![0]}`;
  }
}

export async function reconcile(
  pool: Pool,
  redis: Redis,
  layout: RedisLayout,
  chunk = RECONCILE_CHUNK,
): Promise<{ checked: number; drift: Drift[] }> {
  if (!(await redis.exists(layout.loaded))) return { checked: 0, drift: [] }; // the reload owns an empty Redis
  const { rows: grants } = await pool.query<{ id: number; account_id: number; expires_at: Date }>(
    'SELECT id, account_id, expires_at FROM billing.credit_grants WHERE expires_at > now()',
  );
  const accounts = [...new Set(grants.map((g) => g.account_id))];
  if (accounts.length === 0) return { checked: 0, drift: [] };

  const snapshotAt = new Date();
  const m = redis.multi();
  for (const a of accounts) m.hgetall(layout.grants(a));
  m.xinfo('STREAM', layout.outbox);
  m.get(layout.loaded);
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
  // Redis emptied between the check above and the snapshot: the reload owns it (nothing to compare against).
  const loadedMarker = replies[accounts.length + 1]?.[1] as string | null | undefined;
  if (!loadedMarker) return { checked: 0, drift: [] };
  // After a wipe the stream's ids restart at 0: events charged before the reload are older than its start.
  const loadedAtMs = Number(loadedMarker) || 0;
  const reloadWatermark = `${loadedAtMs}-${Number.MAX_SAFE_INTEGER}`;
  const watermark = streamIdAfter(reloadWatermark, streamWatermark) ? reloadWatermark : streamWatermark;

  // Charges up to the watermark that may not be in PostgreSQL yet: still in the outbox. Read in chunks, after the
  // snapshot and before PostgreSQL's: an entry gone by the time its chunk is read was committed before that, so
  // PostgreSQL's snapshot below has it. Calls (0 credits) take no credit and are not kept.
  const pending = await pendingCharges(redis, layout, watermark, chunk);

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
    const ids = [...pending.keys()];
    for (let i = 0; i < ids.length; i += chunk) {
      const { rows: applied } = await client.query<{ transaction_id: string }>(
        'SELECT transaction_id FROM billing.usage_events WHERE transaction_id = ANY($1::uuid[])',
        [ids.slice(i, i + chunk)],
      );
      for (const r of applied) pending.delete(r.transaction_id);
    }
    const { rows: later } = await client.query<{ grant_id: number; credits: number; stream_id: string }>(
      `SELECT l.grant_id, -l.amount AS credits, e.stream_id FROM billing.usage_events e
         JOIN billing.ledger_entries l ON l.transaction_id = e.transaction_id AND l.kind = 'charge'
        WHERE e.recorded_at >= $1::timestamptz - interval '10 seconds'`,
      [snapshotAt],
    );
    for (const r of later)
      if (streamIdAfter(r.stream_id, watermark)) adjust.set(r.grant_id, (adjust.get(r.grant_id) ?? 0) + r.credits);
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    throw err;
  } finally {
    client.release();
  }
  for (const consumed of pending.values())
    for (const c of consumed) adjust.set(c.grantId, (adjust.get(c.grantId) ?? 0) - c.credits);

  const drift: Drift[] = [];
  const keys: string[] = [layout.loaded];
  const args: (string | number)[] = [loadedMarker];
  for (const g of grants) {
    const expected = (pg.get(g.id) ?? 0) + (adjust.get(g.id) ?? 0);
    const actual = redisRemaining.get(g.id) ?? 0;
    if (expected !== actual) {
      drift.push({ accountId: g.account_id, grantId: g.id, redis: actual, expected });
      keys.push(layout.grants(g.account_id), layout.expiry(g.account_id));
      args.push(String(g.id), expected - actual, g.expires_at.getTime());
    }
  }
  if (drift.length === 0) return { checked: grants.length, drift };
  // Applied only if Redis is still the one the snapshot read (same `loaded` marker): a repair computed before a wipe
  // must not be added on top of the reload that followed it.
  const applied = (await redis.eval(APPLY_REPAIRS, keys.length, ...keys, ...args)) as number;
  return { checked: grants.length, drift: applied < 0 ? [] : drift };
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
