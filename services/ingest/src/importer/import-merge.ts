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
import type { PropertyInput, SaleInput } from '../domain/property-input.js';
import { parsedStreetLine, streetWithUnit } from '../domain/street-lines.js';
import type { FieldRule, FILL_ONLY_TARGETS, PROPERTY_TARGETS } from './mapping.js';
import { isFillOnly } from './mapping-rules.js';

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

/**
 * A deed's reference as one key (`4119/0683` and `4119/683`, `793:231` and `793/231` are one): its numbers without
 * leading zeros and its words upper-cased, '' for none (a stored state written before sales kept one has none).
 */
export function deedKey(ref: string | null | undefined): string {
  if (ref == null || ref === '') return '';
  const known = deedKeys.get(ref);
  if (known !== undefined) return known;
  const key = readDeedKey(ref);
  if (ref.length <= DEED_KEY_CHARS) {
    if (deedKeys.size >= DEED_KEYS_KEPT) deedKeys.clear();
    deedKeys.set(ref, key);
  }
  return key;
}

/**
 * The keys of the references read lately, by reference: a sort of a parcel's sales compares their deeds many times
 * (saleOrder), and a merge, a re-import and reimportsToItself key each sale. Bounded: emptied when full; a reference
 * longer than any book and page is read each time.
 */
const deedKeys = new Map<string, string>();
const DEED_KEYS_KEPT = 10_000;
const DEED_KEY_CHARS = 40;

function readDeedKey(ref: string): string {
  // One pass over the characters, no pattern (a first load asks this of every sale: reimportsToItself).
  let key = '';
  let start = -1;
  let digits = false;
  for (let i = 0; i <= ref.length; i++) {
    const c = i < ref.length ? ref.charCodeAt(i) : 32;
    const digit = c >= 48 && c <= 57;
    const word = digit || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
    if (start >= 0 && (!word || digit !== digits)) {
      let from = start;
      // Leading zeros dropped, the number's last digit kept.
      if (digits) while (from < i - 1 && ref.charCodeAt(from) === 48) from++;
      const part = ref.slice(from, i);
      key += (key === '' ? '' : '/') + (digits ? part : part.toUpperCase());
      start = -1;
    }
    if (word && start < 0) {
      start = i;
      digits = digit;
    }
  }
  return key;
}

// A sale's keys, each written once (`deed`: its deedKey, when the caller has it).
/** The day's sales a sale naming no deed may be: a file without references tells the sale another file names. */
const saleDay = (s: SaleInput) => `${s.date}|${s.documentType}`;
/** A sale but for its deed: a sale naming none is the one of its day, price and type that names one (unionSales). */
const looseKey = (s: SaleInput) => `${s.date}|${s.price}|${s.documentType}`;
/** The sale: two deeds of one day at one price are two sales when both name their deed and the two differ. */
const saleKey = (s: SaleInput, deed = deedKey(s.documentNumber)) => `${looseKey(s)}|${deed}`;
/**
 * The event a sale is, whatever its price and recording date: a newer file's sale of the same event corrects the
 * stored one (a price, a recording date a file gives that an earlier one did not). A deed's book and page is part of
 * it: a file that writes another book and page for a sale adds a sale (a deed is not corrected, two deeds of a day
 * are two sales), unless one side names none (acrossDeeds).
 */
const saleEvent = (s: SaleInput, deed = deedKey(s.documentNumber)) => `${saleDay(s)}|${deed}`;
const namesDeed = (s: SaleInput) => deedKey(s.documentNumber) !== '';
/** The date of the parcel's newest sale ('' when none). */
function latestSale(p: PropertyInput): string {
  let latest = '';
  for (const s of p.sales) if (s.date > latest) latest = s.date;
  return latest;
}

/**
 * Two deeds' keys (deedKey) in book-and-page order: part by part, a number by its value (no leading zeros: the longer
 * is the greater), words as text; a key that is the other's start comes first.
 */
function deedOrder(a: string, b: string): number {
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const ie = partEnd(a, i);
    const je = partEnd(b, j);
    const numbers = isDigit(a.charCodeAt(i)) && isDigit(b.charCodeAt(j));
    if (numbers && ie - i !== je - j) return ie - i - (je - j);
    const [x, y] = [a.slice(i, ie), b.slice(j, je)];
    if (x !== y) return x < y ? -1 : 1;
    i = ie + 1;
    j = je + 1;
  }
  return i >= a.length ? (j >= b.length ? 0 : -1) : 1;
}
const isDigit = (c: number) => c >= 48 && c <= 57;
/** Where a key's part that starts at `from` ends: its next `/`, or the key's end. */
const partEnd = (key: string, from: number) => {
  const end = key.indexOf('/', from);
  return end < 0 ? key.length : end;
};

/**
 * The order of a parcel's sales: newest first, then the dearer first, then the later deed first (its book and page:
 * a day's deeds named apart keep one order whatever the order of the file's rows). Rows' sales are made in it
 * (import-row.ts salesOf), so that a merge keeps them as they are (reimportsToItself). Dates compare as text
 * (YYYY-MM-DD: as their days), as latestSale reads them.
 */
export const saleOrder = (x: SaleInput, y: SaleInput) =>
  (x.date === y.date ? 0 : x.date < y.date ? 1 : -1) ||
  (y.price ?? 0) - (x.price ?? 0) ||
  (x.documentNumber === y.documentNumber ? 0 : deedOrder(deedKey(y.documentNumber), deedKey(x.documentNumber)));

/** unionSales(a, b): the sales of both lists, each key once (the later list's sale), in saleOrder (SalesUnion). */
function unionSales(a: readonly SaleInput[], b: readonly SaleInput[]): SaleInput[] {
  const union = new SalesUnion(a);
  union.append(b);
  return union.sales();
}

/**
 * The union of sales lists, made one list at a time and kept keyed until asked (`sales()`), so that a parcel's rows
 * of one file (mergeRows) are keyed once and sorted once, not again at each row. `append(list)` then `sales()` is
 * unionSales(union, list); `prepend(list)` then `sales()` is unionSales(list, union); a chain of them is the chain of
 * unionSales (merge-rows.property.test.ts checks it against the row-by-row merge).
 * Keep in step with reimportsToItself (and its test, reimport-itself.property.test.ts): which sales a union keeps, and
 * in what order:
 * - by key (saleKey), one sale: the later list's (of one list, its later), in the place of the key's first showing;
 * - a sale naming no deed is dropped where one naming one shares its day, price and type (looseKey): the same sale,
 *   as a file without references tells it. No sale naming a deed is ever dropped, so dropping them at the end (in
 *   `sales()`) drops those a drop at each union would;
 * - in saleOrder, sales that tie in their places: a sale's key holds all saleOrder reads of it, so sorting once at the
 *   end orders them as a sort at each union would, the places breaking the ties as its stability did.
 */
class SalesUnion {
  private readonly byKey = new Map<string, { sale: SaleInput; place: number }>();
  /** The places taken so far: a list appended takes places after the last, one prepended before the first. */
  private first = 0;
  private last = -1;

  constructor(sales: readonly SaleInput[]) {
    this.append(sales);
  }

  /** The list after the union: its sale of a key the union holds takes that sale's place. */
  append(sales: readonly SaleInput[]): void {
    for (const s of sales) {
      const key = saleKey(s);
      const had = this.byKey.get(key);
      if (had) had.sale = s;
      else this.byKey.set(key, { sale: s, place: ++this.last });
    }
  }

  /**
   * The list before the union: each of its keys in its place (its first showing), before the union's; of a key both
   * hold, the union's sale stays (the later list's), and of a key the list holds twice, the list's later sale.
   */
  prepend(sales: readonly SaleInput[]): void {
    for (let i = sales.length - 1; i >= 0; i--) {
      const s = sales[i]!;
      const key = saleKey(s);
      const had = this.byKey.get(key);
      if (had) had.place = --this.first;
      else this.byKey.set(key, { sale: s, place: --this.first });
    }
  }

  sales(): SaleInput[] {
    let kept = [...this.byKey.values()];
    let named = false;
    let bare = false;
    for (const { sale } of kept) {
      if (namesDeed(sale)) named = true;
      else bare = true;
    }
    if (named && bare) {
      const withDeed = new Set(kept.filter((k) => namesDeed(k.sale)).map((k) => looseKey(k.sale)));
      kept = kept.filter((k) => namesDeed(k.sale) || !withDeed.has(looseKey(k.sale)));
    }
    return kept.sort((x, y) => saleOrder(x.sale, y.sale) || x.place - y.place).map((k) => k.sale);
  }
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
  'owner1',
  'owner2',
  'mailing',
  'assessment',
] as const;

/** The fields a file may leave empty: filled from the other rows of the parcel, or cleared on a re-import. */
export type OptionalField = FillableField | 'mortgages' | BathField;
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
  ownerName: ['owner1', 'owner2'],
  owner2Name: ['owner1', 'owner2'],
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
  // Rows of one parcel naming different units (a co-op's apartments) are sales within the building: the parcel has no unit.
  // The same written line is the same unit: parsed only when the two are written differently.
  const [a, b] = [streetWithUnit(older), streetWithUnit(newer)];
  if (a !== b && parseStreetLine(a).unitKey !== parseStreetLine(b).unitKey) merged.line2 = '';
  merged.lastModified = [older.lastModified, newer.lastModified].sort()[1]!;
  merged.vacant = vacantAsTyped(merged);
  return merged;
}

/**
 * A file's sales (newest first) over the stored ones: each replaces the stored sale of its event (saleEvent), so a
 * corrected price replaces the sale instead of adding one, and keeps what it does not say of it (`sales`); `others`
 * are the stored sales no file sale replaces. A file says a sale's price when its mapping reads prices; its buyers,
 * seller and recording date only of the sale its last-sale columns made (import-row.ts salesOf gives them to no
 * other: the one naming any of them, else its newest): the earlier sales a roll lists in columns name none of them,
 * so what was stored when such a sale was the roll's last stays, even when a prior-sale column is newer than the
 * last-sale one (five of Lebanon's rows).
 */
function overStoredSales(
  stored: readonly SaleInput[],
  file: readonly SaleInput[],
  mapped: ReadonlySet<MappedField>,
): { others: SaleInput[]; sales: SaleInput[] } {
  const events = new Set(file.map((s) => saleEvent(s)));
  const own = Math.max(
    0,
    file.findIndex((s) => s.buyerName !== null || s.sellerName !== null || s.recordingDate !== null),
  );
  // The stored sales by key and by event (the first of each), and across deeds (AcrossDeeds): each file sale's
  // look-ups are then of its own, not of every stored sale (a parcel of thousands of sales, a file of its rows).
  const byKey = new Map<string, SaleInput>();
  const byEvent = new Map<string, SaleInput>();
  for (const o of stored) {
    const deed = deedKey(o.documentNumber);
    const [key, event] = [saleKey(o, deed), saleEvent(o, deed)];
    if (!byKey.has(key)) byKey.set(key, o);
    if (!byEvent.has(event)) byEvent.set(event, o);
  }
  const across = new AcrossDeeds(stored);
  const sales = file.map((s, i) => {
    // The stored sale it is: the same sale (its key) when there is one, else one naming the deed where only one side
    // does, at its price; else the event's first (a corrected price); else one across deeds at any price.
    // Two sales of one day at two prices are two stored sales, each with its own parties (a deed a row writes twice,
    // with its price in one column only, is one sale already: import-row.ts salesOf).
    // A deed named on one side only, at the sale's price, before the event at another price: else a stored sale
    // naming a deed at the file's price would stay beside the file's (unionSales keeps the one naming the deed), and
    // the next import of the same file would take it (reimport-itself.property.test.ts, "the same file twice").
    const deed = deedKey(s.documentNumber);
    const [key, event] = [saleKey(s, deed), saleEvent(s, deed)];
    const was = byKey.get(key) ?? across.take(s, true) ?? byEvent.get(event) ?? across.take(s, false);
    if (!was) return s;
    const says = (f: MappedField) => mapped.has(f) && (i === own || f === 'salePrice' || f === 'saleDocumentNumber');
    return {
      ...s,
      price: says('salePrice') ? s.price : (s.price ?? was.price),
      buyerName: says('owner1') ? s.buyerName : (s.buyerName ?? was.buyerName),
      sellerName: says('saleSeller') ? s.sellerName : (s.sellerName ?? was.sellerName),
      recordingDate: says('saleRecordingDate') ? s.recordingDate : (s.recordingDate ?? was.recordingDate),
      documentNumber: says('saleDocumentNumber') ? s.documentNumber : (s.documentNumber ?? was.documentNumber),
    };
  });
  // A file's sale naming no deed (its book and page empty, or none stored to keep) speaks for its day at its price:
  // a stored sale there naming a deed goes, or unionSales would keep it in place of the file's.
  const bare = new Set(sales.filter((s) => !namesDeed(s)).map(looseKey));
  const stays = (o: SaleInput) =>
    !events.has(saleEvent(o)) && !across.taken.has(o) && !(bare.size > 0 && bare.has(looseKey(o)) && namesDeed(o));
  return { others: stored.filter(stays), sales };
}

/**
 * The stored sale a file's sale is when one of the two names its deed and the other does not (a file without book
 * and page over one with; a store whose sales were kept before they named deeds, upgradeStoredSales): the first, in
 * the stored order, of its day on the other side, at its price (`take(s, true)`) or at any (`take(s, false)`); none
 * already taken by another of the file's sales, so that the file's two deeds of one day are two sales. The stored
 * sales are kept in lists by day and side (and price), each read from the first not taken: a sale taken stays taken,
 * so a list's taken head is stepped over once, however many sales of one day a parcel has.
 */
class AcrossDeeds {
  /** Stored sales a file sale took across a deed named on one side only: each is taken once. */
  readonly taken = new Set<SaleInput>();
  private readonly lists = new Map<string, { sales: SaleInput[]; next: number }>();

  constructor(stored: readonly SaleInput[]) {
    for (const o of stored) {
      const side = `${saleDay(o)}|${namesDeed(o)}`;
      for (const key of [side, `${side}|${o.price}`]) {
        const list = this.lists.get(key);
        if (list) list.sales.push(o);
        else this.lists.set(key, { sales: [o], next: 0 });
      }
    }
  }

  take(s: SaleInput, samePrice: boolean): SaleInput | undefined {
    const side = `${saleDay(s)}|${!namesDeed(s)}`;
    const list = this.lists.get(samePrice ? `${side}|${s.price}` : side);
    if (!list) return undefined;
    while (list.next < list.sales.length && this.taken.has(list.sales[list.next]!)) list.next++;
    const was = list.sales[list.next];
    if (was) this.taken.add(was);
    return was;
  }
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
  // The bathrooms together (BATHS): a later row gives them only when the earlier ones gave neither.
  if (!continued || noBaths(out)) for (const f of BATHS) if (mapped.has(f)) out[f] = file[f];
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
 * (acrossDeeds): every parcel's state is read once more, so that its history gains the deeds its files name.
 */
const FILE_DIGEST_VERSION = 4;

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
 * alone: nothing the file says changed). The deeds a file names come from the merge that follows (acrossDeeds), with
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
