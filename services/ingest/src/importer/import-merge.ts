// One property per parcel. With an APN in the mapping, rows of one APN are one property and rows of different APNs
// at one address stay apart (condominium lots); without one, the normalised address is the parcel, as before.
// Rows of one parcel, in one file or across re-imports, merge: sales are the union, the rest comes from the row
// with the latest sale (the file's row on a tie, as the newer source).
import { createHash } from 'node:crypto';
import { apnKey, parseStreetLine } from '@pra/core/address';
import type { PropertyInput, SaleInput } from '../domain/property-input.js';
import { streetWithUnit } from '../domain/render-record.js';

/** The parcel a property is: "apn:<fips>:<stripped APN>" or "addr:<line key>|<zip>|<unit key>". */
export function parcelIdentity(p: PropertyInput, byApn: boolean): string {
  if (byApn) return `apn:${p.fips}:${apnKey(p.apn)}`;
  const s = parseStreetLine(streetWithUnit(p));
  return `addr:${s.lineKey}|${p.zip}|${s.unitKey}`;
}

const saleKey = (s: SaleInput) => `${s.date}|${s.price}|${s.documentType}`;
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

/** `older` and `newer` are rows (or stored states) of one parcel; the result is the parcel as both tell it. */
export function mergeParcel(older: PropertyInput, newer: PropertyInput): PropertyInput {
  const base = latestSale(older) > latestSale(newer) ? older : newer;
  const other = base === older ? newer : older;
  const merged: PropertyInput = { ...base, sales: unionSales(base.sales, other.sales) };
  for (const f of FILLABLE) if (merged[f] === null) (merged as unknown as Record<string, unknown>)[f] = other[f];
  if (merged.mortgages.length === 0) merged.mortgages = other.mortgages;
  // Rows of one parcel naming different units (a co-op's apartments) are sales within the building: the parcel has no unit.
  const unitOf = (p: PropertyInput) => parseStreetLine(streetWithUnit(p)).unitKey;
  if (unitOf(older) !== unitOf(newer)) merged.line2 = '';
  merged.lastModified = [older.lastModified, newer.lastModified].sort()[1]!;
  return merged;
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
