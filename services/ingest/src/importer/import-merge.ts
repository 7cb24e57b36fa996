// One property per parcel. With an APN in the mapping, rows of one APN are one property and rows of different APNs
// at one address stay apart (condominium lots); without one, the normalised address is the parcel, as before.
// Rows of one parcel in one file merge: sales are the union, the rest comes from the row with the latest sale, and
// a field that row lacks is filled from the others. A re-import (a newer file over the stored state) merges the
// same way, except that the file speaks for what it maps: its sale of a date replaces the stored sale of that date
// (a corrected price), and an empty cell in a column it maps clears the stored value (see `reimportParcel`).
import { createHash } from 'node:crypto';
import { apnKey, parseStreetLine } from '@pra/core/address';
import type { PropertyInput, SaleInput } from '../domain/property-input.js';
import { streetWithUnit } from '../domain/render-record.js';
import type { PROPERTY_TARGETS } from './mapping.js';

/** The parcel a property is: "apn:<fips>:<stripped APN>" or "addr:<line key>|<zip>|<unit key>". */
export function parcelIdentity(p: PropertyInput, byApn: boolean): string {
  if (byApn) return `apn:${p.fips}:${apnKey(p.apn)}`;
  const s = parseStreetLine(streetWithUnit(p));
  return `addr:${s.lineKey}|${p.zip}|${s.unitKey}`;
}

const saleKey = (s: SaleInput) => `${s.date}|${s.price}|${s.documentType}`;
/** The recorded event a sale is, whatever its price: a newer file's sale of the same event corrects the stored one. */
const saleEvent = (s: SaleInput) => `${s.date}|${s.documentType}|${s.recordingDate}`;
const latestSale = (p: PropertyInput) =>
  p.sales
    .map((s) => s.date)
    .sort()
    .at(-1) ?? '';

function unionSales(a: readonly SaleInput[], b: readonly SaleInput[]): SaleInput[] {
  const byKey = new Map<string, SaleInput>();
  for (const s of [...a, ...b]) byKey.set(saleKey(s), s);
  return [...byKey.values()].sort((x, y) => y.date.localeCompare(x.date) || (y.price ?? 0) - (x.price ?? 0));
}

const FILLABLE = [
  'yearBuilt',
  'lotSqft',
  'lotAcres',
  'buildingSqft',
  'beds',
  'bathsTotal',
  'censusTract',
  'latitude',
  'longitude',
  'taxParcelId',
  'owner1',
  'assessment',
] as const;

/** The fields a file may leave empty: filled from the other rows of the parcel, or cleared on a re-import. */
export type OptionalField = (typeof FILLABLE)[number] | 'mortgages';

/** What a file may speak for or not: the optional fields, and the price of its sales. */
export type MappedField = OptionalField | 'salePrice';

type PropertyTarget = (typeof PROPERTY_TARGETS)[number];

/**
 * The optional fields each mapping target fills. Every target of a property mapping is listed (the compiler asks for
 * a new one): [] for a target whose field is always written from the file's row (the address, the sale date, ...).
 */
const TARGET_FIELDS: Readonly<Record<PropertyTarget, readonly MappedField[]>> = {
  apn: [],
  taxParcelId: ['taxParcelId'],
  line1: [],
  line2: [],
  unit: [],
  city: [],
  state: [],
  zip: [],
  zip4: [],
  county: [],
  latitude: ['latitude'],
  longitude: ['longitude'],
  censusTract: ['censusTract'],
  proptype: [],
  yearBuilt: ['yearBuilt'],
  lotSqft: ['lotSqft', 'lotAcres'],
  buildingSqft: ['buildingSqft'],
  beds: ['beds'],
  bathsTotal: ['bathsTotal'],
  ownerName: ['owner1'],
  ownerType: [],
  saleDate: [],
  salePrice: ['salePrice'],
  assessedTotal: ['assessment'],
  marketTotal: ['assessment'],
  taxYear: [],
  mortgageAmount: ['mortgages'],
  mortgageDate: ['mortgages'],
  mortgageLender: ['mortgages'],
};

const isPropertyTarget = (t: string): t is PropertyTarget => Object.hasOwn(TARGET_FIELDS, t);

/** The optional fields a mapping's targets fill: the ones a newer file can clear with an empty cell. */
export function mappedFields(targets: Iterable<string>): ReadonlySet<MappedField> {
  const out = new Set<MappedField>();
  for (const t of targets) if (isPropertyTarget(t)) for (const f of TARGET_FIELDS[t]) out.add(f);
  return out;
}

const NONE: ReadonlySet<MappedField> = new Set();

/**
 * `older` and `newer` are rows (or stored states) of one parcel; the result is the parcel as both tell it. A field
 * in `cleared` that the newer lacks stays empty when the newer gives the record (it is not filled from the older).
 */
export function mergeParcel(
  older: PropertyInput,
  newer: PropertyInput,
  cleared: ReadonlySet<MappedField> = NONE,
): PropertyInput {
  const base = latestSale(older) > latestSale(newer) ? older : newer;
  const other = base === older ? newer : older;
  const keep = base === newer ? cleared : NONE;
  const merged: PropertyInput = { ...base, sales: unionSales(base.sales, other.sales) };
  for (const f of FILLABLE)
    if (merged[f] === null && !keep.has(f)) (merged as unknown as Record<string, unknown>)[f] = other[f];
  if (merged.mortgages.length === 0 && !keep.has('mortgages')) merged.mortgages = other.mortgages;
  // Rows of one parcel naming different units (a co-op's apartments) are sales within the building: the parcel has no unit.
  const unitOf = (p: PropertyInput) => parseStreetLine(streetWithUnit(p)).unitKey;
  if (unitOf(older) !== unitOf(newer)) merged.line2 = '';
  merged.lastModified = [older.lastModified, newer.lastModified].sort()[1]!;
  return merged;
}

/**
 * A parcel of a newer file over its stored state. The file's sales replace the stored sales of the same event (date,
 * document type, recording date), so a corrected price replaces the sale instead of adding one; stored sales the
 * file does not have stay. A field the file's mapping fills (`mapped`) and the file leaves empty is cleared, when the
 * file gives the record (its latest sale is not older than the stored one); a field it does not map keeps the stored
 * value (of a replaced sale too: its price and buyer when the mapping reads no sale price or owner).
 */
export function reimportParcel(
  stored: PropertyInput,
  file: PropertyInput,
  mapped: ReadonlySet<MappedField>,
): PropertyInput {
  const corrected = new Set(file.sales.map(saleEvent));
  const kept = { ...stored, sales: stored.sales.filter((s) => !corrected.has(saleEvent(s))) };
  // What a replacing sale does not say because the mapping reads no column for it stays as stored.
  const sales = file.sales.map((s) => {
    const was = stored.sales.find((o) => saleEvent(o) === saleEvent(s));
    if (!was) return s;
    return {
      ...s,
      price: s.price ?? (mapped.has('salePrice') ? null : was.price),
      buyerName: s.buyerName ?? (mapped.has('owner1') ? null : was.buyerName),
    };
  });
  return mergeParcel(kept, { ...file, sales }, mapped);
}

/** JSON with object keys sorted, so a value read back from jsonb (which reorders keys) digests the same. */
function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    const entries = Object.entries(v as Record<string, unknown>)
      .filter(([, x]) => x !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, x]) => `${JSON.stringify(k)}:${canonicalJson(x)}`).join(',')}}`;
  }
  return JSON.stringify(v);
}

/** What a property is, apart from when it was written: equal digests mean a re-import changes nothing. */
export function contentDigest(p: PropertyInput): string {
  return createHash('sha1')
    .update(canonicalJson({ ...p, lastModified: null }))
    .digest('base64url');
}
