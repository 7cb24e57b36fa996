// County files as they come: parcels by APN (built from several columns), units in the address line or a column,
// re-imports that update the store, malformed rows skipped by line, progress by bytes. Each test imports through a
// mapping of its own name, so its records are a source of their own in the run's database.
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createPool, type Pool } from '@pra/platform';
import type {} from '@pra/platform/testing';
import { type ImportPrereadEvent, type ImportProgressEvent, importCsv } from '../src/importer/import-csv.js';
import { loadMapping, type Mapping } from '../src/importer/mapping.js';
import { ADDRESS_KEYS_VERSION } from '@pra/core/address';
import { removeSource } from '../src/data/remove-source.js';
import { rekeyAddresses } from '../src/data/rekey.js';
import { FileProgress } from '../src/progress.js';
import { COUNTY_ROLLS, SAMPLE_FILES, SHIPPED_MAPPINGS } from '../src/importer/index.js';
import { insertProperties, makeProperty, uniqueStreet } from './make-property.js';
import { recordsOf, saleHistory } from './stored-records.js';

let pool: Pool;
beforeAll(() => {
  pool = createPool(inject('databaseUrl'), 4);
});
afterAll(async () => {
  await pool.end();
  rmSync(dir, { recursive: true, force: true });
});

const dir = mkdtempSync(join(tmpdir(), 'pra-county-'));
let files = 0;
const write = (text: string) => {
  const file = join(dir, `f${++files}.csv`);
  writeFileSync(file, text);
  return file;
};
/** A mapping file with a name of its own (and so a source of its own). */
const mappingNamed = (base: object, name: string) => {
  const file = join(dir, `${name}.json`);
  writeFileSync(file, JSON.stringify({ ...base, name }));
  return loadMapping(file);
};
const tagged = () =>
  uniqueStreet()
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');

const NYC_HEADER =
  'BOROUGH,NEIGHBORHOOD,BUILDING CLASS CATEGORY,TAX CLASS AT PRESENT,BLOCK,LOT,EASE-MENT,BUILDING CLASS AT PRESENT,ADDRESS,APARTMENT NUMBER,ZIP CODE,RESIDENTIAL UNITS,COMMERCIAL UNITS,TOTAL UNITS,LAND SQUARE FEET,GROSS SQUARE FEET,YEAR BUILT,TAX CLASS AT TIME OF SALE,BUILDING CLASS AT TIME OF SALE, SALE PRICE ,SALE DATE';
const nycRow = (r: {
  block: string;
  lot: string;
  address: string;
  apt?: string;
  price?: string;
  date: string;
  sqft?: string;
}) =>
  [
    '3',
    'BATH BEACH',
    '13 CONDOS - ELEVATOR APARTMENTS',
    '2',
    r.block,
    r.lot,
    '',
    'R4',
    `"${r.address}"`,
    r.apt ?? '',
    '11214',
    '1',
    '0',
    '1',
    '"2,058"',
    `"${r.sqft ?? '1,492'}"`,
    '1930',
    '2',
    'R4',
    `"${r.price ?? '0'}"`,
    r.date,
  ].join(',');

describe('parcels by APN (the NYC rolling-sales layout)', () => {
  it('merges the sales of one BOROUGH-BLOCK-LOT, keeps lots at one address apart with their units', async () => {
    const street = uniqueStreet();
    const file = write(
      [
        NYC_HEADER,
        nycRow({ block: '100', lot: '1', address: `10 ${street} STREET`, price: '1,250,000', date: '1/15/2019' }),
        nycRow({ block: '100', lot: '1', address: `10 ${street} ST`, price: '1,300,000', date: '6/1/2019' }),
        nycRow({ block: '100', lot: '1001', address: `20 ${street} STREET, 1A`, price: '500,000', date: '3/3/2019' }),
        nycRow({ block: '100', lot: '1002', address: `20 ${street} STREET`, apt: '2B', date: '4/4/2019' }),
      ].join('\n'),
    );
    const mapping = mappingNamed(loadMapping(SHIPPED_MAPPINGS.nycRollingSales), `nyc-${tagged()}`);
    const s = await importCsv(pool, mapping, file);
    expect(s).toMatchObject({ rowsRead: 4, added: 3, updated: 0, unchanged: 0, skipped: 0 });
    const records = await recordsOf(pool, `import:${mapping.name}`);
    expect(records.map((r) => [r.identifier.apn, r.address.line1, r.address.line2])).toEqual([
      ['3-00100-0001', `10 ${street} ST`, ''],
      ['3-00100-1001', `20 ${street} STREET`, '# 1A'],
      ['3-00100-1002', `20 ${street} STREET`, '# 2B'],
    ]);
    // The row with the latest sale gives the address; both sales are in the history, thousands separators read.
    expect(records[0].sale.lastSale).toEqual({ date: '2019-06-01', price: 1_300_000 });
    expect(await saleHistory(pool, records[0].id)).toEqual([
      ['2019-06-01', 1_300_000],
      ['2019-01-15', 1_250_000],
    ]);
    expect(records[2].sale.lastSale).toEqual({ date: '2019-04-04', price: null });
  });
});

describe('re-imports update the store', () => {
  const HEADER = 'BOOK,PAGE,SITUS,UNIT,ZIP,OWNER,ASSESSED,SALE DATE,SALE PRICE,YEAR,LOAN,LENDER';
  const base = {
    kind: 'property',
    fields: {
      apn: { template: '{BOOK}-{PAGE:03}', required: true },
      line1: { column: 'SITUS', format: 'upper', required: true },
      unit: { column: 'UNIT' },
      zip: { column: 'ZIP', format: 'zip5', required: true },
      ownerName: { column: 'OWNER', order: 'first-last' },
      assessedTotal: { column: 'ASSESSED', format: 'integer' },
      saleDate: { column: 'SALE DATE', format: 'date-us' },
      salePrice: { column: 'SALE PRICE', format: 'integer' },
      yearBuilt: { column: 'YEAR', format: 'integer' },
      mortgageAmount: { column: 'LOAN', format: 'number' },
      mortgageLender: { column: 'LENDER' },
    },
  };

  it('changes nothing on an identical file; updates owner, assessment and characteristics, appends sales, keeps ids', async () => {
    const street = uniqueStreet();
    const mapping = mappingNamed(base, `county-${tagged()}`);
    const source = `import:${mapping.name}`;
    const first = write(
      [
        HEADER,
        `12,7,1 ${street} ST,,95814,ANN LEE,"300,000",1/2/2020,"$410,000",1950,,`,
        `12,8,2 ${street} ST,,95814,BOB RAY,250000,2/3/2020,390000,1960,300000,FIRST BANK`,
        `12,9,3 ${street} ST,4,95814,CAT POE,150000,3/4/2020,200000,1970,,`,
      ].join('\n'),
    );
    expect(await importCsv(pool, mapping, first)).toMatchObject({ added: 3, updated: 0, unchanged: 0, skipped: 0 });
    const before = await recordsOf(pool, source);
    expect(before.map((r) => [r.identifier.apn, r.address.line2])).toEqual([
      ['12-007', ''],
      ['12-008', ''],
      ['12-009', '# 4'],
    ]);

    expect(await importCsv(pool, mapping, first)).toMatchObject({ added: 0, updated: 0, unchanged: 3 });
    expect(await recordsOf(pool, source)).toEqual(before);

    const changed = write(
      [
        HEADER,
        `12,7,1 ${street} ST,,95814,ANN LEE,"300,000",1/2/2020,"$410,000",1950,,`, // as before
        `12,8,2 ${street} ST,,95814,DAN ORR,250000,6/7/2021,455000,1960,360000,CITY CU`, // sold again: owner, loan
        `12,9,3 ${street} ST,4,95814,CAT POE,175000,3/4/2020,200000,1971,,`, // reassessed, year corrected
        `12,10,4 ${street} ST,,95814,EVE FOX,100000,1/1/2021,150000,1980,,`, // a new parcel
      ].join('\n'),
    );
    expect(await importCsv(pool, mapping, changed)).toMatchObject({ added: 1, updated: 2, unchanged: 1, skipped: 0 });
    const after = await recordsOf(pool, source);
    expect(after.slice(0, 3).map((r) => r.id)).toEqual(before.map((r) => r.id));
    expect(after[0]).toEqual(before[0]);
    expect(after[1].owner.owner1.fullName).toBe('DAN ORR');
    expect(before[1].mortgage.amount).toBe('300000');
    expect(after[1].mortgage).toMatchObject({ amount: '360000', lender: { companyname: 'CITY CU' } });
    expect(after[1].sale.lastSale).toEqual({ date: '2021-06-07', price: 455_000 });
    expect(await saleHistory(pool, after[1].id)).toEqual([
      ['2021-06-07', 455_000],
      ['2020-02-03', 390_000],
    ]);
    expect(after[2].assessment.assessed.total).toBe(175_000);
    expect(after[2].summary.yearbuilt).toBe(1971);
    for (const r of [after[1], after[2]]) {
      expect(r.modified > before[0].modified).toBe(true);
      expect(r.vintage.lastModified > before[0].vintage.lastModified).toBe(true);
    }
    const count = await pool.query('SELECT count(*)::int AS n FROM records.properties WHERE source = $1', [source]);
    expect(count.rows[0].n).toBe(4);
  });

  it('refuses to re-import over records loaded before imports kept their state, and says how to go on', async () => {
    const street = uniqueStreet();
    const mapping = mappingNamed(base, `legacy-${tagged()}`);
    const source = `import:${mapping.name}`;
    await insertProperties(pool, [makeProperty({ line1: `5 ${street} ST` })], source);
    const file = write([HEADER, `1,1,5 ${street} ST,,95814,ANN LEE,1,1/2/2020,1,1950,,`].join('\n'));
    await expect(importCsv(pool, mapping, file)).rejects.toThrow(/Remove them first \(npm run ingest -- remove/);
    const stats = await pool.query('SELECT property_count FROM records.dataset_stats');
    expect(await removeSource(pool, source)).toBe(1);
    const after = await pool.query('SELECT property_count FROM records.dataset_stats');
    expect(Number(after.rows[0].property_count)).toBe(Number(stats.rows[0].property_count) - 1);
    expect(await importCsv(pool, mapping, file)).toMatchObject({ added: 1 });
  });

  it('names the columns a file lacks before reading any row', async () => {
    const mapping = mappingNamed(base, `short-${tagged()}`);
    const file = write(['BOOK,PAGE,ADDRESS,ZIP', '1,2,3 MAIN ST,95814'].join('\n'));
    await expect(importCsv(pool, mapping, file)).rejects.toThrow(
      /no column 'SITUS', 'UNIT', 'OWNER'.*; its columns are: BOOK, PAGE, ADDRESS, ZIP/,
    );
  });
  it('a file that cannot be read, gzipped or not, fails the import with the reason (it used to end the process)', async () => {
    const mapping = mappingNamed(base, `missing-${tagged()}`);
    for (const missing of [join(dir, 'no-such-roll.csv.gz'), join(dir, 'no-such-roll.csv'), dir])
      await expect(importCsv(pool, mapping, missing)).rejects.toThrow(/ENOENT|EISDIR/);
  });
});

/** A parcels file of Charlottesville's kind (no site ZIP: APN, SITE), with `fields` of its own. */
const cityParcels = (name: string, fields: object) =>
  mappingNamed(
    {
      kind: 'property',
      fields: {
        apn: { column: 'APN', required: true },
        line1: { column: 'SITE', format: 'upper', required: true },
        city: { value: 'CHARLOTTESVILLE' },
        state: { value: 'VA' },
        fips: { value: '51540' },
        ...fields,
      },
    },
    name,
  );

/** A parcels file of Charlottesville's kind whose `proptype` rule only fills (rule option fillOnly). */
const fillingParcels = (name: string, proptype: object) =>
  cityParcels(name, { proptype: { ...proptype, fillOnly: true } });

describe('a county in two files, one that only fills the type (rule option fillOnly)', () => {
  it("types a parcel no other file types; never replaces the other file's type or clears one; re-imports change nothing", async () => {
    const street = uniqueStreet();
    const tag = tagged();
    const parcels = fillingParcels(`fills-parcels-${tag}`, {
      column: 'FileType',
      map: { C: 'COMMERCIAL' },
      nullIf: ['R', 'E'],
    });
    const details = mappingNamed(
      {
        kind: 'property',
        join: { mapping: parcels.name, on: 'apn' },
        fields: {
          apn: { column: 'APN', required: true },
          fips: { value: '51540' },
          proptype: { column: 'UseCode', map: { 'Single Family': 'SFR' } },
        },
      },
      `fills-details-${tag}`,
    );
    /** Parcels 1, 2, ... typed so; `[n, type]`, a further row of parcel n. */
    const parcelsFile = (types: (string | [number, string])[]) =>
      write(
        [
          'APN,SITE,FileType',
          ...types.map((t, i) => {
            const [n, type] = typeof t === 'string' ? [i + 1, t] : t;
            return `${tag}-${n},${n} ${street} ST,${type}`;
          }),
        ].join('\n'),
      );
    const types = async () =>
      (await recordsOf(pool, `import:${parcels.name}`)).map(
        (r) => `${r.identifier.apn.slice(tag.length + 1)} ${r.summary.proptype}`,
      );

    const first = parcelsFile(['C', 'R', 'C', 'E']);
    expect(await importCsv(pool, parcels, first)).toMatchObject({ added: 4, skipped: 0, refusedValues: 0 });
    expect(await types()).toEqual(['1 COMMERCIAL', '2 UNKNOWN', '3 COMMERCIAL', '4 UNKNOWN']);
    // The residential details: a house the parcels file left untyped, and one it called commercial.
    const houses = write(['APN,UseCode', `${tag}-2,Single Family`, `${tag}-3,Single Family`].join('\n'));
    expect(await importCsv(pool, details, houses)).toMatchObject({ added: 0, updated: 2, skipped: 0 });
    const settled = ['1 COMMERCIAL', '2 SFR', '3 SFR', '4 UNKNOWN'];
    expect(await types()).toEqual(settled);
    // A use the map does not name, on a parcel the store lacks (line 2) and on one it has (line 3), in a dry run: the
    // row not in the store is an error and lists no refused value; the kept row lists its own.
    const strays = write(['APN,UseCode', `${tag}-9,Castle`, `${tag}-1,Castle`].join('\n'));
    expect(await importCsv(pool, details, strays, { dryRun: true })).toMatchObject({
      notInStore: 1,
      errors: [{ line: 2, reason: expect.stringMatching(/ is not in the store$/) }],
      refusals: [{ line: 3, reason: expect.stringMatching(/^column 'UseCode': proptype 'Castle' is not one of /) }],
      refusedValues: 1,
    });

    // Each file again, in either order: nothing changes (no file takes the type back from the other).
    expect(await importCsv(pool, parcels, first)).toMatchObject({ updated: 0, unchanged: 4 });
    // A parcel's rows in two batches (not next to each other): the later one over what the earlier left, the same.
    const split = parcelsFile(['C', 'R', 'C', 'E', [3, 'C']]);
    expect(await importCsv(pool, parcels, split, { batchSize: 2 })).toMatchObject({ updated: 0, skipped: 0 });
    expect(await importCsv(pool, details, houses)).toMatchObject({ updated: 0, unchanged: 2 });
    expect(await importCsv(pool, parcels, first)).toMatchObject({ updated: 0, unchanged: 4 });
    expect(await types()).toEqual(settled);

    // A later parcels file: its empty value clears nothing (1), its type replaces none (2), and fills one (4).
    expect(await importCsv(pool, parcels, parcelsFile(['R', 'C', 'C', 'C']))).toMatchObject({ updated: 1 });
    expect(await types()).toEqual(['1 COMMERCIAL', '2 SFR', '3 SFR', '4 COMMERCIAL']);
  });
});

describe('rows of one parcel that disagree on a field the file only fills', () => {
  it("give the first row's value, whether a batch holds them both or two batches split them", async () => {
    const street = uniqueStreet();
    const tag = tagged();
    const mapping = (name: string) =>
      fillingParcels(`${name}-${tag}`, { column: 'T', map: { C: 'COMMERCIAL', I: 'INDUSTRIAL' } });
    const typed = async (m: Mapping, rows: string[], batchSize: number) => {
      const file = write(['APN,SITE,T', ...rows].join('\n'));
      expect(await importCsv(pool, m, file, { batchSize })).toMatchObject({ skipped: 0 });
      return (await recordsOf(pool, `import:${m.name}`)).map((r) => r.summary.proptype);
    };
    const p1 = (t: string) => `${tag}-1,1 ${street} ST,${t}`;
    const p2 = `${tag}-2,2 ${street} ST,C`;
    // The same rows; in the second file another parcel's row stands between parcel 1's two, a batch of two rows each.
    expect(await typed(mapping('together'), [p1('C'), p1('I'), p2], 2)).toEqual(['COMMERCIAL', 'COMMERCIAL']);
    expect(await typed(mapping('apart'), [p1('C'), p2, p1('I')], 2)).toEqual(['COMMERCIAL', 'COMMERCIAL']);
  });
});

describe('malformed rows', () => {
  it('reports an unclosed quote, an overflow, a bad date and a row of extra fields by line, and loads the rest', async () => {
    const street = uniqueStreet();
    const mapping = mappingNamed(loadMapping(SHIPPED_MAPPINGS.nycRollingSales), `bad-${tagged()}`);
    const good = (lot: string, n: number) =>
      nycRow({ block: '200', lot, address: `${n} ${street} STREET`, price: '100', date: '5/5/2019' });
    const file = write(
      [
        NYC_HEADER,
        good('1', 1), // line 2
        // line 3: the quote never closes (the next quote, of the size field, is taken as its end)
        good('2', 2).replace(`"2 ${street} STREET"`, `"2 ${street} STREET`),
        good('3', 3), // line 4
        good('4', 4).replace('"100"', '"99,999,999,999"'), // line 5: more than the store holds
        good('5', 5).replace('5/5/2019', '2/30/2019'), // line 6
        `${good('6', 6)},EXTRA`, // line 7
        good('7', 7).replace(`"7 ${street} STREET"`, `"7 ${street}\nSTREET"`), // lines 8-9: a quoted field on two lines
        good('8', 8), // line 10
        good('9', 9)
          .replace(`"9 ${street} STREET"`, `"9 ${street} STREET`)
          .replace(/"/g, (q, i, all) => (i > all.indexOf('STREET') ? '' : q)), // line 11: no quote after it at all
        good('10', 10), // line 12
      ].join('\r\n'),
    );
    const s = await importCsv(pool, mapping, file);
    expect(s.errors).toEqual([
      { line: 3, reason: 'the quote of field 9 closes before the field ends (an unclosed or stray quote)' },
      { line: 5, reason: 'salePrice 99999999999 is out of range' },
      { line: 6, reason: "saleDate ('SALE DATE'): '2/30/2019' is not a calendar date" },
      { line: 7, reason: '22 fields where the header has 21' },
      { line: 11, reason: 'unclosed quote in field 9' },
    ]);
    expect(s).toMatchObject({ rowsRead: 10, added: 5, skipped: 5 });
    const lines = (await recordsOf(pool, `import:${mapping.name}`)).map((r) => r.address.line1);
    // The quoted field over two lines is one field; its line break is a space in the address.
    expect(lines).toEqual([1, 3, 7, 8, 10].map((n) => `${n} ${street} STREET`));
  });

  it('a row that is an error lists none of its values as refused: a refused value is one the row was kept without', async () => {
    const street = uniqueStreet();
    const mapping = mappingNamed(loadMapping(SHIPPED_MAPPINGS.nycRollingSales), `refused-${tagged()}`);
    const row = (lot: string, n: number, price: string) =>
      nycRow({ block: '300', lot, address: `${n} ${street} STREET`, price, date: '5/5/2071' });
    const file = write([NYC_HEADER, row('1', 1, '100'), row('2', 2, '99,999,999,999')].join('\n'));
    const s = await importCsv(pool, mapping, file);
    // Line 2 is kept without its sale (a date 45 years on); line 3, refused the same date, is not kept at all.
    expect(s.errors).toEqual([{ line: 3, reason: 'salePrice 99999999999 is out of range' }]);
    expect(s.refusals.map((r) => r.line)).toEqual([2]);
    expect(s).toMatchObject({ added: 1, skipped: 1, refusedValues: 1 });
  });
});

describe('worker threads', () => {
  it('import a real county file as the main thread does: the same records, in batches of either; again unchanged', async () => {
    // The first 1,500 sales of the Brooklyn sample: condos with units in the address, co-ops, rows of one lot.
    const lines = gunzipSync(readFileSync(SAMPLE_FILES.brooklynSales)).toString('utf8').split('\n');
    const file = write(lines.slice(0, 1_501).join('\n'));
    const base = loadMapping(SHIPPED_MAPPINGS.nycRollingSales);
    const inline = mappingNamed(base, `inline-${tagged()}`);
    const threaded = mappingNamed(base, `threaded-${tagged()}`);
    const a = await importCsv(pool, inline, file, { workers: 0, batchSize: 400 });
    const b = await importCsv(pool, threaded, file, { workers: 2, batchSize: 150 });
    expect(a.added).toBeGreaterThan(1_000);
    expect({ ...b, mapping: '' }).toEqual({ ...a, mapping: '' });
    const same = (r: { id: number; modified: string; identifier: object; vintage: object }) => ({
      ...r,
      id: 0,
      modified: '',
      identifier: { ...r.identifier, Id: 0 },
      vintage: {},
    });
    const [ra, rb] = [await recordsOf(pool, `import:${inline.name}`), await recordsOf(pool, `import:${threaded.name}`)];
    expect(rb.map(same)).toEqual(ra.map(same));
    expect(await importCsv(pool, threaded, file, { workers: 2, batchSize: 500 })).toMatchObject({
      added: 0,
      updated: 0,
      unchanged: a.added,
    });
  }, 60_000);
});

/** A sales file's columns: a parcel's APN, its address, and a sale a row. */
const SALES_FIELDS = {
  apn: { column: 'PARCEL', required: true },
  line1: { column: 'SITUS', format: 'upper', required: true },
  zip: { column: 'ZIP', format: 'zip5', required: true },
  salePrice: { column: 'PRICE', format: 'integer' },
  saleDate: { column: 'DATE', format: 'date-iso' },
};

describe('worker threads, parcels of several rows', () => {
  it('cut batches where a parcel ends, though the reader copies only the APN cell for them', async () => {
    // Three sales a parcel, batches of at least four rows: cut by size alone, most parcels would span two batches
    // (each batch's rows then say less of a parcel than the file, and a re-import must read its state to find it
    // unchanged). A batch is reported (onProgress) as it is written: each must end on a parcel's last row.
    const street = uniqueStreet();
    const text = ['PARCEL,SITUS,ZIP,PRICE,DATE'];
    for (let i = 0; i < 90; i++) {
      const p = Math.floor(i / 3);
      text.push(`APN${street}${p},${100 + p} ${street},95814,${200_000 + i},2020-0${1 + (i % 3)}-15`);
    }
    const file = write(`${text.join('\n')}\n`);
    const mapping = mappingNamed({ kind: 'property', fields: SALES_FIELDS }, `multi-${tagged()}`);
    const ends: number[] = [];
    const onProgress = (p: { rowsRead: number }) => ends.push(p.rowsRead);
    expect(await importCsv(pool, mapping, file, { workers: 2, batchSize: 4, onProgress })).toMatchObject({
      added: 30,
      skipped: 0,
    });
    expect(ends.length).toBeGreaterThan(5);
    expect(ends.filter((n) => n % 3 !== 0)).toEqual([]);
    expect(await importCsv(pool, mapping, file, { workers: 2, batchSize: 4 })).toMatchObject({
      added: 0,
      updated: 0,
      unchanged: 30,
    });
  }, 60_000);
});

/** The mapping of a sales file with an assessment (SALES_FIELDS' columns and ASSESSED). */
const ASSESSED_SALES = {
  kind: 'property',
  fields: { ...SALES_FIELDS, assessedTotal: { column: 'ASSESSED', format: 'integer' } },
} as const;

/**
 * Sales of one day, sorted by date: twelve parcels of a street of their own, then four of them again at the same
 * price with another assessment (each of the four parcels' rows apart). `row` makes more of the street's.
 */
function salesOfOneDay() {
  // Of one length whatever the process id and clock in its name: the file's size, and so where the reader's chunks
  // end, is the same every run.
  const street = uniqueStreet().padEnd(32, 'X');
  const row = (p: number, assessed: number) =>
    `APN${street}${p},${100 + p} ${street},95814,300000,2021-03-01,${assessed}`;
  const rows = Array.from({ length: 12 }, (_, p) => row(p, 90_000));
  for (let p = 0; p < 12; p += 3) rows.push(row(p, 91_000));
  return { row, rows };
}

describe('a sales file sorted by date', () => {
  it('imported over a store merges each parcel as one batch would, and again finds every parcel unchanged', async () => {
    // A file sorted by date: twelve parcels sold on one day, then four of them again that day, at the same price with
    // another assessment (a correction within the file, or a second deed of the day): each of the four parcels' rows
    // are apart. A re-import reads first which parcels' rows are apart and merges each once over its stored state, as
    // one batch does. Merged in two steps (its rows up to where the reader finds it apart, then the rest), the second
    // step would merge the later rows as rows of the same file, which fill only what the first left empty: the
    // assessment would stay the first row's, unlike one batch's, and the store would depend on how the rows fell.
    const { rows } = salesOfOneDay();
    const header = 'PARCEL,SITUS,ZIP,PRICE,DATE,ASSESSED';
    const file = write(`${header}\n${rows.join('\n')}\n`);
    // The county's file of a month before: the same day's sales but the corrections.
    const before = write(`${header}\n${rows.slice(0, 12).join('\n')}\n`);
    const name = `by-date-${tagged()}`;
    const mappingOf = (side: string) => mappingNamed(ASSESSED_SALES, `${name}-${side}`);
    // The same two files in batches of 4 rows, and each in one batch.
    const [batched, whole] = [mappingOf('batched'), mappingOf('whole')];
    const parcels = async (m: Mapping) =>
      (await recordsOf(pool, `import:${m.name}`)).map((r) => ({
        apn: r.identifier.apn,
        assessed: r.assessment.assessed.total,
      }));
    for (const [m, batchSize] of [
      [batched, 4],
      [whole, 10_000],
    ] as const) {
      expect(await importCsv(pool, m, before, { batchSize })).toMatchObject({ added: 12, skipped: 0 });
      expect(await importCsv(pool, m, file, { batchSize })).toMatchObject({ updated: 4, unchanged: 8 });
    }
    const merged = await parcels(batched);
    expect(merged).toEqual(await parcels(whole));
    expect(merged.filter((p) => p.assessed === 91_000)).toHaveLength(4);

    const source = `import:${batched.name}`;
    const events = async () =>
      Number(
        (await pool.query('SELECT count(*) AS n FROM records.change_events WHERE source = $1', [source])).rows[0].n,
      );
    const changes = await events();
    const stored = await recordsOf(pool, source);
    for (const workers of [0, 2]) {
      const progress: { rowsRead: number; totalRows?: number }[] = [];
      const prereads: ImportPrereadEvent[] = [];
      const again = await importCsv(pool, batched, file, {
        batchSize: 4,
        workers,
        onProgress: (p) => progress.push(p),
        onPreread: (p) => prereads.push(p),
      });
      expect(again, `workers ${workers}`).toMatchObject({ added: 0, updated: 0, unchanged: 12 });
      expect(await events()).toBe(changes);
      // The rows were counted before, by a read of the file told as it went: the last batch written is the file's
      // every row.
      const size = statSync(file).size;
      expect(prereads.at(-1)).toEqual({ step: 'apart', bytesRead: size, totalBytes: size });
      expect(progress.at(-1)).toMatchObject({ rowsRead: rows.length, totalRows: rows.length });
    }
    expect(await recordsOf(pool, source)).toEqual(stored);
  }, 60_000);
});

describe('the progress of a first load whose rows are held back', () => {
  it('tells the bytes read and the rows held, not the bytes of the rows written alone', async () => {
    // Twelve parcels, four of them again (their rows held back to the file's end: held-rows.ts), then 1,500 others
    // (~150 KB, the reader's chunks are 64 KB): the bytes of the rows written stop at the chunk of the earliest row
    // held while the rest of the file is read and written.
    const { row, rows } = salesOfOneDay();
    for (let p = 100; p < 1_600; p++) rows.push(row(p, 90_000));
    const text = `PARCEL,SITUS,ZIP,PRICE,DATE,ASSESSED\n${rows.join('\n')}\n`;
    const file = write(text);
    const mapping = mappingNamed(ASSESSED_SALES, `held-progress-${tagged()}`);
    const events: ImportProgressEvent[] = [];
    await importCsv(pool, mapping, file, { batchSize: 100, workers: 0, onProgress: (p) => events.push(p) });
    const size = Buffer.byteLength(text);
    expect(size).toBeGreaterThan(2 * 65_536);
    const holding = events.filter((e) => e.rowsHeld > 0);
    expect(holding.length).toBeGreaterThan(5);
    for (const e of holding) {
      expect(e).toMatchObject({ rowsHeld: 4, rowsWhole: 12 });
      expect(e.bytesRead).toBeLessThanOrEqual(65_536);
    }
    // The bytes read go on to the file's end.
    expect(holding.at(-1)!.bytesPassed).toBe(size);
    const passed = events.map((e) => e.bytesPassed);
    expect(passed).toEqual([...passed].sort((x, y) => x - y));
    expect(events.at(-1)).toMatchObject({ rowsRead: rows.length, bytesRead: size, bytesPassed: size, rowsHeld: 0 });

    const { lines, stream } = progressSink();
    const line = new FileProgress('import h', stream);
    line.update({ ...holding.at(-1)!, rowsRead: 1_200, rowsHeld: 400, bytesPassed: 3_000_000, totalBytes: 3_000_000 });
    // 1,200 of the 1,600 rows read are written: 75% of the file, all of it read.
    expect(lines[0]).toMatch(/^import h: 1,200 rows, .*3\.0 MB of 3\.0 MB, 400 rows held back \(75%\), ETA \d+s\n$/);
  }, 60_000);
});

describe('a roll without site ZIPs in worker threads', () => {
  it('finds each parcel the ZIP the main thread finds: the evidence read by the workers, in the file order', async () => {
    // Lebanon, NH: no site ZIP in the roll; a parcel's ZIP comes from the evidence of its street segment.
    const { mapping, file } = COUNTY_ROLLS.lebanon[0]!;
    const base = JSON.parse(readFileSync(mapping, 'utf8')) as object;
    const inline = mappingNamed(base, `leb-inline-${tagged()}`);
    const threaded = mappingNamed(base, `leb-threaded-${tagged()}`);
    const a = await importCsv(pool, inline, file, { workers: 0 });
    const prereads: ImportPrereadEvent[] = [];
    const b = await importCsv(pool, threaded, file, {
      workers: 2,
      batchSize: 700,
      onPreread: (p) => prereads.push(p),
    });
    expect({ ...b, mapping: '' }).toEqual({ ...a, mapping: '' });
    // The evidence's read, told batch by batch (bytes of the gzip read), to the file's end.
    const size = statSync(file).size;
    expect(prereads.length).toBeGreaterThan(3);
    expect(prereads.every((p) => p.step === 'zip-evidence' && p.totalBytes === size)).toBe(true);
    expect(prereads.at(-1)!.bytesRead).toBe(size);
    const zips = async (source: string) =>
      (await recordsOf(pool, source)).map((r) => [r.identifier.apn, r.address.postal1, r.vintage.postal1Source]);
    const [za, zb] = [await zips(`import:${inline.name}`), await zips(`import:${threaded.name}`)];
    expect(za.filter(([, zip]) => zip !== '').length).toBeGreaterThan(4_000);
    expect(zb).toEqual(za);
  }, 120_000);
});

/** A progress line's stream that keeps what is written, as a log (not a terminal). */
function progressSink() {
  const lines: string[] = [];
  return { lines, stream: { isTTY: false, write: (s: string) => lines.push(s) } as unknown as NodeJS.WriteStream };
}

describe('progress', () => {
  const sink = progressSink;

  it('shows rows read, their rate, bytes of the file and the time left', () => {
    const { lines, stream } = sink();
    const p = new FileProgress('import x', stream);
    p.update({ rowsRead: 1_000, bytesRead: 1_500_000, totalBytes: 3_000_000 });
    p.update({ rowsRead: 1_500, bytesRead: 1_600_000, totalBytes: 3_000_000 }); // under 10% more: not logged
    p.update({ rowsRead: 2_000, bytesRead: 3_000_000, totalBytes: 3_000_000 }, true);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^import x: 1,000 rows, [\d,]+ rows\/s, 1\.5 MB of 3\.0 MB \(50%\), ETA \d+s\n$/);
    expect(lines[1]).toMatch(/^import x: 2,000 rows, .*3\.0 MB of 3\.0 MB \(100%\), ETA 0s\n$/);
  });

  it('with the rows counted before (a re-import) shows the share of them written', () => {
    const { lines, stream } = sink();
    // The bytes stop at the earliest row held back (a parcel's rows apart in the file) until it is written.
    new FileProgress('import z', stream).update(
      { rowsRead: 250, bytesRead: 1_000, totalBytes: 3_000_000, totalRows: 1_000 },
      true,
    );
    expect(lines[0]).toMatch(/^import z: 250 of 1,000 rows \(25%\), [\d,]+ rows\/s, ETA \d+s\n$/);
  });

  it('with more rows written than counted before (the file grew since) shows the bytes read', () => {
    const { lines, stream } = sink();
    new FileProgress('import g', stream).update(
      { rowsRead: 19, bytesRead: 1_500_000, bytesPassed: 1_500_000, totalBytes: 3_000_000, totalRows: 16 },
      true,
    );
    expect(lines[0]).toMatch(/^import g: 19 rows, [\d,]+ rows\/s, 1\.5 MB of 3\.0 MB \(50%\), ETA \d+s\n$/);
  });

  it('shows a read of the whole file before the rows, then the rows with a clock and shares of their own', async () => {
    const { lines, stream } = sink();
    const p = new FileProgress('import r', stream);
    p.reading({ step: 'apart', bytesRead: 1_000_000, totalBytes: 4_000_000 });
    p.reading({ step: 'apart', bytesRead: 4_000_000, totalBytes: 4_000_000 });
    // The rows' 50% is logged though the read logged 100%: each step's shares are its own.
    p.update({ rowsRead: 500, bytesRead: 2_000_000, totalBytes: 4_000_000, totalRows: 1_000 });
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(
      /^import r: reading which parcels' rows are apart first, 1\.0 MB of 4\.0 MB \(25%\), ETA \d+s\n$/,
    );
    expect(lines[1]).toMatch(
      /^import r: reading which parcels' rows are apart first, 4\.0 MB of 4\.0 MB \(100%\), ETA 0s\n$/,
    );
    expect(lines[2]).toMatch(/^import r: 500 of 1,000 rows \(50%\), [\d,]+ rows\/s, ETA \d+s\n$/);
    // The rows' rate counts from the read's end: 500 rows written ~50 ms after it are ~10,000 rows/s (a timer may fire
    // a little early), not the 500,000 of a clock started at their first batch.
    const rated = sink();
    const q = new FileProgress('import t', rated.stream);
    q.reading({ step: 'apart', bytesRead: 4_000_000, totalBytes: 4_000_000 });
    await new Promise((r) => setTimeout(r, 50));
    q.update({ rowsRead: 500, bytesRead: 2_000_000, totalBytes: 4_000_000, totalRows: 1_000 });
    const rate = Number(/, ([\d,]+) rows\/s/.exec(rated.lines[1]!)![1]!.replaceAll(',', ''));
    expect(rate).toBeLessThan(20_000);
    // Of a pipe (no size), on a terminal: redrawn in place.
    const drawn: string[] = [];
    const tty = { isTTY: true, write: (t: string) => drawn.push(t) } as unknown as NodeJS.WriteStream;
    new FileProgress('import q', tty).reading({ step: 'zip-evidence', bytesRead: 7_000_000, totalBytes: null });
    expect(drawn).toEqual(['\rimport q: reading its ZIP evidence first, 7.0 MB read\x1b[K']);
  });

  it('without a known size (a pipe) shows what was read', () => {
    const { lines, stream } = sink();
    new FileProgress('import y', stream).update({ rowsRead: 10, bytesRead: 2_000_000, totalBytes: null }, true);
    expect(lines[0]).toMatch(/^import y: 10 rows, [\d,]+ rows\/s, 2\.0 MB read\n$/);
  });
});

describe('address keys after a normaliser change', () => {
  it('are recomputed for every stored record by the rekey, once per version', async () => {
    const street = uniqueStreet();
    const [id] = await insertProperties(pool, [
      makeProperty({ line1: `131 74 STREET`, line2: `# ${street.slice(-6)}` }),
    ]);
    // As a store written by an older normaliser holds it: the old line key, no loose key.
    await pool.query(
      "UPDATE records.properties SET line_key = '131 74 ST', loose_key = '', street_type = '' WHERE id = $1",
      [id],
    );
    await pool.query('UPDATE records.dataset_stats SET address_keys_version = 0');
    expect(await rekeyAddresses(pool)).toBeGreaterThanOrEqual(1);
    const { rows } = await pool.query('SELECT line_key, loose_key, street_type FROM records.properties WHERE id = $1', [
      id,
    ]);
    expect(rows[0]).toEqual({ line_key: '131 74TH ST', loose_key: '74TH 131', street_type: 'ST' });
    const stats = await pool.query('SELECT address_keys_version AS v FROM records.dataset_stats');
    expect(stats.rows[0].v).toBe(ADDRESS_KEYS_VERSION);
    expect(await rekeyAddresses(pool)).toBe(0); // nothing to do at the current version
  });
});

describe("the shipped mappings on their files: the API's own words", () => {
  // Those whose file gives the type (a joined file that maps none is not asked).
  const files = [
    { mapping: SHIPPED_MAPPINGS.nycRollingSales, file: SAMPLE_FILES.brooklynSales },
    { mapping: SHIPPED_MAPPINGS.sacramento, file: SAMPLE_FILES.sacramentoSales },
    ...Object.values(COUNTY_ROLLS).flat(),
  ]
    .map((f) => ({ ...f, m: loadMapping(f.mapping), name: basename(f.mapping, '.json') }))
    .filter(({ m }) => m.kind === 'property' && m.fields.proptype !== undefined && 'column' in m.fields.proptype);
  it('are asked of every file that maps a type', () => {
    expect(files.map((f) => f.name)).toEqual([
      'nyc-rolling-sales',
      'sacramento-2008-sales',
      'philadelphia-opa',
      'charlottesville-parcels',
      'charlottesville-details',
      'lebanon-nh',
    ]);
  });
  it('a class the map does not name: every row kept as UNKNOWN, every value counted, the first thousand kept by line', async () => {
    const block = String(40_000 + (Number.parseInt(tagged().slice(-6), 36) % 50_000));
    const rows = Array.from({ length: 1_200 }, (_, i) =>
      nycRow({ block, lot: String(i + 1), address: `${i + 1} ${uniqueStreet()}`, date: '03/01/2019' }).replace(
        '13 CONDOS - ELEVATOR APARTMENTS',
        '99 A CLASS OF NEXT YEAR',
      ),
    );
    const m = mappingNamed(loadMapping(SHIPPED_MAPPINGS.nycRollingSales), `classes-${tagged()}`);
    const s = await importCsv(pool, m, write([NYC_HEADER, ...rows].join('\n')));
    expect([s.added, s.skipped, s.refusedValues, s.refusals.length]).toEqual([1_200, 0, 1_200, 1_000]);
    expect(s.report.proptype).toMatchObject({ filled: 0, refused: 1_200 });
    expect(s.refusals[0]!.reason).toMatch(
      /^column 'BUILDING CLASS CATEGORY': proptype '99 A CLASS OF NEXT YEAR' is not one of /,
    );
    const types = new Set((await recordsOf(pool, `import:${m.name}`)).map((r) => r.summary.proptype));
    expect(types).toEqual(new Set(['UNKNOWN']));
  }, 60_000);

  it.each(files)(
    '$name names a property type for every class its file writes (dry run; a joined file after the parcels it joins)',
    async ({ m, file, name }) => {
      // A joined file's report counts the rows on a parcel the store has: the parcels file it joins is loaded first,
      // under a name of this test's own.
      let mapping = m;
      if (m.kind === 'property' && m.join) {
        const join = m.join;
        const roll = Object.values(COUNTY_ROLLS)
          .flat()
          .find((f) => basename(f.mapping, '.json') === join.mapping)!;
        const parcels = mappingNamed(loadMapping(roll.mapping), `${join.mapping}-${tagged()}`);
        expect(await importCsv(pool, parcels, roll.file)).toMatchObject({ added: expect.any(Number) });
        mapping = mappingNamed({ ...m, join: { ...join, mapping: parcels.name } }, `${name}-${tagged()}`);
      }
      const s = await importCsv(pool, mapping, file, { dryRun: true });
      expect(s.rowsRead).toBeGreaterThan(200);
      expect(s.report.proptype!.refused).toBe(0);
      // The column is read: most rows give a type, but for Charlottesville's parcels, which type only their commercial
      // parcels (R and E name no type).
      const least = name === 'charlottesville-parcels' ? 1_600 : s.rowsRead / 2;
      expect(s.report.proptype!.filled).toBeGreaterThan(least);
    },
    60_000,
  );
});

describe('owners past the fourth', () => {
  it('are listed with the values refused, by line and both owner columns, in a parcels file and in a joined one', async () => {
    const tag = tagged();
    const street = uniqueStreet();
    const parcels = cityParcels(`past-four-${tag}`, {
      ownerName: { column: 'OWNER1' },
      owner2Name: { column: 'OWNER2' },
    });
    const six = ['SCOTT, WILLIAM, WESLEY & HOWARD', 'SCOTT, LEON, SEAN & PAUL'];
    const file = write(
      [
        'APN,SITE,OWNER1,OWNER2',
        `${tag}-1,1 ${street} ST,"SMITH, JOHN",`,
        `${tag}-2,2 ${street} ST,"${six[0]}","${six[1]}"`,
        `${tag}-3,3 ${street} ST,"SCOTT, WILLIAM, WESLEY, HOWARD, LEON & SEAN",`,
      ].join('\n'),
    );
    const s = await importCsv(pool, parcels, file);
    expect(s).toMatchObject({ added: 3, skipped: 0, refusedValues: 2 });
    expect(s.refusals).toEqual([
      {
        line: 3,
        reason:
          "column 'OWNER1' / 'OWNER2': 2 owners past the fourth, SEAN SCOTT, PAUL SCOTT, a record has no place for (not stored)",
      },
      {
        line: 4,
        reason:
          "column 'OWNER1' / 'OWNER2': an owner past the fourth, SEAN SCOTT, a record has no place for (not stored)",
      },
    ]);
    const owners = (await recordsOf(pool, `import:${parcels.name}`)).map((r) =>
      [r.owner.owner1, r.owner.owner2, r.owner.owner3, r.owner.owner4].map((o) => o?.fullName ?? null),
    );
    expect(owners[1]).toEqual(['WILLIAM SCOTT', 'WESLEY SCOTT', 'HOWARD SCOTT', 'LEON SCOTT']);

    // A joined file that names the owners: the same report; a row of a parcel the store lacks reports its error alone.
    const owned = mappingNamed(
      {
        kind: 'property',
        join: { mapping: parcels.name, on: 'apn' },
        fields: { apn: { column: 'APN', required: true }, fips: { value: '51540' }, ownerName: { column: 'NAMES' } },
      },
      `past-four-owners-${tag}`,
    );
    const joined = write(
      ['APN,NAMES', `${tag}-9,"${six[0]} & SCOTT, LEON, SEAN"`, `${tag}-1,"${six[0]} & SCOTT, LEON, SEAN"`].join('\n'),
    );
    expect(await importCsv(pool, owned, joined)).toMatchObject({
      notInStore: 1,
      refusedValues: 1,
      refusals: [
        {
          line: 3,
          reason: "column 'NAMES': an owner past the fourth, SEAN SCOTT, a record has no place for (not stored)",
        },
      ],
    });
  });
});
