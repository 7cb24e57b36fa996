// Recomputes the address keys of stored records when the normaliser changed (ADDRESS_KEYS_VERSION), so that stored
// and queried spellings keep meeting on one key. Runs with the records migrations, once per version, under a lock;
// an empty store only records the version.
import { ADDRESS_KEYS_VERSION, parseStreetLine } from '@pra/core/address';
import type { Pool } from '@pra/platform';
import { streetWithUnit } from '../domain/render-record.js';

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
    await client.query('UPDATE records.dataset_stats SET address_keys_version = $1', [ADDRESS_KEYS_VERSION]);
    if (total > 0)
      log(`address keys: ${changed.toLocaleString('en-US')} of ${done.toLocaleString('en-US')} records changed`);
    return changed;
  } finally {
    await client.query("SELECT pg_advisory_unlock(hashtext('records.rekey'))").catch(() => {});
    client.release();
  }
}
