// A small roll without site ZIPs is read once from its file: the evidence read keeps what it made of each row (its
// values, site, refusals and report: ImportWork.zipEvidence's keepAs), and the parse of the same batch takes that
// instead of reading the rows again (import-csv.ts keepRead). For any such file, batches of any size, rows that are
// errors (a value that cannot be read, an empty site line, a price out of range), values refused (a date after
// tomorrow) and rows of one parcel across batches, the import must come out as reading the rows again makes it: the
// same evidence, parcels, errors, refusals and report, batch by batch.
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { cellMask, readHeader } from '../src/importer/csv-records.js';
import { readBatches } from '../src/importer/import-batches.js';
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

type Row = typeof row extends fc.Arbitrary<infer R> ? R : never;

function csv(rows: readonly Row[]): string {
  const lines = rows.map((r) => {
    const situs = r.noSitus ? '' : `${r.number} ${r.street}`;
    const mail = r.mail === 'site' ? situs : r.mail === 'other' ? `PO BOX ${r.number}` : '';
    return [`P-${r.parcel}`, situs, `"${r.owner}"`, mail, r.mailCity, 'NH', r.mailZip, r.price, r.date].join(',');
  });
  return `${[HEADER, ...lines].join('\n')}\n`;
}

/** Each batch's evidence and parse, its rows read again for the parse (`keep` false) or kept from the evidence's. */
function importOf(setup: WorkSetup, batches: RowBatch[], keep: boolean) {
  const work = new ImportWork(setup);
  const evidence = batches.map((rows, b) => work.zipEvidence(rows, undefined, keep ? b : undefined));
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
      expect(recordAt).toHaveBeenCalledTimes(30 * 2);
    } finally {
      recordAt.mockRestore();
    }
  });
});
