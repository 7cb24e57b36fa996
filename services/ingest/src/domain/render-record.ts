// Renders the API record (SPEC 2.1) of one property. The stored body leaves out demographics: lookups append the
// tract's current profile, so the record always carries the latest census vintage.
import { normalizeCity, parseAskedLine, splitZip, type StreetLine } from '@pra/core/address';
import type { DemographicsRecord, PropertyRecord } from '@pra/core/contracts';
import type { PropertyInput, TractInput } from './property-input.js';
import { parsedStreetLine } from './street-lines.js';

export type StoredRecord = Omit<PropertyRecord, 'demographics'>;

/**
 * `Y` when the owner is mailed elsewhere than the property, `N` when at the property; null when no mailing address
 * (with its ZIP) is on record: unknown is not owner-occupied (issue 26). Like is compared with like: the mailing
 * line, which carries the unit, against the property's street with its unit, both through the lookup keys'
 * normaliser ("500 Elm Boulevard, Apt 3" is "500 ELM BLVD UNIT 3"; another unit of the building is another
 * address), and the ZIP5; for a parcel with no ZIP of its own (a roll without site ZIPs, where no evidence gave one),
 * the mailing state and city, the same name (not a place of it: SOUTH PORTLAND is a town of its own, though WEST
 * LEBANON is Lebanon's; the ZIP evidence may read it so, its ZIP checked against the county: import-row.ts).
 */
export function absenteeOf(p: PropertyInput): 'Y' | 'N' | null {
  const mailZip = p.mailing ? splitZip(p.mailing.zip).zip5 : '';
  // A mailing address without its ZIP (a county file's empty cell) cannot be compared like with like either.
  if (!p.mailing || mailZip === '') return null;
  const zip5 = splitZip(p.zip).zip5;
  const place =
    zip5 === ''
      ? p.mailing.state === p.state && normalizeCity(p.mailing.city) === normalizeCity(p.city)
      : mailZip === zip5;
  if (!place) return 'Y';
  const at = parsedStreetLine(streetWithUnit(p));
  const mailed = parsedStreetLine(p.mailing.line1);
  if (sameAddress(mailed, at)) return 'N';
  // A mailing line is typed as a query is: its unit may follow the street without a designator where a stored line's
  // is never read so (`1130 E HIGH ST D`, `211 5TH ST SW 101`: parseAskedLine). Read so only at the same number.
  return mailed.houseNumber !== null &&
    mailed.houseNumber === at.houseNumber &&
    sameAddress(parseAskedLine(p.mailing.line1), at)
    ? 'N'
    : 'Y';
}

/**
 * The mailing line's street and unit are the property's: the same street however written (a type left out on one side
 * is the same street: the place is the same), and the same unit; a mailing line without a unit is the building's,
 * where the owner's mail arrives.
 */
function sameAddress(mailed: StreetLine, at: StreetLine): boolean {
  return (
    mailed.looseKey === at.looseKey &&
    mailed.postDirectional === at.postDirectional &&
    (mailed.streetType === '' || at.streetType === '' || mailed.streetType === at.streetType) &&
    (mailed.unitKey === '' || mailed.unitKey === at.unitKey)
  );
}

function ownerName(o: PropertyInput['owner1'], id: number | null) {
  return o ? { id, firstName: o.firstName, lastName: o.lastName, fullName: o.fullName, type: o.type } : null;
}

/** "123 N MAIN ST APT 4": line1 with the unit, as parsed for keys and shown on one line. */
export function streetWithUnit(p: Pick<PropertyInput, 'line1' | 'line2'>): string {
  return p.line2 ? `${p.line1} ${p.line2}` : p.line1;
}

export function oneLine(p: Pick<PropertyInput, 'line1' | 'line2' | 'city' | 'state' | 'zip'>): string {
  return `${streetWithUnit(p)}, ${p.city}, ${p.state} ${p.zip}`;
}

/**
 * `ownerIds`: the owner entities of owner1 and owner2 (data/owner-registry.ts), resolved before the record is
 * rendered; an id is never renamed, and one merged later answers as the owner it was merged into.
 */
export function renderRecord(
  id: number,
  parcelId: number,
  p: PropertyInput,
  ownerIds: readonly [number | null, number | null] = [null, null],
): StoredRecord {
  const a = p.assessment;
  const lastSale = p.sales[0];
  const mortgage = p.mortgages[0];
  const mailing = p.mailing;
  return {
    identifier: { Id: id, apn: p.apn, apnOrig: p.apnOrig, fips: p.fips, parcelId },
    address: {
      country: 'US',
      countrySubd: p.state,
      line1: p.line1,
      line2: p.line2,
      locality: p.city,
      oneLine: oneLine(p),
      postal1: p.zip,
      postal2: p.zip4,
    },
    location: { censustract: p.censusTract, county: p.county, latitude: p.latitude, longitude: p.longitude },
    summary: {
      absenteeInd: absenteeOf(p),
      proptype: p.proptype,
      vacantInd: p.vacant ? 'Y' : 'N',
      yearbuilt: p.yearBuilt,
    },
    lot: {
      lotsize1: p.lotSqft,
      lotsize2: p.lotAcres,
      subdivision: p.subdivision,
      pooltype: p.pool === null ? null : p.pool ? 'Y' : 'N',
    },
    building: {
      size: { universalsize: p.buildingSqft },
      rooms: { beds: p.beds, bathstotal: p.bathsTotal, bathspartial: p.bathsPartial },
    },
    owner: {
      owner1: ownerName(p.owner1, ownerIds[0]) ?? {
        id: null,
        firstName: null,
        lastName: null,
        fullName: null,
        type: null,
      },
      owner2: ownerName(p.owner2, ownerIds[1]),
      // Only what is on record: no mailing address is made up from the property's.
      mailingAddress: mailing
        ? {
            line1: mailing.line1,
            locality: mailing.city || null,
            countrySubd: mailing.state || null,
            postal1: mailing.zip || null,
            ...(mailing.zip4 ? { postal2: mailing.zip4 } : {}),
          }
        : { line1: null, locality: null, countrySubd: null, postal1: null },
    },
    assessment: {
      assessed: { land: a?.land ?? null, improvements: a?.improvements ?? null, total: a?.total ?? null },
      market: { total: a?.marketTotal ?? null },
      avm: { value: a?.avmValue ?? null, date: a?.avmDate ?? null },
      equity: equityOf(p),
      rental: { estimate: a?.rentalEstimate ?? null, estimateSource: a?.rentalSource ?? null },
    },
    sale: { lastSale: { date: lastSale?.date ?? null, price: lastSale?.price ?? null } },
    mortgage: {
      amount: mortgage?.amount != null ? String(Math.round(mortgage.amount)) : null,
      date: mortgage?.date ?? null,
      lender: { companyname: mortgage?.lender ?? null },
    },
    vintage: {
      lastModified: p.lastModified,
      ...(p.zipSource !== undefined ? { postal1Source: p.zipSource } : {}),
    },
  };
}

/**
 * Equity = value (AVM, else market) minus the current mortgage amount; null when either is unknown. No mortgage on
 * record is unknown, not 0: county files carry none, and equity equal to the whole value would be a claim we cannot
 * make (issue 26).
 */
export function equityOf(p: PropertyInput): number | null {
  const value = p.assessment?.avmValue ?? p.assessment?.marketTotal ?? null;
  const owed = p.mortgages[0]?.amount ?? null;
  if (value === null || owed === null) return null;
  return value - Math.round(owed);
}

export function renderDemographics(t: TractInput): DemographicsRecord {
  return {
    medianAge: t.medianAge,
    medianGrossRent: t.medianGrossRent,
    medianHomeValue: t.medianHomeValue,
    medianHouseholdIncome: t.medianHouseholdIncome,
    ownerOccupiedRate: t.ownerOccupiedRate,
    povertyRate: t.povertyRate,
    source: t.source,
    totalPopulation: t.totalPopulation,
    unemploymentRate: t.unemploymentRate,
    vacancyRate: t.vacancyRate,
  };
}
