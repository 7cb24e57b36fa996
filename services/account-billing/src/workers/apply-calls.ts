// Writes flushes of call counters to PostgreSQL (workers/call-flusher.ts says why each is applied exactly once).
import type { Pool } from '@pra/platform';
import type { CallGroup } from '../data/call-count-scripts.js';

/** A bucket's calls taken for one flush, under the flush's id (the same id however often it is retried). */
export interface CallFlush {
  id: string;
  bucket: number;
  groups: CallGroup[];
}

/**
 * ONE statement for every flush of a round (atomic, one commit): a flush's id goes into call_flushes, and its
 * counts are added only if the id was new, so a flush applied before (a flusher that died before deleting its
 * hash, a retry after a commit whose answer was lost, two flushers on the same hash) adds nothing. Two statements
 * with the same id: the second waits on the id's index entry until the first commits, then skips it. Groups of an
 * account that is not in billing.accounts are dropped, so that a hash cannot block its bucket for ever.
 */
const APPLY_FLUSHES = `
WITH flushes AS (
  INSERT INTO billing.call_flushes (id) SELECT unnest($1::uuid[]) ON CONFLICT (id) DO NOTHING RETURNING id),
counts AS (
  SELECT t.account_id, date '1970-01-01' + t.day AS day, t.endpoint, sum(t.calls) AS calls, max(t.last_at) AS last_at
    FROM unnest($2::uuid[], $3::bigint[], $4::int[], $5::text[], $6::bigint[], $7::timestamptz[])
           AS t(flush_id, account_id, day, endpoint, calls, last_at)
    JOIN flushes f ON f.id = t.flush_id
    JOIN billing.accounts a ON a.id = t.account_id
   GROUP BY 1, 2, 3)
INSERT INTO billing.call_counts AS c (account_id, day, endpoint, calls, last_at)
SELECT account_id, day, endpoint, calls, last_at FROM counts ORDER BY account_id, day, endpoint
ON CONFLICT (account_id, day, endpoint) DO UPDATE
  SET calls = c.calls + EXCLUDED.calls, last_at = GREATEST(c.last_at, EXCLUDED.last_at)`;

/** Applies flushes, sorted by bucket so that two rounds take the ids' index entries in one order (no deadlock). */
export async function applyCallFlushes(pool: Pool, flushes: readonly CallFlush[]): Promise<void> {
  const sorted = [...flushes].sort((a, b) => a.bucket - b.bucket);
  const rows = sorted.flatMap((f) => f.groups.map((g) => [f.id, g] as const));
  await pool.query({
    name: 'apply_call_flushes',
    text: APPLY_FLUSHES,
    values: [
      sorted.map((f) => f.id),
      rows.map(([id]) => id),
      rows.map(([, g]) => g.account),
      rows.map(([, g]) => g.day),
      rows.map(([, g]) => g.endpoint),
      rows.map(([, g]) => g.calls),
      rows.map(([, g]) => new Date(g.lastAt)),
    ],
  });
}

/**
 * Forgets the ids of flushes applied more than `keepSeconds` ago, except those of flushing hashes that still exist
 * (`live`): an id is needed only while its hash may be taken again, and the caller has just looked at every bucket.
 */
export async function pruneCallFlushes(pool: Pool, live: readonly string[], keepSeconds = 86_400): Promise<number> {
  const { rowCount } = await pool.query(
    `DELETE FROM billing.call_flushes WHERE applied_at < now() - make_interval(secs => $1) AND id <> ALL($2::uuid[])`,
    [keepSeconds, live],
  );
  return rowCount ?? 0;
}
