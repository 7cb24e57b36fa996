// Reads properties from the records store as suggestion documents, in id order (keyset pages).
import type { Pool } from '@pra/platform';
import type { SuggestionDoc } from '../domain/search-index.js';

const HOUSE_NUMBER = /^\d+[A-Z]?(-\d+[A-Z]?)?$/;

export async function readSuggestionDocs(pool: Pool, afterId: number, limit: number): Promise<SuggestionDoc[]> {
  const { rows } = await pool.query<{
    id: number;
    line_key: string;
    street_key: string;
    unit_key: string;
    zip: string;
    state: string;
    city_key: string;
    address: string;
  }>(
    `SELECT id, line_key, street_key, unit_key, zip, state, city_key, (body::jsonb -> 'address')::text AS address
       FROM records.properties WHERE id > $1 ORDER BY id LIMIT $2`,
    [afterId, limit],
  );
  return rows.map((r) => {
    const a = JSON.parse(r.address);
    const first = r.line_key.split(' ')[0] ?? '';
    return {
      propertyId: r.id,
      houseNumber: HOUSE_NUMBER.test(first) ? first : null,
      lineKey: r.line_key,
      streetKey: r.street_key,
      unitKey: r.unit_key,
      zip: r.zip,
      state: r.state,
      cityKey: r.city_key,
      doc: JSON.stringify({
        identifier: { Id: r.id },
        address: {
          line1: a.line1,
          line2: a.line2,
          locality: a.locality,
          countrySubd: a.countrySubd,
          postal1: a.postal1,
          oneLine: a.oneLine,
        },
      }),
    };
  });
}
