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

export async function rekeyAddresses(pool: Pool, log: (line: string) => void = () => {}): Promise<number> {
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
           FROM records.properties WHERE id > $1 ORDER BY id LIMIT ${BATCH}`,
        [after],
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
      if (done % 100_000 < BATCH) {
        const rate = done / ((performance.now() - started) / 1000);
        log(
          `address keys: ${done.toLocaleString('en-US')}/${total.toLocaleString('en-US')} records, ${Math.round(rate).toLocaleString('en-US')}/s`,
        );
      }
    }
    const identities = await rekeyImportState(client);
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
 * id takes the identity and the other keeps its old one: both records stay, as they were, and later imports update
 * the first.
 */
async function rekeyImportState(client: PoolClient): Promise<{ moved: number; kept: number }> {
  let after: [string, string] = ['', ''];
  let moved = 0;
  let kept = 0;
  for (;;) {
    const { rows } = await client.query<{
      source: string;
      identity: string;
      property_id: string;
      input: PropertyInput;
    }>(
      `SELECT source, identity, property_id, input FROM records.import_state
        WHERE (source, identity) > ($1::text, $2::text) ORDER BY source, identity LIMIT ${BATCH}`,
      after,
    );
    if (rows.length === 0) break;
    after = [rows[rows.length - 1]!.source, rows[rows.length - 1]!.identity];
    const moves = new Map<string, { source: string; from: string; to: string; id: number }>();
    for (const r of rows) {
      const to = parcelIdentity(r.input, r.identity.startsWith('apn:'));
      if (to === r.identity) continue;
      const key = `${r.source}\n${to}`;
      const prior = moves.get(key);
      if (prior && prior.id < Number(r.property_id)) {
        kept++;
        continue;
      }
      if (prior) kept++;
      moves.set(key, { source: r.source, from: r.identity, to, id: Number(r.property_id) });
    }
    if (moves.size === 0) continue;
    const list = [...moves.values()];
    // A target some other stored parcel already has is left alone (that parcel keeps it).
    const { rowCount } = await client.query(
      `UPDATE records.import_state s SET identity = u.to_identity
         FROM unnest($1::text[], $2::text[], $3::text[]) AS u(source, from_identity, to_identity)
        WHERE s.source = u.source AND s.identity = u.from_identity
          AND NOT EXISTS (SELECT 1 FROM records.import_state t WHERE t.source = u.source AND t.identity = u.to_identity)`,
      [list.map((m) => m.source), list.map((m) => m.from), list.map((m) => m.to)],
    );
    moved += rowCount ?? 0;
    kept += list.length - (rowCount ?? 0);
  }
  return { moved, kept };
}
