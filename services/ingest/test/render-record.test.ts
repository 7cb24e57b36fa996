// What a record says that is computed, not read: equity and absentee ownership are never a guess (issue 26).
import { describe, expect, it } from 'vitest';
import type { PropertyInput } from '../src/domain/property-input.js';
import { equityOf, renderRecord } from '../src/domain/render-record.js';
import { streetWithUnit } from '../src/domain/street-lines.js';
import { PropertyGenerator } from '../src/generator/generate.js';
import { makeProperty } from './make-property.js';

const valued = (mortgages: { amount: number | null; date: string | null; lender: string | null }[]) =>
  makeProperty({
    assessment: {
      taxYear: 2025,
      taxAmount: 3_000,
      land: 100_000,
      improvements: 200_000,
      total: 300_000,
      marketTotal: 400_000,
      avmValue: 410_000,
      avmDate: '2025-01-01',
      rentalEstimate: null,
      rentalSource: null,
    },
    mortgages,
  });

describe('equity', () => {
  it('is the value less the current mortgage', () => {
    expect(equityOf(valued([{ amount: 250_000.4, date: '2020-01-01', lender: 'A BANK' }]))).toBe(160_000);
  });

  it('is unknown (null) without a mortgage on record, not the whole value', () => {
    expect(equityOf(valued([]))).toBeNull();
  });

  it('is unknown (null) when the mortgage on record has no amount, or there is no value', () => {
    expect(equityOf(valued([{ amount: null, date: '2020-01-01', lender: 'A BANK' }]))).toBeNull();
    expect(equityOf(makeProperty({ mortgages: [{ amount: 1, date: null, lender: null }] }))).toBeNull();
  });
});

type Mailing = NonNullable<PropertyInput['mailing']>;
const mailed = (mailing: Mailing | null, at: Partial<PropertyInput> = {}) =>
  renderRecord(1, 1, makeProperty({ line1: '500 ELM BLVD', line2: 'UNIT 3', zip: '95814', ...at, mailing }));
const absentee = (mailing: Mailing | null, at: Partial<PropertyInput> = {}) => mailed(mailing, at).summary.absenteeInd;
const to = (line1: string, zip = '95814'): Mailing => ({ line1, city: 'SACRAMENTO', state: 'CA', zip });

describe('absenteeInd: the mailing address against the property address with its unit', () => {
  it('is N when the owner is mailed at the property, however either is spelled', () => {
    expect(absentee(to('500 ELM BLVD UNIT 3'))).toBe('N');
    expect(absentee(to('500 Elm Boulevard, Apt 3'))).toBe('N');
    expect(absentee(to('500 ELM BLVD #3', '95814-1234'))).toBe('N');
    expect(absentee(to('500 ELM BOULEVARD'), { line2: '' })).toBe('N');
    // A mailing line without the unit is the building's; a type left out is the same street in the same ZIP.
    expect(absentee(to('500 ELM BLVD'))).toBe('N');
    expect(absentee(to('500 Elm, Apt 3'))).toBe('N');
    expect(absentee(to('500 ELM BLVD 3'))).toBe('N');
  });

  it("reads a mailing line as its owner may mean it: a unit without a designator, a house's letter", () => {
    // Charlottesville's `1130 E HIGH ST D` and `211 5TH ST SW 101`: the owner lives in the unit.
    expect(absentee(to('500 ELM BLVD C'), { line2: 'UNIT C' })).toBe('N');
    expect(absentee(to('211 5TH ST SW 101'), { line1: '211 5TH ST SW', line2: '# 101' })).toBe('N');
    expect(absentee(to('500 ELM BLVD D'), { line2: 'UNIT C' })).toBe('Y');
    expect(absentee(to('502 ELM BLVD C'), { line2: 'UNIT C' })).toBe('Y');
    expect(absentee(to('211 5TH ST SW 102'), { line1: '211 5TH ST SW', line2: '# 101' })).toBe('Y');
    // Not another street: WEST 16 is a street, not West's unit 16.
    expect(absentee(to('201 W 16'), { line1: '201 W', line2: '# 16' })).toBe('Y');
    // A house's letter written apart (`1299 D SALEM CT` for 1299D).
    expect(absentee(to('1299 D SALEM CT'), { line1: '1299D SALEM CT', line2: '' })).toBe('N');
  });

  it("reads a property numbered with its unit's letter (`500-B MOSELEY DR`) as that unit too", () => {
    const lettered = { line1: '500-B MOSELEY DR', line2: '' };
    expect(absentee(to('500 MOSELEY DR # B'), lettered)).toBe('N');
    expect(absentee(to('500 MOSELEY DR B'), lettered)).toBe('N');
    expect(absentee(to('500-B MOSELEY DR'), lettered)).toBe('N');
    expect(absentee(to('500 MOSELEY DR # C'), lettered)).toBe('Y');
    // East Moseley is not unit E of Moseley, nor the reverse.
    expect(absentee(to('500 MOSELEY DR # E'), { line1: '500 E MOSELEY DR', line2: '' })).toBe('Y');
    expect(absentee(to('500 MOSELEY DR # E'), { line1: '500-E MOSELEY DR', line2: '' })).toBe('N');
  });

  it('is Y for another unit of the building, another street, or another ZIP', () => {
    expect(absentee(to('500 ELM BLVD UNIT 4'))).toBe('Y');
    expect(absentee(to('502 ELM BLVD UNIT 3'))).toBe('Y');
    expect(absentee(to('500 ELM ST UNIT 3'))).toBe('Y');
    expect(absentee(to('500 ELM BLVD UNIT 3', '95815'))).toBe('Y');
    expect(absentee(to('PO BOX 12'))).toBe('Y');
  });

  it('for a property without a ZIP of its own, compares the mailing state and city instead', () => {
    // Lebanon, NH: the roll gives no site ZIP, and no evidence gave this parcel one.
    const lebanon = { line1: '53 LILY LN', line2: '', city: 'LEBANON', state: 'NH', zip: '' };
    const mail = (city: string, state = 'NH'): Mailing => ({ line1: '53 LILY LN', city, state, zip: '03766' });
    expect(absentee(mail('LEBANON'), lebanon)).toBe('N');
    expect(absentee(mail('Lebanon'), lebanon)).toBe('N');
    // Not a name with a part before it: SOUTH PORTLAND is not PORTLAND, nor (here) WEST LEBANON LEBANON.
    expect(absentee(mail('WEST LEBANON'), lebanon)).toBe('Y');
    const portland = { line1: '100 BROADWAY', line2: '', city: 'PORTLAND', state: 'ME', zip: '' };
    expect(absentee({ line1: '100 BROADWAY', city: 'SOUTH PORTLAND', state: 'ME', zip: '04106' }, portland)).toBe('Y');
    expect(absentee(mail('HANOVER'), lebanon)).toBe('Y');
    expect(absentee(mail('LEBANON', 'ME'), lebanon)).toBe('Y');
    expect(absentee({ ...mail('LEBANON'), line1: '55 LILY LN' }, lebanon)).toBe('Y');
  });

  it('is unknown (null) without a mailing address on record, and no mailing address is made up', () => {
    const r = mailed(null);
    expect(r.summary.absenteeInd).toBeNull();
    expect(r.owner.mailingAddress).toEqual({ line1: null, locality: null, countrySubd: null, postal1: null });
    expect(mailed(to('9 OAK ST')).owner.mailingAddress).toEqual({
      line1: '9 OAK ST',
      locality: 'SACRAMENTO',
      countrySubd: 'CA',
      postal1: '95814',
    });
  });

  it('reads N for every owner-occupied generated property, units included, and Y for the absentee ones', () => {
    const g = new PropertyGenerator({ seed: 5 });
    const count = { N: 0, Y: 0, unknown: 0, unitsN: 0 };
    for (let i = 0; i < 5_000; i++) {
      const p = g.next();
      const ind = renderRecord(i + 1, i + 1, p).summary.absenteeInd;
      if (!p.mailing) {
        expect(ind).toBeNull();
        count.unknown++;
        continue;
      }
      const atProperty = p.mailing.line1 === streetWithUnit(p) && p.mailing.zip === p.zip;
      expect(ind).toBe(atProperty ? 'N' : 'Y');
      count[ind!]++;
      if (atProperty && p.line2 !== '') count.unitsN++;
    }
    expect(count.unitsN).toBeGreaterThan(50);
    expect(count.Y / (count.N + count.Y)).toBeGreaterThan(0.2);
    expect(count.Y / (count.N + count.Y)).toBeLessThan(0.45);
  });
});
