// Writes one batch of imported parcels: new ones get fresh ids, changed ones are rewritten under their own id,
// unchanged ones are left alone. The records, the import state and the record count change in one transaction.
import type { Pool, PoolClient } from '@pra/platform';
import { buildCopyChunks } from '../data/copy-rows.js';
import { reserveIds, writeBatch } from '../data/loader.js';
import type { PropertyInput } from '../domain/property-input.js';
import { contentDigest, mergeParcel, type MappedField, reimportParcel } from './import-merge.js';

export interface ParcelRow {
  identity: string;
  input: PropertyInput;
  /**
   * An earlier batch of this same import wrote the parcel (its rows span batches): the stored state is then rows of
   * the same file, merged as such, not an older file this one corrects.
   */
  continued?: boolean;
}

/** The identities of the batch by what happened to them. */
export interface BatchOutcome {
  added: string[];
  updated: string[];
  unchanged: string[];
}

/** Refuses a source whose records were loaded before imports kept their state: a re-import would double them. */
export async function checkImportState(pool: Pool, source: string): Promise<void> {
  const { rows } = await pool.query<{ legacy: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM records.properties WHERE source = $1)
        AND NOT EXISTS (SELECT 1 FROM records.import_state WHERE source = $1) AS legacy`,
    [source],
  );
  if (rows[0]?.legacy) {
    throw new Error(
      `the store holds records of '${source}' loaded before imports kept their state, so this import cannot tell ` +
        `them apart from new ones. Remove them first (npm run ingest -- remove --source ${source}), then import again.`,
    );
  }
}

export async function writeImportBatch(
  pool: Pool,
  source: string,
  parcels: readonly ParcelRow[],
  now: string,
  /** The fields the file's mapping fills: an empty one clears the stored value (see reimportParcel). */
  mapped: ReadonlySet<MappedField> = new Set(),
): Promise<BatchOutcome> {
  const { rows: stored } = await pool.query<{
    identity: string;
    property_id: string;
    digest: string;
    input: PropertyInput;
  }>('SELECT identity, property_id, digest, input FROM records.import_state WHERE source = $1 AND identity = ANY($2)', [
    source,
    parcels.map((p) => p.identity),
  ]);
  const known = new Map(stored.map((r) => [r.identity, r]));
  const added: ParcelRow[] = [];
  const updated: { row: ParcelRow; id: number }[] = [];
  const unchanged: string[] = [];
  for (const p of parcels) {
    const prior = known.get(p.identity);
    if (!prior) {
      added.push(p);
      continue;
    }
    const merged = p.continued ? mergeParcel(prior.input, p.input) : reimportParcel(prior.input, p.input, mapped);
    if (contentDigest(merged) === prior.digest) {
      unchanged.push(p.identity);
      continue;
    }
    merged.lastModified = now;
    updated.push({ row: { identity: p.identity, input: merged }, id: Number(prior.property_id) });
  }
  const outcome = {
    added: added.map((a) => a.identity),
    updated: updated.map((u) => u.row.identity),
    unchanged,
  };
  if (added.length + updated.length === 0) return outcome;
  const first = added.length > 0 ? await reserveIds(pool, added.length) : 0;
  const ids = [...added.map((_, i) => first + i), ...updated.map((u) => u.id)];
  const rows = [...added, ...updated.map((u) => u.row)];
  const saveState = async (c: PoolClient) => {
    await c.query(
      `INSERT INTO records.import_state (source, identity, property_id, digest, input)
       SELECT $1, * FROM unnest($2::text[], $3::bigint[], $4::text[], $5::jsonb[])
       ON CONFLICT (source, identity) DO UPDATE SET property_id = EXCLUDED.property_id, digest = EXCLUDED.digest,
         input = EXCLUDED.input`,
      [
        source,
        rows.map((r) => r.identity),
        ids,
        rows.map((r) => contentDigest(r.input)),
        rows.map((r) => JSON.stringify(r.input)),
      ],
    );
  };
  await writeBatch(
    pool,
    buildCopyChunks(
      ids,
      rows.map((r) => r.input),
      source,
    ),
    added.length,
    { replaceIds: updated.map((u) => u.id), inTransaction: saveState },
  );
  return outcome;
}
