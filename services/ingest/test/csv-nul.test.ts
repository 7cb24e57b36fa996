// A NUL character in a county file (a damaged export): PostgreSQL stores none, so a NUL in a cell copied as text
// failed its whole batch, and one in a cell that only reached the import state (JSON "\u0000", since migration 0015
// text) was stored and then failed every later cast of the source's states to jsonb (readAddressIndex: no file could
// be joined on its addresses). The reader drops NULs as it reads the file (csv-records.ts).
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createPool, type Pool } from '@pra/platform';
import type {} from '@pra/platform/testing';
import { readCsvValues } from '../src/importer/csv-records.js';
import { importCsv } from '../src/importer/import-csv.js';
import { readAddressIndex } from '../src/importer/import-join.js';
import { loadMapping } from '../src/importer/mapping.js';
import { uniqueStreet } from './make-property.js';
import { recordsOf } from './stored-records.js';
import { useTempFiles } from './temp-files.js';

let pool: Pool;
beforeAll(() => {
  pool = createPool(inject('databaseUrl'), 4);
});
afterAll(() => pool.end());
const { write } = useTempFiles('pra-csv-nul');

describe('a NUL character in a county file', () => {
  it('is dropped as the file is read, so its rows import and its source stays joinable', async () => {
    const street = uniqueStreet();
    const name = `csv-nul-${street.toLowerCase().replace(/[^a-z0-9]/g, '')}`;
    const mappingFile = write(
      'mapping.json',
      JSON.stringify({
        name,
        kind: 'property',
        fields: {
          apn: { column: 'APN', required: true },
          line1: { column: 'SITUS', format: 'upper', required: true },
          line2: { column: 'UNIT' },
          zip: { column: 'ZIP', format: 'zip5', required: true },
          city: { value: 'SACRAMENTO' },
          state: { value: 'CA' },
          ownerName: { column: 'OWNER', order: 'first-last' },
        },
      }),
    );
    // A NUL in a cell that reaches only the stored state and body (the unit), and in one copied as text (the owner).
    const file = write(
      'roll.csv',
      [
        'APN,SITUS,UNIT,ZIP,OWNER',
        `N-1,1 ${street} ST,,95814,ANN LEE`,
        `N-2,2 ${street} ST,APT\u00002,95814,BOB\u0000 RAY`,
      ].join('\n'),
    );
    const values = [];
    for await (const item of readCsvValues(file, ',')) if ('values' in item) values.push(item.values);
    expect(values[1]).toEqual(['N-2', `2 ${street} ST`, 'APT2', '95814', 'BOB RAY']);

    const summary = await importCsv(pool, loadMapping(mappingFile), file, { batchSize: 100 });
    expect(summary).toMatchObject({ added: 2, skipped: 0, errors: [] });
    const source = `import:${name}`;
    const records = await recordsOf(pool, source);
    expect(JSON.stringify(records)).not.toContain('\\u0000');
    const { rows } = await pool.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM records.import_state WHERE source = $1 AND strpos(input, '\\u0000') > 0",
      [source],
    );
    expect(rows[0]!.n).toBe(0);
    expect(await readAddressIndex(pool, source)).toHaveLength(2);
  });
});
