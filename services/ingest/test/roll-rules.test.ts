// The pure rules of issue 36's importer: dates and tax years that cannot be right refused as values (reported by line
// and column), the report's counts, short census tracts made whole by the county's FIPS, ZIPs only from evidence, and
// what a joined file may change. The real rolls are loaded in services/lookup/test/county-rolls.test.ts.
import { describe, expect, it } from 'vitest';
import { ZipEvidence } from '../src/domain/zip-evidence.js';
import {
  addReport,
  applyCompiled,
  applyRules,
  compileRules,
  type FieldReport,
  latestDateOf,
  type RuleContext,
} from '../src/importer/apply-rules.js';
import {
  joinParcel,
  mergeParcel,
  digestBasis,
  reimportParcel,
  spokenFor,
  spokenOf,
  upgradeStoredSales,
} from '../src/importer/import-merge.js';
import { deedKey } from '../src/importer/sale-merge.js';
import { toParcel, tractIdOf } from '../src/importer/import-row.js';
import { dashLetterAsUnit } from '@pra/core/address';
import { type AddressIndexEntry, addressIndex, addressKey, JoinedParcels } from '../src/importer/import-join.js';
import { renderRecord } from '../src/domain/render-record.js';
import { renderSaleHistory } from '../src/domain/render-history.js';
import { FILL_ONLY_TARGETS, Mapping, PROPERTY_TARGETS } from '../src/importer/mapping.js';
import { mappingColumns } from '../src/importer/mapping-rules.js';
import { makeProperty } from './make-property.js';

const NOW = '2026-11-27T12:00:00.000Z';

/** A property mapping's fields, validated as a mapping file's are (the mapping's name plays no part in its rules). */
const propertyFields = (fields: Record<string, unknown>) =>
  Mapping.parse({ name: 'rules', kind: 'property', fields }).fields;

describe("the report's reasons", () => {
  it('are those of the first lines, whatever the order the rows were worked in', () => {
    // Rows held back to the file's end (a parcel's rows apart: held-rows.ts) are worked after later lines. Each row
    // here refuses its sale date (after tomorrow).
    const fields = { line1: { column: 'SITE' }, zip: { column: 'Z' }, saleDate: { column: 'D', format: 'date-iso' } };
    const rules = compileRules(propertyFields(fields), ['SITE', 'Z', 'D']);
    const batch = (lines: number[]) => {
      // As a batch's rows are counted (import-work.ts): every reason kept, the import's report keeping the first.
      const ctx: RuleContext = { line: 0, latestDate: '2026-11-28', report: {}, reasonsKept: Number.POSITIVE_INFINITY };
      for (const line of lines) {
        ctx.line = line;
        applyCompiled(rules, ['1 MAIN ST', '19146', '2071-05-05'], ctx);
      }
      return ctx.report!;
    };
    const linesOf = (report: FieldReport) => report.saleDate!.reasons.map((r) => Number(/^line (\d+)/.exec(r)![1]));
    const first = batch([50, 60, 10, 70, 40, 20]);
    expect(first.saleDate!.refused).toBe(6);
    const all: FieldReport = {};
    addReport(all, first);
    addReport(all, batch([5, 90, 30]));
    expect(linesOf(all)).toEqual([5, 10, 20]);
    expect(all.saleDate!.refused).toBe(9);
  });
});

describe('rules compiled against a header', () => {
  const fields = propertyFields({
    line1: { column: 'SITE' },
    zip: { column: 'Z', fallback: 'Z2' },
    apn: { template: '{B}-{L:04}' },
    ownerName: { column: 'O' },
    fips: { value: '42101' },
    beds: { column: 'BEDS', format: 'integer', nullIf: ['0'] },
  });
  // O is named twice: its last cell is read, as the reader's cell mask reads it.
  const header = ['SITE', 'O', 'B', 'Z', 'L', 'O', 'Z2', 'BEDS'];

  it("read each rule's cell by its index: a repeated column's last, a template padded, a fallback when empty", () => {
    const rules = compileRules(fields, header);
    expect(applyCompiled(rules, ['1 MAIN ST', 'FIRST', ' 12 ', '', '7', 'LAST', '19146', '3'])).toEqual({
      line1: '1 MAIN ST',
      zip: '19146',
      apn: '12-0007',
      ownerName: 'LAST',
      fips: '42101',
      beds: 3,
    });
    // A template with an empty cell is empty; a value in nullIf is none; the column before its fallback.
    expect(applyCompiled(rules, ['2 MAIN ST', '', '12', '19103', '', 'OWNER', '19146', '0'])).toMatchObject({
      zip: '19103',
      apn: null,
      beds: null,
    });
  });

  it('read a fallback that must hold a street (fallbackIf street-line) only where its cell does, the column first', () => {
    // Philadelphia's mailing_street is empty in some rows whose mailing_address_1 holds the street; in others that
    // cell holds a name, a company's, a building's or an attention line.
    const mailing = propertyFields({
      line1: { column: 'SITE' },
      zip: { column: 'Z' },
      mailingLine1: { column: 'STREET', fallback: 'ADDR1', fallbackIf: 'street-line', format: 'upper', nullIf: ['-'] },
    });
    const rules = compileRules(mailing, ['SITE', 'Z', 'STREET', 'ADDR1']);
    const line = (street: string, addr1: string, ctx?: RuleContext) =>
      applyCompiled(rules, ['1 MAIN ST', '19146', street, addr1], ctx).mailingLine1;
    expect(line('', '1623 Ridge Ave.')).toBe('1623 RIDGE AVE.');
    expect(line('-', '340 N 12TH STREET      STE 100')).toBe('340 N 12TH STREET      STE 100');
    expect(line('', 'PO BOX 1234')).toBe('PO BOX 1234');
    expect(line('', 'P.O. Box #12')).toBe('P.O. BOX #12');
    for (const notAStreet of [
      'DUFFEY DANIEL EDWARD',
      'SIMPLIFILE LC E-RECORDING',
      '6808 RIDGE HOLDINGS LLC',
      '1035-37 W TIOGA HOLDINGS, L.L.C.',
      'BOX JOHN',
      'BOX HILL HOLDINGS LLC',
      'PO BOX TRUST',
      '1234 PINE ST REV TR',
      '1234 SPRUCE ST UNIT OWNERS ASSOC',
      'MUNICIPAL SERVICES BLDG',
      'STE 600',
      '1719',
      '',
    ])
      expect(line('', notAStreet), notAStreet).toBeNull();
    // The column, when it has a value, whatever the fallback holds.
    expect(line('9 ELM ST', '1623 RIDGE AVE')).toBe('9 ELM ST');
    // The report counts a fallback cell not read as empty, and one read as filled.
    const ctx: RuleContext = { line: 2, latestDate: '2026-11-28', report: {}, refusals: [] };
    line('', 'DUFFEY DANIEL EDWARD', ctx);
    line('', '1623 RIDGE AVE', ctx);
    expect(ctx.report!.mailingLine1).toMatchObject({ filled: 1, empty: 1, refused: 0 });
    // Without the option a fallback is read whatever it holds.
    const any = compileRules(
      propertyFields({
        line1: { column: 'SITE' },
        zip: { column: 'Z' },
        mailingLine1: { column: 'STREET', fallback: 'ADDR1' },
      }),
      ['SITE', 'Z', 'STREET', 'ADDR1'],
    );
    expect(applyCompiled(any, ['1 MAIN ST', '19146', '', 'DUFFEY DANIEL EDWARD']).mailingLine1).toBe(
      'DUFFEY DANIEL EDWARD',
    );
  });

  it('refuse a fallbackIf without a fallback, of a kind it does not know, or on a target that is no street line', () => {
    const issues = (rule: unknown, target = 'mailingLine1') => {
      const r = Mapping.safeParse({
        name: 'fallback',
        kind: 'property',
        fields: { line1: { column: 'SITE' }, zip: { column: 'Z' }, [target]: rule },
      });
      return r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    };
    expect(issues({ column: 'STREET', fallback: 'ADDR1', fallbackIf: 'street-line' })).toEqual([]);
    expect(issues({ column: 'STREET', fallbackIf: 'street-line' })).toEqual([
      'fields.mailingLine1.fallbackIf: `fallbackIf` says when the `fallback` column is read: the rule names none',
    ]);
    expect(issues({ column: 'STREET', fallback: 'ADDR1', fallbackIf: 'name' })).toHaveLength(1);
    expect(issues({ column: 'O', fallback: 'O2', fallbackIf: 'street-line' }, 'ownerName')).toEqual([
      'fields.ownerName.fallbackIf: `fallbackIf: street-line` reads a street line: for line1 and mailingLine1 only',
    ]);
  });

  it("translate a cell by the map's own entries only: a cell named like Object.prototype's members stays as written", () => {
    const mapped = propertyFields({
      line1: { column: 'SITE' },
      zip: { column: 'Z' },
      county: { column: 'P', map: { R: 'RICHMOND' } },
    });
    const rules = compileRules(mapped, ['SITE', 'Z', 'P']);
    for (const cell of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
      expect(applyCompiled(rules, ['1 MAIN ST', '19146', cell]).county).toBe(cell);
    }
    expect(applyCompiled(rules, ['1 MAIN ST', '19146', 'R']).county).toBe('RICHMOND');
  });

  it('refine a mapped value by another column: the first refinement that holds, its fallback read when its column is empty, any case', () => {
    const mapping = Mapping.parse({
      name: 'refine',
      kind: 'property',
      fields: {
        line1: { column: 'SITE' },
        zip: { column: 'Z' },
        proptype: {
          column: 'USE',
          map: { 'SINGLE FAMILY': 'SFR', 'MULTI FAMILY': 'DUPLEX' },
          refine: [
            { when: ['SFR'], column: 'NEW', startsWith: ['CONDO'], to: 'CONDOMINIUM' },
            { when: ['SFR'], column: 'NEW', fallback: 'OLD', startsWith: ['ROW', 'TOWN'], to: 'TOWNHOUSE/ROWHOUSE' },
          ],
        },
      },
    });
    expect(mappingColumns(mapping)).toEqual(['SITE', 'Z', 'USE', 'NEW', 'OLD']);
    const rules = compileRules(mapping.fields, ['SITE', 'Z', 'USE', 'NEW', 'OLD']);
    const type = (use: string, now: string, old: string) =>
      applyCompiled(rules, ['1 MAIN ST', '19146', use, now, old]).proptype;
    expect(type('SINGLE FAMILY', 'ROW TYPICAL', '')).toBe('TOWNHOUSE/ROWHOUSE');
    expect(type('SINGLE FAMILY', ' row porch front ', 'DET 2 STY')).toBe('TOWNHOUSE/ROWHOUSE');
    // The column before its fallback: a TWIN now is no rowhouse though it was one.
    expect(type('SINGLE FAMILY', 'TWIN CONVENTIONAL', 'ROW 2 STY MASONRY')).toBe('SFR');
    expect(type('SINGLE FAMILY', '', 'ROW 2 STY MASONRY')).toBe('TOWNHOUSE/ROWHOUSE');
    expect(type('SINGLE FAMILY', '', 'TOWNHOUSE')).toBe('TOWNHOUSE/ROWHOUSE');
    // The first that holds: a condominium in a row is a condominium.
    expect(type('SINGLE FAMILY', 'CONDO NON CONFORMING', 'ROW 3 STY')).toBe('CONDOMINIUM');
    expect(type('SINGLE FAMILY', '', '')).toBe('SFR');
    expect(type('SINGLE FAMILY', 'ARROW', '')).toBe('SFR');
    // Only the values it names: a multi-family row is what the map made it; a cell the map does not name is no type.
    expect(type('MULTI FAMILY', 'ROW TYPICAL', '')).toBe('DUPLEX');
    expect(type('ROWHOUSE?', 'ROW TYPICAL', '')).toBeNull();
  });

  it('refuse a refinement that cannot be applied: nothing to refine, no prefix, no column, a key of its own', () => {
    const accepts = (refine: unknown) =>
      Mapping.safeParse({
        name: 'refine',
        kind: 'property',
        fields: { line1: { column: 'SITE' }, zip: { column: 'Z' }, proptype: { column: 'USE', refine } },
      }).success;
    const ok = { when: ['SFR'], column: 'NEW', startsWith: ['ROW'], to: 'TOWNHOUSE/ROWHOUSE' };
    expect(accepts([ok])).toBe(true);
    expect(accepts([])).toBe(false);
    expect(accepts([{ ...ok, when: [] }])).toBe(false);
    expect(accepts([{ ...ok, startsWith: [''] }])).toBe(false);
    expect(accepts([{ ...ok, column: '' }])).toBe(false);
    expect(accepts([{ ...ok, to: '' }])).toBe(false);
    expect(accepts([{ ...ok, equals: ['ROW'] }])).toBe(false);
    // Its value is read in the rule's format: one that cannot be would make every row it refines an error.
    const built = (refine: unknown) =>
      Mapping.safeParse({
        name: 'refine',
        kind: 'property',
        fields: {
          line1: { column: 'SITE' },
          zip: { column: 'Z' },
          yearBuilt: { column: 'YB', format: 'integer', refine },
        },
      });
    const wrong = built([{ when: ['0'], column: 'NOTE', startsWith: ['NEW'], to: 'unknown' }]);
    expect(wrong.success ? [] : wrong.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`)).toEqual([
      "fields.yearBuilt.refine.0.to: 'unknown' is not a number (the rule's format is integer)",
    ]);
    expect(built([{ when: ['0'], column: 'NOTE', startsWith: ['NEW'], to: '2024' }]).success).toBe(true);
    // So in a tract mapping too.
    const tract = Mapping.safeParse({
      name: 'tracts',
      kind: 'tract',
      source: 'ACS',
      fields: {
        tract: { column: 'T' },
        vintageYear: { value: 2024 },
        medianAge: {
          column: 'AGE',
          format: 'number',
          refine: [{ when: ['-'], column: 'N', startsWith: ['X'], to: 'n/a' }],
        },
      },
    });
    expect(tract.success ? [] : tract.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`)).toEqual([
      "fields.medianAge.refine.0.to: 'n/a' is not a number (the rule's format is number)",
    ]);
  });

  it('give each row values of its own, in the mapping order, the same as rules applied by column name', () => {
    const rules = compileRules(fields, header);
    const first = applyCompiled(rules, ['1 MAIN ST', '', '1', '19146', '1', 'A', '', '1']);
    const second = applyCompiled(rules, ['2 MAIN ST', '', '2', '19103', '2', 'B', '', '2']);
    expect(first).toMatchObject({ line1: '1 MAIN ST', apn: '1-0001', ownerName: 'A' });
    expect(second).toMatchObject({ line1: '2 MAIN ST', apn: '2-0002', ownerName: 'B' });
    expect(Object.keys(first)).toEqual(Object.keys(fields));
    const row = { SITE: '1 MAIN ST', O: 'A', B: '1', Z: '19146', L: '1', Z2: '', BEDS: '1' };
    expect(applyRules(fields, row)).toEqual(first);
  });
});

describe('dates that cannot be right', () => {
  const fields = propertyFields({
    line1: { column: 'A' },
    zip: { column: 'Z' },
    saleDate: { column: 'D', format: 'date-iso' },
    salePrice: { column: 'P', format: 'integer' },
  });

  it('are refused as values, the row kept: reported by line and column, never stored', () => {
    const report: FieldReport = {};
    const refusals: { line: number; reason: string }[] = [];
    const ctx = { line: 7, latestDate: latestDateOf(NOW), report, refusals };
    const future = applyRules(fields, { A: '1 MAIN ST', Z: '19146', D: '2071-10-01', P: '1' }, ctx);
    expect(future.saleDate).toBeNull();
    expect(future.salePrice).toBe(1);
    ctx.line = 8;
    expect(applyRules(fields, { A: '1 MAIN ST', Z: '19146', D: '1699-12-31', P: '' }, ctx).saleDate).toBeNull();
    ctx.line = 9;
    // Tomorrow is possible in some US time zone; the day after is not.
    expect(applyRules(fields, { A: '1 MAIN ST', Z: '19146', D: '2026-11-28', P: '' }, ctx).saleDate).toBe('2026-11-28');
    ctx.line = 10;
    expect(applyRules(fields, { A: '1 MAIN ST', Z: '19146', D: '2026-11-29', P: '' }, ctx).saleDate).toBeNull();
    expect(refusals.map((r) => r.line)).toEqual([7, 8, 10]);
    expect(refusals[0]!.reason).toMatch(/column 'D': saleDate 2071-10-01 is after tomorrow/);
    expect(refusals[1]!.reason).toMatch(/before 1700/);
    expect(report.saleDate).toMatchObject({ filled: 1, empty: 0, refused: 3 });
    expect(report.salePrice).toMatchObject({ filled: 1, empty: 3, refused: 0 });
    expect(report.saleDate!.reasons[0]).toMatch(/^line 7, column 'D'/);
    // The property has no sale from a refused date.
    const p = toParcel(future, NOW).input;
    expect(p.sales).toEqual([]);
  });

  it('a value that cannot be read at all is still the row error it was', () => {
    expect(() => applyRules(fields, { A: '1 MAIN ST', Z: '19146', D: 'soon', P: '' })).toThrow(/saleDate \('D'\)/);
  });
});

describe('sales written in columns', () => {
  /** The site and the last sale's date and price, in the columns every mapping below reads them from. */
  const SALE_FIELDS = {
    line1: { column: 'A' },
    zip: { column: 'Z' },
    saleDate: { column: 'D', format: 'date-iso' },
    salePrice: { column: 'P', format: 'integer' },
  } as const;
  const fields = propertyFields({
    ...SALE_FIELDS,
    saleSeller: { column: 'S' },
    sale2Date: { column: 'D2', format: 'date-iso' },
    sale3Date: { column: 'D3', format: 'date-iso' },
    sale3Price: { column: 'P3', format: 'integer' },
  });
  const sales = (cells: Record<string, string>) =>
    toParcel(
      applyRules(fields, { A: '1 MAIN ST', Z: '03766', S: 'DOE, JANE', D2: '', D3: '', P3: '', ...cells }),
      NOW,
    ).input.sales.map((x) => `${x.date}|${x.price}|${x.sellerName}`);

  it("one deed written twice, with its price in one column only (Lebanon's prior-sale columns), is one sale", () => {
    // The last sale's columns name its price and seller; a prior-sale column without a price repeats its date.
    expect(sales({ D: '2008-01-31', P: '2175000', D2: '2008-01-31' })).toEqual(['2008-01-31|2175000|JANE DOE']);
    // Its price from the prior-sale column when the last sale's has none.
    expect(sales({ D: '2008-01-31', P: '', D3: '2008-01-31', P3: '90000' })).toEqual(['2008-01-31|90000|JANE DOE']);
    // The same price twice: one sale.
    expect(sales({ D: '2008-01-31', P: '5', D3: '2008-01-31', P3: '5' })).toEqual(['2008-01-31|5|JANE DOE']);
  });

  // Lebanon's shape: the last sale and a prior one, each with its book and page.
  const deeds = propertyFields({
    ...SALE_FIELDS,
    saleBookPage: { column: 'B' },
    sale2Date: { column: 'D2', format: 'date-iso' },
    sale2Price: { column: 'P2', format: 'integer' },
    sale2BookPage: { column: 'B2' },
  });
  /** The row's sales as `price|documentNumber`: the last sale (price `P`, deed `B`) and a prior one of its day. */
  const deedSales = (P: string, B: string, P2: string, B2: string) =>
    toParcel(
      applyRules(deeds, { A: '1 MAIN ST', Z: '03766', D: '2015-01-14', P, B, D2: '2015-01-14', P2, B2 }),
      NOW,
    ).input.sales.map((x) => `${x.price}|${x.documentNumber}`);

  it('two deeds of one day are two sales where the row names both, by book and page (leading zeros aside)', () => {
    expect(deedSales('279933', '4119/0683', '', '4119/0679')).toEqual(['279933|4119/0683', 'null|4119/0679']);
    expect(deedSales('279933', '4119/0683', '', '4119/683')).toEqual(['279933|4119/0683']);
    expect(deedSales('279933', '4119/0683', '', '')).toEqual(['279933|4119/0683']);
    // The deed the last-sale columns leave out, from the prior-sale column that repeats the sale.
    expect(deedSales('279933', '', '', '4119/683')).toEqual(['279933|4119/683']);
  });

  it('two deeds of one day at one price are two sales, the later book and page first, each as written', () => {
    expect(deedSales('5', '4119/0683', '5', '4120/0001')).toEqual(['5|4120/0001', '5|4119/0683']);
    expect(deedSales('5', '4119/0683', '5', '4119/683')).toEqual(['5|4119/0683']);
    expect(deedSales('5', '4119/0683', '', '4120/0001')).toEqual(['5|4119/0683', 'null|4120/0001']);
    // Numbers by their value, not their text: page 231 after page 99, a book's letters as text.
    expect(deedSales('5', '793/99', '5', '793/231')).toEqual(['5|793/231', '5|793/99']);
    expect(deedSales('5', 'WB 41:511', '5', 'WB 41:51')).toEqual(['5|WB 41:511', '5|WB 41:51']);
    expect(deedSales('5', '41', '5', '41/2')).toEqual(['5|41/2', '5|41']);
  });

  it('a book and page of zeros or without a letter or digit is none: it hides no deed the row names', () => {
    for (const none of ['0/0', '0-0/0', '0000/0000', '0.00/0.00', '0:0', '-', ' / ', 'N/A', 'NONE', 'WB 0:0'])
      expect(deedSales('5', none, '', '4119/683'), none).toEqual(['5|4119/683']);
    expect(deedSales('5', '0000/0000', '', '')).toEqual(['5|null']);
    // A zero in a real book and page is kept.
    expect(deedSales('5', '4119/0', '', '')).toEqual(['5|4119/0']);
  });

  it('two prices of one day are two sales, newest first and the dearer first, and other days stay apart', () => {
    expect(sales({ D: '2008-01-31', P: '5', D3: '2008-01-31', P3: '90000' })).toEqual([
      '2008-01-31|90000|null',
      '2008-01-31|5|JANE DOE',
    ]);
    expect(sales({ D: '2010-05-01', P: '7', D2: '2008-01-31', D3: '2001-03-02', P3: '3' })).toEqual([
      '2010-05-01|7|JANE DOE',
      '2008-01-31|null|null',
      '2001-03-02|3|null',
    ]);
  });
});

describe('tax years', () => {
  const mapping = (taxYear: Record<string, unknown>) =>
    propertyFields({
      line1: { column: 'A' },
      zip: { column: 'Z' },
      assessedTotal: { column: 'T', format: 'integer' },
      taxYear,
    });
  const row = (Y: string) => ({ A: '1 MAIN ST', Z: '19146', T: '1000', Y });

  it("read as a year alone or a date's year, plus the rule's `add` (values set in the spring for the next tax year)", () => {
    const fromDate = mapping({ column: 'Y', format: 'year', add: 1 });
    expect(applyRules(fromDate, row('2022-05-24')).taxYear).toBe(2023);
    expect(applyRules(fromDate, row('2022/05/24 00:00:00')).taxYear).toBe(2023);
    expect(applyRules(fromDate, row('05/24/2022')).taxYear).toBe(2023);
    expect(applyRules(mapping({ column: 'Y', format: 'year' }), row(' 2021 ')).taxYear).toBe(2021);
    // Not a year: the row's error, as any value that cannot be read.
    expect(() => applyRules(fromDate, row('2021 Value:'))).toThrow(/taxYear \('Y'\): '2021 Value:' is not a year/);
    expect(() => applyRules(fromDate, row('2022-02-30'))).toThrow(/not a calendar date/);
  });

  it('one that cannot be right (after next year, before 1700) is refused as a value: the row kept, reported', () => {
    const report: FieldReport = {};
    const refusals: { line: number; reason: string }[] = [];
    const ctx = { line: 3, latestDate: latestDateOf(NOW), report, refusals };
    const rules = mapping({ column: 'Y', format: 'year', add: 1 });
    // Next year's is a tax year a county may have set already (values of 2026 for 2027).
    expect(applyRules(rules, row('2026-05-01'), ctx).taxYear).toBe(2027);
    ctx.line = 4;
    const century = applyRules(rules, row('2071-05-01'), ctx);
    expect(century).toMatchObject({ taxYear: null, assessedTotal: 1000 });
    ctx.line = 5;
    expect(applyRules(rules, row('1698-01-01'), ctx).taxYear).toBeNull();
    expect(refusals).toEqual([
      { line: 4, reason: "column 'Y': taxYear 2072 (from '2071-05-01') is after next year (not stored)" },
      { line: 5, reason: "column 'Y': taxYear 1699 (from '1698-01-01') is before 1700 (not stored)" },
    ]);
    expect(report.taxYear).toMatchObject({ filled: 1, refused: 2 });
  });

  it("the values keep no year the file does not give: none mapped, or refused, is null, never the import's year", () => {
    const none = propertyFields({
      line1: { column: 'A' },
      zip: { column: 'Z' },
      assessedTotal: { column: 'T', format: 'integer' },
    });
    expect(toParcel(applyRules(none, row('')), NOW).input.assessment).toMatchObject({ total: 1000, taxYear: null });
    const ctx = { line: 2, latestDate: latestDateOf(NOW) };
    const refused = applyRules(mapping({ column: 'Y', format: 'year' }), row('2071'), ctx);
    expect(toParcel(refused, NOW).input.assessment).toMatchObject({ total: 1000, taxYear: null });
  });

  it('next year is the year after today: on December 31st, not two years on', () => {
    const lastDay = {
      line: 1,
      latestDate: latestDateOf('2026-12-31T12:00:00.000Z'),
      refusals: [] as { line: number; reason: string }[],
    };
    const rules = mapping({ column: 'Y', format: 'year' });
    expect(applyRules(rules, row('2027'), lastDay).taxYear).toBe(2027);
    expect(applyRules(rules, row('2028'), lastDay).taxYear).toBeNull();
    expect(lastDay.refusals).toHaveLength(1);
  });

  it('a mapping reads a tax year as a whole year: a constant year in range, a column as `year`', () => {
    const problem = (taxYear: Record<string, unknown>) =>
      Mapping.safeParse({
        name: 'tax-year',
        kind: 'property',
        fields: { line1: { column: 'A' }, zip: { column: 'Z' }, taxYear },
      }).error?.issues.map((i) => i.message) ?? [];
    expect(problem({ value: 2025 })).toEqual([]);
    expect(problem({ column: 'Y', format: 'year' })).toEqual([]);
    // An integer would round 2025.5 to a year.
    expect(problem({ column: 'Y', format: 'integer' })).toEqual([expect.stringMatching(/not `integer`/)]);
    for (const value of [9999, 0, 2025.5, '2025'])
      expect(problem({ value }), String(value)).toEqual([
        expect.stringMatching(/^a constant tax year is a year from 1700 to \d{4}, not /),
      ]);
    expect(problem({ column: 'Y' })).toEqual([expect.stringMatching(/format `year`.* not `text`/)]);
    expect(problem({ column: 'Y', format: 'number' })).toEqual([expect.stringMatching(/not `number`/)]);
  });

  it('`add` is refused on any other format', () => {
    const parsed = Mapping.safeParse({
      name: 'bad-add',
      kind: 'property',
      fields: { line1: { column: 'A' }, zip: { column: 'Z' }, yearBuilt: { column: 'Y', format: 'integer', add: 1 } },
    });
    expect(parsed.success).toBe(false);
    expect(parsed.error!.issues[0]!.message).toBe('`add` applies to the format `year` only');
  });
});

describe("the API's own words: property and owner types", () => {
  const fields = propertyFields({
    line1: { column: 'A' },
    zip: { column: 'Z' },
    ownerName: { column: 'O' },
    proptype: { column: 'P', map: { R: 'SFR', C: 'condominium' } },
    ownerType: { column: 'T' },
  });
  const row = (P: string, T = '') => ({ A: '1 MAIN ST', Z: '19146', O: 'SMITH JOHN', P, T });

  it('a type the map does not make is refused as a value, reported by line and column; the row is kept as UNKNOWN', () => {
    const report: FieldReport = {};
    const refusals: { line: number; reason: string }[] = [];
    const ctx = { line: 7, latestDate: latestDateOf(NOW), report, refusals };
    const v = applyRules(fields, row('37 RELIGIOUS FACILITIES'), ctx);
    expect(v.proptype).toBeNull();
    expect(toParcel(v, NOW).input.proptype).toBe('UNKNOWN');
    expect(refusals).toEqual([
      {
        line: 7,
        reason:
          "column 'P': proptype '37 RELIGIOUS FACILITIES' is not one of SFR, CONDOMINIUM, APARTMENT, COOPERATIVE, TOWNHOUSE/ROWHOUSE, DUPLEX, TRIPLEX, MOBILE HOME, VACANT LAND, COMMERCIAL, INDUSTRIAL, CONDOMINIUM PARKING, OTHER, UNKNOWN: name it in the rule's map (not stored)",
      },
    ]);
    expect(report.proptype).toMatchObject({ filled: 0, refused: 1 });
    // The map's own values, and the list's words in any case, written as the list writes them.
    expect(applyRules(fields, row('R'), ctx).proptype).toBe('SFR');
    expect(applyRules(fields, row('C'), ctx).proptype).toBe('CONDOMINIUM');
    expect(applyRules(fields, row('vacant land'), ctx).proptype).toBe('VACANT LAND');
    expect(report.proptype).toMatchObject({ filled: 3, refused: 1 });
  });

  it("an owner type outside the list is refused too, and the owner keeps the parser's type", () => {
    const refusals: { line: number; reason: string }[] = [];
    const ctx = { line: 3, latestDate: latestDateOf(NOW), refusals };
    expect(toParcel(applyRules(fields, row('R', 'trust'), ctx), NOW).input.owner1?.type).toBe('Trust');
    const odd = toParcel(applyRules(fields, row('R', 'LLC-ish'), ctx), NOW).input.owner1;
    expect(odd).toMatchObject({ fullName: 'JOHN SMITH', type: 'Individual' });
    expect(refusals.map((r) => r.reason)).toEqual([
      "column 'T': ownerType 'LLC-ish' is not one of Individual, Trustee, Corporation, Trust, Government, Estate, Religious, Association, Financial: name it in the rule's map (not stored)",
    ]);
  });

  it("a constant, a map's value and what a refinement refines are read in any case, and stored as the list writes them", () => {
    const constants = propertyFields({
      line1: { column: 'A' },
      zip: { column: 'Z' },
      ownerName: { column: 'O' },
      proptype: { value: 'sfr' },
      ownerType: { value: 'corporation' },
    });
    expect(applyRules(constants, { A: '1 MAIN ST', Z: '19146', O: 'ACME' })).toMatchObject({
      proptype: 'SFR',
      ownerType: 'Corporation',
    });
    const refining = propertyFields({
      line1: { column: 'A' },
      zip: { column: 'Z' },
      proptype: {
        column: 'P',
        map: { R: 'sfr' },
        refine: [{ when: ['SFR'], column: 'B', startsWith: ['row'], to: 'townhouse/rowhouse' }],
      },
    });
    const type = (P: string, B: string) => applyRules(refining, { A: '1 MAIN ST', Z: '19146', P, B }).proptype;
    expect(type('R', 'ROW TYPICAL')).toBe('TOWNHOUSE/ROWHOUSE');
    expect(type('R', 'TWIN')).toBe('SFR');
  });

  it('a template that makes no type is refused without pointing at a map it does not have', () => {
    const template = propertyFields({ line1: { column: 'A' }, zip: { column: 'Z' }, proptype: { template: '{P}{Q}' } });
    const refusals: { line: number; reason: string }[] = [];
    const ctx = { line: 2, latestDate: latestDateOf(NOW), refusals };
    expect(applyRules(template, { A: '1 MAIN ST', Z: '19146', P: 'S', Q: 'FR' }, ctx).proptype).toBe('SFR');
    expect(applyRules(template, { A: '1 MAIN ST', Z: '19146', P: 'X', Q: '1' }, ctx).proptype).toBeNull();
    expect(refusals.map((r) => r.reason)).toEqual([
      expect.stringMatching(/^column '\{P\}\{Q\}': proptype 'X1' is not one of SFR, .*, UNKNOWN \(not stored\)$/),
    ]);
  });

  it("a mapping that would give another is refused when it is loaded: its map's values, a refinement's, a constant", () => {
    const problems = (proptype: unknown, ownerType?: unknown) => {
      const r = Mapping.safeParse({
        name: 'words',
        kind: 'property',
        fields: { line1: { column: 'A' }, zip: { column: 'Z' }, proptype, ...(ownerType ? { ownerType } : {}) },
      });
      return r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    };
    expect(problems({ column: 'P', map: { R: 'SFR', C: 'Condo', M: 'Multi', X: 'Condo' } })).toEqual([
      expect.stringMatching(/^fields\.proptype: 'Condo', 'Multi' are not of the records' values: SFR, CONDOMINIUM, /),
    ]);
    expect(
      problems({ column: 'P', refine: [{ when: ['SFR'], column: 'B', startsWith: ['ROW'], to: 'ROWHOUSE' }] }),
    ).toEqual([expect.stringMatching(/^fields\.proptype: 'ROWHOUSE' is not one of the records' values/)]);
    expect(problems({ value: 'Castle' })).toHaveLength(1);
    expect(problems({ value: 'sfr' }, { value: 'corporation' })).toEqual([]);
    // What a refinement refines is a type too: a misspelt one would never apply.
    expect(
      problems({
        column: 'P',
        refine: [{ when: ['SRF'], column: 'B', startsWith: ['ROW'], to: 'TOWNHOUSE/ROWHOUSE' }],
      }),
    ).toEqual([expect.stringMatching(/^fields\.proptype: 'SRF' is not one of the records' values/)]);
    expect(problems({ value: 'SFR' }, { column: 'T', map: { C: 'Company' } })).toEqual([
      expect.stringMatching(/^fields\.ownerType: 'Company' is not one of the records' values: Individual, Trustee, /),
    ]);
  });
});

describe('lot areas', () => {
  const fields = propertyFields({
    line1: { column: 'A' },
    zip: { column: 'Z' },
    lotSqft: { column: 'SF', format: 'integer', nullIf: ['0'] },
    lotAcres: { column: 'AC', format: 'number', nullIf: ['0.0'] },
  });
  const lot = (SF: string, AC: string) => {
    const p = toParcel(applyRules(fields, { A: '1 MAIN ST', Z: '19146', SF, AC }), NOW).input;
    return [p.lotSqft, p.lotAcres];
  };

  it('in acres or in square feet, each made of the other when the file gives one, each its own when it gives both', () => {
    expect(lot('', '0.890643')).toEqual([38_796, 0.890643]);
    expect(lot('', '940')).toEqual([40_946_400, 940]);
    expect(lot('43560', '')).toEqual([43_560, 1]);
    expect(lot('1000', '0.5')).toEqual([1000, 0.5]);
    expect(lot('0', '0.0')).toEqual([null, null]);
    // Zero or less is unknown however it is written (a mapping's nullIf matches the text only).
    expect(lot('0.0', '0.00')).toEqual([null, null]);
    expect(lot('-5', '-0.5')).toEqual([null, null]);
    // Acres that round to no square foot give none; the acres stay as written.
    expect(lot('', '0.00001')).toEqual([null, 0.00001]);
  });

  it("square feet written with a fraction are whole in the record, not the row's error", () => {
    const fractional = propertyFields({
      line1: { column: 'A' },
      zip: { column: 'Z' },
      lotSqft: { column: 'SF', format: 'number' },
    });
    const p = toParcel(applyRules(fractional, { A: '1 MAIN ST', Z: '19146', SF: '5000.5' }), NOW).input;
    expect([p.lotSqft, p.lotAcres]).toEqual([5001, 0.1148]);
  });

  it("a national forest's acres are read, as a number; a cell that is not one is the row's error", () => {
    expect(lot('', '1,700,000')).toEqual([74_052_000_000, 1_700_000]);
    expect(() => lot('', 'about 2')).toThrow(/lotAcres \('AC'\): 'about 2' is not a number/);
    // More square feet than a JSON number holds exactly: the row's error, not a lot of Infinity shown as null.
    expect(() => lot('', '1e305')).toThrow(/lotAcres 1e\+305 is out of range/);
    expect(() => lot('1e300', '')).toThrow(/lotSqft 1e\+300 is out of range/);
  });

  it('a file of acres speaks for both lot fields, as one of square feet does (what its empty cell clears on a re-import)', () => {
    expect([...spokenOf(['lotAcres']).mapped].sort()).toEqual(['lotAcres', 'lotSqft']);
  });
});

describe('census tracts', () => {
  it('a tract number behind the county FIPS; a whole id as written; unknown county as written', () => {
    expect(tractIdOf('33 ', '42101', true)).toBe('42101003300');
    expect(tractIdOf('172', '42101', true)).toBe('42101017200');
    expect(tractIdOf('33.01', '42101', true)).toBe('42101003301');
    expect(tractIdOf('003301', '42101', true)).toBe('42101003301');
    expect(tractIdOf('42101003300', '42101', true)).toBe('42101003300');
    expect(tractIdOf('33', '42000', false)).toBe('33');
  });
});

describe('ZIPs from street-segment evidence', () => {
  const ev = new ZipEvidence([
    ['MAIN ST', 10, '03766'],
    ['MAIN ST', 30, '03766'],
    ['MAIN ST', 50, '03784'],
    ['MAIN ST', 11, '03784'],
    ['ELM ST', 2, '03766'],
    ['ELM ST', 8, '03766'],
  ]);
  it('between two evidenced numbers of one ZIP on the same side: that ZIP', () => {
    expect(ev.zipOf('MAIN ST', 20)).toBe('03766');
  });
  it('between two of different ZIPs: none', () => {
    expect(ev.zipOf('MAIN ST', 40)).toBeNull();
  });
  it('past the last evidence: only when the whole side agrees', () => {
    expect(ev.zipOf('MAIN ST', 60)).toBeNull();
    expect(ev.zipOf('ELM ST', 20)).toBe('03766');
    expect(ev.zipOf('ELM ST', 1)).toBeNull(); // the odd side has no evidence
  });
  it('each side of the street is its own evidence', () => {
    expect(ev.zipOf('MAIN ST', 13)).toBe('03784');
    expect(ev.zipOf('OAK ST', 10)).toBeNull();
  });
  it('a lone number naming another ZIP than its two neighbours, which agree, is no evidence for the parcels around it', () => {
    // 1414 LESTER DR's owner named 22911 between neighbours of 22901 (a mistyped or the next post office's ZIP).
    const lone = new ZipEvidence([
      ['LESTER DR', 1410, '22901'],
      ['LESTER DR', 1414, '22911'],
      ['LESTER DR', 1414, '22911'],
      ['LESTER DR', 1420, '22901'],
    ]);
    expect(lone.zipOf('LESTER DR', 1412)).toBe('22901');
    expect(lone.zipOf('LESTER DR', 1418)).toBe('22901');
    // Another unit of the outlier's building keeps its owners' ZIP: one building, one ZIP.
    expect(lone.zipOf('LESTER DR', 1414)).toBe('22911');
    // A side alternating A B A B A has no lone outlier: the segments between them stay without a ZIP.
    const alternating = new ZipEvidence(
      [10, 20, 30, 40, 50].map((n, i): [string, number, string] => ['GREENWAY RD', n, i % 2 ? 'B' : 'A']),
    );
    expect([24, 34, 14].map((n) => alternating.zipOf('GREENWAY RD', n))).toEqual([null, null, null]);
    // Two in a row are a boundary, not a typo; nor is one at the street's end, or one whose neighbours disagree.
    const two = new ZipEvidence([
      ['ELM ST', 10, 'A'],
      ['ELM ST', 20, 'B'],
      ['ELM ST', 30, 'B'],
      ['ELM ST', 40, 'A'],
    ]);
    expect([two.zipOf('ELM ST', 24), two.zipOf('ELM ST', 14), two.zipOf('ELM ST', 34)]).toEqual(['B', null, null]);
    const end = new ZipEvidence([
      ['OAK ST', 10, 'A'],
      ['OAK ST', 20, 'A'],
      ['OAK ST', 30, 'B'],
    ]);
    expect([end.zipOf('OAK ST', 24), end.zipOf('OAK ST', 40)]).toEqual([null, null]);
    const torn = new ZipEvidence([
      ['PINE ST', 10, 'A'],
      ['PINE ST', 20, 'B'],
      ['PINE ST', 30, 'C'],
    ]);
    expect(torn.zipOf('PINE ST', 14)).toBeNull();
    // A number whose units disagree is no lone outlier either: it stays, and the segments around it have no ZIP.
    const units = new ZipEvidence([
      ['ASH ST', 10, 'A'],
      ['ASH ST', 20, 'A'],
      ['ASH ST', 20, 'B'],
      ['ASH ST', 30, 'A'],
    ]);
    expect(units.zipOf('ASH ST', 14)).toBe('A');
    expect(units.zipOf('ASH ST', 20)).toBeNull();
  });
});

describe("a house number with its unit's letter (`1604-E MONTICELLO AVE`)", () => {
  it('is also written as that unit, as the address points write it; a line without the dash is not', () => {
    expect(dashLetterAsUnit('1604-E MONTICELLO AVE')).toBe('1604 MONTICELLO AVE # E');
    expect(dashLetterAsUnit('100-a Melbourne Park Cir')).toBe('100 Melbourne Park Cir # A');
    expect(addressKey(dashLetterAsUnit('1604-E MONTICELLO AVE')!)).toBe(addressKey('1604 MONTICELLO AVE #E'));
    // East Monticello, a Queens number, a range, a number glued to its letter, a number alone: as written only.
    for (const line of [
      '1604 E MONTICELLO AVE',
      '37-15 81ST ST',
      '223-225 MAIN ST',
      '100A MAIN ST',
      '100-AB MAIN ST',
      '100-A',
    ])
      expect(dashLetterAsUnit(line), line).toBeNull();
  });

  const parcel = (identity: string, line1: string, line2: string | null = null) => ({
    identity,
    line1,
    line2,
    fips: '51540',
    apn: identity,
  });
  const at = (index: AddressIndexEntry[], line: string) => index.find((e) => e[0] === addressKey(line))?.[1] ?? null;

  it('is found as that unit in a file joined on address, unless a parcel is stored there or two parcels would be', () => {
    const index = addressIndex([
      parcel('a', '100-A MELBOURNE PARK CIR'),
      parcel('b', '1604-E MONTICELLO AVE'),
      // A parcel stored at the unit comes first.
      parcel('c', '205-A DOUGLAS AVE'),
      parcel('d', '205 DOUGLAS AVE', 'UNIT A'),
      // Whichever comes first in the file.
      parcel('e', '7-B OAK ST'),
      parcel('f', '7 OAK ST # B'),
      // A parcel with a unit of its own has no second key.
      parcel('g', '9-C ELM ST'),
      parcel('h', '9-C ELM ST # 2'),
      parcel('i', '11-D PINE ST', 'UNIT 4'),
    ]);
    expect(at(index, '100 MELBOURNE PARK CIR #A')).toBe('a');
    expect(at(index, '100-A MELBOURNE PARK CIR')).toBe('a');
    expect(at(index, '1604 MONTICELLO AVE #E')).toBe('b');
    expect(at(index, '205 DOUGLAS AVE #A')).toBe('d');
    expect(at(index, '205-A DOUGLAS AVE')).toBe('c');
    expect(at(index, '7 OAK ST #B')).toBe('f');
    expect(at(index, '9 ELM ST #C')).toBe('g');
    expect(at(index, '11 PINE ST #D')).toBeNull();
    // Two parcels that would be one unit: neither.
    const twice = addressIndex([parcel('x', '3-A ASH ST'), parcel('y', '3-a ASH ST')]);
    expect(at(twice, '3 ASH ST #A')).toBeNull();
    expect(at(twice, '3-A ASH ST')).toBeNull();
  });
});

describe("a street's type glued to its directional", () => {
  const fields = propertyFields({
    line1: { column: 'A' },
    zip: { column: 'Z' },
    mailingLine1: { column: 'M' },
    mailingZip: { column: 'Z' },
  });
  const read = (A: string, M = A) => toParcel(applyRules(fields, { A, Z: '03784', M }), NOW).input;

  it("is parted, in the site's line and the mailing one (Lebanon's 7 GREEN STWEST): a street with its directional", () => {
    const p = read('7 GREEN STWEST', '7 Green Stwest');
    expect([p.line1, p.mailing?.line1]).toEqual(['7 GREEN ST WEST', '7 Green St west']);
    // The same keys as the owner's mailing line written apart: owner-occupied.
    expect(renderRecord(1, 1, read('7 GREEN STWEST', '7 GREEN ST WEST')).summary.absenteeInd).toBe('N');
  });

  it("only a common type's abbreviation before a whole directional word, with no type after it: the rest stay as written", () => {
    for (const line of [
      '12 BANKNORTH RD',
      '4 NORTHEAST DR',
      '9 MIDWEST AVE',
      '3 WESTERN AVE',
      '5 STN WAY',
      '100 PARKWEST DR',
      // Names that begin with a suffix's spelling (KEY, LAKE, BR, PARK, CREST) are names.
      '12 KEYWEST',
      '5 BREAST',
      '40 PARKWEST',
      '8 CRESTWEST CIR',
      // A type after it, punctuated too: a street's name.
      '40 STWEST DR.',
    ])
      expect(read(line).line1, line).toBe(line);
    expect(read('10 LAKEWEST APT 2').line1).toBe('10 LAKEWEST');
  });

  it("a joined file's line is read as the parcels' was: glued on either side, or both, it finds its parcel", () => {
    const parcelsLine = (written: string) => read(written).line1;
    const index = (written: string): AddressIndexEntry[] => [
      [addressKey(parcelsLine(written)), 'apn:33009:1-1', '33009', '1-1'],
    ];
    const join = { mapping: 'lebanon-nh', on: 'address' } as const;
    for (const [stored, point] of [
      ['7 GREEN STWEST', '7 GREEN STWEST'],
      ['7 GREEN ST WEST', '7 GREEN STWEST'],
      ['7 GREEN STWEST', '7 GREEN ST WEST'],
    ] as const)
      expect(
        new JoinedParcels(join, index(stored)).find({ line1: point }, makeProperty({})).identity,
        `${stored} / ${point}`,
      ).toBe('apn:33009:1-1');
  });
});

describe('a roll without site ZIPs', () => {
  const fields = propertyFields({
    apn: { column: 'APN' },
    line1: { column: 'SITE' },
    city: { value: 'LEBANON' },
    state: { value: 'NH' },
    fips: { value: '33009' },
    mailingLine1: { column: 'MAIL' },
    mailingCity: { column: 'MC' },
    mailingState: { column: 'MS' },
    mailingZip: { column: 'MZ' },
  });
  const row = (site: string, mail: string, ms: string, mz: string, mc = 'WEST LEBANON') =>
    applyRules(fields, { APN: '1-1', SITE: site, MAIL: mail, MC: mc, MS: ms, MZ: mz });

  it('takes the owner mailing ZIP when the owner is mailed at the parcel, in a ZIP of the county', () => {
    const p = toParcel(row('17 FARAWAY LN', '17 Faraway Lane', 'NH', '03784'), NOW).input;
    expect([p.zip, p.zipSource, p.city, p.state, p.fips]).toEqual(['03784', 'owner-mailing', 'LEBANON', 'NH', '33009']);
    expect(p.latitude).toBeNull(); // an inferred ZIP is no location
  });
  it('no ZIP from a mailing address elsewhere, in another state, or in another town', () => {
    for (const [mail, mc, ms, mz] of [
      ['9 OTHER RD', 'LEBANON', 'NH', '03784'],
      ['17 FARAWAY LN', 'LEBANON', 'VT', '05001'],
      ['17 FARAWAY LN', 'HANOVER', 'NH', '03755'],
    ] as const) {
      const p = toParcel(row('17 FARAWAY LN', mail, ms, mz, mc), NOW).input;
      expect([p.zip, p.zipSource], `${mail} ${mc} ${ms} ${mz}`).toEqual(['', null]);
    }
  });
  it('a mapping needs line1 and a ZIP or city and state', () => {
    const bad = Mapping.safeParse({
      name: 'x',
      kind: 'property',
      fields: { line1: { column: 'A' }, city: { value: 'C' } },
    });
    expect(bad.success).toBe(false);
    expect(JSON.stringify(bad.error?.issues)).toMatch(/zip \(or cityStateZip\), or city and state/);
    const joined = Mapping.safeParse({
      name: 'y',
      kind: 'property',
      join: { mapping: 'x', on: 'apn' },
      fields: { yearBuilt: { column: 'Y' } },
    });
    expect(JSON.stringify(joined.error?.issues)).toMatch(/joined on apn needs apn/);
  });
});

/**
 * A mapping of a parcel's last sale (its price, buyers in O) and one earlier sale, and the rules `extra` adds, with a
 * row of it: its cells as `cells` says.
 */
const salesMapping = (extra: Record<string, unknown>) =>
  propertyFields({
    apn: { column: 'P' },
    line1: { column: 'A' },
    zip: { column: 'Z' },
    ownerName: { column: 'O' },
    saleDate: { column: 'D', format: 'date-iso' },
    salePrice: { column: 'S', format: 'integer' },
    sale2Date: { column: 'D2', format: 'date-iso' },
    ...extra,
  });
const salesRow = (cells: Record<string, string>) => ({
  P: '7-1',
  A: '1 MAIN ST',
  Z: '03766',
  O: 'LEE, ANN',
  D: '2020-01-02',
  S: '100',
  D2: '2011-03-04',
  G: '',
  R: '',
  ...cells,
});

describe("the last sale's seller (saleSeller)", () => {
  const fields = (seller: Record<string, unknown> | undefined) => salesMapping(seller ? { saleSeller: seller } : {});
  const row = (G: string, D = '2020-01-02') => salesRow({ G, D });
  const parcel = (f: ReturnType<typeof fields>, G: string, D?: string) => toParcel(applyRules(f, row(G, D)), NOW).input;

  it('is read as the owners are (LAST, FIRST; two in a cell), for the last sale only; none when the cell is empty', () => {
    const f = fields({ column: 'G' });
    const sales = parcel(f, 'GUGGENHEIM, KATO & FRED ').sales;
    expect(sales.map((s) => [s.date, s.buyerName, s.sellerName])).toEqual([
      ['2020-01-02', 'ANN LEE', 'KATO GUGGENHEIM & FRED GUGGENHEIM'],
      ['2011-03-04', null, null],
    ]);
    expect(parcel(f, 'M&M EQUITIES LLC').sales[0]!.sellerName).toBe('M&M EQUITIES LLC');
    expect(parcel(f, '').sales[0]!.sellerName).toBeNull();
    // No last sale (its date unknown or refused): no seller, and the earlier sale names none.
    expect(parcel(f, 'LEE, BOB', '').sales.map((s) => s.sellerName)).toEqual([null]);
    // A mapping's `order` (the import passes it as sellerOrder: import-work.ts).
    const firstLast = toParcel(applyRules(fields({ column: 'G', order: 'first-last' }), row('KATO GUGGENHEIM')), NOW, {
      sellerOrder: 'first-last',
    }).input;
    expect(firstLast.sales[0]!.sellerName).toBe('KATO GUGGENHEIM');
  });

  it('a newer file that maps the seller replaces it, an empty cell clears it; one that does not map it keeps it', () => {
    const stored = parcel(fields({ column: 'G' }), 'RAY, BOB');
    const withSeller = spokenOf(Object.keys(fields({ column: 'G' })));
    const without = spokenOf(Object.keys(fields(undefined)));
    const again = (f: ReturnType<typeof fields>, G: string, mapped: typeof withSeller) =>
      reimportParcel(stored, parcel(f, G), mapped).sales.map((s) => s.sellerName);
    expect(again(fields({ column: 'G' }), 'ORR, DAN', withSeller)).toEqual(['DAN ORR', null]);
    expect(again(fields({ column: 'G' }), '', withSeller)).toEqual([null, null]);
    expect(again(fields(undefined), '', without)).toEqual(['BOB RAY', null]);
    // A joined file's sale of the same event, the same way.
    expect(joinParcel(stored, parcel(fields(undefined), ''), without).sales.map((s) => s.sellerName)).toEqual([
      'BOB RAY',
      null,
    ]);
    expect(joinParcel(stored, parcel(fields({ column: 'G' }), ''), withSeller).sales.map((s) => s.sellerName)).toEqual([
      null,
      null,
    ]);
  });

  it("a newer roll whose earlier sale was the last one keeps that sale's seller, buyers and recording date", () => {
    const rules = salesMapping({ saleSeller: { column: 'G' }, saleRecordingDate: { column: 'R', format: 'date-iso' } });
    const roll = (cells: Record<string, string>) => toParcel(applyRules(rules, salesRow(cells)), NOW).input;
    // 2020's roll: the last sale of 2020-01-02, sold by BOB RAY to ANN LEE, recorded a week later.
    const stored = roll({ D: '2020-01-02', D2: '2011-03-04', G: 'RAY, BOB', R: '2020-01-09' });
    // 2025's roll: a new last sale; 2020's is now its earlier sale, in columns that name no party or recording date.
    const newer = roll({ D: '2025-05-06', D2: '2020-01-02', O: 'ORR, DAN', G: 'LEE, ANN', R: '' });
    const merged = reimportParcel(stored, newer, spokenOf(Object.keys(rules)));
    expect(merged.sales.map((s) => [s.date, s.buyerName, s.sellerName, s.recordingDate])).toEqual([
      ['2025-05-06', 'DAN ORR', 'ANN LEE', null],
      ['2020-01-02', 'ANN LEE', 'BOB RAY', '2020-01-09'],
      ['2011-03-04', null, null, null],
    ]);
  });

  it("a prior-sale column repeating the last sale's date without a price is that sale: one, with its parties", () => {
    const rules = salesMapping({ saleSeller: { column: 'G' } });
    const row = toParcel(applyRules(rules, salesRow({ D: '2020-01-02', D2: '2020-01-02', G: 'RAY, BOB' })), NOW).input;
    const parties = (p: typeof row) => p.sales.map((s) => [s.date, s.price, s.buyerName, s.sellerName]);
    expect(parties(row)).toEqual([['2020-01-02', 100, 'ANN LEE', 'BOB RAY']]);
    // A store that kept the two (before the thirty-first pass) is read back to the one by the next import.
    const before = {
      ...row,
      sales: [row.sales[0]!, { ...row.sales[0]!, price: null, buyerName: null, sellerName: null }],
    };
    expect(parties(reimportParcel(before, row, spokenOf(Object.keys(rules))))).toEqual(parties(row));
    expect(parties(reimportParcel(row, row, spokenOf(Object.keys(rules))))).toEqual(parties(row));
    expect(parties(joinParcel(row, row, spokenOf(Object.keys(rules))))).toEqual(parties(row));
  });

  it('a prior-sale column newer than the last-sale one: the newer sale keeps the parties stored when it was the last', () => {
    const rules = salesMapping({ saleSeller: { column: 'G' } });
    const roll = (cells: Record<string, string>) => toParcel(applyRules(rules, salesRow(cells)), NOW).input;
    const stored = roll({ D: '2024-02-15', D2: '2011-03-04', O: 'POE, CAT', G: 'LEE, ANN' });
    // The next roll: its last-sale columns say 2024-02-13 (no seller), a prior-sale column the newer 2024-02-15.
    const next = roll({ D: '2024-02-13', D2: '2024-02-15', O: 'POE, CAT', G: '' });
    const merged = reimportParcel(stored, next, spokenOf(Object.keys(rules)));
    expect(merged.sales.map((s) => [s.date, s.buyerName, s.sellerName])).toEqual([
      ['2024-02-15', 'CAT POE', 'ANN LEE'],
      ['2024-02-13', 'CAT POE', null],
      ['2011-03-04', null, null],
    ]);
  });

  it('`order` is for cells of names only', () => {
    const bad = Mapping.safeParse({
      name: 'bad-order',
      kind: 'property',
      fields: { line1: { column: 'A' }, zip: { column: 'Z' }, saleDate: { column: 'D', order: 'first-last' } },
    });
    expect(bad.error?.issues[0]?.message).toMatch(/`order` applies to cells of names only/);
  });
});

describe('what a sale says of its deed', () => {
  const fields = (recording: boolean) =>
    salesMapping(recording ? { saleRecordingDate: { column: 'R', format: 'date-iso' } } : {});
  const row = (R: string, S = '100') => salesRow({ R, S, D: '2022-10-03' });
  const parcel = (recording: boolean, R: string, ctx?: Parameters<typeof applyRules>[2], S?: string) =>
    toParcel(applyRules(fields(recording), row(R, S), ctx), NOW).input;
  const deeds = (p: ReturnType<typeof parcel>) => p.sales.map((s) => [s.date, s.documentType, s.recordingDate]);

  it('no type (no roll names one), and the recording date only where the file gives it, for its last sale', () => {
    expect(deeds(parcel(true, '2022-11-16'))).toEqual([
      ['2022-10-03', null, '2022-11-16'],
      ['2011-03-04', null, null],
    ]);
    expect(deeds(parcel(false, '2022-11-16'))).toEqual([
      ['2022-10-03', null, null],
      ['2011-03-04', null, null],
    ]);
    // One that cannot be right is refused as a value, as the sale date is: the sale stays, without it.
    const refusals: { line: number; reason: string }[] = [];
    const p = parcel(true, '2071-07-09', { line: 4, latestDate: latestDateOf(NOW), refusals });
    expect(deeds(p)[0]).toEqual(['2022-10-03', null, null]);
    expect(refusals).toEqual([
      { line: 4, reason: "column 'R': saleRecordingDate 2071-07-09 is after tomorrow (not stored)" },
    ]);
  });

  it('a newer file that reads no recording date keeps the stored one; one that does replaces or clears it', () => {
    const stored = parcel(true, '2022-11-16');
    const withDate = spokenOf(Object.keys(fields(true)));
    const without = spokenOf(Object.keys(fields(false)));
    const last = (p: ReturnType<typeof parcel>) => deeds(p)[0];
    // The same sale (its date; a corrected price too), not a second one.
    expect(reimportParcel(stored, parcel(false, '', undefined, '150'), without).sales).toHaveLength(2);
    expect(last(reimportParcel(stored, parcel(false, ''), without))).toEqual(['2022-10-03', null, '2022-11-16']);
    expect(last(reimportParcel(stored, parcel(true, '2022-11-18'), withDate))).toEqual([
      '2022-10-03',
      null,
      '2022-11-18',
    ]);
    expect(last(reimportParcel(stored, parcel(true, ''), withDate))).toEqual(['2022-10-03', null, null]);
    expect(last(joinParcel(stored, parcel(false, ''), without))).toEqual(['2022-10-03', null, '2022-11-16']);
  });

  it("a stored sale an earlier import made up a deed for (DEED, recorded on its sale date) is read as the file's", () => {
    const stored = parcel(true, '');
    stored.sales = stored.sales.map((s) => ({ ...s, documentType: 'DEED', recordingDate: s.date }));
    const kept = { date: '2001-02-03', price: 5, documentType: 'GRANT DEED', recordingDate: '2001-02-03' };
    const recordedLater = { date: '2000-01-01', price: 4, documentType: 'DEED', recordingDate: '2000-01-09' };
    stored.sales.push(
      { ...kept, buyerName: null, sellerName: null, documentNumber: null },
      { ...recordedLater, buyerName: null, sellerName: null, documentNumber: null },
    );
    expect(upgradeStoredSales(stored)).toBe(true);
    expect(deeds(stored)).toEqual([
      ['2022-10-03', null, null],
      ['2011-03-04', null, null],
      ['2001-02-03', 'GRANT DEED', '2001-02-03'],
      ['2000-01-01', 'DEED', '2000-01-09'],
    ]);
    expect(upgradeStoredSales(stored)).toBe(false);
    // The file's sales then merge with them as with its own: no sale twice.
    expect(reimportParcel(stored, parcel(true, '2022-11-16'), spokenOf(Object.keys(fields(true)))).sales).toHaveLength(
      4,
    );
  });
});

describe('a joined file over a parcel', () => {
  it('changes what its mapping reads (an empty cell clears), appends sales, replaces a sale of the same event', () => {
    const stored = makeProperty({ yearBuilt: 1950, beds: 3 });
    stored.sales = [
      {
        date: '2001-05-01',
        price: 100,
        documentType: 'DEED',
        recordingDate: '2001-05-01',
        buyerName: 'A',
        sellerName: null,
        documentNumber: null,
      },
    ];
    const file = { ...stored, yearBuilt: null, beds: 4, owner1: null, sales: [] as typeof stored.sales };
    file.sales = [
      {
        date: '2001-05-01',
        price: 150,
        documentType: 'DEED',
        recordingDate: '2001-05-01',
        buyerName: null,
        sellerName: null,
        documentNumber: null,
      },
      {
        date: '2010-01-02',
        price: 300,
        documentType: 'DEED',
        recordingDate: '2010-01-02',
        buyerName: null,
        sellerName: null,
        documentNumber: null,
      },
    ];
    const mapped = spokenOf(['apn', 'fips', 'yearBuilt', 'beds', 'saleDate', 'salePrice']);
    const out = joinParcel(stored, file, mapped);
    expect([out.yearBuilt, out.beds]).toEqual([null, 4]);
    expect(out.owner1).toEqual(stored.owner1); // not read by the joined mapping
    expect(out.sales.map((s) => [s.date, s.price, s.buyerName])).toEqual([
      ['2010-01-02', 300, null],
      ['2001-05-01', 150, 'A'],
    ]);
    expect(joinParcel(out, file, mapped)).toEqual(out); // again: nothing changes
  });
});

describe("a sale's deed (book and page) across files and stored states", () => {
  const sale = (price: number | null, documentNumber: string | null, buyerName: string | null = null) => ({
    date: '2016-02-10',
    price,
    documentType: null,
    recordingDate: null,
    buyerName,
    sellerName: null,
    documentNumber,
  });
  const salesFile = spokenOf(['apn', 'fips', 'saleDate', 'salePrice', 'saleBookPage']);
  const noDeeds = spokenOf(['apn', 'fips', 'saleDate', 'salePrice']);
  const deeds = (p: { sales: { price: number | null; documentNumber: string | null; buyerName: string | null }[] }) =>
    p.sales.map((s) => `${s.price}|${s.documentNumber}|${s.buyerName}`);

  it("a sale kept before sales named deeds is the file's first deed of its day; the file's second is a sale of its own", () => {
    const stored = makeProperty({});
    // As a state written before: one sale of the day, no `documentNumber` member at all.
    const { documentNumber: _, ...legacy } = sale(null, null, 'ANN LEE');
    stored.sales = [legacy as ReturnType<typeof sale>];
    expect(upgradeStoredSales(stored)).toBe(true);
    expect(stored.sales[0]!.documentNumber).toBeNull();
    const file = { ...stored, sales: [sale(null, '2016:418'), sale(null, '2016:419')] };
    const out = joinParcel(stored, file, salesFile);
    expect(deeds(out)).toEqual(['null|2016:419|null', 'null|2016:418|ANN LEE']);
    // Again: nothing changes; and the same two deeds written with leading zeros are the same two.
    expect(joinParcel(out, file, salesFile)).toEqual(out);
    const zeros = { ...stored, sales: [sale(null, '2016:0418'), sale(null, '2016:0419')] };
    expect(joinParcel(out, zeros, salesFile).sales).toHaveLength(2);
  });

  it('a file naming no deed over a sale that names one keeps the deed; one naming the deed clears it only when it maps none', () => {
    const stored = makeProperty({});
    stored.sales = [sale(5, '793:231')];
    const bare = { ...stored, sales: [sale(7, null)] };
    // A corrected price, the deed kept: the file does not read deeds.
    expect(deeds(reimportParcel(stored, bare, noDeeds))).toEqual(['7|793:231|null']);
    // A file that reads deeds and names none for the sale says it has none.
    expect(deeds(reimportParcel(stored, bare, salesFile))).toEqual(['7|null|null']);
    // Two deeds of the day stored, a file naming none: it is the one at its price; the other stays.
    stored.sales = [sale(5, '793:231'), sale(5, '793:232')];
    expect(deeds(reimportParcel(stored, { ...stored, sales: [sale(5, null)] }, noDeeds))).toEqual([
      '5|793:232|null',
      '5|793:231|null',
    ]);
  });

  it('rows of one parcel in one file: a row naming the deed and a row naming none at its price are one sale', () => {
    const a = makeProperty({});
    a.sales = [sale(5, null, 'ANN LEE')];
    const b = { ...a, sales: [sale(5, '793:231'), sale(5, '793:232')] };
    // The later deed first, whichever row came first.
    expect(deeds(mergeParcel(a, b))).toEqual(['5|793:232|null', '5|793:231|null']);
    expect(deeds(mergeParcel(b, a))).toEqual(['5|793:232|null', '5|793:231|null']);
  });

  it("a deed's reference as one key: leading zeros, separators and case aside; none for an empty one", () => {
    expect(deedKey('4119/0683')).toBe('4119/683');
    expect(deedKey('4119:683')).toBe('4119/683');
    expect(deedKey('WB 41:511')).toBe(deedKey('wb41/0511'));
    expect(deedKey('W2014:464')).toBe('W/2014/464');
    expect(deedKey('2014-51261/A/0')).toBe('2014/51261/A/0');
    expect(deedKey('0000/0')).toBe('0/0');
    expect(deedKey('00000000000000000012345678901234567890')).toBe('12345678901234567890');
    expect([deedKey(''), deedKey(' - '), deedKey(null), deedKey(undefined)]).toEqual(['', '', '', '']);
  });

  it('two deeds of one day at one price in the history as served, the later book and page first, each as written', () => {
    // Rows of one parcel, the earlier deed's row last: the order is the deeds', not the rows'.
    const a = makeProperty({});
    a.sales = [sale(5, '793:0232')];
    const history = JSON.parse(renderSaleHistory(mergeParcel(a, { ...a, sales: [sale(5, '793:231')] }))!);
    expect(history.map((h: { documentNumber: string }) => h.documentNumber)).toEqual(['793:0232', '793:231']);
    const again = JSON.parse(renderSaleHistory(mergeParcel({ ...a, sales: [sale(5, '793:231')] }, a))!);
    expect(again).toEqual(history);
  });

  it("a file that reads deeds says a prior sale's too: an empty book and page clears the stored one", () => {
    const stored = makeProperty({});
    stored.sales = [{ ...sale(5, '800:1', 'ANN LEE'), date: '2020-01-02' }, sale(7, '793:231')];
    // The roll's last sale (its buyers) names its deed; the prior one's cell is empty.
    const file = { ...stored, sales: [{ ...sale(5, '800:1', 'ANN LEE'), date: '2020-01-02' }, sale(7, null)] };
    expect(deeds(reimportParcel(stored, file, salesFile))).toEqual(['5|800:1|ANN LEE', '7|null|null']);
    expect(deeds(reimportParcel(stored, file, noDeeds))).toEqual(['5|800:1|ANN LEE', '7|793:231|null']);
  });

  it("a sale naming no deed takes the stored deed of its day at its price, not the day's first", () => {
    const stored = makeProperty({});
    stored.sales = [sale(9, '793:231'), sale(7, '794:10')];
    expect(deeds(reimportParcel(stored, { ...stored, sales: [sale(7, null)] }, noDeeds))).toEqual([
      '9|793:231|null',
      '7|794:10|null',
    ]);
  });
});

describe('a property type another file gives', () => {
  const details = spokenOf(['apn', 'fips', 'proptype', 'yearBuilt']);
  const parcelsFile = spokenOf(['apn', 'fips', 'line1', 'city', 'state', 'ownerName', 'assessedTotal']);
  const roll = spokenOf(['apn', 'fips', 'line1', 'city', 'state', 'proptype', 'saleDate', 'salePrice']);

  it('a joined file that maps it gives it; its rows of one parcel keep the first type; an empty cell clears it', () => {
    const made = makeProperty({ proptype: 'UNKNOWN' });
    const joined = joinParcel(made, makeProperty({ proptype: 'SFR' }), details);
    expect(joined.proptype).toBe('SFR');
    // A later row of the parcel in the same file fills only what is still empty.
    expect(joinParcel(joined, makeProperty({ proptype: 'CONDOMINIUM' }), details, true).proptype).toBe('SFR');
    expect(joinParcel(made, makeProperty({ proptype: 'UNKNOWN' }), details, true).proptype).toBe('UNKNOWN');
    // The file again, its cell now empty: the file speaks for the type, and clears it.
    expect(joinParcel(joined, makeProperty({ proptype: 'UNKNOWN' }), details).proptype).toBe('UNKNOWN');
    // A joined file that does not map it leaves it.
    expect(joinParcel(joined, makeProperty({ proptype: 'UNKNOWN' }), spokenOf(['apn', 'beds'])).proptype).toBe('SFR');
  });

  it('vacant land is vacant (vacantInd Y), whichever file or row gave the type, and only while it is the type', () => {
    const roll = propertyFields({ line1: { column: 'A' }, zip: { column: 'Z' }, proptype: { column: 'T' } });
    const at = (T: string) => toParcel(applyRules(roll, { A: '1 MAIN ST', Z: '19146', T }), NOW).input;
    expect([at('VACANT LAND').vacant, at('SFR').vacant, at('').vacant]).toEqual([true, false, false]);
    const shown = (p: ReturnType<typeof makeProperty>) => [p.proptype, renderRecord(1, 1, p).summary.vacantInd];
    expect([shown(at('VACANT LAND')), shown(at('SFR'))]).toEqual([
      ['VACANT LAND', 'Y'],
      ['SFR', 'N'],
    ]);
    // A joined file's type, either way.
    const land = at('VACANT LAND');
    expect(shown(joinParcel(at(''), land, details))).toEqual(['VACANT LAND', 'Y']);
    expect(shown(joinParcel(land, at('SFR'), details))).toEqual(['SFR', 'N']);
    // Rows of one parcel: a row that says no type takes the other's, and its vacancy with it.
    expect(shown(mergeParcel(at(''), land))).toEqual(['VACANT LAND', 'Y']);
    // A stored parcel an earlier import typed vacant land and did not call vacant: the roll again corrects it.
    const stale = { ...land, vacant: false };
    expect(shown(reimportParcel(stale, land, spokenOf(Object.keys(roll))))).toEqual(['VACANT LAND', 'Y']);
  });

  it('the parcels file again, which says none, keeps it; a roll that maps it and leaves the cell empty clears it', () => {
    const stored = makeProperty({ proptype: 'SFR' });
    expect(reimportParcel(stored, makeProperty({ proptype: 'UNKNOWN' }), parcelsFile).proptype).toBe('SFR');
    expect(reimportParcel(stored, makeProperty({ proptype: 'UNKNOWN' }), roll).proptype).toBe('UNKNOWN');
    expect(reimportParcel(stored, makeProperty({ proptype: 'DUPLEX' }), roll).proptype).toBe('DUPLEX');
  });

  it('rows of one parcel in one file: a row that says none takes the type another row gives', () => {
    const sale = (date: string) => ({
      date,
      price: 100,
      documentType: 'DEED',
      recordingDate: date,
      buyerName: null,
      sellerName: null,
      documentNumber: null,
    });
    const older = makeProperty({ proptype: 'TRIPLEX', sales: [sale('2001-01-01')] });
    const newer = makeProperty({ proptype: 'UNKNOWN', sales: [sale('2020-01-01')] });
    expect(mergeParcel(older, newer).proptype).toBe('TRIPLEX');
    expect(mergeParcel(newer, older).proptype).toBe('TRIPLEX');
  });
});

describe('a file that only fills a field (rule option fillOnly)', () => {
  // Charlottesville's parcels file: its FileType types the commercial parcels; the residential details the houses.
  const parcelsFields = (fillOnly: boolean) =>
    propertyFields({
      apn: { column: 'APN' },
      line1: { column: 'SITE' },
      city: { value: 'CHARLOTTESVILLE' },
      state: { value: 'VA' },
      proptype: { column: 'FileType', map: { C: 'COMMERCIAL' }, nullIf: ['R', 'E'], fillOnly },
      yearBuilt: { column: 'YB', format: 'integer' },
    });
  const fills = spokenFor(parcelsFields(true));
  const plain = spokenFor(parcelsFields(false));
  const details = spokenOf(['apn', 'proptype']);
  const typed = (proptype: string, yearBuilt: number | null = null) => makeProperty({ proptype, yearBuilt });

  it('speaks for its other fields as before, and only fills its own: a field apart, in the file digest too', () => {
    expect([...fills.mapped].sort()).toEqual([...plain.mapped].filter((f) => f !== 'proptype').sort());
    expect([...fills.fillOnly]).toEqual(['proptype']);
    expect(plain.fillOnly.size).toBe(0);
    expect(digestBasis(fills)).not.toBe(digestBasis(plain));
    // A mapping without the option: the basis its stored digests were taken under.
    expect(digestBasis(plain)).toBe(`5|${[...plain.mapped].sort().join(',')}|`);
  });

  it('every target that takes the option fills one field of its own, which no other target fills', () => {
    for (const t of FILL_ONLY_TARGETS) {
      const own = [...spokenOf([t], [t]).fillOnly];
      expect(own, t).toHaveLength(1);
      const others = PROPERTY_TARGETS.filter((o) => o !== t && spokenOf([o]).mapped.has(own[0]!));
      expect(others, t).toEqual([]);
    }
  });

  it('a re-import gives the type only where the parcel has none: never replaces one, and an empty cell never clears', () => {
    // [with fillOnly, the same rule without it]
    const again = (stored: ReturnType<typeof typed>, file: ReturnType<typeof typed>) =>
      [fills, plain].map((spoken) => reimportParcel(stored, file, spoken).proptype);
    expect(again(typed('UNKNOWN'), typed('COMMERCIAL'))).toEqual(['COMMERCIAL', 'COMMERCIAL']);
    // The details file's type stays, whatever this file says of the parcel, and so does one it gave itself.
    expect(again(typed('SFR'), typed('COMMERCIAL'))).toEqual(['SFR', 'COMMERCIAL']);
    expect(again(typed('SFR'), typed('UNKNOWN'))).toEqual(['SFR', 'UNKNOWN']);
    expect(again(typed('COMMERCIAL'), typed('UNKNOWN'))).toEqual(['COMMERCIAL', 'UNKNOWN']);
    // A field the same file maps without the option is its own as before: an empty cell clears it.
    expect(reimportParcel(typed('SFR', 1950), typed('UNKNOWN', null), fills)).toMatchObject({
      proptype: 'SFR',
      yearBuilt: null,
    });
    // Vacancy follows the type it keeps.
    expect(reimportParcel(typed('VACANT LAND'), typed('COMMERCIAL'), fills).vacant).toBe(true);
  });

  it('a joined file with the option fills the same way, its rows of one parcel too; one without gives its own type', () => {
    const joinFills = spokenOf(['apn', 'proptype'], ['proptype']);
    const joined = (stored: ReturnType<typeof typed>, file: ReturnType<typeof typed>, continued = false) =>
      [joinFills, details].map((spoken) => joinParcel(stored, file, spoken, continued).proptype);
    expect(joined(typed('UNKNOWN'), typed('COMMERCIAL'))).toEqual(['COMMERCIAL', 'COMMERCIAL']);
    expect(joined(typed('SFR'), typed('COMMERCIAL'))).toEqual(['SFR', 'COMMERCIAL']);
    expect(joined(typed('SFR'), typed('UNKNOWN'))).toEqual(['SFR', 'UNKNOWN']);
    expect(joined(typed('COMMERCIAL'), typed('INDUSTRIAL'), true)).toEqual(['COMMERCIAL', 'COMMERCIAL']);
  });

  it("rows of one parcel in later batches of the file: the stored type stays, as for the parcel's first row", () => {
    // The state an earlier batch of this file left (the details' SFR kept), and a later row of the parcel.
    expect(
      mergeParcel(typed('SFR'), typed('COMMERCIAL'), { mapped: new Set(), fillOnly: fills.fillOnly }).proptype,
    ).toBe('SFR');
    expect(mergeParcel(typed('SFR'), typed('COMMERCIAL')).proptype).toBe('COMMERCIAL');
  });

  it('is refused where part of a field would be kept and part replaced, with required, and on a tract mapping', () => {
    const problems = (kind: 'property' | 'tract', fields: Record<string, unknown>) => {
      const base =
        kind === 'property'
          ? { line1: { column: 'A' }, zip: { column: 'Z' } }
          : { tract: { column: 'T' }, vintageYear: { value: 2020 } };
      const r = Mapping.safeParse({
        name: 'fills',
        kind,
        ...(kind === 'tract' ? { source: 'ACS' } : {}),
        fields: { ...base, ...fields },
      });
      return r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    };
    expect(problems('property', { proptype: { column: 'T', map: { C: 'COMMERCIAL' }, fillOnly: true } })).toEqual([]);
    expect(problems('property', { beds: { template: '{B}', format: 'integer', fillOnly: true } })).toEqual([]);
    expect(problems('property', { lotSqft: { column: 'L', format: 'integer', fillOnly: true } })).toEqual([
      expect.stringMatching(/^fields\.lotSqft\.fillOnly: `fillOnly` applies to proptype, yearBuilt, /),
    ]);
    expect(problems('property', { ownerName: { column: 'O', fillOnly: true } })).toHaveLength(1);
    expect(
      problems('property', { yearBuilt: { column: 'Y', format: 'integer', required: true, fillOnly: true } }),
    ).toEqual([expect.stringMatching(/^fields\.yearBuilt\.fillOnly: `fillOnly` and `required` contradict/)]);
    expect(problems('tract', { medianAge: { column: 'M', format: 'number', fillOnly: true } })).toEqual([
      expect.stringMatching(/^fields\.medianAge\.fillOnly: `fillOnly` applies to property mappings only/),
    ]);
    // A joined file gives no parcel id, filled or not.
    const joined = Mapping.safeParse({
      name: 'joined',
      kind: 'property',
      join: { mapping: 'x', on: 'apn' },
      fields: { apn: { column: 'A' }, taxParcelId: { column: 'T', fillOnly: true } },
    });
    expect(joined.success ? [] : joined.error.issues.map((i) => i.message)).toEqual([
      "a joined file gives no taxParcelId: the parcel's id is its parcels file's",
    ]);
    // A constant has no cell to leave empty: the option is not one of its keys.
    expect(problems('property', { proptype: { value: 'SFR', fillOnly: true } })).toHaveLength(1);
  });
});

describe('bathrooms as a roll counts them', () => {
  const mapping = (baths: Record<string, unknown>) =>
    propertyFields({ line1: { column: 'SITE' }, zip: { column: 'Z' }, ...baths });
  const split = mapping({
    bathsFull: { column: 'F', format: 'number', nullIf: ['0.0'] },
    bathsPartial: { column: 'H', format: 'number' },
  });
  const baths = (fields: typeof split, cells: Record<string, string>) => {
    const p = toParcel(applyRules(fields, { SITE: '1 MAIN ST', Z: '19146', ...cells }), NOW).input;
    return [p.bathsTotal, p.bathsPartial];
  };

  it('full and half: a total counting a half bath 0.5, the half ones a whole count; no total without full', () => {
    expect(baths(split, { F: '2.0', H: '1.0' })).toEqual([2.5, 1]);
    expect(baths(split, { F: '3', H: '0' })).toEqual([3, 0]);
    expect(baths(split, { F: '1', H: '' })).toEqual([1, null]);
    // Half baths without a total: neither (the merge takes the two together).
    expect(baths(split, { F: '0.0', H: '1.0' })).toEqual([null, null]);
    expect(baths(split, { F: '', H: '' })).toEqual([null, null]);
    // The record's bathspartial is an integer, whatever the mapping's format.
    expect(baths(split, { F: '1', H: '1.4' })).toEqual([1.5, 1]);
  });

  it("a file's own total is kept as it is; a mapping of both the total and full bathrooms is refused", () => {
    const total = mapping({ bathsTotal: { column: 'T', format: 'number' }, bathsPartial: { column: 'H' } });
    expect(baths(total, { T: '2.5', H: '1' })).toEqual([2.5, 1]);
    const both = Mapping.safeParse({
      name: 'both',
      kind: 'property',
      fields: { line1: { column: 'S' }, zip: { column: 'Z' }, bathsTotal: { column: 'T' }, bathsFull: { column: 'F' } },
    });
    expect(both.success).toBe(false);
    expect(JSON.stringify(both.error?.issues)).toMatch(/map one of them/);
    const halvesAlone = Mapping.safeParse({
      name: 'halves',
      kind: 'property',
      join: { mapping: 'x', on: 'apn' },
      fields: { apn: { column: 'A' }, bathsPartial: { column: 'H' } },
    });
    expect(JSON.stringify(halvesAlone.error?.issues)).toMatch(/half bathrooms are read with the total/);
  });
});

describe('bathrooms merged', () => {
  const baths = (bathsTotal: number | null, bathsPartial: number | null) => makeProperty({ bathsTotal, bathsPartial });
  const pair = (p: { bathsTotal: number | null; bathsPartial: number | null }) => [p.bathsTotal, p.bathsPartial];

  it("as one count: a side's total and half baths together, never the total of one row and the halves of another", () => {
    expect(pair(mergeParcel(baths(null, null), baths(2.5, 1)))).toEqual([2.5, 1]);
    expect(pair(mergeParcel(baths(2.5, 1), baths(null, null)))).toEqual([2.5, 1]);
    // The newer row (the base) has a count: the older one's does not mix into it.
    expect(pair(mergeParcel(baths(2, 0), baths(3, null)))).toEqual([3, null]);
    const details = spokenOf(['apn', 'bathsFull', 'bathsPartial']);
    // Rows of one joined file: a later row gives the count only when the earlier ones gave none.
    expect(pair(joinParcel(baths(null, null), baths(2.5, 1), details, true))).toEqual([2.5, 1]);
    expect(pair(joinParcel(baths(3, null), baths(2.5, 1), details, true))).toEqual([3, null]);
    // The file again over the parcel: its count is the parcel's, an empty one clears it.
    expect(pair(joinParcel(baths(3, null), baths(2.5, 1), details))).toEqual([2.5, 1]);
    expect(pair(joinParcel(baths(2.5, 1), baths(null, null), details))).toEqual([null, null]);
  });
});
