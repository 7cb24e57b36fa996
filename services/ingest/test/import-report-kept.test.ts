// The import report counts, per target, the cells of the rows an import keeps: a row that is an error (a value that
// cannot be read, a joined file's row naming a parcel the store lacks or an address it has no parcel at, a tract
// row) counts in no target and lists no reason, whatever batch, thread or path found it. The oracle: a file with error
// rows reports what the same file without them reports (a reason's line aside: the rows after an error row move up).
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createPool, type Pool } from '@pra/platform';
import type {} from '@pra/platform/testing';
import type { FieldReport } from '../src/importer/apply-rules.js';
import { importCsv } from '../src/importer/import-csv.js';
import { uniqueStreet } from './make-property.js';
import { useTempFiles } from './temp-files.js';

let pool: Pool;
beforeAll(() => {
  pool = createPool(inject('databaseUrl'), 4);
});
afterAll(async () => {
  await pool.end();
});

const files = useTempFiles('pra-report');
const write = (lines: string[]) => files.write('rows.csv', `${lines.join('\n')}\n`);
const mappingNamed = (body: object, prefix: string) => files.namedMapping(prefix, body);
const tag = () =>
  uniqueStreet()
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');

/**
 * A report with each reason's line left out (the oracle's file lacks the error rows, so its later lines move up), and
 * without the targets it counts nothing of (a file of error rows alone lists them at zero; one of no rows, not at all).
 */
const withoutLines = (report: FieldReport) =>
  Object.fromEntries(
    Object.entries(report)
      .filter(([, c]) => c.filled + c.empty + c.refused > 0 || c.reasons.length > 0)
      .map(([t, c]) => [t, { ...c, reasons: c.reasons.map((r) => r.replace(/^line \d+, /, '')) }]),
  );

const PARCELS = {
  kind: 'property',
  fields: {
    apn: { column: 'APN', required: true },
    line1: { column: 'SITE', format: 'upper', required: true },
    zip: { column: 'ZIP' },
    fips: { value: '06067' },
    saleDate: { column: 'DATE', format: 'date-iso' },
    salePrice: { column: 'PRICE', format: 'integer' },
    yearBuilt: { column: 'BUILT', format: 'integer' },
  },
};

/** A row of the parcels file: kept, kept without a value it refuses, or an error (and refusing a value too). */
type RowKind = 'kept' | 'refused' | 'error' | 'error-refused';
const parcelRow = (kind: RowKind, n: number, street: string, apn: string) => {
  const date = kind === 'refused' || kind === 'error-refused' ? '2071-05-05' : '2020-05-05';
  const price = kind === 'error' || kind === 'error-refused' ? '99999999999' : String(100_000 + n);
  return `${apn},${n} ${street} ST,95814,${date},${price},${n % 3 === 0 ? '' : 1950 + n}`;
};
const isError = (k: RowKind) => k === 'error' || k === 'error-refused';

describe('the import report counts the rows kept', () => {
  it('a property file: its error rows count in no target, in any batches, in the main thread or workers', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom<RowKind>('kept', 'refused', 'error', 'error-refused'), {
          minLength: 1,
          maxLength: 14,
        }),
        fc.integer({ min: 1, max: 12 }),
        fc.constantFrom(0, 2),
        async (kinds, batchSize, workers) => {
          const street = uniqueStreet();
          const t = tag();
          const rows = kinds.map((k, n) => ({ k, text: parcelRow(k, n + 1, street, `${t}-${n + 1}`) }));
          const header = 'APN,SITE,ZIP,DATE,PRICE,BUILT';
          const all = write([header, ...rows.map((r) => r.text)]);
          const kept = write([header, ...rows.filter((r) => !isError(r.k)).map((r) => r.text)]);
          const m = mappingNamed(PARCELS, `report-${t}`);
          const a = await importCsv(pool, m, all, { dryRun: true, batchSize, workers });
          const b = await importCsv(pool, m, kept, { dryRun: true, batchSize, workers });
          expect(a.skipped).toBe(kinds.filter(isError).length);
          expect(withoutLines(a.report)).toEqual(withoutLines(b.report));
          expect(a.report.saleDate?.refused ?? 0).toBe(kinds.filter((k) => k === 'refused').length);
        },
      ),
      {
        numRuns: 50,
        // Error rows that refuse a value before kept rows that do, in one batch (a review's cases).
        examples: [
          [['error-refused', 'refused', 'error-refused', 'refused'], 4, 0],
          [['error-refused', 'error-refused', 'error-refused', 'error-refused', 'error-refused', 'refused'], 12, 0],
          [['error-refused', 'error-refused', 'error-refused', 'refused', 'refused', 'refused', 'refused'], 12, 2],
        ],
      },
    );
  }, 180_000);

  it("a joined file's rows of a parcel the store lacks count in no target, in the main thread or workers", async () => {
    const street = uniqueStreet();
    const t = tag();
    const parcels = mappingNamed(PARCELS, `report-parcels-${t}`);
    const stored = [1, 2, 3, 4].map((n) => parcelRow('kept', n, street, `${t}-${n}`));
    expect(await importCsv(pool, parcels, write(['APN,SITE,ZIP,DATE,PRICE,BUILT', ...stored]))).toMatchObject({
      added: 4,
    });
    const details = mappingNamed(
      {
        kind: 'property',
        join: { mapping: parcels.name, on: 'apn' },
        fields: {
          apn: { column: 'APN', required: true },
          fips: { value: '06067' },
          beds: { column: 'BEDS', format: 'integer' },
          saleDate: { column: 'DATE', format: 'date-iso' },
        },
      },
      `report-details-${t}`,
    );
    await fc.assert(
      fc.asyncProperty(
        // Each row: a parcel of the store (1-4) or one it lacks (5-9); a sale date that cannot be right, or none.
        fc.array(fc.tuple(fc.integer({ min: 1, max: 9 }), fc.boolean(), fc.boolean()), { minLength: 1, maxLength: 10 }),
        fc.integer({ min: 1, max: 4 }),
        fc.constantFrom(0, 2),
        async (picks, batchSize, workers) => {
          const row = ([n, future, beds]: [number, boolean, boolean]) =>
            `${t}-${n},${beds ? n : ''},${future ? '2071-01-01' : ''}`;
          const all = write(['APN,BEDS,DATE', ...picks.map(row)]);
          const inStore = picks.filter(([n]) => n <= 4);
          const kept = write(['APN,BEDS,DATE', ...inStore.map(row)]);
          const a = await importCsv(pool, details, all, { dryRun: true, batchSize, workers });
          const b = await importCsv(pool, details, kept, { dryRun: true, batchSize, workers });
          expect(a.notInStore).toBe(picks.length - inStore.length);
          expect(withoutLines(a.report)).toEqual(withoutLines(b.report));
          expect(a.report.beds?.filled ?? 0).toBe(inStore.filter(([, , beds]) => beds).length);
        },
      ),
      {
        numRuns: 40,
        // Rows the store lacks, in parcels of several rows, before and between kept ones (a review's cases).
        examples: [
          [
            [
              [7, true, false],
              [8, true, false],
              [8, true, false],
              [7, true, false],
              [1, true, false],
            ],
            5,
            0,
          ],
          [
            [
              [1, true, false],
              [5, true, false],
              [1, true, false],
              [1, true, false],
              [1, false, false],
            ],
            3,
            0,
          ],
          [
            [
              [6, true, false],
              [6, true, false],
              [6, true, false],
              [6, true, false],
              [1, true, false],
            ],
            5,
            2,
          ],
        ],
      },
    );
  }, 180_000);

  it('keeps the first three reasons of the rows kept, though rows that turn out errors gave theirs first', async () => {
    const street = uniqueStreet();
    const t = tag();
    const header = 'APN,SITE,ZIP,DATE,PRICE,BUILT';
    const kinds: RowKind[] = [
      'error-refused',
      'error-refused',
      'error-refused',
      'refused',
      'refused',
      'refused',
      'refused',
    ];
    const file = write([header, ...kinds.map((k, n) => parcelRow(k, n + 1, street, `${t}-${n + 1}`))]);
    const parcels = mappingNamed(PARCELS, `report-first-${t}`);
    const refusedAt = (lines: number[]) =>
      lines.map((l) => `line ${l}, column 'DATE': saleDate 2071-05-05 is after tomorrow (not stored)`);
    for (const workers of [0, 2]) {
      const s = await importCsv(pool, parcels, file, { dryRun: true, workers });
      expect(s.report.saleDate).toEqual({ filled: 0, empty: 0, refused: 4, reasons: refusedAt([5, 6, 7]) });
    }
    // A joined file: three rows of parcels the store lacks, then four of one it has, each with a date refused.
    await importCsv(pool, parcels, write([header, parcelRow('kept', 1, street, `${t}-1`)]));
    const sales = mappingNamed(
      {
        kind: 'property',
        join: { mapping: parcels.name, on: 'apn' },
        fields: {
          apn: { column: 'APN', required: true },
          fips: { value: '06067' },
          saleDate: { column: 'DATE', format: 'date-iso' },
        },
      },
      `report-first-sales-${t}`,
    );
    const joined = write(['APN,DATE', ...[9, 8, 7, 1, 1, 1, 1].map((n) => `${t}-${n},2071-05-05`)]);
    for (const workers of [0, 2]) {
      const s = await importCsv(pool, sales, joined, { dryRun: true, workers });
      expect(s.notInStore).toBe(3);
      expect(s.report.saleDate).toEqual({ filled: 0, empty: 0, refused: 4, reasons: refusedAt([5, 6, 7]) });
    }
  });

  it('a file joined on the address: a row at an address the store has no parcel at counts in no target', async () => {
    const street = uniqueStreet();
    const t = tag();
    const parcels = mappingNamed(PARCELS, `report-sites-${t}`);
    const stored = [1, 2].map((n) => parcelRow('kept', n, street, `${t}-${n}`));
    await importCsv(pool, parcels, write(['APN,SITE,ZIP,DATE,PRICE,BUILT', ...stored]));
    const points = mappingNamed(
      {
        kind: 'property',
        join: { mapping: parcels.name, on: 'address' },
        fields: {
          line1: { column: 'address', format: 'upper', required: true },
          latitude: { column: 'Y', format: 'number' },
          longitude: { column: 'X', format: 'number' },
        },
      },
      `report-points-${t}`,
    );
    const file = write([
      'address,Y,X',
      `9 ${street} ST,38.1,-78.4`,
      `1 ${street} ST,38.03,-78.47`,
      `8 ${street} ST,38.2,-78.4`,
    ]);
    const s = await importCsv(pool, points, file);
    expect(s).toMatchObject({ updated: 1, skipped: 2 });
    expect(s.report).toEqual({
      line1: { filled: 1, empty: 0, refused: 0, reasons: [] },
      latitude: { filled: 1, empty: 0, refused: 0, reasons: [] },
      longitude: { filled: 1, empty: 0, refused: 0, reasons: [] },
    });
  });

  it('a tract file: a row that is an error counts in no target and lists no reason', async () => {
    const name = `report-tracts-${tag()}`;
    const m = mappingNamed(
      {
        kind: 'tract',
        source: 'test',
        fields: {
          tract: { column: 'GEOID', required: true },
          vintageYear: { column: 'year', format: 'integer', required: true },
          totalPopulation: { column: 'pop', format: 'integer' },
        },
      },
      name,
    );
    // Line 3 has no year (required): an error, after its tract and population were read.
    const file = write(['GEOID,pop,year', '99001000100,7,2019', '99001000200,8,', '99001000300,,2019']);
    const s = await importCsv(pool, m, file, { dryRun: true });
    expect(s).toMatchObject({ rowsRead: 3, added: 2, skipped: 1 });
    expect(s.report).toEqual({
      tract: { filled: 2, empty: 0, refused: 0, reasons: [] },
      totalPopulation: { filled: 1, empty: 1, refused: 0, reasons: [] },
      vintageYear: { filled: 2, empty: 0, refused: 0, reasons: [] },
    });
  });
});
