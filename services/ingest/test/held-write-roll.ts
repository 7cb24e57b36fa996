// What the import-lock tests share: a roll of twelve parcels of a street of their own, with a mapping of its own
// (batches of 4 make three batches), and the record count's row held in a transaction of the test's, so that every
// batch's write waits at its last statement (its rows copied, uncommitted) until the test lets it go.
import type { Pool, PoolClient } from '@pra/platform';
import type { Mapping } from '../src/importer/mapping.js';
import { uniqueStreet } from './make-property.js';
import type { TempFiles } from './temp-files.js';

/** Twelve parcels, APN `<prefix><street><i>`, one a row; `name`: the mapping's (and so the source's) prefix. */
export function twelveParcelRoll(
  files: TempFiles,
  name: string,
  apnPrefix: string,
): { file: string; mapping: Mapping; source: string } {
  const street = uniqueStreet();
  const lines = ['PARCEL,SITUS,ZIP'];
  for (let i = 0; i < 12; i++) lines.push(`${apnPrefix}${street}${i},${100 + i} ${street},95814`);
  const file = files.write('roll.csv', `${lines.join('\n')}\n`);
  const { mapping, source } = files.propertyMapping(name, {
    apn: { column: 'PARCEL', required: true },
    line1: { column: 'SITUS', required: true },
    zip: { column: 'ZIP', required: true },
  });
  return { file, mapping, source };
}

/** The record count's row locked by a transaction of the caller's: ROLLBACK (or COMMIT) and release it after. */
export async function holdRecordCount(pool: Pool): Promise<PoolClient> {
  const held = await pool.connect();
  try {
    await held.query('BEGIN');
    await held.query('SELECT * FROM records.dataset_stats FOR UPDATE');
    return held;
  } catch (err) {
    held.release(err as Error);
    throw err;
  }
}
