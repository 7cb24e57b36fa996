// What the store holds for a source, as the import tests read it back: its records (by APN, then id) and a
// property's sale history. One copy for every test file (exported with @pra/ingest/testing).
import { decodeRecordDoc, encodeRecordDoc } from '@pra/core/stored';
import type { Pool } from '@pra/platform';

/** The records of a source, by APN then id: each body as served, with its id and when it was last written. */
export async function recordsOf(pool: Pool, source: string) {
  const { rows } = await pool.query<{ id: string; body: Buffer; last_modified: Date }>(
    'SELECT id, body, last_modified FROM records.properties WHERE source = $1 ORDER BY apn, id',
    [source],
  );
  return rows.map((r) => ({
    id: Number(r.id),
    modified: r.last_modified.toISOString(),
    ...JSON.parse(decodeRecordDoc(r.body).body),
  }));
}

/** A property's sales as [date, price] pairs: the latest first, sales of one day by price (a missing price last). */
export async function saleHistory(pool: Pool, propertyId: number): Promise<[string, number | null][]> {
  const { rows } = await pool.query<{ body: Buffer }>('SELECT body FROM records.properties WHERE id = $1', [
    propertyId,
  ]);
  const sales: { date: string; price: number | null }[] = rows[0]
    ? JSON.parse(decodeRecordDoc(rows[0].body).sales)
    : [];
  const byPrice = (a: number | null, b: number | null) => (a === null ? (b === null ? 0 : 1) : b === null ? -1 : a - b);
  return sales.sort((a, b) => b.date.localeCompare(a.date) || byPrice(a.price, b.price)).map((s) => [s.date, s.price]);
}

/** A property's histories as served (/sale/history, /assessment/detail): each as stored, [] when it has none. */
export async function storedHistories(
  pool: Pool,
  propertyId: number,
): Promise<{ sales: Record<string, unknown>[]; assessments: Record<string, unknown>[] }> {
  const { rows } = await pool.query<{ body: Buffer }>('SELECT body FROM records.properties WHERE id = $1', [
    propertyId,
  ]);
  if (!rows[0]) throw new Error(`no property ${propertyId}`);
  const { sales, assessments } = decodeRecordDoc(rows[0].body);
  const list = (text: string) => (text ? (JSON.parse(text) ?? []) : []);
  return { sales: list(sales), assessments: list(assessments) };
}

/** Rewrites a stored body in place, as a re-import of a changed record would (`edit` gets and returns its JSON). */
export async function rewriteBody(pool: Pool, propertyId: number, edit: (json: string) => string): Promise<void> {
  const { rows } = await pool.query<{ body: Buffer }>('SELECT body FROM records.properties WHERE id = $1', [
    propertyId,
  ]);
  if (!rows[0]) throw new Error(`no property ${propertyId}`);
  const { body, sales, assessments } = decodeRecordDoc(rows[0].body);
  const stored = encodeRecordDoc(edit(body), { sales, assessments });
  await pool.query('UPDATE records.properties SET body = $2 WHERE id = $1', [propertyId, stored]);
}
