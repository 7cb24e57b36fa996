// Reads properties from the records store as suggestion documents: in id order (keyset pages, for a rebuild), or
// the current state of given ids (for the change feed: an id not returned is a property that is gone).
import { storedAddress } from '@pra/core/stored';
import type { Pool, PoolClient } from '@pra/platform';
import type { SuggestionDoc } from '../domain/search-index.js';

const HOUSE_NUMBER = /^\d+[A-Z]?(-\d+[A-Z]?)?$/;

interface Row {
  id: string;
  line_key: string;
  street_key: string;
  unit_key: string;
  zip: string;
  state: string;
  city_key: string;
  /** The record body in its stored form (@pra/core/stored). */
  body: Buffer;
}

const SELECT = `SELECT id, line_key, street_key, unit_key, zip, state, city_key, body
                  FROM records.properties`;

export async function readSuggestionDocs(
  db: Pool | PoolClient,
  afterId: number,
  limit: number,
): Promise<SuggestionDoc[]> {
  const { rows } = await db.query<Row>(`${SELECT} WHERE id > $1 ORDER BY id LIMIT $2`, [afterId, limit]);
  return rows.map(toDoc);
}

/** The documents of those of `ids` that exist now. */
export async function readSuggestionDocsByIds(db: Pool | PoolClient, ids: readonly number[]): Promise<SuggestionDoc[]> {
  if (ids.length === 0) return [];
  const { rows } = await db.query<Row>(`${SELECT} WHERE id = ANY($1::bigint[]) ORDER BY id`, [ids]);
  return rows.map(toDoc);
}

function toDoc(r: Row): SuggestionDoc {
  const a = storedAddress(r.body);
  const id = Number(r.id);
  const first = r.line_key.split(' ')[0] ?? '';
  return {
    propertyId: id,
    houseNumber: HOUSE_NUMBER.test(first) ? first : null,
    lineKey: r.line_key,
    streetKey: r.street_key,
    unitKey: r.unit_key,
    zip: r.zip,
    state: r.state,
    cityKey: r.city_key,
    doc: JSON.stringify({
      identifier: { Id: id },
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
}
