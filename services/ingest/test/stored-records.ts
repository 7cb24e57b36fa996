// What the store holds for a source, as the import tests read it back: its records (by APN, then id) and a
// property's sale history. One copy for every test file (exported with @pra/ingest/testing).
import type { Pool } from '@pra/platform';

/** The records of a source, by APN then id: each body as served, with its id and when it was last written. */
export async function recordsOf(pool: Pool, source: string) {
  const { rows } = await pool.query<{ id: string; body: string; last_modified: Date }>(
    'SELECT id, body, last_modified FROM records.properties WHERE source = $1 ORDER BY apn, id',
    [source],
  );
  return rows.map((r) => ({ id: Number(r.id), modified: r.last_modified.toISOString(), ...JSON.parse(r.body) }));
}

/** A property's sales as [date, price] pairs: the latest first, sales of one day by price (a missing price last). */
export async function saleHistory(pool: Pool, propertyId: number): Promise<[string, number | null][]> {
  const { rows } = await pool.query<{ sale_date: Date; price: number | null }>(
    'SELECT sale_date, price FROM records.sales WHERE property_id = $1 ORDER BY sale_date DESC, price',
    [propertyId],
  );
  return rows.map((r) => [r.sale_date.toISOString().slice(0, 10), r.price]);
}
