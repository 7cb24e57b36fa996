// A parcel's sales as merges see them: a sale's keys (its deed's, its day's, its event's), their order, the union of
// rows' sales (SalesUnion), and a file's sales over the stored ones (overStoredSales). The parcel's other fields merge
// in import-merge.ts.
import type { PropertyInput, SaleInput } from '../domain/property-input.js';
import type { MappedField } from './import-merge.js';

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
export const looseKey = (s: SaleInput) => `${s.date}|${s.price}|${s.documentType}`;
/** The sale: two deeds of one day at one price are two sales when both name their deed and the two differ. */
const saleKey = (s: SaleInput, deed = deedKey(s.documentNumber)) => `${looseKey(s)}|${deed}`;
/**
 * The event a sale is, whatever its price and recording date: a newer file's sale of the same event corrects the
 * stored one (a price, a recording date a file gives that an earlier one did not). A deed's book and page is part of
 * it: a file that writes another book and page for a sale adds a sale (a deed is not corrected, two deeds of a day
 * are two sales), unless one side names none (AcrossDeeds).
 */
export const saleEvent = (s: SaleInput, deed = deedKey(s.documentNumber)) => `${saleDay(s)}|${deed}`;
const namesDeed = (s: SaleInput) => deedKey(s.documentNumber) !== '';
/** The date of the parcel's newest sale ('' when none). */
export function latestSale(p: PropertyInput): string {
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
export function unionSales(a: readonly SaleInput[], b: readonly SaleInput[]): SaleInput[] {
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
export class SalesUnion {
  /** By key, the sale kept, its place, and whether it names a deed (its key says: the same for a sale of the key). */
  private readonly byKey = new Map<string, { sale: SaleInput; place: number; named: boolean }>();
  /** The places taken so far: a list appended takes places after the last, one prepended before the first. */
  private first = 0;
  private last = -1;

  constructor(sales: readonly SaleInput[]) {
    this.append(sales);
  }

  /** The list after the union: its sale of a key the union holds takes that sale's place. */
  append(sales: readonly SaleInput[]): void {
    for (const s of sales) {
      const deed = deedKey(s.documentNumber);
      const key = saleKey(s, deed);
      const had = this.byKey.get(key);
      if (had) had.sale = s;
      else this.byKey.set(key, { sale: s, place: ++this.last, named: deed !== '' });
    }
  }

  /**
   * The list before the union: each of its keys in its place (its first showing), before the union's; of a key both
   * hold, the union's sale stays (the later list's), and of a key the list holds twice, the list's later sale.
   */
  prepend(sales: readonly SaleInput[]): void {
    for (let i = sales.length - 1; i >= 0; i--) {
      const s = sales[i]!;
      const deed = deedKey(s.documentNumber);
      const key = saleKey(s, deed);
      const had = this.byKey.get(key);
      if (had) had.place = --this.first;
      else this.byKey.set(key, { sale: s, place: --this.first, named: deed !== '' });
    }
  }

  sales(): SaleInput[] {
    let kept = [...this.byKey.values()];
    if (kept.some((k) => k.named) && kept.some((k) => !k.named)) {
      const withDeed = new Set(kept.filter((k) => k.named).map((k) => looseKey(k.sale)));
      kept = kept.filter((k) => k.named || !withDeed.has(looseKey(k.sale)));
    }
    return kept.sort((x, y) => saleOrder(x.sale, y.sale) || x.place - y.place).map((k) => k.sale);
  }
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
export function overStoredSales(
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
  /** Made at the first take: most file sales find theirs by key or event, and never come here. */
  private lists: Map<string, { sales: SaleInput[]; next: number }> | undefined;

  constructor(private readonly stored: readonly SaleInput[]) {}

  take(s: SaleInput, samePrice: boolean): SaleInput | undefined {
    this.lists ??= this.listed();
    const side = `${saleDay(s)}|${!namesDeed(s)}`;
    const list = this.lists.get(samePrice ? `${side}|${s.price}` : side);
    if (!list) return undefined;
    while (list.next < list.sales.length && this.taken.has(list.sales[list.next]!)) list.next++;
    const was = list.sales[list.next];
    if (was) this.taken.add(was);
    return was;
  }

  private listed(): Map<string, { sales: SaleInput[]; next: number }> {
    const lists = new Map<string, { sales: SaleInput[]; next: number }>();
    for (const o of this.stored) {
      const side = `${saleDay(o)}|${namesDeed(o)}`;
      for (const key of [side, `${side}|${o.price}`]) {
        const list = lists.get(key);
        if (list) list.sales.push(o);
        else lists.set(key, { sales: [o], next: 0 });
      }
    }
    return lists;
  }
}
