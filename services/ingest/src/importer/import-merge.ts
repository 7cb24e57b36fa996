// One property per parcel. With an APN in the mapping, rows of one APN are one property and rows of different APNs
// at one address stay apart (condominium lots); without one, the normalised address is the parcel, as before.
// Rows of one parcel in one file merge: sales are the union, the rest comes from the row with the latest sale, and
// a field that row lacks is filled from the others. A re-import (a newer file over the stored state) merges the
// same way, except that the file speaks for what it maps: its sale of an event (a date, and the deed where it names
// one) replaces the stored sale of that event (a corrected price), and an empty cell in a column it maps clears the
// stored value (see `reimportParcel`), but for a field its mapping gives only where the parcel has none (rule option
// `fillOnly`).
import { hash } from 'node:crypto';
import { apnKey, normalizeCity, parseStreetLine, type StreetLine } from '@pra/core/address';
import { UNKNOWN_PROPERTY_TYPE, VACANT_LAND } from '@pra/core/vocabulary';
import { OWNER_FIELDS, type OwnerField, type PropertyInput, type SaleInput } from '../domain/property-input.js';
import { parsedStreetLine, streetWithUnit } from '../domain/street-lines.js';
import type { FieldRule, FILL_ONLY_TARGETS, PROPERTY_TARGETS } from './mapping.js';
import { isFillOnly } from './mapping-rules.js';
import {
  deedKey,
  latestSale,
  looseKey,
  overStoredSales,
  SalesUnion,
  saleEvent,
  saleOrder,
  unionSales,
} from './sale-merge.js';

/**
 * The parcel a property is: "apn:<fips>:<stripped APN>" or "addr:<line key>|<zip>|<unit key>". `street` is the
 * parsed street line of the property (line1 with line2) when the caller has it, so that it is not parsed again.
 */
export function parcelIdentity(p: PropertyInput, byApn: boolean, street?: StreetLine): string {
  if (byApn) return `apn:${p.fips}:${p.parcelKey ?? apnKey(p.apn)}`;
  const s = street ?? parsedStreetLine(streetWithUnit(p));
  // A roll without ZIPs: the place is its state and city.
  return `addr:${s.lineKey}|${p.zip || `${p.state}:${normalizeCity(p.city)}`}|${s.unitKey}`;
}

const FILLABLE = [
  'proptype',
  'yearBuilt',
  'lotSqft',
  'lotAcres',
  'buildingSqft',
  'beds',
  'censusTract',
  'latitude',
  'longitude',
  'taxParcelId',
  'mailing',
  'assessment',
] as const;

/** The fields a file may leave empty: filled from the other rows of the parcel, or cleared on a re-import. */
export type OptionalField = FillableField | 'mortgages' | BathField | OwnerField;
type FillableField = (typeof FILLABLE)[number];

/**
 * A fillable field left empty: null, or for the property type UNKNOWN (a row that says none: the type another row or
 * file gives is kept).
 */
const isEmpty = (p: PropertyInput, f: FillableField) =>
  p[f] === null || (f === 'proptype' && p.proptype === UNKNOWN_PROPERTY_TYPE);

/**
 * A parcel's bathrooms: the total and the half ones, one count read from one row (a total of 2.5 with 1 half bath),
 * so a merge takes the two together, never the total of one row with the half baths of another.
 */
const BATHS = ['bathsTotal', 'bathsPartial'] as const;
type BathField = (typeof BATHS)[number];
const noBaths = (p: PropertyInput) => p.bathsTotal === null && p.bathsPartial === null;

/**
 * A parcel's owners (owner1 to owner4): the owners one row (one deed) names, so a merge takes them together, never the
 * owners of one row with another's in the places it leaves empty (the new deed's owners beside the old deed's, or one
 * name twice). A row that names none takes the other's.
 */
const noOwners = (p: PropertyInput) => OWNER_FIELDS.every((f) => p[f] == null);
const takeOwners = (to: PropertyInput, from: PropertyInput) => {
  for (const f of OWNER_FIELDS) to[f] = from[f];
};

/**
 * What a file may speak for or not: the optional fields, the price of its sales, and whether it gives sales at all
 * (a roll without sales speaks for the parcel as it is now, whatever sales the store holds).
 */
export type MappedField =
  | OptionalField
  | 'salePrice'
  | 'saleSeller'
  | 'saleRecordingDate'
  | 'saleDocumentNumber'
  | 'sales';

type PropertyTarget = (typeof PROPERTY_TARGETS)[number];

/**
 * The optional fields each mapping target fills. Every target of a property mapping is listed (the compiler asks for
 * a new one): [] for a target whose field is always written from the file's row (the address, the sale date, ...),
 * or read only with another (the mailing city, state and ZIP go with `mailingLine1`).
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
  proptype: ['proptype'],
  yearBuilt: ['yearBuilt'],
  lotSqft: ['lotSqft', 'lotAcres'],
  lotAcres: ['lotSqft', 'lotAcres'],
  buildingSqft: ['buildingSqft'],
  beds: ['beds'],
  bathsTotal: ['bathsTotal'],
  bathsFull: ['bathsTotal'],
  bathsPartial: ['bathsPartial'],
  ownerName: OWNER_FIELDS,
  owner2Name: OWNER_FIELDS,
  ownerType: [],
  saleDate: ['sales'],
  salePrice: ['salePrice'],
  saleSeller: ['saleSeller'],
  saleRecordingDate: ['saleRecordingDate'],
  sale2Date: ['sales'],
  sale2Price: ['salePrice'],
  sale3Date: ['sales'],
  sale3Price: ['salePrice'],
  sale4Date: ['sales'],
  sale4Price: ['salePrice'],
  saleBookPage: ['sales', 'saleDocumentNumber'],
  sale2BookPage: ['sales', 'saleDocumentNumber'],
  sale3BookPage: ['sales', 'saleDocumentNumber'],
  sale4BookPage: ['sales', 'saleDocumentNumber'],
  assessedLand: ['assessment'],
  assessedImprovements: ['assessment'],
  assessedTotal: ['assessment'],
  marketTotal: ['assessment'],
  taxYear: [],
  mortgageAmount: ['mortgages'],
  mortgageDate: ['mortgages'],
  mortgageLender: ['mortgages'],
  // The line makes the mailing address (see toParcel): a file that maps it speaks for the owner's mailing address.
  mailingLine1: ['mailing'],
  mailingCity: [],
  mailingState: [],
  mailingZip: [],
  mailingCityStateZip: [],
  cityStateZip: [],
  fips: [],
};

const isPropertyTarget = (t: string): t is PropertyTarget => Object.hasOwn(TARGET_FIELDS, t);

/**
 * An imported parcel is vacant when its type is vacant land (import-row.ts: a roll's land-use class is all it says of
 * occupancy), whichever file or row gave the type: a merge that takes the type from one side takes this with it.
 */
export const vacantAsTyped = (p: Pick<PropertyInput, 'proptype'>) => p.proptype === VACANT_LAND;

/**
 * What a file speaks for. `mapped`: the fields it gives (an empty cell clears one, a value replaces one). `fillOnly`:
 * the fields it gives only to a parcel that has none (its rules' option `fillOnly`: it never replaces or clears
 * them). A field is in one of the two or in neither (the file says nothing of it).
 */
export interface SpokenFor {
  mapped: ReadonlySet<MappedField>;
  fillOnly: ReadonlySet<FillOnlyField>;
}

/**
 * The fields a rule with `fillOnly` gives (mapping.ts FILL_ONLY_TARGETS): each target's one field, which no other
 * target fills (roll-rules.test.ts, "every target that takes the option fills one field of its own", checks this
 * against TARGET_FIELDS).
 */
export type FillOnlyField = Extract<FillableField, (typeof FILL_ONLY_TARGETS)[number]>;

/** What a file whose mapping has these targets speaks for; `fillOnly`, those of them whose rules only fill. */
export function spokenOf(targets: Iterable<string>, fillOnly: Iterable<string> = []): SpokenFor {
  const only = new Set(fillOnly);
  const mapped = new Set<MappedField>();
  const fills = new Set<FillOnlyField>();
  for (const t of targets) {
    if (!isPropertyTarget(t)) continue;
    if (only.has(t)) for (const f of TARGET_FIELDS[t]) fills.add(f as FillOnlyField);
    else for (const f of TARGET_FIELDS[t]) mapped.add(f);
  }
  return { mapped, fillOnly: fills };
}

/** What the file of a property mapping with these fields speaks for. */
export function spokenFor(fields: Readonly<Partial<Record<string, FieldRule>>>): SpokenFor {
  const targets = Object.keys(fields).filter((t) => fields[t] !== undefined);
  return spokenOf(
    targets,
    targets.filter((t) => isFillOnly(fields[t]!)),
  );
}

/** A file that speaks for nothing: rows of one parcel in one file, merged. */
const NOTHING: SpokenFor = { mapped: new Set(), fillOnly: new Set() };

/**
 * `older` and `newer` are rows (or stored states) of one parcel; the result is the parcel as both tell it. When the
 * newer gives the record, a field the newer's file maps (`spoken.mapped`) and leaves empty stays empty (it is not
 * filled from the older); a field it only fills (`spoken.fillOnly`) is the older's wherever the older has one.
 */
// Keep in step with reimportsToItself: which side is the base, what it fills from the other, line2 and lastModified.
export function mergeParcel(
  older: PropertyInput,
  newer: PropertyInput,
  spoken: SpokenFor = NOTHING,
  newerGives = false,
): PropertyInput {
  const olderBase = olderIsBase(latestSale(older), latestSale(newer), newerGives);
  const merged = mergeFields(older, newer, olderBase, spoken);
  merged.sales = olderBase ? unionSales(older.sales, newer.sales) : unionSales(newer.sales, older.sales);
  return merged;
}

/** The older side is a merge's base (gives the record): its latest sale is the later, unless the newer gives it. */
const olderIsBase = (olderLatest: string, newerLatest: string, newerGives: boolean) =>
  !newerGives && olderLatest > newerLatest;

/**
 * mergeParcel but for the sales: it reads none (mergeRows passes a parcel whose sales are not merged yet), and the
 * result holds the base's as they were. `olderBase`: the older is the base (olderIsBase).
 */
// Keep in step with reimportsToItself: what the base fills from the other, line2 and lastModified.
function mergeFields(older: PropertyInput, newer: PropertyInput, olderBase: boolean, spoken: SpokenFor): PropertyInput {
  const [base, other] = olderBase ? [older, newer] : [newer, older];
  const keep = olderBase ? NOTHING.mapped : spoken.mapped;
  const merged: PropertyInput = { ...base };
  for (const f of FILLABLE)
    if (isEmpty(merged, f) && !keep.has(f)) (merged as unknown as Record<string, unknown>)[f] = other[f];
  for (const f of spoken.fillOnly) if (!isEmpty(older, f)) (merged as unknown as Record<string, unknown>)[f] = older[f];
  if (merged.mortgages.length === 0 && !keep.has('mortgages')) merged.mortgages = other.mortgages;
  if (noBaths(merged) && !BATHS.some((f) => keep.has(f)))
    [merged.bathsTotal, merged.bathsPartial] = [other.bathsTotal, other.bathsPartial];
  if (noOwners(merged) && !OWNER_FIELDS.some((f) => keep.has(f))) takeOwners(merged, other);
  // Rows of one parcel naming different units (a co-op's apartments) are sales within the building: the parcel has no unit.
  // The same written line is the same unit: parsed only when the two are written differently.
  const [a, b] = [streetWithUnit(older), streetWithUnit(newer)];
  if (a !== b && parseStreetLine(a).unitKey !== parseStreetLine(b).unitKey) merged.line2 = '';
  merged.lastModified = [older.lastModified, newer.lastModified].sort()[1]!;
  merged.vacant = vacantAsTyped(merged);
  return merged;
}

/**
 * A parcel of a newer file over its stored state. The file's sales replace the stored sales of the same event
 * (overStoredSales); stored sales the file does not have stay. A field the file's mapping gives (`spoken.mapped`) and
 * the file leaves empty is cleared, when the file gives the record (its latest sale is not older than the stored
 * one); a field it only fills (`spoken.fillOnly`) keeps a stored value and takes the file's where there is none; a
 * field it does not map keeps the stored value.
 */
// Keep in step with reimportsToItself: a sale of the file replaces the stored sale of its key, else of its event
// (overStoredSales: a stored sale of its day naming a deed where the file's names none, or the reverse, is taken too).
export function reimportParcel(stored: PropertyInput, file: PropertyInput, spoken: SpokenFor): PropertyInput {
  const { others, sales } = overStoredSales(stored.sales, file.sales, spoken.mapped);
  // A file that reads no sales (a roll) tells the parcel as it is now, whatever sales the store holds.
  return mergeParcel({ ...stored, sales: others }, { ...file, sales }, spoken, !spoken.mapped.has('sales'));
}

/**
 * Known without making it: a parcel's re-import over itself (`reimportParcel(p, p, spoken)`, any `spoken`) has the
 * parcel's content. True when no two of its sales are of one event (saleEvent), no sale naming no deed shares its
 * day, price and type (looseKey) with another, and they are in saleOrder: reimportParcel then replaces each sale by
 * itself (each finds itself by its key: AcrossDeeds is not reached) and keeps no stored sale beside them (every one's
 * event is the file's); mergeParcel takes the file's side as its base (the kept side has no sale, so none later),
 * unionSales keeps every sale in its place (no key twice, none naming no deed beside one naming one, and ties in
 * saleOrder keep their places, so sales in saleOrder, ties included, stay as they are: SalesUnion), a field left
 * empty is filled from the same parcel (empty too: mergeFields), and a field the file only fills, line2 and
 * lastModified are the parcel's own on both sides.
 * This depends on overStoredSales, mergeParcel (mergeFields) and SalesUnion as they are: each says so where it
 * decides, and the property test
 * (reimport-itself.property.test.ts) makes the merge for every parcel it says true of. A first load asks this of
 * every parcel it adds (import-work.ts settled): making the merge to compare was a third of the mentions stage
 * (bench:import-stages). False means only "not known": the merge is made.
 */
export function reimportsToItself(p: PropertyInput): boolean {
  const sales = p.sales;
  if (sales.length <= 1) return true;
  const events = new Set<string>();
  // A sale naming no deed beside one of its day, price and type naming one: unionSales would drop it.
  const loose = new Set<string>();
  const looseBare = new Set<string>();
  for (let i = 0; i < sales.length; i++) {
    const s = sales[i]!;
    if (i > 0 && saleOrder(sales[i - 1]!, s) > 0) return false;
    const deed = deedKey(s.documentNumber);
    const event = saleEvent(s, deed);
    const l = looseKey(s);
    const bare = deed === '';
    // One key twice is one event twice (a key holds its event's parts).
    if (events.has(event) || (bare ? loose.has(l) : looseBare.has(l))) return false;
    events.add(event);
    loose.add(l);
    if (bare) looseBare.add(l);
  }
  return true;
}

/** The fields a joined file may give a parcel, when its mapping reads them. */
const JOINABLE = FILLABLE.filter((f) => f !== 'taxParcelId');

/**
 * A joined file's row (`file`: what it says, see toContribution) over the parcel another file made (`stored`): the
 * fields its mapping gives (`spoken.mapped`) are its own (an empty cell clears one, as a newer file does), those it
 * only fills (`spoken.fillOnly`) it gives where the parcel has none, its sales replace the stored sales of the same
 * event and add the others; everything else stays as stored. `continued`: rows of one parcel in the same file (in
 * this batch or an earlier one): they fill what the earlier rows lacked, and add their sales.
 */
export function joinParcel(
  stored: PropertyInput,
  file: PropertyInput,
  spoken: SpokenFor,
  continued = false,
): PropertyInput {
  const out = joinFields(stored, file, spoken, continued);
  // Rows of one file: their sales are the union (one day's sales at two prices are two sales).
  if (continued) out.sales = unionSales(stored.sales, file.sales);
  else if (file.sales.length > 0) {
    const { others, sales } = overStoredSales(stored.sales, file.sales, spoken.mapped);
    out.sales = unionSales(others, sales);
  }
  return out;
}

/** joinParcel but for the sales (the stored ones, as they were). */
function joinFields(stored: PropertyInput, file: PropertyInput, spoken: SpokenFor, continued: boolean): PropertyInput {
  const { mapped, fillOnly } = spoken;
  const out: PropertyInput = { ...stored };
  const fields = out as unknown as Record<string, unknown>;
  const given = file as unknown as Record<string, unknown>;
  // Rows of one file fill each other's empty cells, the first row's value kept: where the file's batches split a
  // parcel's rows then changes nothing (several address points of one parcel). A field the file only fills is
  // filled the same way, whatever gave the stored value.
  for (const f of JOINABLE) {
    const fills = mapped.has(f) ? !continued || isEmpty(out, f) : fillOnly.has(f as FillOnlyField) && isEmpty(out, f);
    if (fills) fields[f] = given[f];
  }
  if (mapped.has('mortgages') && (!continued || out.mortgages.length === 0)) out.mortgages = file.mortgages;
  // The bathrooms together (BATHS), and the owners (noOwners): a later row gives them only when the earlier ones
  // gave none.
  if (!continued || noBaths(out)) for (const f of BATHS) if (mapped.has(f)) out[f] = file[f];
  if ((!continued || noOwners(out)) && OWNER_FIELDS.some((f) => mapped.has(f))) takeOwners(out, file);
  out.vacant = vacantAsTyped(out);
  return out;
}

/**
 * A parcel's rows of one file (one at least), in the file's order, merged: what merging each into the ones before
 * makes (`rows.reduce((a, r) => mergeParcel(a, r, spoken))`, or joinParcel's with `continued` for a joined file), in
 * time that grows with the rows' sales, not with their square (a sales file's parcel of thousands of rows): the
 * fields row by row as those do (mergeFields, joinFields: they read no sales), the sales kept keyed between rows
 * (SalesUnion) and sorted once. merge-rows.property.test.ts checks the two alike.
 */
// Keep in step with mergeParcel and joinParcel: which side is the base (olderIsBase), which list goes first.
export function mergeRows(rows: readonly PropertyInput[], spoken: SpokenFor, joined: boolean): PropertyInput {
  let merged = rows[0]!;
  if (rows.length === 1) return merged;
  const union = new SalesUnion(merged.sales);
  if (joined) {
    for (let i = 1; i < rows.length; i++) {
      merged = joinFields(merged, rows[i]!, spoken, true);
      union.append(rows[i]!.sales);
    }
    return { ...merged, sales: union.sales() };
  }
  // The merged rows' newest sale, as latestSale of the fold's parcel: the union keeps every date (a sale it drops
  // shares its day with one it keeps).
  let latest = latestSale(merged);
  for (let i = 1; i < rows.length; i++) {
    const row = rows[i]!;
    const rowLatest = latestSale(row);
    const olderBase = olderIsBase(latest, rowLatest, false);
    merged = mergeFields(merged, row, olderBase, spoken);
    if (olderBase) union.append(row.sales);
    else union.prepend(row.sales);
    if (rowLatest > latest) latest = rowLatest;
  }
  return { ...merged, sales: union.sales() };
}

/**
 * Two JSON values alike, whatever their keys' order; members holding undefined count as absent. A value read back
 * from the import state so compares equal to the one written (rows stored as jsonb before migration 0015 keep
 * jsonb's key order).
 */
export function sameJson(a: unknown, b: unknown, skip?: string): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') {
    return JSON.stringify(a) === JSON.stringify(b);
  }
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const other = b as unknown[];
    if (a.length !== other.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameJson(a[i], other[i])) return false;
    return true;
  }
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  let members = 0;
  for (const k in x) {
    if (k === skip || x[k] === undefined) continue;
    members++;
    if (!sameJson(x[k], y[k])) return false;
  }
  for (const k in y) if (k !== skip && y[k] !== undefined) members--;
  return members === 0;
}

/** What a property is, apart from when it was written: the same content means a re-import changes nothing. */
export function sameContent(a: PropertyInput, b: PropertyInput): boolean {
  return sameJson(a, b, 'lastModified');
}

/**
 * Bumped when the merge rules change: a file digest kept under other rules no longer says "unchanged". 2: the digest
 * is of the parcel's state text (encodeState), which the import writes anyway, not of a JSON text of its own. 3: a
 * sale's event is its date and type, a stored sale's made-up deed is read as none (upgradeStoredSales), and vacancy
 * follows the type: every parcel's state is read once more, so none keeps what the earlier rules stored. 4: a sale
 * names its deed (`documentNumber`, in its key and event), and a stored sale without one takes the file's
 * (AcrossDeeds): every parcel's state is read once more, so that its history gains the deeds its files name. 5: a
 * record keeps four owners, merged as one group (noOwners; owner2 was filled alone from another row): every parcel's
 * state is read once more, so that a roll's third and fourth owners are added.
 */
const FILE_DIGEST_VERSION = 5;

/**
 * What a file digest is taken under: its version and what the mapping speaks for (see stateDigest). The fields a
 * mapping only fills are named apart, and add nothing when there are none: the digests stored for a mapping without
 * `fillOnly` stay valid.
 */
export function digestBasis({ mapped, fillOnly }: SpokenFor): string {
  const filled = fillOnly.size === 0 ? '' : `fills ${[...fillOnly].sort().join(',')}|`;
  return `${FILE_DIGEST_VERSION}|${[...mapped].sort().join(',')}|${filled}`;
}

/**
 * What one file said about a parcel (`state`: its state text, encodeState), under what its mapping speaks for
 * (`basis`, digestBasis): stored with the state it produced (when a re-import of that same parcel over that state is
 * known to change nothing), so that a re-import of an unchanged file tells its parcels unchanged without reading the
 * stored state. Not canonical: the property comes from toProperty (fixed key order); a mismatch only sends the parcel
 * the long way (merge and compare).
 */
export function stateDigest(basis: string, state: string): string {
  return hash('sha1', basis + state, 'base64url');
}

/** A file digest's length: SHA-1's 20 bytes in base64url, unpadded. */
export const FILE_DIGEST_CHARS = stateDigest('', '').length;

/** Top-level fields a stored state leaves out when they hold their default (most imported parcels lack most). */
export const STATE_DEFAULTS: Readonly<Partial<Record<keyof PropertyInput, unknown>>> = {
  taxParcelId: null,
  line2: '',
  zip4: '',
  latitude: null,
  longitude: null,
  censusTract: null,
  yearBuilt: null,
  lotSqft: null,
  lotAcres: null,
  subdivision: null,
  pool: null,
  vacant: false,
  buildingSqft: null,
  beds: null,
  bathsTotal: null,
  bathsPartial: null,
  owner1: null,
  owner2: null,
  owner3: null,
  owner4: null,
  mailing: null,
  assessment: null,
  assessmentHistory: [],
  sales: [],
  mortgages: [],
};
const isDefault = (v: unknown, d: unknown) => v === d || (Array.isArray(v) && Array.isArray(d) && v.length === 0);
const DEFAULTED = Object.keys(STATE_DEFAULTS) as (keyof PropertyInput)[];

/**
 * The import state's `input` as stored: the property without its default-valued fields and without lastModified
 * (a merge over the stored state sets it anew). About half the size of the whole property as JSON text.
 */
export function encodeState(p: PropertyInput): string {
  // A copy of the property's own shape, the left-out fields set to undefined (which JSON.stringify skips): the text
  // is the one a new object of the kept fields gives, at about half the cost (no object built up field by field, no
  // entries array: measured on Philadelphia's parcels, 4 against 7 us).
  const out: Record<string, unknown> = { ...p };
  out.lastModified = undefined;
  for (const k of DEFAULTED) if (isDefault(out[k], STATE_DEFAULTS[k])) out[k] = undefined;
  return JSON.stringify(out);
}

/**
 * A stored state's text (slim, or a whole property as stored before migration 0007) as the property it is: the
 * reverse of encodeState.
 */
export function decodeState(stored: string): PropertyInput {
  const p: Record<string, unknown> = {};
  for (const [k, d] of Object.entries(STATE_DEFAULTS)) p[k] = Array.isArray(d) ? [] : d;
  return { ...p, lastModified: '', ...(JSON.parse(stored) as Record<string, unknown>) } as unknown as PropertyInput;
}

/**
 * A sale an import stored before a sale could name no deed: every one said `DEED`, recorded on its sale date, which
 * no file gave (no mapping could map either). Read as what the file said: neither.
 */
const madeUpDeed = (s: SaleInput) => s.documentType === 'DEED' && s.recordingDate === s.date;

/** A sale stored before sales named their deed (issue 36's thirty-sixth pass): its state has no `documentNumber`. */
const keptWithoutDeed = (s: SaleInput) => s.documentNumber === undefined;

/**
 * A stored state's sales as the file gave them (madeUpDeed), each with a `documentNumber` (null where the state was
 * stored before sales had one: the only place a sale's is undefined), in place; true when it changed one: the parcel
 * is then rewritten, with its record, though the merge over it may change nothing else (no change event for this
 * alone: nothing the file says changed). The deeds a file names come from the merge that follows (AcrossDeeds), with
 * the `sale` change event of a history that changed. Runs only where a stored state is read (a re-import's parcel
 * whose file digest differs); it can go once every store has re-imported its files since (issue 36's thirty-sixth
 * pass), or a migration rewrites the states.
 */
export function upgradeStoredSales(p: PropertyInput): boolean {
  if (!p.sales.some((s) => madeUpDeed(s) || keptWithoutDeed(s))) return false;
  p.sales = p.sales.map((s) => {
    const named = keptWithoutDeed(s) ? { ...s, documentNumber: null } : s;
    return madeUpDeed(named) ? { ...named, documentType: null, recordingDate: null } : named;
  });
  return true;
}
