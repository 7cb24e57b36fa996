// The entity type an owner's words give, or none for a person: the parser's second step (owner-names.ts), run on
// every cell and part of a roll's every row, so its sets of types are bit sets.
import {
  AMP,
  COMPANY_SUFFIXES,
  ENTITY_PHRASES,
  ENTITY_PHRASES_ALSO_GIVEN,
  type EntityType,
  ENTITY_WORDS_ALSO_GIVEN,
  SUFFIXES,
  TRUSTEE_MARKERS,
  TYPE_PRECEDENCE,
  WEAK_WORDS,
  WEAK_WORDS_ALSO_GIVEN,
  VIETNAMESE_MIDDLE_NAMES,
  VIETNAMESE_SURNAMES,
  WORD_TYPE,
} from './owner-words.js';
import { isInitial, type NameOrder, type Tok } from './owner-tokens.js';

const HAS_DIGIT = /\d/;
/** First words of ENTITY_PHRASES: only after one of them is a two-word key built. */
const PHRASE_FIRST = new Set(Object.keys(ENTITY_PHRASES).map((p) => p.slice(0, p.indexOf('-'))));

/**
 * Whether word i stands where a surname does, in its `&`-part: first in LAST FIRST, last in FIRST LAST, just before
 * the comma in LAST, FIRST (or last in a FIRST LAST part after it). A weak entity word (CHURCH, TEMPLE...) there is read as the surname it also is.
 */
function surnamePosition(ts: readonly Tok[], i: number, order: NameOrder, commaStyle: boolean): boolean {
  const prev = ts[i - 1];
  const next = ts[i + 1];
  // With commas, a part after `&` without one is FIRST LAST (`SMITH, JACOB & JACOB CHURCH`); a word alone after the
  // comma is a first name's place (`VELIKY, LC` is a company).
  if (commaStyle) return next?.key === ',' || ((next === undefined || AMP.has(next.key)) && prev?.key !== ',');
  if (order === 'last-first') return prev === undefined || AMP.has(prev.key);
  return next === undefined || AMP.has(next.key);
}

/**
 * Word i stands where a given name does: just after a comma; second in a LAST FIRST name of three words or more;
 * after the middle name of a Vietnamese name (vietnameseGivenNames), with commas too (`NGUYEN, THI HOA`, `NGUYEN, AN
 * & NGUYEN THI HOA`); first in a FIRST LAST name (or its `&`-part) of two or more.
 */
function givenNamePlace(ts: readonly Tok[], i: number, order: NameOrder, commaStyle: boolean, words: number): boolean {
  if (commaStyle) return ts[i - 1]?.key === ',' || vietnameseGivenNames(ts, i);
  if (order === 'last-first') return (i === 1 && words >= 3) || vietnameseGivenNames(ts, i);
  const prev = ts[i - 1];
  return (prev === undefined || AMP.has(prev.key)) && words >= 2;
}

/**
 * Word i is a given name of a LAST FIRST Vietnamese name, its part of the cell (between `&`s) a Vietnamese surname,
 * THI or VAN (a comma between them or not), then given names (`KIM THI THANH HOA`, `NGUYEN VAN HOA & TRAN THI HOA`,
 * `NGUYEN, THI HOA`): not `LAKE VAN NESS HOA` nor `PARK VAN HOA`, whose first words are no Vietnamese surname.
 */
function vietnameseGivenNames(ts: readonly Tok[], i: number): boolean {
  let start = i;
  while (start > 0 && !AMP.has(ts[start - 1]!.key)) start--;
  const middle = ts[start + 1]?.key === ',' ? start + 2 : start + 1;
  return i > middle && VIETNAMESE_SURNAMES.has(ts[start]!.key) && VIETNAMESE_MIDDLE_NAMES.has(ts[middle]?.key ?? '');
}

/**
 * Words i and i + 1 are a woman's given names in a person's `LAST, FIRST` cell: the cell's last words (trustee words
 * after them aside), after `&` in a cell that opens with `LAST, FIRST`, or just after the surname's comma; no trustee
 * word nor an entity word (a weak one, a surname too, aside) before them. `VINCI, UMBERTO V & FANNIE MAE` (TTEES) is
 * FANNIE MAE VINCI, `JONES, FANNIE MAE` FANNIE MAE JONES; not `SMITH JOHN TR, FANNIE MAE`, `ACME LLC, & FANNIE MAE`,
 * `SMITH JOHN & FANNIE MAE` (no comma, the bank as co-owner) nor `FANNIE MAE`.
 */
function givenPhrasePlace(ts: readonly Tok[], i: number): boolean {
  for (let j = i + 2; j < ts.length; j++) if (ts[j]!.key !== ',' && !TRUSTEE_MARKERS.has(ts[j]!.key)) return false;
  const prev = ts[i - 1]?.key;
  if (prev === undefined || (prev !== ',' && !AMP.has(prev))) return false;
  const before = ts.slice(0, i - 1);
  const personal = (t: Tok) =>
    !AMP.has(t.key) && !TRUSTEE_MARKERS.has(t.key) && !(WORD_TYPE.has(t.key) && !WEAK_WORDS.has(t.key));
  return prev === ','
    ? before.length > 0 && before.length <= 2 && before.every((t) => t.key !== ',' && personal(t))
    : before.some((t) => t.key === ',') && before.every(personal);
}

/** `JOHN A CHURCH`: the last word after an initial is FIRST M LAST's surname. */
function initialBefore(ts: readonly Tok[], i: number): boolean {
  const prev = ts[i - 1];
  return i === ts.length - 1 && prev !== undefined && isInitial(prev);
}

/** Each entity type as a bit, in TYPE_PRECEDENCE's order: a set of types is a number, its first type its lowest bit. */
const TYPE_BIT = new Map(TYPE_PRECEDENCE.map((t, i) => [t, 1 << i]));
// A word's or phrase's type that TYPE_PRECEDENCE does not list would have no bit, and type nothing: refused at once.
for (const t of [...WORD_TYPE.values(), ...Object.values(ENTITY_PHRASES)])
  if (!TYPE_BIT.has(t)) throw new Error(`entity type ${t} is not in TYPE_PRECEDENCE`);
const bitOf = (t: EntityType) => TYPE_BIT.get(t)!;
/** The type of a set's lowest bit: the set's first type by precedence; null for none. */
const firstType = (set: number): EntityType | null =>
  set === 0 ? null : TYPE_PRECEDENCE[31 - Math.clz32(set & -set)]!;
/**
 * Types a company's legal form at the end of the name does not override: `NATIONSTAR MORTGAGE LLC` is Financial, a
 * city's or a church's corporation keeps its kind; any other name ending in LLC, INC... is a Corporation.
 */
const OUTRANKS_COMPANY_SUFFIX = bitOf('Government') | bitOf('Religious') | bitOf('Financial');

/**
 * The entity type a name's words give, or null for a person. Called for every owner cell and part (a roll's every
 * row): the sets of types found are bit sets, and a person's name allocates nothing but the key of a phrase's first
 * word (FAMILY, LIVING...) and the next.
 */
export function entityType(ts: readonly Tok[], order: NameOrder): EntityType | null {
  let words = 0;
  let lastWord = '';
  let commaStyle = false;
  for (const t of ts) {
    if (t.key === ',') commaStyle = true;
    else {
      words++;
      lastWord = t.key;
    }
  }
  if (words === 0) return null;
  let found = 0;
  // Weak words (also surnames) type a name only when no other entity word does: `JACOB CHURCH REVOCABLE TRUST`.
  let weak = 0;
  let weakAnywhere = 0;
  let structural = false;
  let bareEstate = false;
  for (let i = 0; i < ts.length; i++) {
    const k = ts[i]!.key;
    if (k === ',') continue;
    const next = ts[i + 1]?.key;
    // A phrase's words may have a comma between them (`RECTOR, & VISITORS OF U VA`).
    const second = next === ',' ? ts[i + 2]?.key : next;
    const key = second && PHRASE_FIRST.has(k) ? `${k}-${second}` : undefined;
    const phrase =
      key && !(ENTITY_PHRASES_ALSO_GIVEN.has(key) && givenPhrasePlace(ts, i)) ? ENTITY_PHRASES[key] : undefined;
    if (phrase) found |= bitOf(phrase);
    if (k === 'ESTATE' && next !== 'OF') bareEstate = ts[i - 1]?.key !== 'REAL';
    const t =
      ENTITY_WORDS_ALSO_GIVEN.has(k) && givenNamePlace(ts, i, order, commaStyle, words) ? undefined : WORD_TYPE.get(k);
    if (t && !WEAK_WORDS.has(k)) found |= bitOf(t);
    else if (t && words >= 2) {
      const slot = surnamePosition(ts, i, order, commaStyle) || initialBefore(ts, i);
      if (!slot && (words >= 3 || !WEAK_WORDS_ALSO_GIVEN.has(k))) weak |= bitOf(t);
      // `CHURCH OF GOD IN CHRIST`: in a name no person has (an inner OF, a number), a surname's place is no person's.
      else weakAnywhere |= bitOf(t);
    }
    // A number makes a name a firm's; a suffix's (`GABL 3RD`) does not.
    if (HAS_DIGIT.test(k) && !SUFFIXES.has(k)) structural = true;
    else if (k.length > 1 && k.includes('&')) structural = true;
    else if ((k === 'OF' || k === 'FOR' || k === 'THE') && i > 0 && i < ts.length - 1) structural = true;
    // `D & D GIFTEDHANDS`, `R & J ...`: initials joined at the start of a name without a comma are a firm's.
    else if (i === 0 && !commaStyle && isInitial(ts[0]!) && ts[1]?.key === '&') structural = true;
  }
  if (COMPANY_SUFFIXES.has(lastWord) && (found & OUTRANKS_COMPANY_SUFFIX) === 0) return 'Corporation';
  if (found !== 0) return firstType(found);
  if (bareEstate) return 'Estate';
  if (weak !== 0) return firstType(weak);
  if (!structural) return null;
  if (weakAnywhere !== 0) return firstType(weakAnywhere);
  // `CARTER RICHARD ETAL TR 1510 DAIRY RD LD TR`: a numbered name held by a trustee is a land trust.
  return ts.some((t) => TRUSTEE_MARKERS.has(t.key)) ? 'Trust' : 'Corporation';
}
