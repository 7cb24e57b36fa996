// An APN lookup's matches less their separator look-alikes (domain/apn-matches.ts): asked `2-11` where a county
// stores both `2-11` and `21-1`, only the first answers and is charged. Each rule by example, then for any matches:
// a match is left out exactly when it matched by its own APN, its county holds a match written with the asked parts,
// and it is not one of those matches' parcels.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { apnKey, separatedApnKey } from '@pra/core/address';
import type { RecordRow } from '../src/data/record-queries.js';
import { withoutSeparatorLookalikes } from '../src/domain/apn-matches.js';

interface Id {
  apn: string;
  fips: string;
  parcelId: number;
}
const row = (id: Id, Id: number): RecordRow => ({
  body: JSON.stringify({ identifier: { Id, apn: id.apn, apnOrig: id.apn, fips: id.fips, parcelId: id.parcelId } }),
  demo: null,
  total: 0,
});
const answer = (ids: Id[], asked: string) =>
  withoutSeparatorLookalikes(
    ids.map((id, i) => row(id, i)),
    asked,
  ).map((r) => JSON.parse(r.body).identifier.Id as number);

const lebanon = (apn: string, parcelId: number): Id => ({ apn, fips: '33009', parcelId });

describe('an APN lookup answers the parcel written as asked', () => {
  it("leaves out another parcel whose APN differs only in its separators, in that parcel's county", () => {
    const ids = [lebanon('21-1', 7), lebanon('2-11', 8)];
    expect(answer(ids, '2-11')).toEqual([1]);
    expect(answer(ids, '21-1')).toEqual([0]);
  });

  it('reads the asked parts whatever separates them, and case and spaces around them aside', () => {
    const ids = [lebanon('21-1', 7), lebanon('2-11', 8)];
    for (const asked of ['2 11', '2.11', ' 2--11 ', '2/11']) expect(answer(ids, asked), asked).toEqual([1]);
    expect(answer([lebanon('2-11a', 1), lebanon('21-1A', 2)], '2-11A')).toEqual([0]);
  });

  it('keeps every match when none is written with the asked parts (asked without separators)', () => {
    expect(answer([lebanon('21-1', 7), lebanon('2-11', 8)], '211')).toEqual([0, 1]);
  });

  it('keeps the same parcel written otherwise, a match by tax parcel id, and other counties', () => {
    const ids = [
      lebanon('2-11', 8),
      lebanon('211', 8), // the same parcel, its APN written without separators by another file
      lebanon('9-9', 9), // matched by its tax parcel id: its own APN strips to another key
      { apn: '21-1', fips: '42101', parcelId: 10 }, // a county where no match is written as asked
    ];
    expect(answer(ids, '2-11')).toEqual([0, 1, 2, 3]);
  });

  it('for any matches: left out exactly the look-alikes of the parcels written as asked, in their county', () => {
    const apn = fc
      .array(fc.constantFrom('2', '1', '-', '.', ' ', 'A', 'a'), { minLength: 1, maxLength: 5 })
      .map((c) => c.join(''));
    const id = fc.record({
      apn,
      fips: fc.constantFrom('33009', '42101', '51540'),
      parcelId: fc.integer({ min: 1, max: 4 }),
    });
    fc.assert(
      fc.property(fc.array(id, { maxLength: 8 }), apn, (ids, asked) => {
        const out = answer(ids, asked);
        const written = ids.filter((o) => separatedApnKey(o.apn) === separatedApnKey(asked));
        const kept = ids.flatMap((o, i) => {
          const lookalike =
            apnKey(o.apn) === apnKey(asked) &&
            written.some((w) => w.fips === o.fips) &&
            !written.some((w) => w.parcelId === o.parcelId);
          return ids.length > 1 && lookalike ? [] : [i];
        });
        expect(out).toEqual(kept);
      }),
      { numRuns: 3000 },
    );
  });
});
