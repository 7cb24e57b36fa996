// Recomputes the address keys of stored records when the normaliser changed (ADDRESS_KEYS_VERSION), so that stored
// and queried spellings keep meeting on one key, and the parcel identities of the import state, which hold the same
// keys, so that a re-import finds the parcels it wrote. Runs with the records migrations, once per version, under a
// lock; an empty store only records the version.
import { ADDRESS_KEYS_VERSION, parseStreetLine } from '@pra/core/address';
import type { Pool, PoolClient } from '@pra/platform';
import type { PropertyInput } from '../domain/property-input.js';
import { streetWithUnit } from '../domain/render-record.js';
import { parcelIdentity } from '../importer/import-merge.js';

const BATCH = 5_000;

export interface RekeyOptions {
  /** Rows read per statement (records, then import state); 5,000 unless a test wants several batches of a few. */
  batchSize?: number;
}

export async function rekeyAddresses(
  pool: Pool,
  log: (line: string) => void = () => {},
  { batchSize = BATCH }: RekeyOptions = {},
): Promise<number> {
  const client = await pool.connect();
  try {
    await client.query("SELECT pg_advisory_lock(hashtext('records.rekey'))");
    const { rows } = await client.query<{ v: number; n: string }>(
      'SELECT address_keys_version AS v, property_count AS n FROM records.dataset_stats',
    );
    const stats = rows[0]!;
    if (stats.v === ADDRESS_KEYS_VERSION) return 0;
    const total = Number(stats.n);
    if (total > 0)
      log(
        `address keys: recomputing ${total.toLocaleString('en-US')} records (v${stats.v} -> v${ADDRESS_KEYS_VERSION})`,
      );
    let after = 0;
    let done = 0;
    let changed = 0;
    const started = performance.now();
    for (;;) {
      const { rows: batch } = await client.query<{ id: string; line1: string; line2: string | null }>(
        `SELECT id, body::jsonb -> 'address' ->> 'line1' AS line1, body::jsonb -> 'address' ->> 'line2' AS line2
           FROM records.properties WHERE id > $1 ORDER BY id LIMIT $2`,
        [after, batchSize],
      );
      if (batch.length === 0) break;
      const keys = batch.map((r) => parseStreetLine(streetWithUnit({ line1: r.line1, line2: r.line2 ?? '' })));
      const { rowCount } = await client.query(
        `UPDATE records.properties p SET line_key = u.line_key, street_key = u.street_key, unit_key = u.unit_key,
                loose_key = u.loose_key, street_type = u.street_type
           FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[])
                AS u(id, line_key, street_key, unit_key, loose_key, street_type)
          WHERE p.id = u.id AND (p.line_key, p.street_key, p.unit_key, p.loose_key, p.street_type)
                IS DISTINCT FROM (u.line_key, u.street_key, u.unit_key, u.loose_key, u.street_type)`,
        [
          batch.map((r) => r.id),
          keys.map((k) => k.lineKey),
          keys.map((k) => k.streetKey),
          keys.map((k) => k.unitKey),
          keys.map((k) => k.looseKey),
          keys.map((k) => k.streetType),
        ],
      );
      changed += rowCount ?? 0;
      done += batch.length;
      after = Number(batch[batch.length - 1]!.id);
      if (done % 100_000 < batchSize) {
        const rate = done / ((performance.now() - started) / 1000);
        log(
          `address keys: ${done.toLocaleString('en-US')}/${total.toLocaleString('en-US')} records, ${Math.round(rate).toLocaleString('en-US')}/s`,
        );
      }
    }
    const identities = await rekeyImportState(client, batchSize);
    if (identities.moved + identities.kept > 0)
      log(
        `address keys: ${identities.moved.toLocaleString('en-US')} import parcel identities recomputed` +
          (identities.kept > 0
            ? `, ${identities.kept.toLocaleString('en-US')} kept their old one (the new keys make them one parcel with another)`
            : ''),
      );
    await client.query('UPDATE records.dataset_stats SET address_keys_version = $1', [ADDRESS_KEYS_VERSION]);
    if (total > 0)
      log(`address keys: ${changed.toLocaleString('en-US')} of ${done.toLocaleString('en-US')} records changed`);
    return changed;
  } finally {
    await client.query("SELECT pg_advisory_unlock(hashtext('records.rekey'))").catch(() => {});
    client.release();
  }
}

/**
 * The import state's identities ("addr:<line key>|<zip>|<unit key>" for a mapping without an APN) are address keys
 * too: each is recomputed from the parcel it stores, with the keys of this normaliser, as an import now computes it.
 * Left as it was, a re-import would not find the parcel and would add it a second time. Where the new keys make two
 * stored parcels of one source one (the normaliser now reads two spellings alike), the one with the lower property
 * id takes the identity, whichever batch each was read in, and the other keeps its old one: both records stay, as
 * they were, and later imports update the first. A parcel already stored under the identity (its keys did not
 * change) keeps it.
 *
 * The new identities are computed batch by batch into a temporary table; the moves are then made set-based over all
 * of them, the lowest property id per (source, new identity) first. A move whose identity another parcel still holds
 * waits for a later round: that parcel may be moving away itself (a chain), and then the lowest waiting id takes it.
 */
async function rekeyImportState(client: PoolClient, batchSize: number): Promise<{ moved: number; kept: number }> {
  await client.query('DROP TABLE IF EXISTS pg_temp.rekey_moves');
  await client.query(
    'CREATE TEMP TABLE rekey_moves (source text, from_identity text, to_identity text, property_id bigint)',
  );
  try {
    let after: [string, string] = ['', ''];
    let planned = 0;
    for (;;) {
      const { rows } = await client.query<{
        source: string;
        identity: string;
        property_id: string;
        input: PropertyInput;
      }>(
        `SELECT source, identity, property_id, input FROM records.import_state
          WHERE (source, identity) > ($1::text, $2::text) ORDER BY source, identity LIMIT $3`,
        [...after, batchSize],
      );
      if (rows.length === 0) break;
      after = [rows[rows.length - 1]!.source, rows[rows.length - 1]!.identity];
      const moves = rows
        .map((r) => ({ ...r, to: parcelIdentity(r.input, r.identity.startsWith('apn:')) }))
        .filter((r) => r.to !== r.identity);
      if (moves.length === 0) continue;
      await client.query(
        `INSERT INTO rekey_moves (source, from_identity, to_identity, property_id)
         SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[])`,
        [
          moves.map((m) => m.source),
          moves.map((m) => m.identity),
          moves.map((m) => m.to),
          moves.map((m) => m.property_id),
        ],
      );
      planned += moves.length;
    }
    let moved = 0;
    for (;;) {
      // Per (source, new identity) no parcel holds yet, the lowest property id moves to it.
      const { rows } = await client.query<{ source: string; from_identity: string }>(
        `WITH pick AS (
           SELECT DISTINCT ON (m.source, m.to_identity) m.source, m.from_identity, m.to_identity
             FROM rekey_moves m
            WHERE NOT EXISTS (SELECT 1 FROM records.import_state t WHERE t.source = m.source AND t.identity = m.to_identity)
            ORDER BY m.source, m.to_identity, m.property_id
         )
         UPDATE records.import_state s SET identity = p.to_identity
           FROM pick p
          WHERE s.source = p.source AND s.identity = p.from_identity
         RETURNING s.source, p.from_identity`,
      );
      if (rows.length === 0) break;
      moved += rows.length;
      await client.query(
        `DELETE FROM rekey_moves m USING unnest($1::text[], $2::text[]) AS d(source, from_identity)
          WHERE m.source = d.source AND m.from_identity = d.from_identity`,
        [rows.map((r) => r.source), rows.map((r) => r.from_identity)],
      );
    }
    return { moved, kept: planned - moved };
  } finally {
    await client.query('DROP TABLE IF EXISTS pg_temp.rekey_moves').catch(() => {});
  }
}
