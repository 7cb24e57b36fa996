// Builds a complete PropertyInput for tests, and writes properties through the real loader; reads back what an
// import stored (stored-records.ts). Exported as @pra/ingest/testing.
import { randomBytes } from 'node:crypto';
import type { Pool } from '@pra/platform';
import type { PropertyInput } from '../src/domain/property-input.js';
import { buildCopyChunks } from '../src/data/copy-rows.js';
import { resolveRecordOwners } from '../src/data/owner-registry.js';
import { reserveIds, writeBatch } from '../src/data/loader.js';
import { parcelRefOf, registerParcels } from '../src/data/parcels.js';

export { recordsOf, rewriteBody, saleHistory, storedHistories } from './stored-records.js';
export { parseOwnerCells, recordOwners } from '../src/domain/owner-names.js';
export { holdBatchOpen, removeSource, rewriteProperties, type HeldBatch } from './feed-writers.js';

export function makeProperty(overrides: Partial<PropertyInput> = {}): PropertyInput {
  return {
    apn: '001-0002-003-0000',
    apnOrig: '00100020030000',
    taxParcelId: null,
    fips: '06067',
    state: 'CA',
    county: 'Sacramento',
    line1: '123 N MAIN ST',
    line2: '',
    city: 'SACRAMENTO',
    zip: '95814',
    zip4: '1234',
    latitude: 38.58,
    longitude: -121.49,
    censusTract: null,
    proptype: 'SFR',
    yearBuilt: 1999,
    lotSqft: 5000,
    lotAcres: 0.1148,
    subdivision: null,
    pool: false,
    vacant: false,
    buildingSqft: 1500,
    beds: 3,
    bathsTotal: 2,
    bathsPartial: 0,
    owner1: { firstName: 'JANE', lastName: 'DOE', fullName: 'JANE DOE', type: 'Individual' },
    owner2: null,
    owner3: null,
    owner4: null,
    mailing: null,
    assessment: null,
    assessmentHistory: [],
    sales: [],
    mortgages: [],
    lastModified: '2025-01-01T00:00:00.000Z',
    ...overrides,
  };
}

/** Loads properties as the ingest does; returns their ids in order. */
export async function insertProperties(pool: Pool, items: PropertyInput[], source = 'test'): Promise<number[]> {
  const start = await reserveIds(pool, items.length);
  const parcelIds = await registerParcels(pool, items.map(parcelRefOf));
  const ownerIds = await resolveRecordOwners(pool, start, items);
  await writeBatch(pool, buildCopyChunks(start, items, parcelIds, source, ownerIds), items.length);
  return items.map((_, i) => start + i);
}

/**
 * A surname no other test uses: `prefix` then 12 letters A-P, one for each hex digit of 6 random bytes (48 bits).
 * Owner search matches names whole, so a surname two tests drew would put one test's owners in the other's counts.
 */
export function uniqueSurname(prefix: string): string {
  return (
    prefix + [...randomBytes(6).toString('hex')].map((h) => String.fromCharCode(65 + Number.parseInt(h, 16))).join('')
  );
}

let counter = 0;
/** A street name no other test uses, so each test's rows are its own. */
export function uniqueStreet(): string {
  counter++;
  return `TESTWAY${process.pid}X${Date.now().toString(36).toUpperCase()}X${counter}`;
}
