// The import's side of the database, batch by batch: the stored state of a batch's parcels, then the batch's
// records and import state written in one transaction (writeBatch), so that a batch is never half-committed.
import { type Db, escapeLiteral, idArrayLiteral, type Pool, textArrayLiteral } from '@pra/platform/db';
import { writeBatch } from '../data/loader.js';
import { copyStep, runScript, type ScriptStep } from '../data/write-script.js';
import { type BuiltBatch, STATE_COLUMNS, type StoredParcel } from './import-work.js';

/**
 * Refuses a source whose records were loaded before imports kept their state: a re-import would double them. Tells
 * whether the source has any import state: none, and only what this import writes can be read back (called with the
 * source's lock held, so no other import or remove of it runs meanwhile).
 */
export async function importStateOf(pool: Pool, source: string): Promise<{ hasState: boolean }> {
  const { rows } = await pool.query<{ records: boolean; state: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM records.properties WHERE source = $1) AS records,
            EXISTS (SELECT 1 FROM records.import_state WHERE source = $1) AS state`,
    [source],
  );
  if (rows[0]!.records && !rows[0]!.state) {
    throw new Error(
      `the store holds records of '${source}' loaded before imports kept their state, so this import cannot tell ` +
        `them apart from new ones. Remove them first (npm run ingest -- remove --source ${source}), then import again.`,
    );
  }
  return { hasState: rows[0]!.state };
}

/**
 * A file of this mapping has been imported before: this import is not the mapping's first load, and what it changes
 * (and adds) is news for the change feed (migration 0014).
 */
export async function mappingLoadedBefore(pool: Pool, mapping: string): Promise<boolean> {
  const { rows } = await pool.query<{ known: boolean }>(
    'SELECT EXISTS (SELECT 1 FROM records.mapping_loads WHERE mapping = $1) AS known',
    [mapping],
  );
  return rows[0]!.known;
}

/** Records that a file of this mapping has been imported (its later imports emit change events). */
export async function recordMappingLoad(db: Db, mapping: string): Promise<void> {
  await db.query('INSERT INTO records.mapping_loads (mapping) VALUES ($1) ON CONFLICT DO NOTHING', [mapping]);
}

/** A batch's parcels by what their stored state says. */
export interface BatchState {
  /** Not in the store. */
  added: string[];
  /** Stored, and the file says of them what it said when their state was written: nothing to do. */
  unchanged: string[];
  /** Stored, to be merged over their state (the file changed them, or an earlier batch of this import wrote them). */
  stored: StoredParcel[];
}

/**
 * Reads the stored state of a batch's parcels: the stored input only of those the file digest does not settle.
 * Each identity is looked up through the primary key (a lateral join: the plan does not depend on the table's
 * statistics, which a first import leaves behind). `sourceHasState`: the source had import state when the import
 * began (importStateOf). Without it (its first load), what the store holds of the source this import wrote (the
 * source's lock keeps others out), so a batch none of whose parcels an earlier batch wrote (`continued`) reads
 * nothing: one round trip a batch, ~5 us a row of PostgreSQL's time, that would find nothing.
 */
export async function readBatchState(
  pool: Pool,
  source: string,
  identities: readonly string[],
  fileDigests: readonly string[],
  continued: readonly boolean[],
  sourceHasState: boolean,
): Promise<BatchState> {
  if (!sourceHasState && !continued.some(Boolean)) return { added: [...identities], unchanged: [], stored: [] };
  const { rows } = await pool.query<{
    identity: string;
    property_id: string;
    settled: boolean;
    input: string | null;
  }>(
    `SELECT u.identity, s.property_id, s.settled, s.input
       FROM unnest($2::text[], $3::text[], $4::boolean[]) AS u(identity, file_digest, continued)
       CROSS JOIN LATERAL (
         SELECT t.property_id, (NOT u.continued AND t.file_digest = u.file_digest) AS settled,
                CASE WHEN u.continued OR t.file_digest IS DISTINCT FROM u.file_digest THEN t.input END AS input
           FROM records.import_state t WHERE t.source = $1 AND t.identity = u.identity LIMIT 1) s`,
    [source, identities, fileDigests, continued],
  );
  const known = new Map(rows.map((r) => [r.identity, r]));
  const out: BatchState = { added: [], unchanged: [], stored: [] };
  identities.forEach((identity, i) => {
    const r = known.get(identity);
    if (!r) out.added.push(identity);
    else if (r.settled) out.unchanged.push(identity);
    else
      out.stored.push({
        identity,
        propertyId: Number(r.property_id),
        input: r.input!,
        continued: continued[i]!,
      });
  });
  return out;
}

/**
 * Writes a built batch: its records, its import state and the record count, in one transaction (on the source lock's
 * connection, for an import: source-lock.ts), in one round trip but for a batch with change events (writeBatch).
 * `ownerIds`: the owner ids its records were built with (as resolveOwners answered them).
 */
export async function writeBuiltBatch(
  db: Db,
  source: string,
  b: BuiltBatch,
  ownerIds: readonly (number | null)[],
): Promise<void> {
  const state = stateSteps(source, b);
  if (b.chunks) {
    // As built in this thread, or all bytes (from a worker): writeBatch takes either.
    await writeBatch(db, b.chunks, b.added.length, {
      replaceIds: b.replaceIds,
      alsoWrite: state,
      events: { source, drafts: b.events },
      ownerIds,
    });
  } else if (b.fileDigestUpdates.length > 0) {
    // Nothing to write but what is now known of unchanged parcels.
    await runScript(db, state);
  }
}

/** The batch's import state as steps of its write: the added parcels' rows, the updated ones', new file digests. */
function stateSteps(source: string, b: BuiltBatch): ScriptStep[] {
  const steps: ScriptStep[] = [copyStep('records.import_state', STATE_COLUMNS, b.newState, true)];
  const at = escapeLiteral(source);
  const u = b.stateUpdates;
  if (u.length > 0) {
    steps.push(
      `UPDATE records.import_state t SET property_id = u.property_id, file_digest = u.file_digest, input = u.input
         FROM unnest(${textArrayLiteral(u.map((r) => r.identity))}::text[], ${idArrayLiteral(u.map((r) => r.propertyId))}::bigint[],
                     ${textArrayLiteral(u.map((r) => r.fileDigest))}::text[], ${textArrayLiteral(u.map((r) => r.input))}::text[])
                AS u(identity, property_id, file_digest, input)
        WHERE t.source = ${at} AND t.identity = u.identity`,
    );
  }
  const d = b.fileDigestUpdates;
  if (d.length > 0) {
    steps.push(
      `UPDATE records.import_state t SET file_digest = u.file_digest
         FROM unnest(${textArrayLiteral(d.map((r) => r.identity))}::text[], ${textArrayLiteral(d.map((r) => r.fileDigest))}::text[])
                AS u(identity, file_digest)
        WHERE t.source = ${at} AND t.identity = u.identity`,
    );
  }
  return steps;
}
