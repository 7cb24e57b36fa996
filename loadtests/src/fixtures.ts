// The data the scenarios ask for, drawn at random from the target's own records (so every lookup can succeed).
// Addresses are the display line as a person reads it, and the unit apart where the source keeps it apart (line2);
// where the display line already holds the unit (Sacramento's), unit is '' so it is never sent twice. Records the test suite writes (source 'test') are left out: tests change and delete them while they run.
import { storedAddress } from '@pra/core/stored';
import type { Pool } from '@pra/platform';
import type { Fixtures } from '../k6/lib/types.js';

/**
 * `sources` narrows the records drawn to sources LIKE it (the CI smoke run takes the sample's synthetic records:
 * other test files rewrite and remove their imported ones while it runs).
 */
export async function exportFixtures(pool: Pool, size = 500, sources = '%'): Promise<Fixtures> {
  const q = <T extends Record<string, unknown>>(sql: string) => pool.query<T>(sql, [size, sources]).then((r) => r.rows);
  const [stored, owners, parcels, ids, places] = await Promise.all([
    q<{ body: Buffer; unit_key: string; state: string; zip: string }>(
      `SELECT body, unit_key, state, zip FROM records.properties WHERE source <> 'test' AND source LIKE $2 ORDER BY random() LIMIT $1`,
    ),
    q<{ lastName: string; state: string }>(
      `SELECT o.last_name_key AS "lastName", o.state FROM records.owners o JOIN records.properties p ON p.id = o.property_id
       WHERE o.last_name_key IS NOT NULL AND o.seq = 1 AND p.source <> 'test' AND p.source LIKE $2 ORDER BY random() LIMIT $1`,
    ),
    q<{ apn: string; state: string }>(
      `SELECT apn, state FROM records.properties WHERE source <> 'test' AND source LIKE $2 ORDER BY random() LIMIT $1`,
    ),
    q<{
      id: string;
    }>(`SELECT id FROM records.properties WHERE source <> 'test' AND source LIKE $2 ORDER BY random() LIMIT $1`),
    // Area search centres: where records are (a store whose locations are not filled yet gives none).
    q<{ latitude: number; longitude: number }>(
      `SELECT location[1] AS latitude, location[0] AS longitude FROM records.properties
        WHERE location IS NOT NULL AND source <> 'test' AND source LIKE $2 ORDER BY random() LIMIT $1`,
    ),
  ]);
  const addresses = stored.map((r) => {
    const a = storedAddress(r.body);
    return { line1: a.line1, unit: a.line2 ? r.unit_key : '', city: a.locality, state: r.state, zip: r.zip };
  });
  if (addresses.length === 0)
    throw new Error(
      'the database holds no records: load some first (npm start loads a sample; npm run ingest -- sample)',
    );
  return { addresses, owners, parcels, propertyIds: ids.map((r) => Number(r.id)), places };
}
