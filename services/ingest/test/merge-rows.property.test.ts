// mergeRows (import-merge.ts): an import merges a parcel's rows of one batch at once, its sales keyed once, not once a
// row; whatever the rows (sales of one event, one key, one day at two prices, a deed named in one row only, any
// order) and whatever the file speaks for, the parcel must be the one merging each row into the ones before makes
// (mergeParcel, or joinParcel's for a joined file), field by field and sale by sale, in the same order.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { joinParcel, mergeParcel, mergeRows } from '../src/importer/import-merge.js';
import { makeProperty } from './make-property.js';
import { parcel, spoken } from './parcel-arbitraries.js';

const rows = fc.array(parcel, { minLength: 1, maxLength: 8 });

describe('mergeRows', () => {
  it("is the rows merged one at a time: a file's rows of one parcel", () => {
    let sold = 0;
    fc.assert(
      fc.property(rows, spoken, (rs, speaks) => {
        const oneAtATime = rs.reduce((a, r) => mergeParcel(a, r, speaks));
        if (oneAtATime.sales.length >= 3) sold++;
        expect(mergeRows(rs, speaks, false)).toEqual(oneAtATime);
      }),
      { numRuns: 2000 },
    );
    // Not vacuous: many merges kept several sales (the order and the keys were tried).
    expect(sold).toBeGreaterThan(500);
  });

  it("is the rows joined one at a time: a joined file's rows of one parcel", () => {
    fc.assert(
      fc.property(rows, spoken, (rs, speaks) => {
        expect(mergeRows(rs, speaks, true)).toEqual(rs.reduce((a, r) => joinParcel(a, r, speaks, true)));
      }),
      { numRuns: 2000 },
    );
  });

  it("takes a parcel's owners from one row together: the latest deed's, else, when it names none, the other's", () => {
    const person = (first: string, last: string) => ({
      firstName: first,
      lastName: last,
      fullName: `${first} ${last}`,
      type: 'Individual',
    });
    const sale = (date: string) => [
      {
        date,
        price: 1,
        documentType: null,
        recordingDate: null,
        buyerName: null,
        sellerName: null,
        documentNumber: null,
      },
    ];
    const owners = (p: { owner1: unknown; owner2: unknown; owner3: unknown; owner4: unknown }) =>
      [p.owner1, p.owner2, p.owner3, p.owner4].map((o) => (o as { fullName: string } | null)?.fullName ?? null);
    const old = makeProperty({
      owner1: person('ANN', 'A'),
      owner2: person('BOB', 'B'),
      owner3: person('CY', 'C'),
      owner4: person('DI', 'D'),
      sales: sale('2010-01-01'),
    });
    const deed = makeProperty({ owner1: person('EVE', 'E'), owner2: person('CY', 'C'), sales: sale('2020-01-01') });
    const none = makeProperty({ owner1: null, sales: sale('2020-01-01') });
    for (const [rs, want] of [
      [
        [old, deed],
        ['EVE E', 'CY C', null, null],
      ],
      [
        [deed, old],
        ['EVE E', 'CY C', null, null],
      ],
      [
        [old, none],
        ['ANN A', 'BOB B', 'CY C', 'DI D'],
      ],
    ] as const) {
      expect(owners(mergeRows(rs, { mapped: new Set(), fillOnly: new Set() }, false))).toEqual(want);
      // A joined file's rows: the first row's owners, a later row's only where the earlier named none.
      const asJoined = mergeRows(
        rs,
        { mapped: new Set(['owner1', 'owner2', 'owner3', 'owner4']), fillOnly: new Set() },
        true,
      );
      expect(owners(asJoined)).toEqual(owners(rs[0]!.owner1 ? rs[0]! : rs[1]!));
    }
  });

  it('merges a parcel of thousands of rows, one sale each, keeping every sale once, newest first', () => {
    // A sales file's parcel of many deeds. How long it takes is not a test's to say: the row-by-row merge took ~12 s
    // here, mergeRows ~30 ms (the thirty-seventh pass; docs/known-gaps.md, "A parcel of thousands of rows").
    const many = Array.from({ length: 5000 }, (_, i) =>
      makeProperty({
        sales: [
          {
            date: new Date(Date.UTC(1950, 0, 1 + 3 * i)).toISOString().slice(0, 10),
            price: 50_000 + i,
            documentType: null,
            recordingDate: null,
            buyerName: null,
            sellerName: null,
            documentNumber: i % 2 === 0 ? null : `${1000 + i}/${i % 300}`,
          },
        ],
      }),
    );
    const merged = mergeRows(many, { mapped: new Set(), fillOnly: new Set() }, false);
    expect(merged.sales).toHaveLength(5000);
    expect(merged.sales[0]!.price).toBe(54_999);
    expect(merged.sales.at(-1)!.price).toBe(50_000);
  });
});
