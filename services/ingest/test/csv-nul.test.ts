// A NUL character in a county file is damage (a zeroed stretch of a damaged export) or a sign of UTF-16: PostgreSQL
// stores none. A NUL in a cell failed its whole batch, and one kept escaped in the import state (text since migration
// 0015) would have failed every later cast of the source's states to jsonb (readAddressIndex). Dropped, a zeroed
// stretch across a line break would splice two rows into one. So a record holding a NUL is an unreadable row,
// reported by its line, and a header holding some fails the file (csv-records.ts). And the header names a file may
// have: a byte-order mark before a quoted first name, names that are Object.prototype's members.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createPool, type Pool } from '@pra/platform';
import type {} from '@pra/platform/testing';
import { importCsv } from '../src/importer/import-csv.js';
import { loadMapping } from '../src/importer/mapping.js';
import { readAddressIndex } from '../src/importer/import-join.js';
import { uniqueStreet } from './make-property.js';
import { recordsOf } from './stored-records.js';
import { useTempFiles } from './temp-files.js';

let pool: Pool;
beforeAll(() => {
  pool = createPool(inject('databaseUrl'), 4);
});
afterAll(() => pool.end());
const { write, propertyMapping } = useTempFiles('pra-csv-nul');

/** APN, site line, unit, ZIP and owner, of a source of its own. */
const mapping = () =>
  propertyMapping('csv-nul', {
    apn: { column: 'APN', required: true },
    line1: { column: 'SITUS', format: 'upper', required: true },
    line2: { column: 'UNIT' },
    zip: { column: 'ZIP', format: 'zip5', required: true },
    city: { value: 'SACRAMENTO' },
    state: { value: 'CA' },
    ownerName: { column: 'OWNER', order: 'first-last' },
  });

describe('a NUL character in a county file', () => {
  it('makes its record an unreadable row, reported by line: the others import and the source stays joinable', async () => {
    const street = uniqueStreet();
    const { mapping: m, source } = mapping();
    // A NUL in a cell that reaches only the stored state and body (the unit), and in one copied as text (the owner).
    const file = write(
      'roll.csv',
      [
        'APN,SITUS,UNIT,ZIP,OWNER',
        `N-1,1 ${street} ST,,95814,ANN LEE`,
        `N-2,2 ${street} ST,APT\u00002,95814,BOB RAY`,
        `N-3,3 ${street} ST,,95814,CAY\u0000 DOE`,
      ].join('\n'),
    );
    const summary = await importCsv(pool, m, file, { batchSize: 100 });
    expect(summary).toMatchObject({ rowsRead: 3, added: 1, skipped: 2 });
    expect(summary.errors.map((e) => e.line)).toEqual([3, 4]);
    for (const e of summary.errors) expect(e.reason).toMatch(/NUL character/);
    expect((await recordsOf(pool, source)).map((r) => r.identifier.apn)).toEqual(['N-1']);
    const { rows } = await pool.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM records.import_state WHERE source = $1 AND strpos(input, '\\u0000') > 0",
      [source],
    );
    expect(rows[0]!.n).toBe(0);
    expect(await readAddressIndex(pool, source)).toHaveLength(1);
  });

  it('never splices two rows into one: a zeroed stretch across a line break is one damaged line, reported', async () => {
    const street = uniqueStreet();
    const { mapping: m, source } = mapping();
    const rows = [
      'APN,SITUS,UNIT,ZIP,OWNER',
      `Z-1,1 ${street} ST,,95814,ANN LEE`,
      `Z-2,2 ${street} ST,,95814,BOB RAY`,
      `Z-3,3 ${street} ST,,95814,CAY DOE`,
    ].join('\n');
    // From row Z-1's " LEE" through row Z-2's "BOB", its line break too: zeroed, as a lost block or a crashed copy
    // leaves a file. Dropping the NULs would have read one row, Z-1 owned by "ANN RAY", and Z-2 gone without a word.
    const from = rows.indexOf(' LEE');
    const to = rows.indexOf('BOB') + 'BOB'.length;
    const file = write('damaged.csv', rows.slice(0, from) + '\u0000'.repeat(to - from) + rows.slice(to));
    const summary = await importCsv(pool, m, file, { batchSize: 100 });
    expect(summary).toMatchObject({ rowsRead: 2, added: 1, skipped: 1 });
    expect(summary.errors).toEqual([{ line: 2, reason: expect.stringMatching(/NUL character/) }]);
    const stored = await recordsOf(pool, source);
    expect(stored.map((r) => [r.identifier.apn, r.owner.owner1.fullName])).toEqual([['Z-3', 'CAY DOE']]);
  });

  it('in the header fails the file, naming UTF-16 (an export without a byte-order mark)', async () => {
    const street = uniqueStreet();
    const { mapping: m, source } = mapping();
    const text = ['APN,SITUS,UNIT,ZIP,OWNER', `U-1,1 ${street} ST,,95814,JOSÉ NÚÑEZ`].join('\r\n');
    const file = write('utf16.csv', Buffer.from(text, 'utf16le').toString('latin1'));
    await expect(importCsv(pool, m, file)).rejects.toThrow(/NUL characters: a UTF-16 file/);
    expect(await recordsOf(pool, source)).toEqual([]);
  });
});

describe('header names a file may have', () => {
  it("read a column named like Object.prototype's members in a tract file as in a property file", async () => {
    const name = `tract-names-${Date.now()}`;
    const m = loadMapping(
      write(
        `${name}.json`,
        JSON.stringify({
          name,
          kind: 'tract',
          source: 'test',
          fields: {
            tract: { column: 'GEOID', required: true },
            vintageYear: { column: 'year', format: 'integer', required: true },
            totalPopulation: { template: '{__proto__}', format: 'integer' },
            povertyRate: { column: 'constructor', fallback: '__proto__', format: 'number' },
          },
        }),
      ),
    );
    const file = write('tracts.csv', ['GEOID,__proto__,constructor,year', '99001000100,7,,2019'].join('\n'));
    const summary = await importCsv(pool, m, file, { dryRun: true });
    expect(summary).toMatchObject({ rowsRead: 1, added: 1, skipped: 0 });
    expect(summary.report.totalPopulation).toMatchObject({ filled: 1, empty: 0 });
    expect(summary.report.povertyRate).toMatchObject({ filled: 1, empty: 0 });
  });

  it("after a byte-order mark, quoted: the mark is taken off first (Excel's CSV UTF-8 with every name quoted)", async () => {
    const street = uniqueStreet();
    const { mapping: m, source } = mapping();
    const file = write(
      'bom.csv',
      ['\uFEFF"APN","SITUS","UNIT","ZIP","OWNER"', `B-1,1 ${street} ST,,95814,ANN LEE`].join('\n'),
    );
    const summary = await importCsv(pool, m, file, { batchSize: 100 });
    expect(summary).toMatchObject({ rowsRead: 1, added: 1, skipped: 0 });
    expect((await recordsOf(pool, source)).map((r) => r.identifier.apn)).toEqual(['B-1']);
  });
});
