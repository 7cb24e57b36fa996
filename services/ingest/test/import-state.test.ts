// The import state's text (encodeState): what a parcel's stored state and its file digest are of. Its text must stay
// the same for the same property (a re-import finds an unchanged parcel by the digest of this text), leave out
// exactly lastModified and the fields at their default, and read back as the property it was written from.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeState, encodeState, sameContent, STATE_DEFAULTS } from '../src/importer/import-merge.js';
import type { PropertyInput } from '../src/domain/property-input.js';
import { makeProperty } from './make-property.js';

/**
 * The state text as its definition says: the property's own fields in order, less lastModified and those at their
 * default (STATE_DEFAULTS), read field by field (encodeState takes another way to the same text).
 */
function expectedText(p: PropertyInput): string {
  const kept = Object.entries(p).filter(([k, v]) => {
    if (k === 'lastModified' || v === undefined) return false;
    if (!Object.hasOwn(STATE_DEFAULTS, k)) return true;
    const d = STATE_DEFAULTS[k as keyof PropertyInput];
    return !(v === d || (Array.isArray(v) && Array.isArray(d) && v.length === 0));
  });
  return JSON.stringify(Object.fromEntries(kept));
}

/** Each defaulted field either at its default or at a value of its own; the other fields varied too. */
const fields: fc.Arbitrary<Partial<PropertyInput>> = fc.record({
  taxParcelId: fc.constantFrom(null, 'TP-1'),
  line2: fc.constantFrom('', 'APT 2'),
  zip4: fc.constantFrom('', '1234'),
  latitude: fc.constantFrom(null, 39.95),
  longitude: fc.constantFrom(null, -75.16),
  censusTract: fc.constantFrom(null, '42101000100'),
  yearBuilt: fc.constantFrom(null, 1925),
  pool: fc.constantFrom(null, true, false),
  vacant: fc.boolean(),
  beds: fc.constantFrom(null, 0, 3),
  owner1: fc.constantFrom(null, { firstName: 'JANE', lastName: 'DOE', fullName: 'DOE JANE', type: 'Individual' }),
  owner2: fc.constantFrom(null, { firstName: null, lastName: null, fullName: 'ACME LLC', type: 'Corporation' }),
  owner3: fc.constantFrom(null, { firstName: 'JOHN', lastName: 'DOE', fullName: 'JOHN DOE', type: 'Individual' }),
  mailing: fc.constantFrom(null, { line1: '1 MARKET ST', city: 'PHILADELPHIA', state: 'PA', zip: '19103' }),
  sales: fc.constantFrom(
    [],
    [
      {
        date: '2020-01-02',
        price: 100_000,
        documentType: 'DEED',
        recordingDate: '2020-01-09',
        buyerName: null,
        sellerName: null,
        documentNumber: null,
      },
    ],
  ),
  assessmentHistory: fc.constantFrom(
    [],
    [{ taxYear: 2024, land: null, improvements: null, total: 1, marketTotal: null, taxAmount: null }],
  ),
  lastModified: fc.constantFrom('2025-01-01T00:00:00.000Z', '2026-11-28T00:00:00.000Z'),
  city: fc.constantFrom('PHILADELPHIA', 'LEBANON', ''),
  // A field a property may not carry at all (as an older state did not): undefined, never written.
  zipSource: fc.constantFrom(undefined, null, 'owner-mailing' as const),
});
const property = fields.map((o) => makeProperty(o));

describe('the import state text', () => {
  it('leaves out exactly lastModified and the defaulted fields, in the property order, and reads back the same', () => {
    fc.assert(
      fc.property(property, (p) => {
        const text = encodeState(p);
        expect(text).toBe(expectedText(p));
        const back = decodeState(text);
        expect(sameContent(back, p)).toBe(true);
        // Encoded again, the same text: a parcel's file digest does not depend on how often it is taken.
        expect(encodeState(p)).toBe(text);
        // What reads back encodes as its own fields say (its key order is decodeState's, so its text may differ).
        expect(encodeState(back)).toBe(expectedText(back));
      }),
      { numRuns: 300 },
    );
  });

  it('does not change the property it encodes', () => {
    const p = makeProperty({ line2: '', sales: [] });
    const before = JSON.stringify(p);
    encodeState(p);
    expect(JSON.stringify(p)).toBe(before);
  });
});
