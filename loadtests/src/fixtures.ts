// The data the scenarios ask for, drawn at random from the target's own records (so every lookup can succeed).
// Addresses are the display line as a person reads it, and the unit apart where the source keeps it apart (line2);
// where the display line already holds the unit (Sacramento's), unit is '' so it is never sent twice. Records the test suite writes (source 'test') are left out: tests change and delete them while they run.
import type { Pool } from '@pra/platform';
import type { Fixtures } from '../k6/lib/types.js';

export async function exportFixtures(pool: Pool, size = 500): Promise<Fixtures> {
  const q = <T extends Record<string, unknown>>(sql: string) => pool.query<T>(sql, [size]).then((r) => r.rows);
  const [addresses, owners, parcels, ids] = await Promise.all([
    q<{ line1: string; unit: string; city: string; state: string; zip: string }>(
      `SELECT a->>'line1' AS line1, CASE WHEN coalesce(a->>'line2', '') = '' THEN '' ELSE p.unit_key END AS unit, a->>'locality' AS city, p.state, p.zip
       FROM (SELECT * FROM records.properties WHERE source <> 'test' ORDER BY random() LIMIT $1) p, LATERAL (SELECT p.body::json->'address' AS a) x`,
    ),
    q<{ lastName: string; state: string }>(
      `SELECT o.last_name_key AS "lastName", o.state FROM records.owners o JOIN records.properties p ON p.id = o.property_id
       WHERE o.last_name_key IS NOT NULL AND o.seq = 1 AND p.source <> 'test' ORDER BY random() LIMIT $1`,
    ),
    q<{ apn: string; state: string }>(
      `SELECT apn, state FROM records.properties WHERE source <> 'test' ORDER BY random() LIMIT $1`,
    ),
    q<{
      id: string;
    }>(`SELECT DISTINCT s.property_id AS id FROM (SELECT property_id FROM records.sales ORDER BY random() LIMIT $1) s
       JOIN records.properties p ON p.id = s.property_id WHERE p.source <> 'test'`),
  ]);
  if (addresses.length === 0)
    throw new Error(
      'the database holds no records: load some first (npm start loads a sample; npm run ingest -- sample)',
    );
  return { addresses, owners, parcels, propertyIds: ids.map((r) => Number(r.id)) };
}
