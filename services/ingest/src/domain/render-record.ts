// Renders the API record (SPEC 2.1) of one property. The stored body leaves out demographics: lookups append the
// tract's current profile, so the record always carries the latest census vintage.
import type { DemographicsRecord, PropertyRecord } from '@pra/core/contracts';
import { absenteeOf } from './absentee.js';
import { NO_OWNER_IDS, type RecordOwnerIds } from './owner-keys.js';
import type { OwnerInput, PropertyInput, TractInput } from './property-input.js';
import { streetWithUnit } from './street-lines.js';

export type StoredRecord = Omit<PropertyRecord, 'demographics'>;

const renderedOwner = (o: OwnerInput, id: number | null) => ({
  id,
  firstName: o.firstName,
  lastName: o.lastName,
  fullName: o.fullName,
  type: o.type,
});

const ownerName = (o: OwnerInput | null, id: number | null) => (o ? renderedOwner(o, id) : null);

export function oneLine(p: Pick<PropertyInput, 'line1' | 'line2' | 'city' | 'state' | 'zip'>): string {
  return `${streetWithUnit(p)}, ${p.city}, ${p.state} ${p.zip}`;
}

/**
 * `ownerIds`: the owner entities of owner1 to owner4 (data/owner-registry.ts), resolved before the record is
 * rendered; an id is never renamed, and one merged later answers as the owner it was merged into. owner3 and owner4
 * are written only when the roll names a third or fourth owner (records stored before have neither).
 */
export function renderRecord(
  id: number,
  parcelId: number,
  p: PropertyInput,
  ownerIds: RecordOwnerIds = NO_OWNER_IDS,
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
      ...(p.owner3 ? { owner3: renderedOwner(p.owner3, ownerIds[2]) } : {}),
      ...(p.owner4 ? { owner4: renderedOwner(p.owner4, ownerIds[3]) } : {}),
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
