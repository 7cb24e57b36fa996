// Writes usage events to PostgreSQL: per event (insert-if-absent on the event's own id, so a duplicated or retried
// delivery is a no-op; it is new for every charge, never the client's transaction id) the charge per grant in the
// append-only ledger, the grants' remaining credits, the daily rollup and the account's call counters. A reversal
// (a charge answered 503, its answer lost: negative credits and grants) writes a 'refund' per grant, gives the
// credits back to the grants and takes them off the day's credits used; it is no call (its charge counted the call). A whole batch
// is ONE statement (atomic, one round trip, one commit): every event of an account updates the same counter rows, so
// one-event transactions would queue on their locks.
//
// The statement checks what its events name instead of foreign keys (billing migration 0006): every account and
// grant is updated by it (so found, and locked until the commit), and a grant is its event's account's; a batch
// that names one that is not there raises and is rolled back (retried, as a foreign key violation was).
import { withTransaction, type Pool } from '@pra/platform';
import type { UsageEvent } from '../domain/usage-event.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const APPLY_BATCH = `
WITH input AS (
  SELECT * FROM unnest($1::uuid[], $2::bigint[], $3::bigint[], $4::text[], $5::int[], $6::text[], $7::float8[],
    $11::uuid[], $12::int[]) AS t(txid, account_id, key_id, endpoint, credits, stream_id, at_ms, request_id, calls)),
ev AS (
  INSERT INTO billing.usage_events
    (transaction_id, request_id, account_id, key_id, endpoint, credits, stream_id, occurred_at)
  SELECT txid, request_id, account_id, NULLIF(key_id, 0), endpoint, credits, stream_id, to_timestamp(at_ms / 1000)
    FROM input
  ON CONFLICT (transaction_id) DO NOTHING
  RETURNING transaction_id, account_id, credits, occurred_at),
-- The calls of the events written: a charge counts its call's weight (a batch: by its entries), a reversal none.
evc AS (SELECT ev.*, CASE WHEN ev.credits >= 0 THEN i.calls ELSE 0 END AS calls
          FROM ev JOIN input i ON i.txid = ev.transaction_id),
cons AS (
  SELECT c.txid, c.grant_id, c.credits, ev.account_id, ev.occurred_at
    FROM unnest($8::uuid[], $9::bigint[], $10::int[]) AS c(txid, grant_id, credits)
    JOIN ev ON ev.transaction_id = c.txid),
used AS (SELECT grant_id, account_id, sum(credits)::int AS credits FROM cons GROUP BY 1, 2),
grants AS (
  UPDATE billing.credit_grants g SET remaining = g.remaining - LEAST(g.remaining, u.credits)
    FROM used u
   WHERE g.id = u.grant_id AND g.account_id = u.account_id RETURNING 1),
ledger AS (
  INSERT INTO billing.ledger_entries (account_id, grant_id, kind, amount, transaction_id, at)
  SELECT account_id, grant_id, CASE WHEN credits < 0 THEN 'refund' ELSE 'charge' END, -credits, txid, occurred_at
    FROM cons RETURNING 1),
daily AS (
  INSERT INTO billing.daily_usage (account_id, day, calls, credits_used)
  SELECT account_id, (occurred_at AT TIME ZONE 'UTC')::date, sum(calls), sum(credits)
    FROM evc GROUP BY 1, 2
  ON CONFLICT (account_id, day) DO UPDATE
    SET calls = daily_usage.calls + EXCLUDED.calls, credits_used = daily_usage.credits_used + EXCLUDED.credits_used
  RETURNING 1),
callers AS (
  SELECT account_id, sum(calls) AS calls, max(occurred_at) AS last_used FROM evc GROUP BY 1),
accounts AS (
  UPDATE billing.accounts a SET calls_total = a.calls_total + s.calls, last_used = GREATEST(a.last_used, s.last_used)
    FROM callers s
   WHERE a.id = s.account_id RETURNING 1),
refused AS (
  SELECT billing.refuse_batch('an event names an account or a grant (of its account) that is not there')
   WHERE (SELECT count(*) FROM grants) <> (SELECT count(*) FROM used)
      OR (SELECT count(*) FROM accounts) <> (SELECT count(*) FROM callers))
SELECT count(*)::int AS written FROM ev WHERE NOT EXISTS (SELECT 1 FROM refused)`;

/**
 * Array parameters as PostgreSQL array literals, built here: the driver quotes and escapes every element on its own,
 * which was a tenth of the writer's CPU. Plain arrays hold what needs no quoting (uuids and NULL, numbers, stream
 * ids, all checked before they get here); text is quoted.
 */
const plainArray = (xs: readonly (string | number)[]) => `{${xs.join(',')}}`;
const textArray = (xs: readonly string[]) => `{${xs.map((x) => `"${x.replace(/["\\]/g, '\\$&')}"`).join(',')}}`;

/**
 * Applies a batch of events in one statement; returns how many were new (the rest were known). Only the count comes
 * back: the ids of a batch of thousands were as much work to send and parse as to write.
 */
export async function applyUsageEvents(pool: Pool, events: readonly UsageEvent[]): Promise<number> {
  // One event per transaction id; a charge wins over a 0-credit call event of the same transaction (never the reverse,
  // which would drop its ledger entries).
  const byTx = new Map<string, UsageEvent>();
  for (const e of events) if (!byTx.has(e.txid) || e.credits > byTx.get(e.txid)!.credits) byTx.set(e.txid, e);
  const unique = [...byTx.values()];
  const consumed = unique.flatMap((e) => e.consumed.map((c) => [e.txid, c.grantId, c.credits] as const));
  const { rows } = await pool.query<{ written: number }>({
    name: 'apply_usage_batch',
    text: APPLY_BATCH,
    values: [
      plainArray(unique.map((e) => e.txid)),
      plainArray(unique.map((e) => e.account)),
      plainArray(unique.map((e) => e.key || 0)),
      textArray(unique.map((e) => e.endpoint)),
      plainArray(unique.map((e) => e.credits)),
      plainArray(unique.map((e) => e.streamId)),
      plainArray(unique.map((e) => e.at)),
      plainArray(consumed.map((c) => c[0])),
      plainArray(consumed.map((c) => c[1])),
      plainArray(consumed.map((c) => c[2])),
      plainArray(unique.map((e) => (e.request && UUID.test(e.request) ? e.request : 'NULL'))),
      plainArray(unique.map((e) => e.calls ?? 1)),
    ],
  });
  return rows[0]?.written ?? 0;
}

/**
 * Expires grants past their date: the rest is written off in the ledger and dropped from Redis. A grant is written
 * off only once every charge taken before its expiry is in PostgreSQL: `oldestPendingMs` is the time of the oldest
 * charge still in the outbox (the outbox is in charge order), and only grants that expired before it qualify;
 * otherwise that charge would land after the write-off and the same credits would count twice. A short grace
 * covers clock differences between the machines (Redis stops using a grant at its expiry anyway).
 */
export async function expireCredits(
  pool: Pool,
  o: { graceSeconds?: number; oldestPendingMs?: number } = {},
): Promise<{ grantId: number; accountId: number; credits: number }[]> {
  return withTransaction(pool, async (c) => {
    const { rows } = await c.query<{ id: number; account_id: number; remaining: number }>(
      `SELECT id, account_id, remaining FROM billing.credit_grants
        WHERE remaining > 0 AND expires_at <= now() - make_interval(secs => $1)
          AND ($2::timestamptz IS NULL OR expires_at < $2::timestamptz - make_interval(secs => $1))
        FOR UPDATE`,
      [o.graceSeconds ?? 60, o.oldestPendingMs === undefined ? null : new Date(o.oldestPendingMs)],
    );
    for (const g of rows) {
      await c.query(
        `INSERT INTO billing.ledger_entries (account_id, grant_id, kind, amount) VALUES ($1, $2, 'expire', $3)`,
        [g.account_id, g.id, -g.remaining],
      );
      await c.query('UPDATE billing.credit_grants SET remaining = 0 WHERE id = $1', [g.id]);
    }
    return rows.map((g) => ({ grantId: g.id, accountId: g.account_id, credits: g.remaining }));
  });
}
