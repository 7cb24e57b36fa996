// Generated parcels for the merge's properties (reimport-itself, merge-rows): few values each, so that sales share
// dates, events and keys often, and every field a merge fills or clears is null or empty or a value.
import fc from 'fast-check';
import type { PropertyInput, SaleInput } from '../src/domain/property-input.js';
import { spokenOf } from '../src/importer/import-merge.js';
import { FILL_ONLY_TARGETS, PROPERTY_TARGETS } from '../src/importer/mapping.js';
import { makeProperty } from './make-property.js';

const sale: fc.Arbitrary<SaleInput> = fc.record({
  date: fc.constantFrom('2019-05-01', '2020-01-02', '2024-12-31'),
  price: fc.constantFrom(null, 0, 100_000, 250_000),
  // An imported sale names no deed type and often no recording date.
  documentType: fc.constantFrom(null, 'DEED', 'SHERIFF DEED'),
  recordingDate: fc.constantFrom(null, '2020-01-09', '2024-12-31'),
  buyerName: fc.constantFrom(null, 'DOE JANE'),
  sellerName: fc.constantFrom(null, 'ROE RICHARD'),
  // One deed written two ways (`0793/231`), another, and none: two deeds of one day, and a deed named on one side only.
  documentNumber: fc.constantFrom(null, '793:231', '0793/231', '794:10'),
});

/** Every field a merge fills or clears (mergeParcel's FILLABLE, and mortgages) null or empty, or a value. */
export const parcel: fc.Arbitrary<PropertyInput> = fc
  .record({
    sales: fc.array(sale, { maxLength: 4 }),
    line1: fc.constantFrom('123 N MAIN ST', '123 N MAIN ST APT 4', '50-56 N FRONT ST'),
    line2: fc.constantFrom('', 'APT 2'),
    yearBuilt: fc.constantFrom(null, 1925),
    lotSqft: fc.constantFrom(null, 5000),
    lotAcres: fc.constantFrom(null, 0.1148),
    buildingSqft: fc.constantFrom(null, 1500),
    beds: fc.constantFrom(null, 3),
    bathsTotal: fc.constantFrom(null, 2),
    censusTract: fc.constantFrom(null, '42101000100'),
    latitude: fc.constantFrom(null, 39.95),
    longitude: fc.constantFrom(null, -75.16),
    taxParcelId: fc.constantFrom(null, 'TP-1'),
    owner1: fc.constantFrom(null, { firstName: 'JANE', lastName: 'DOE', fullName: 'JANE DOE', type: 'Individual' }),
    owner2: fc.constantFrom(null, { firstName: null, lastName: null, fullName: 'ACME LLC', type: 'Corporation' }),
    owner3: fc.constantFrom(null, { firstName: 'JOHN', lastName: 'DOE', fullName: 'JOHN DOE', type: 'Individual' }),
    owner4: fc.constantFrom(null, { firstName: null, lastName: null, fullName: 'DOE TRUST', type: 'Trust' }),
    mailing: fc.constantFrom(null, { line1: '1 MARKET ST', city: 'PHILADELPHIA', state: 'PA', zip: '19103' }),
    // No assessment; one of a roll's tax year; one without a year (a mapping that names none).
    assessment: fc.constantFrom<'none' | 2026 | null>('none', 2026, null).map((taxYear) =>
      taxYear === 'none'
        ? null
        : {
            taxYear,
            land: 1,
            improvements: 2,
            total: 3,
            marketTotal: 4,
            taxAmount: null,
            avmValue: null,
            avmDate: null,
            rentalEstimate: null,
            rentalSource: null,
          },
    ),
    // Vacant as typed, as an import makes it (import-row.ts).
    proptype: fc.constantFrom('SFR', 'VACANT LAND', 'UNKNOWN'),
    mortgages: fc.boolean().map((some) => (some ? [{ amount: 1, date: '2020-01-02', lender: 'BANK' }] : [])),
    lastModified: fc.constantFrom('2025-01-01T00:00:00.000Z', '2026-11-28T00:00:00.000Z'),
  })
  .map((o) => makeProperty({ ...o, vacant: o.proptype === 'VACANT LAND' }));

/** A mapping's targets, some of them (fillOnly) only filling: what its file speaks for. */
export const spoken = fc
  .tuple(fc.subarray([...PROPERTY_TARGETS]), fc.subarray([...FILL_ONLY_TARGETS]))
  .map(([targets, fillOnly]) => spokenOf([...targets, ...fillOnly], fillOnly));
