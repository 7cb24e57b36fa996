// reimportsToItself (import-merge.ts): a first load keeps a parcel's file digest when re-importing the parcel over
// itself would change nothing, and no longer makes that merge to find out when the parcel's sales say it. Whatever
// the sales (repeated events, repeated keys, any order, prices missing), whatever the other fields hold and whatever
// the mapping gives or only fills (`fillOnly`), a parcel it says true of must re-import as itself; and it must say
// true of the parcels a file's rows make (a row's several sales, rows of one parcel merged), or the first load makes
// every merge again. A field a file only fills keeps a stored value in every merge that meets one.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PropertyInput } from '../src/domain/property-input.js';
import { applyRules } from '../src/importer/apply-rules.js';
import {
  joinParcel,
  mergeParcel,
  mergeRows,
  reimportParcel,
  reimportsToItself,
  sameContent,
  spokenFor,
  spokenOf,
} from '../src/importer/import-merge.js';
import { deedKey } from '../src/importer/sale-merge.js';
import { toParcel } from '../src/importer/import-row.js';
import { Mapping } from '../src/importer/mapping.js';
import { parcel, spoken } from './parcel-arbitraries.js';
import { UNKNOWN_PROPERTY_TYPE, VACANT_LAND } from '@pra/core/vocabulary';

/** The parcel a file's rows make, as an import makes it: each row read, the rows of the parcel merged. */
const parcelOfRows = (fields: Mapping['fields'], rows: Record<string, string>[]) =>
  mergeRows(
    rows.map((r) => toParcel(applyRules(fields, r), '2026-11-28T00:00:00.000Z').input),
    spokenOf([]),
    false,
  );

describe('reimportsToItself', () => {
  it('says true only of parcels that re-import over themselves unchanged, whatever the mapping fills', () => {
    let knownWithSales = 0;
    let unknown = 0;
    fc.assert(
      fc.property(parcel, spoken, (p, speaks) => {
        if (!reimportsToItself(p)) {
          unknown++;
          return;
        }
        if (p.sales.length >= 2) knownWithSales++;
        expect(sameContent(reimportParcel(p, p, speaks), p)).toBe(true);
      }),
      { numRuns: 3000 },
    );
    // Both answers were tried often, and "true" of parcels with several sales (not only of those with one or none,
    // which are true whatever their sales): the property above was not vacuous.
    expect(knownWithSales).toBeGreaterThan(200);
    expect(unknown).toBeGreaterThan(300);
  });

  // A roll with several sales in a row (Lebanon's three) and rows of one parcel: the importer's own conversion.
  /** The parcel and its first two sales, in the columns both mappings below read them from. */
  const TWO_SALES = {
    apn: { column: 'APN' },
    line1: { column: 'SITE' },
    zip: { column: 'ZIP' },
    saleDate: { column: 'D1', format: 'date-iso' },
    salePrice: { column: 'P1', format: 'integer' },
    sale2Date: { column: 'D2', format: 'date-iso' },
    sale2Price: { column: 'P2', format: 'integer' },
  } as const;
  const fields = Mapping.parse({
    name: 'sales-in-columns',
    kind: 'property',
    fields: {
      ...TWO_SALES,
      sale3Date: { column: 'D3', format: 'date-iso' },
      sale3Price: { column: 'P3', format: 'integer' },
    },
  }).fields;
  const date = fc.constantFrom('', '2001-03-04', '2012-07-08', '2020-01-02');
  const price = fc.constantFrom('', '0', '150000', '150001');
  const row = fc
    .tuple(date, price, date, price, date, price)
    .map(([D1, P1, D2, P2, D3, P3]) => ({ APN: '1-1', SITE: '1 MAIN ST', ZIP: '19146', D1, P1, D2, P2, D3, P3 }));

  it("a field a file only fills: the stored value where there is one, else the file's, in every merge; again, nothing changes", () => {
    const empty = (p: PropertyInput, f: keyof PropertyInput) =>
      p[f] === null || (f === 'proptype' && p.proptype === UNKNOWN_PROPERTY_TYPE);
    let kept = 0;
    let filled = 0;
    const only = spoken.filter((s) => s.fillOnly.size > 0);
    fc.assert(
      fc.property(parcel, parcel, only, (stored, file, speaks) => {
        // A re-import, a joined file's row, and a later row of the parcel over what the file's earlier rows left.
        const merges = [
          (a: PropertyInput) => reimportParcel(a, file, speaks),
          // A joined mapping gives no taxParcelId (refused when it is loaded).
          ...(speaks.fillOnly.has('taxParcelId') ? [] : [(a: PropertyInput) => joinParcel(a, file, speaks)]),
          (a: PropertyInput) => mergeParcel(a, file, { mapped: new Set(), fillOnly: speaks.fillOnly }),
        ];
        for (const merge of merges) {
          const once = merge(stored);
          for (const f of speaks.fillOnly) {
            if (empty(stored, f)) filled++;
            else kept++;
            expect(once[f], f).toEqual(empty(stored, f) ? file[f] : stored[f]);
          }
          expect(once.vacant).toBe(once.proptype === VACANT_LAND);
          // The same file again over what it made: its fields stay as they are.
          const twice = merge(once);
          for (const f of speaks.fillOnly) expect(twice[f], f).toEqual(once[f]);
        }
      }),
      { numRuns: 1500 },
    );
    expect(Math.min(kept, filled)).toBeGreaterThan(300);
  });

  // The same roll with each sale's deed (book and page), as Lebanon's.
  const deedFields = Mapping.parse({
    name: 'sales-with-deeds',
    kind: 'property',
    fields: { ...TWO_SALES, saleBookPage: { column: 'B1' }, sale2BookPage: { column: 'B2' } },
  }).fields;
  const deed = fc.constantFrom('', '793:231', '0793/231', '794:10', '0/0', '-');
  const deedRow = fc
    .tuple(date, price, deed, date, price, deed)
    .map(([D1, P1, B1, D2, P2, B2]) => ({ APN: '1-1', SITE: '1 MAIN ST', ZIP: '19146', D1, P1, B1, D2, P2, B2 }));

  it('the same file imported twice: the second import changes nothing, over any stored state a merge wrote', () => {
    let changed = 0;
    const speaks = spokenFor(deedFields);
    const fileOf = (rows: Record<string, string>[]) => parcelOfRows(deedFields, rows);
    const rows = fc.array(deedRow, { minLength: 1, maxLength: 2 });
    fc.assert(
      // A stored state, last year's file over it (so that the stored sales are of this file's days and prices), and
      // this year's file.
      fc.property(parcel, rows, rows, (earlier, lastYear, thisYear) => {
        const file = fileOf(thisYear);
        for (const merge of [
          (a: PropertyInput, f = file) => reimportParcel(a, f, speaks),
          (a: PropertyInput, f = file) => joinParcel(a, f, speaks),
        ]) {
          const stored = merge(earlier, fileOf(lastYear));
          const once = merge(stored);
          if (!sameContent(once, stored)) changed++;
          expect(merge(once).sales).toEqual(once.sales);
          expect(sameContent(merge(once), once)).toBe(true);
        }
      }),
      { numRuns: 3000 },
    );
    expect(changed).toBeGreaterThan(1000);
  });

  /**
   * reimportsToItself says true of every parcel a file's rows make (parcelOfRows) that `known` picks; more than
   * `atLeast` of `runs` must be of those `counted` (by default, all it picks), so the property is not vacuous.
   */
  const saysTrueOfMade = (
    rowFields: Mapping['fields'],
    rowOf: fc.Arbitrary<Record<string, string>>,
    known: (p: PropertyInput) => boolean,
    runs: number,
    atLeast: number,
    counted = known,
  ) => {
    let checked = 0;
    fc.assert(
      fc.property(fc.array(rowOf, { minLength: 1, maxLength: 3 }), (rows) => {
        const made = parcelOfRows(rowFields, rows);
        if (!known(made)) return;
        if (counted(made)) checked++;
        expect(reimportsToItself(made)).toBe(true);
      }),
      { numRuns: runs },
    );
    expect(checked).toBeGreaterThan(atLeast);
  };
  const sameDay = (p: PropertyInput) => p.sales.some((s, i) => p.sales.some((o, j) => i !== j && o.date === s.date));

  it('says true of a parcel as a file makes it with deeds: two deeds of one day that both name their book and page', () => {
    // Known without the merge: sales of distinct days, or of one day each naming a deed of its own (counted).
    saysTrueOfMade(
      deedFields,
      deedRow,
      (made) => {
        const events = made.sales.map((s) => `${s.date}|${deedKey(s.documentNumber)}`);
        return new Set(events).size === events.length && (!sameDay(made) || made.sales.every((s) => s.documentNumber));
      },
      1500,
      30,
      sameDay,
    );
  });

  it('says true of a parcel as a file makes it when its sales are of distinct days: a row, or rows merged', () => {
    // A row's sales are all deeds recorded on their day: two sales of one day are one event (the merge decides which
    // price stands), so only sales of distinct days are known without it.
    saysTrueOfMade(fields, row, (made) => !sameDay(made), 500, 100);
  });
});
