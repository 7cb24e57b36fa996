// Deletes every record of one source ("import:<mapping>", "synthetic:<seed>") with its import state, in one
// transaction, and keeps the record count exact. It holds the source's lock, as an import does, so a remove and an
// import of one source never interleave: the later one waits (and `onWait` is told so). A removal may run while
// address keys are being recomputed (it only deletes), unlike an import of a source with import state.
import { inTransaction, type Pool, type PoolClient } from '@pra/platform/db';
import { recordChanges } from './change-feed.js';
import { appendStagedRemovals, stageRemovals } from './change-events.js';
import { ID_COLUMN, TABLES } from './copy-rows.js';
import { withSourceLock } from './source-lock.js';

export async function removeSource(
  pool: Pool,
  source: string,
  opts: { onWait?: (message: string) => void } = {},
): Promise<number> {
  return withSourceLock(
    pool,
    source,
    // On the lock's connection: the removal commits only while the lock is held (source-lock.ts).
    (lock) => removeLocked(lock.client, source),
    opts.onWait,
    { duringRekey: true },
  );
}

function removeLocked(c: PoolClient, source: string): Promise<number> {
  return inTransaction(c, async () => {
    const { rows } = await c.query<{ id: string }>('SELECT id FROM records.properties WHERE source = $1', [source]);
    const ids = rows.map((r) => r.id);
    await stageRemovals(c, source);
    for (const t of TABLES) {
      await c.query(`DELETE FROM records.${t} WHERE ${ID_COLUMN(t)} = ANY($1)`, [ids]);
    }
    await c.query('DELETE FROM records.import_state WHERE source = $1', [source]);
    // The removal reaches the type-ahead index through the feed, committed with it (a row per 10,000 ids).
    await recordChanges(c, ids, 'remove');
    await c.query('UPDATE records.dataset_stats SET property_count = property_count - $1, updated_at = now()', [
      ids.length,
    ]);
    // Last: the change feed's lock is held from here to the commit.
    await appendStagedRemovals(c, source);
    return ids.length;
  });
}

/**
 * The sources with import state (every `import:<mapping>` a property file loaded), read by a skip scan of the import
 * state's key: a step a source, not a row a record. Synthetic sources (`synthetic:<seed>`) keep no import state.
 */
export async function importedSources(pool: Pool): Promise<string[]> {
  const { rows } = await pool.query<{ source: string }>(
    `WITH RECURSIVE s AS (
       SELECT min(source) AS source FROM records.import_state
       UNION ALL
       SELECT (SELECT min(source) FROM records.import_state WHERE source > s.source) FROM s WHERE s.source IS NOT NULL
     )
     SELECT source FROM s WHERE source IS NOT NULL`,
  );
  return rows.map((r) => r.source);
}
