// An APN lookup's matches less the other parcels (domain/apn-matches.ts): asked `2-11` where a county stores both
// `2-11` and `21-1`, only the first answers and is charged. For any matches: the answer is a subset in order; every
// record written as asked stays; nothing is left out where no record is written as asked; and a record left out is
// another parcel of a county where one is written as asked, matched by its own APN.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { apnKey, separatedApnKey } from '@pra/core/address';
import type { RecordRow } from '../src/data/record-queries.js';
import { withoutOtherParcels } from '../src/domain/apn-matches.js';

const row = (identifier: object, Id: number): RecordRow => ({
  body: JSON.stringify({ identifier: { Id, ...identifier } }),
  demo: null,
  total: 0,
});
const idsOf = (rows: RecordRow[]) => rows.map((r) => JSON.parse(r.body).identifier.Id);

describe('an APN lookup answers the parcel written as asked', () => {
  it("leaves out another parcel whose APN differs only in its separators, in that parcel's county", () => {
    const rows = [
      row({ apn: '21-1', fips: '33009', parcelId: 7 }, 1),
      row({ apn: '2-11', fips: '33009', parcelId: 8 }, 2),
      // The same parcel from another file, its APN written with other separators: it stays.
      row({ apn: '2/11', fips: '33009', parcelId: 8 }, 3),
      // Matched by its tax parcel id (its own APN is another): it stays.
      row({ apn: '9-9', fips: '33009', parcelId: 9 }, 4),
      // Another county, where no record is written as asked: separators tell nothing there.
      row({ apn: '21-1', fips: '42101', parcelId: 10 }, 5),
    ];
    expect(idsOf(withoutOtherParcels(rows, ' 2-11 '))).toEqual([2, 3, 4, 5]);
    // Written with other separators, the same parts: the same parcel (as the import keys it).
    expect(idsOf(withoutOtherParcels(rows, '2 11'))).toEqual([2, 3, 4, 5]);
    expect(idsOf(withoutOtherParcels(rows, '2.11'))).toEqual([2, 3, 4, 5]);
    expect(idsOf(withoutOtherParcels(rows, '21-1'))).toEqual([1, 4, 5]);
    // Asked without separators, where no record is written so: every match.
    expect(idsOf(withoutOtherParcels(rows, '211'))).toEqual([1, 2, 3, 4, 5]);
    expect(idsOf(withoutOtherParcels(rows, '--'))).toEqual([1, 2, 3, 4, 5]);
    // A record written as asked in its original spelling (apnOrig) counts as written so.
    const orig = [
      row({ apn: '21-1', fips: '1', parcelId: 1 }, 1),
      row({ apn: '211', apnOrig: '2-11', fips: '1', parcelId: 2 }, 2),
    ];
    expect(idsOf(withoutOtherParcels(orig, '2-11'))).toEqual([2]);
    // A record without a parcel id (stored before they were kept) cannot be told another parcel, nor others told
    // apart from it: nothing is left out in its county.
    const old = (parcelId?: number) => [
      row({ apn: '2-11', fips: '1', parcelId }, 1),
      row({ apn: '21-1', fips: '1', parcelId: 2 }, 2),
    ];
    expect(idsOf(withoutOtherParcels(old(undefined), '2-11'))).toEqual([1, 2]);
    expect(idsOf(withoutOtherParcels(old(undefined), '21-1'))).toEqual([1, 2]);
    expect(idsOf(withoutOtherParcels(old(1), '21-1'))).toEqual([2]);
  });

  it('for any matches: a subset in order, the written ones kept, and only other parcels of their county left out', () => {
    const apn = fc
      .array(fc.constantFrom('2', '1', '-', '.', ' ', 'A', 'a'), { minLength: 1, maxLength: 5 })
      .map((c) => c.join(''));
    const identifier = fc.record(
      {
        apn,
        apnOrig: apn,
        fips: fc.constantFrom('33009', '42101', '51540'),
        parcelId: fc.integer({ min: 1, max: 4 }),
      },
      { requiredKeys: ['apn', 'fips'] },
    );
    fc.assert(
      fc.property(fc.array(identifier, { maxLength: 8 }), apn, (ids, asked) => {
        const rows = ids.map((id, i) => row(id, i));
        const out = idsOf(withoutOtherParcels(rows, asked));
        expect(out).toEqual([...out].sort((a, b) => a - b));
        const w = (s?: string) => separatedApnKey(s ?? '');
        const exact = ids.map((id) => w(id.apn) === w(asked) || w(id.apnOrig) === w(asked));
        ids.forEach((id, i) => {
          if (exact[i]) expect(out).toContain(i);
          if (out.includes(i)) return;
          // Left out: in a county of a record written as asked, of another parcel, matched by its own APN.
          const written = ids.filter((o, j) => exact[j] && o.fips === id.fips);
          expect(written.length).toBeGreaterThan(0);
          expect(written.map((o) => o.parcelId)).not.toContain(id.parcelId);
          // ...each of which has a parcel id (one stored before they were kept tells no parcel apart).
          expect(written.every((o) => o.parcelId !== undefined)).toBe(true);
          expect(id.parcelId).toBeDefined();
          expect(apnKey(id.apn)).toBe(apnKey(asked));
        });
        if (!exact.includes(true)) expect(out).toEqual(ids.map((_, i) => i));
      }),
      { numRuns: 3000 },
    );
  });
});
