// The indexer's side of the records change feed (records.changes, written by every load, import, removal and
// rekey in its own transaction). A round takes the oldest visible rows, reads the CURRENT state of their property
// ids (present: upsert the suggestion, absent: remove it) and then deletes exactly the rows it took. Applying the
// current state, not the change, is what makes it order-safe: a row committed later with a lower seq is simply
// still there next round, and a crash between applying and deleting only applies the same state again.
//
// One consumer at a time, replicas included: two could apply states of one property out of order. A session
// advisory lock on a connection of the consumer's own, which PostgreSQL drops with the connection if the process
// dies; the reads go through that connection too, so a consumer whose connection broke stops at its next step.
// (So the PostgreSQL index, which writes through the pool, needs a pool of two: the lock's and its own.)
import type { Pool, PoolClient } from '@pra/platform';
import type { SearchIndex } from '../domain/search-index.js';
import { readSuggestionDocsByIds } from '../data/suggestion-source.js';

const FEED_LOCK = "hashtext('records.changes:consumer')";
/** Property ids applied per round (the feed rows taken are those that fit, at least one). */
const IDS_PER_ROUND = 20_000;
/** Ids read and written to the index per statement. */
const IDS_PER_READ = 5_000;

/**
 * Runs `work` holding the consumer lock. `wait`: queue for it (a rebuild); otherwise null at once when another
 * consumer holds it (a catch-up: the holder applies the same rows).
 */
export async function withFeedLock<T>(
  pool: Pool,
  wait: boolean,
  work: (c: PoolClient) => Promise<T>,
): Promise<T | null> {
  const c = await pool.connect();
  let broken: Error | undefined;
  try {
    if (wait) await c.query(`SELECT pg_advisory_lock(${FEED_LOCK})`);
    else {
      const { rows } = await c.query<{ got: boolean }>(`SELECT pg_try_advisory_lock(${FEED_LOCK}) AS got`);
      if (!rows[0]?.got) return null;
    }
    try {
      return await work(c);
    } finally {
      await c.query(`SELECT pg_advisory_unlock(${FEED_LOCK})`).catch((err: Error) => {
        broken = err;
      });
    }
  } finally {
    // A connection that could not unlock may still hold the lock: closed, never back in the pool.
    c.release(broken);
  }
}

/** Applies every feed row visible now; returns how many property ids it applied. The caller holds the lock. */
export async function applyChanges(index: SearchIndex, c: PoolClient): Promise<number> {
  let applied = 0;
  for (;;) {
    const { rows: heads } = await c.query<{ seq: string; id_count: number }>(
      'SELECT seq, id_count FROM records.changes ORDER BY seq LIMIT 1000',
    );
    if (heads.length === 0) return applied;
    const seqs: string[] = [];
    let ids = 0;
    for (const h of heads) {
      if (seqs.length > 0 && ids + h.id_count > IDS_PER_ROUND) break;
      seqs.push(h.seq);
      ids += h.id_count;
    }
    const { rows } = await c.query<{ ids: number[] }>(
      'SELECT property_ids AS ids FROM records.changes WHERE seq = ANY($1::bigint[])',
      [seqs],
    );
    const changed = [...new Set(rows.flatMap((r) => r.ids.map(Number)))];
    for (let i = 0; i < changed.length; i += IDS_PER_READ) {
      const part = changed.slice(i, i + IDS_PER_READ);
      const docs = await readSuggestionDocsByIds(c, part);
      await index.upsert(docs);
      const present = new Set(docs.map((d) => d.propertyId));
      await index.remove(part.filter((id) => !present.has(id)));
    }
    // Exactly the rows applied: one committed meanwhile with a lower seq than these stays for the next round.
    await c.query('DELETE FROM records.changes WHERE seq = ANY($1::bigint[])', [seqs]);
    applied += changed.length;
  }
}

/** The visibility horizon of a rebuild: every write committed before it is in what the rebuild reads after it. */
export async function feedSnapshot(c: PoolClient): Promise<string> {
  const { rows } = await c.query<{ snap: string }>('SELECT pg_current_snapshot()::text AS snap');
  return rows[0]!.snap;
}

/**
 * After a rebuild: drops the feed rows its snapshot saw (their writes are in the new index); rows of transactions
 * that committed after it stay, for the next catch-up. In slices, so no statement holds many rows.
 */
export async function dropSeenChanges(c: PoolClient, snapshot: string): Promise<number> {
  let dropped = 0;
  for (;;) {
    const { rowCount } = await c.query(
      `DELETE FROM records.changes WHERE seq IN (
         SELECT seq FROM records.changes WHERE pg_visible_in_snapshot(txid, $1::pg_snapshot) ORDER BY seq LIMIT 10000)`,
      [snapshot],
    );
    if (!rowCount) return dropped;
    dropped += rowCount;
  }
}
