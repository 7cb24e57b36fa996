// Records read again by id, to answer a repeat with the records it paid for (domain/receipts.ts).
import type { Queryable } from '@pra/platform';
import { decodeRecordRow, type RecordRow, type StoredRecordRow } from './record-queries.js';

const BY_IDS = {
  name: 'records_by_ids',
  text: `SELECT p.body, t.body AS demo, 0 AS total FROM records.properties p
           LEFT JOIN records.tract_profiles t ON t.tract = p.census_tract
          WHERE p.id = ANY($1::bigint[])`,
};

export async function recordsByIds(pool: Queryable, ids: readonly number[]): Promise<RecordRow[]> {
  return (await pool.query<StoredRecordRow>({ ...BY_IDS, values: [ids] })).rows.map(decodeRecordRow);
}
