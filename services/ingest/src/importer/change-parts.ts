// What changed of a record, for its change event (data/change-events.ts): the record's fields fall in groups (the
// parts), and a re-import that changes a field of a group changes that part. Every field is in exactly one group
// (the map below is checked complete against PropertyInput), so a record the merge finds changed always has a part.
import { countyKey } from '@pra/core/address';
import { CHANGE_PARTS, type ChangePart } from '@pra/core/vocabulary';
import type { AssessmentSummary, ChangeDetail, ChangeEventDraft, SaleSummary } from '../data/change-events.js';
import { ownersInOrder, type PropertyInput } from '../domain/property-input.js';
import { sameJson } from './import-merge.js';

/**
 * The part of each field. Beyond the five the API names (owner, sale, assessment, building, address): the parcel's
 * identifiers, where it is (coordinates, census tract, county), its lot, and its mortgage. lastModified is when, not
 * what: it is no part.
 */
const PART_OF: Record<keyof PropertyInput, ChangePart | null> = {
  owner1: 'owner',
  owner2: 'owner',
  owner3: 'owner',
  owner4: 'owner',
  mailing: 'owner',
  sales: 'sale',
  assessment: 'assessment',
  assessmentHistory: 'assessment',
  proptype: 'building',
  yearBuilt: 'building',
  vacant: 'building',
  buildingSqft: 'building',
  beds: 'building',
  bathsTotal: 'building',
  bathsPartial: 'building',
  line1: 'address',
  line2: 'address',
  city: 'address',
  state: 'address',
  zip: 'address',
  zip4: 'address',
  zipSource: 'address',
  latitude: 'location',
  longitude: 'location',
  censusTract: 'location',
  county: 'location',
  lotSqft: 'lot',
  lotAcres: 'lot',
  subdivision: 'lot',
  pool: 'lot',
  apn: 'identifier',
  apnOrig: 'identifier',
  apnDerived: 'identifier',
  parcelKey: 'identifier',
  taxParcelId: 'identifier',
  fips: 'identifier',
  mortgages: 'mortgage',
  lastModified: null,
};

/** The parts in which `before` and `after` differ, in CHANGE_PARTS order; empty when they are the same record. */
export function changedParts(before: PropertyInput, after: PropertyInput): ChangePart[] {
  const parts = new Set<ChangePart>();
  const b = before as unknown as Record<string, unknown>;
  const a = after as unknown as Record<string, unknown>;
  for (const key of new Set([...Object.keys(b), ...Object.keys(a)])) {
    const part = Object.hasOwn(PART_OF, key) ? PART_OF[key as keyof PropertyInput] : 'other';
    if (part === null || parts.has(part)) continue;
    if (!sameJson(b[key], a[key])) parts.add(part);
  }
  // The last sale's buyer is the owner as the row names it (import-row.ts): a new owner name rewrites it without any
  // sale having happened. Sales that differ only in their parties' names are the owner's change, when there is one.
  if (parts.has('sale') && parts.has('owner') && sameJson(saleEvents(before.sales), saleEvents(after.sales)))
    parts.delete('sale');
  return CHANGE_PARTS.filter((p) => parts.has(p));
}

const saleEvents = (sales: PropertyInput['sales'] | undefined) =>
  (sales ?? []).map((s) => ({ ...s, buyerName: null, sellerName: null }));

const ownerNames = (p: PropertyInput | null): string[] =>
  p ? ownersInOrder(p).flatMap((o) => (o ? [o.fullName] : [])) : [];

const lastSale = (p: PropertyInput | null): SaleSummary | null => {
  const s = p?.sales[0];
  return s ? { date: s.date, price: s.price } : null;
};

const assessmentOf = (p: PropertyInput | null): AssessmentSummary | null => {
  const a = p?.assessment;
  return a ? { taxYear: a.taxYear, total: a.total, marketTotal: a.marketTotal } : null;
};

/**
 * The event of a record written by an import: `before` is the stored record (null for one the import adds), `after`
 * what is written. Null when nothing changed. Owner ids are filled in once the owners are resolved.
 */
export function changeEventOf(
  propertyId: number,
  before: PropertyInput | null,
  after: PropertyInput,
): ChangeEventDraft | null {
  const parts = before ? changedParts(before, after) : (['created'] as ChangePart[]);
  if (parts.length === 0) return null;
  const detail: ChangeDetail = {};
  const created = before === null;
  if (created || parts.includes('owner')) detail.owner = { old: ownerNames(before), new: ownerNames(after) };
  if (created || parts.includes('sale')) detail.sale = { old: lastSale(before), new: lastSale(after) };
  if (created || parts.includes('assessment'))
    detail.assessment = { old: assessmentOf(before), new: assessmentOf(after) };
  return {
    propertyId,
    parts,
    zip: after.zip,
    state: after.state,
    fips: after.fips,
    countyKey: countyKey(after.county),
    ownerIds: [],
    detail,
  };
}
