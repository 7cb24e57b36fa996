// A small roll without site ZIPs is read once from its file: the evidence read keeps what it made of each row (its
// values, site, refusals and report: ImportWork.zipEvidence's keepAs), and the parse of the same batch takes that
// instead of reading the rows again (import-csv.ts keepRead). For any such file, batches of any size, rows that are
// errors (a value that cannot be read, an empty site line, a price out of range), values refused (a date after
// tomorrow) and rows of one parcel across batches, the import must come out as reading the rows again makes it: the
// same evidence, parcels, errors, refusals and report, batch by batch.
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { createPool, type Pool } from '@pra/platform';
import type {} from '@pra/platform/testing';
import { cellMask, readHeader } from '../src/importer/csv-records.js';
import { KeptBatches, readBatches, replayBatches } from '../src/importer/import-batches.js';
import { importCsv } from '../src/importer/import-csv.js';
import { spokenFor } from '../src/importer/import-merge.js';
import { ImportWork, type RowBatch, type WorkSetup } from '../src/importer/import-work.js';
import { identityColumns } from '../src/importer/mapping-rules.js';
import type { Mapping } from '../src/importer/mapping.js';
import { useTempFiles } from './temp-files.js';
import { firstLoadSetup, readAllBatches } from './work-batches.js';

const files = useTempFiles('zip-evidence-kept');
const reader = { readHeader, cellMask, readBatches, identityColumns, spokenFor };

const mapping = files.namedMapping('kept', {
  kind: 'property',
  fields: {
    apn: { column: 'PARCEL', required: true },
    line1: { column: 'SITUS', format: 'upper', required: true },
    city: { value: 'LEBANON' },
    state: { value: 'NH' },
    fips: { value: '33009' },
    ownerName: { column: 'OWNER', order: 'last-first' },
    mailingLine1: { column: 'MAIL' },
    mailingCity: { column: 'MAIL_CITY' },
    mailingState: { column: 'MAIL_STATE' },
    mailingZip: { column: 'MAIL_ZIP' },
    salePrice: { column: 'PRICE', format: 'integer' },
    saleDate: { column: 'DATE', format: 'date-iso' },
  },
}) as Mapping & { kind: 'property' };

const HEADER = 'PARCEL,SITUS,OWNER,MAIL,MAIL_CITY,MAIL_STATE,MAIL_ZIP,PRICE,DATE';
const STREETS = ['MAIN ST', 'SCHOOL ST', 'HANOVER ST'];

const row = fc.record({
  parcel: fc.integer({ min: 1, max: 12 }),
  number: fc.integer({ min: 1, max: 40 }),
  street: fc.constantFrom(...STREETS),
  // An empty site line is an error of the row's site.
  noSitus: fc.integer({ min: 0, max: 19 }).map((n) => n === 0),
  owner: fc.constantFrom('SMITH, JOHN', 'DOE JANE & JOHN', 'CITY OF LEBANON', ''),
  // Mailed at the site (evidence, where the ZIP is the county's), elsewhere, or not at all.
  mail: fc.constantFrom('site', 'other', 'none'),
  mailCity: fc.constantFrom('LEBANON', 'WEST LEBANON', 'SEABROOK'),
  mailZip: fc.constantFrom('03766', '03784', '03874', ''),
  // A price the rules cannot read, or the store cannot hold: the row is an error.
  // Errors are rare enough that many batches have none (their report is then trimmed to its first reasons alone).
  price: fc.oneof(
    { arbitrary: fc.constantFrom('250000', ''), weight: 12 },
    { arbitrary: fc.constantFrom('abc', '99999999999'), weight: 1 },
  ),
  // A date after tomorrow is refused as a value; one that cannot be read makes the row an error.
  date: fc.oneof(
    { arbitrary: fc.constantFrom('2020-05-01', '2071-05-01', ''), weight: 12 },
    { arbitrary: fc.constant('sometime'), weight: 1 },
  ),
});

interface Row {
  parcel: number;
  number: number;
  street: string;
  noSitus: boolean;
  owner: string;
  mail: string;
  mailCity: string;
  mailZip: string;
  price: string;
  date: string;
}

/** The roll's text; `apnPrefix` before each parcel's APN. */
function csv(rows: readonly Row[], apnPrefix = ''): string {
  const lines = rows.map((r) => {
    const situs = r.noSitus ? '' : `${r.number} ${r.street}`;
    const mail = r.mail === 'site' ? situs : r.mail === 'other' ? `PO BOX ${r.number}` : '';
    return [
      `${apnPrefix}P-${r.parcel}`,
      situs,
      `"${r.owner}"`,
      mail,
      r.mailCity,
      'NH',
      r.mailZip,
      r.price,
      r.date,
    ].join(',');
  });
  return `${[HEADER, ...lines].join('\n')}\n`;
}

/** Each batch's evidence and parse, its rows read again for the parse (`keep` false) or kept from the evidence's. */
function importOf(setup: WorkSetup, batches: RowBatch[], keep: boolean) {
  const work = new ImportWork(setup);
  const evidence = batches.map((rows) => work.zipEvidence(rows, undefined, keep));
  work.useZipEvidence(evidence.flat());
  return { evidence, parsed: batches.map((rows, b) => work.parse(b, rows)) };
}

describe('a small roll without site ZIPs, its rows kept from the evidence read', () => {
  it('parses as its rows read again do: the same evidence, parcels, errors, refusals and report', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(row, { minLength: 1, maxLength: 40 }),
        fc.integer({ min: 1, max: 9 }),
        async (rows, batchSize) => {
          const file = files.write('roll.csv', csv(rows));
          const setup = await firstLoadSetup(reader, mapping, file);
          const batches = await readAllBatches(reader, file, setup, batchSize);
          const again = importOf(setup, batches, false);
          const kept = importOf(setup, batches, true);
          expect(kept.evidence).toEqual(again.evidence);
          expect(kept.parsed).toEqual(again.parsed);
        },
      ),
      { numRuns: 150 },
    );
  }, 120_000);

  it('reads each record once, but for the rows that are errors (their cells are counted out of the report)', async () => {
    const rows = Array.from(
      { length: 30 },
      (_, i): Row => ({
        parcel: i,
        number: i + 1,
        street: STREETS[i % 3]!,
        noSitus: i === 4,
        owner: 'SMITH, JOHN',
        mail: 'site',
        mailCity: 'LEBANON',
        mailZip: '03766',
        price: i === 9 ? 'abc' : '250000',
        date: i === 12 ? '2071-05-01' : '2020-05-01',
      }),
    );
    const file = files.write('roll.csv', csv(rows));
    const setup = await firstLoadSetup(reader, mapping, file);
    const batches = await readAllBatches(reader, file, setup, 8);
    // recordAt is the one way ImportWork reads a record's cells from a batch's text.
    const recordAt = vi.spyOn(ImportWork.prototype as unknown as { recordAt: () => string[] }, 'recordAt');
    try {
      const { parsed } = importOf(setup, batches, true);
      expect(recordAt).toHaveBeenCalledTimes(30 + 2);
      expect(parsed.flatMap((p) => p.errors.map((e) => e.line))).toEqual([6, 11]);
      expect(parsed.flatMap((p) => p.refusals.map((e) => e.line))).toEqual([14]);
      recordAt.mockClear();
      importOf(setup, batches, false);
      // Each row read for the evidence and again for the parse, and the rows that are errors once more (their cells).
      expect(recordAt).toHaveBeenCalledTimes(30 * 2 + 2);
    } finally {
      recordAt.mockRestore();
    }
  });

  it("keeps the first reasons of the rows that are not errors: an error row's refused value is not one of them", async () => {
    // Line 2 is an error (its price) with a date refused; lines 3-6 each have a date refused, line 7 none.
    const base: Row = {
      parcel: 0,
      number: 1,
      street: 'MAIN ST',
      noSitus: false,
      owner: 'SMITH, JOHN',
      mail: 'site',
      mailCity: 'LEBANON',
      mailZip: '03766',
      price: '250000',
      date: '2071-05-01',
    };
    const rows: Row[] = [
      { ...base, parcel: 1, price: 'abc' },
      ...[2, 3, 4, 5].map((parcel) => ({ ...base, parcel, number: parcel })),
      { ...base, parcel: 6, number: 6, date: '2020-05-01' },
    ];
    const file = files.write('roll.csv', csv(rows));
    const setup = await firstLoadSetup(reader, mapping, file);
    const batches = await readAllBatches(reader, file, setup, 100);
    expect(batches).toHaveLength(1);
    for (const keep of [true, false]) {
      const [parsed] = importOf(setup, batches, keep).parsed;
      expect(parsed!.errors.map((e) => e.line)).toEqual([2]);
      expect(parsed!.refusals.map((e) => e.line)).toEqual([3, 4, 5, 6]);
      expect(parsed!.report.saleDate!.refused).toBe(4);
      expect(parsed!.report.saleDate!.reasons.map((r) => r.slice(0, 7))).toEqual(['line 3,', 'line 4,', 'line 5,']);
    }
  });
});

describe('importCsv of a small roll without site ZIPs', () => {
  let pool: Pool;
  beforeAll(() => {
    pool = createPool(inject('databaseUrl'), 4);
  });
  afterAll(async () => {
    await pool.end();
  });

  it('reads each record once, and writes batches that end where a parcel ends; a re-import finds it unchanged', async () => {
    // Three rows a parcel (three sales), batches of at least four rows: cut by size alone, parcels would span
    // batches. A batch is reported (onProgress) as it is written: each must end on a parcel's last row.
    const street = `KEPT${randomUUID().slice(0, 6).toUpperCase()}`;
    const rows = Array.from({ length: 45 }, (_, i): Row => {
      const parcel = Math.floor(i / 3);
      return {
        parcel,
        number: parcel + 1,
        street: `${street} ST`,
        noSitus: false,
        owner: 'SMITH, JOHN',
        mail: parcel % 2 === 0 ? 'site' : 'other',
        mailCity: 'LEBANON',
        mailZip: '03766',
        price: String(100_000 + i),
        date: `2020-0${1 + (i % 3)}-15`,
      };
    });
    const file = files.write('roll.csv', csv(rows, `${street}-`));
    const ends: number[] = [];
    const recordAt = vi.spyOn(ImportWork.prototype as unknown as { recordAt: () => string[] }, 'recordAt');
    try {
      const first = await importCsv(pool, mapping, file, {
        workers: 0,
        batchSize: 4,
        onProgress: (p) => ends.push(p.rowsRead),
      });
      expect(first).toMatchObject({ added: 15, skipped: 0, rowsRead: 45 });
      // Read for the evidence, then parsed from what that read kept: once each. Read again, it would be 90.
      expect(recordAt).toHaveBeenCalledTimes(45);
    } finally {
      recordAt.mockRestore();
    }
    expect(ends.length).toBeGreaterThan(5);
    expect(ends.filter((n) => n % 3 !== 0)).toEqual([]);
    expect(await importCsv(pool, mapping, file, { workers: 0, batchSize: 4 })).toMatchObject({
      added: 0,
      updated: 0,
      unchanged: 15,
    });
  }, 60_000);
});

describe('the batches a small file keeps', () => {
  const cut = (rows: number, chars: number) => ({
    rows: { text: 'x'.repeat(chars), ends: new Int32Array(rows), lines: new Int32Array(rows) },
    unreadable: [],
    rowsRead: 0,
    rowsWhole: 0,
    bytesRead: 0,
    bytesPassed: 0,
    rowsHeld: 0,
  });

  it('are none once past their rows or their text (the file is then read again), and are let go as sent again', async () => {
    const byRows = new KeptBatches(10, 1_000);
    byRows.add(cut(6, 10));
    expect(byRows.batches).toHaveLength(1);
    byRows.add(cut(5, 10));
    expect(byRows.batches).toBeNull();
    byRows.add(cut(1, 1));
    expect(byRows.batches).toBeNull();
    const byChars = new KeptBatches(1_000, 100);
    byChars.add(cut(1, 60));
    byChars.add(cut(1, 41));
    expect(byChars.batches).toBeNull();

    const kept = new KeptBatches(1_000, 1_000);
    for (let i = 0; i < 3; i++) kept.add(cut(i + 1, 10));
    const batches = kept.batches!;
    const reader = replayBatches(batches, [0], async (_e, batch, rows) => ({ batch, rows: rows.ends.length }));
    const sent: unknown[] = [];
    for (let b = await reader.take(); b !== null; b = await reader.take()) sent.push(await b.parsed);
    await reader.finished;
    expect(sent).toEqual([
      { batch: 0, rows: 1 },
      { batch: 1, rows: 2 },
      { batch: 2, rows: 3 },
    ]);
    expect(batches).toEqual([]);
  });
});
