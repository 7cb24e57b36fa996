// Owner names as assessor rolls write them (docs/data.md "Owner names"): one or two cells per row, each holding one
// owner, two owners, or half of one. Pure and linear in the cells' length: no I/O, no backtracking regex.
import { OWNER_TYPES } from '@pra/core/vocabulary';
import { readsFirstLast } from './name-frequencies.js';
import type { OwnerInput } from './property-input.js';
import {
  CARE_OF,
  CLOSING_WORDS,
  CONTACT_QUALIFIERS,
  CONTACT_TITLES,
  COMPANY_SUFFIXES,
  CONNECTORS,
  ENTITY_PHRASES,
  ET_SECOND,
  GIVEN_NAME_WORDS,
  GIVEN_NAMES_TOO,
  LIFE_ESTATE_SECOND,
  NAME_WORD_MARKERS,
  type EntityType,
  SUFFIXES,
  SURNAME_PARTICLES,
  TENANCY_MARKERS,
  TRUSTEE_MARKERS,
  TYPE_PRECEDENCE,
  WEAK_WORDS,
  WORD_TYPE,
} from './owner-words.js';

/**
 * Who an owner is. `Individual` a person; `Trustee` a person named as trustee (`SMITH JOHN TR`: a person, with first
 * and last name, who holds for a trust); the rest are entities, never split into first/last: `Corporation`
 * (LLC, INC, LP, HOLDINGS..., and any name with a digit, a glued `&` or an inner OF), `Trust`, `Government`, `Estate`
 * (ESTATE OF, HEIRS), `Religious`, `Association` (condominium, homeowners, university...), `Financial` (banks,
 * mortgage companies, also as trustees).
 */
export type OwnerType = (typeof OWNER_TYPES)[number];
export { OWNER_TYPES };

// The parser's entity types are the record's owner types less the two person types, no more, no less.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const entityTypesMatch: Same<EntityType, Exclude<OwnerType, 'Individual' | 'Trustee'>> = true;
void entityTypesMatch;

export interface ParsedOwner {
  /** A person's name in reading order (FIRST MIDDLE LAST SUFFIX); an entity's as written. */
  fullName: string;
  firstName: string | null;
  middleName: string | null;
  lastName: string | null;
  suffix: string | null;
  type: OwnerType;
}

export type NameOrder = 'last-first' | 'first-last';

/** A cell is cut to this many characters (at a space): no roll writes an owner that long; the parse stays bounded. */
export const MAX_CELL_CHARS = 200;
/** More cells than this is a caller's error (a row's owner columns are one or two). */
export const MAX_CELLS = 4;

interface Tok {
  /** As written, upper case. */
  text: string;
  /** Without dots and apostrophes, what the word lists are matched on. */
  key: string;
}

const AMP = new Set(['&', 'AND', '/']);
/** Words that qualify a trustee (`SUC TR`, `INITIAL TRUSTEE`): dropped with the trustee word (dropMarkers). */
const TRUSTEE_QUALIFIERS = new Set(['SUC', 'SUCC', 'SUCCESSOR', 'INITIAL']);
/** What an estate's name ends with, before OF (`YOUNG JAMES L ESTATE OF`). */
const ESTATE_WORDS = new Set(['ESTATE', 'EST', 'ESTATES']);
/** Titles before a person's name (`REV HENRY V P WALSH`): no part of it. */
const HONORIFICS = new Set(['REV', 'DR', 'MR', 'MRS', 'MS', 'HON']);
/** "Doing business as": the name after it is the same owner's trade name. */
const TRADE_NAME = new Set(['D/B/A', 'DBA']);
const isInitial = (t: Tok) => t.key.length === 1 && t.key >= 'A' && t.key <= 'Z';
/** First words of ENTITY_PHRASES: only after one of them is a two-word key built. */
const PHRASE_FIRST = new Set(Object.keys(ENTITY_PHRASES).map((p) => p.slice(0, p.indexOf('-'))));
const DROPPED_CHARS = /[()"[\]{};:]/g;
const KEY_CHARS = /[.'’`]/g;
const NEEDS_CLEANING = /[()"[\]{};:.'’`]/;
const HAS_DIGIT = /\d/;
/**
 * An `&` written against a name after a cell's first comma (`DAREK M& KELSEY`, `J& DAVID`): at a word's end or start
 * it joins owners. Inside a word it does too where one side is a name of three letters or more
 * (`LILLIAN,MARGARET&THOMAS`, `LIFE EST&JACQUELINE`, `AUDREY&C WINSTON`, `MARJORIE J&MELINDA J BAUMAN`), unless the
 * cell names a company or a trust (`STEVEN LTD PEN&PRO SHARING`, `TR WOOD&WOOD LD T`, `RJD&P, L.L.C.`): there it is
 * part of a name. Between a letter or two on each side it is a company's name, and stays (`SMITH, AT&T`, `H&S`); so
 * does any `&` before the first comma (`AT&T MOBILITY, ATTN TAX`, `PROCTER&GAMBLE CO`).
 */
const EDGE_AMPERSAND = /(?<=\S)&(?=\s|$)|(?<=\s|^)&(?=\S)/g;
const INNER_AMPERSAND = /(?<=[A-Z'-]{3})&(?=[A-Z'-])|(?<=[A-Z'-])&(?=[A-Z'-]{3})/g;

/** The `&`s after the cell's first comma that join owners, spaced as words (EDGE_AMPERSAND, INNER_AMPERSAND). */
function spaceAmpersands(s: string): string {
  const comma = s.indexOf(',');
  const edges = s.slice(comma).replace(EDGE_AMPERSAND, ' & ');
  // `search` reads no `lastIndex`, as `test` of a /g pattern would.
  const inner = edges.search(INNER_AMPERSAND) >= 0 && !namesEntity(s);
  return s.slice(0, comma) + (inner ? edges.replace(INNER_AMPERSAND, ' & ') : edges);
}

/** Some word of the text is a trustee's or an entity's word (the text before tokens are made). */
const namesEntity = (s: string) =>
  s.split(/[\s,&]+/).some((w) => {
    const key = w.replace(KEY_CHARS, '');
    return TRUSTEE_MARKERS.has(key) || WORD_TYPE.has(key);
  });

/**
 * An owner's share as Lebanon writes it after the name: `(50%)`, `(36.31%)`, `(1/2)`, `CHAS(1/4)`, `1/2 INT`,
 * `(1/54 INT EACH)`, `1/2 INTEREST`. No part of a name (the record keeps no shares); left in, its digits made the
 * owner a company. Only a share is one (sharesOut): a fraction of at most 1, a percentage of at most 100 after a
 * name; `110% FITNESS`, `100% CHRISTIAN FELLOWSHIP`, `FAMILY TRUST (12/05)` keep theirs.
 */
const OWNERSHIP_SHARE =
  /\(\s*(\d+(?:\.\d+)?)\s*(?:%|\/\s*(\d+))(?:\s+INT(?:EREST)?)?(?:\s+EACH)?\s*\)|\b(\d+(?:\.\d+)?)%|\b(\d+)\/(\d+)\s+INT(?:EREST)?(?:\s+EACH)?\b/g;

/** The text without its owners' shares (OWNERSHIP_SHARE). */
function sharesOut(s: string): string {
  return s.replace(
    OWNERSHIP_SHARE,
    (match, pn: string, pd: string, bare: string, fn: string, fd: string, at: number) => {
      const [n, d] =
        pn !== undefined
          ? [Number(pn), pd === undefined ? 100 : Number(pd)]
          : bare !== undefined
            ? [Number(bare), 100]
            : [Number(fn), Number(fd)];
      const afterName = pn !== undefined || fn !== undefined || /[A-Z]/.test(s.slice(0, at));
      return d > 0 && n <= d && afterName ? ' ' : match;
    },
  );
}

function tokens(cell: string | null | undefined): Tok[] {
  if (!cell) return [];
  let s = cell;
  if (s.length > MAX_CELL_CHARS) {
    // Cut before anything else, so the work is bounded by the cut whatever the cell's length.
    const cut = s.lastIndexOf(' ', MAX_CELL_CHARS);
    s = s.slice(0, cut > 0 ? cut : MAX_CELL_CHARS);
  }
  s = s.toUpperCase();
  if (s.includes('%') || (s.includes('/') && HAS_DIGIT.test(s))) s = sharesOut(s);
  if (s.includes('&') && s.includes(',')) s = spaceAmpersands(s);
  // A bracket parts words (`TR(105 EHS LD TR`); it is no part of a name (`LEVEL (3)`).
  if (s.includes('(') || s.includes(')')) s = s.replace(/[()]/g, ' ');
  const out: Tok[] = [];
  for (let raw of (s.includes(',') ? s.replace(/,/g, ' , ') : s).split(/\s+/)) {
    if (raw === '') continue;
    // A care-of against its name (`%COFORGE BPS`) is a word of its own; so is a trustee word against what the
    // trustees hold (`TR-ARCADIAN LD TR`, `TRUSTEES-CHRIST COMMUNITY CHURCH`).
    if (raw.length > 1 && raw[0] === '%') {
      out.push({ text: '%', key: '%' });
      raw = raw.slice(1);
    }
    const dash = raw.indexOf('-');
    if (dash > 0 && dash < raw.length - 1 && TRUSTEE_MARKERS.has(raw.slice(0, dash))) {
      // Its text keeps the dash: what follows is what the trustees hold, whatever its words (trustAfterTrustees).
      out.push({ text: raw.slice(0, dash + 1), key: raw.slice(0, dash) });
      raw = raw.slice(dash + 1);
    }
    if (!NEEDS_CLEANING.test(raw)) {
      out.push(plusOff({ text: raw, key: raw }));
      continue;
    }
    // Brackets and quotes are no part of a name: `LEVEL (3)`, `"SMITH"`.
    const text = raw.replace(DROPPED_CHARS, '');
    if (text === '') continue;
    const key = text.replace(KEY_CHARS, '');
    if (key === '') continue;
    out.push(plusOff({ text, key }));
  }
  return out;
}

/** A word without the `+` Lebanon writes after some names (`KIMBALL DAVID P+`, `(LF EST)+`); `+` alone is a marker. */
function plusOff(t: Tok): Tok {
  return t.key.length > 1 && t.key.endsWith('+') ? { text: t.text.slice(0, -1), key: t.key.slice(0, -1) } : t;
}

/**
 * `MIDURA MARTIN & LISA CO TTEES`, `STANTON B A & E R CO TTEES`: CO before a trustee word, after a person's name
 * (two words or more) and `&`, is "co-" (co-trustees, as `CO-TTEES` written whole), not a company. Not after a
 * company's word (`SMITH JOHN & SONS CO TR`), nor after a single name (`JOHNSON & JOHNSON CO TTEE`) or without an
 * `&` (`ACME CO TR`, `CHARTER TRUST CO TTEE`): a company as trustee.
 */
function coTrustees(ts: readonly Tok[], i: number): boolean {
  if (ts[i]!.key !== 'CO' || i === 0) return false;
  const next = ts[i + 1];
  if (next === undefined || !TRUSTEE_MARKERS.has(next.key) || WORD_TYPE.has(ts[i - 1]!.key)) return false;
  const amp = ts.findIndex((t) => AMP.has(t.key));
  return amp >= 0 && amp < i && ts.slice(0, amp).filter((t) => t.key !== ',').length >= 2;
}

const lifeEstateAt = (ts: readonly Tok[], i: number) =>
  (ts[i]!.key === 'LIFE' || ts[i]!.key === 'LF') && LIFE_ESTATE_SECOND.has(ts[i + 1]?.key ?? '');
/** Where an owner ends: an `&`, a care-of, a tenancy marker (`ETAL`, `H/W`, `ET AL`). */
const endsOwner = (ts: readonly Tok[], j: number) => {
  const k = ts[j]!.key;
  return AMP.has(k) || CARE_OF.has(k) || TENANCY_MARKERS.has(k) || (k === 'ET' && ET_SECOND.has(ts[j + 1]?.key ?? ''));
};
/**
 * Whether the cell's life estates can go: each ends the cell or an owner (`AGNES LIFE ESTATE & DC`, `GLORIA, LIFE
 * ESTATE, ETAL`). Between two owners (`ANDREWS, JOY, LIFE ESTATE BODOR, REBECCA, LIFE ESTATE`) one is what parts
 * them, and all of them stay: the cell is read as before, an Estate.
 */
function lifeEstatesClose(ts: readonly Tok[]): boolean {
  for (let i = 0; i < ts.length; i++) {
    if (!lifeEstateAt(ts, i)) continue;
    let j = i + 2;
    while (j < ts.length && ts[j]!.key === ',') j++;
    if (j < ts.length && !endsOwner(ts, j)) return false;
  }
  return true;
}

/**
 * Drops tenancy markers (H/W, ET AL, JTRS...), a life estate that ends an owner (as L/E: the life tenant owns, and is
 * the person named), CO of co-trustees, and a care-of tail; a trailing `+` (and others) too.
 */
function dropMarkers(ts: Tok[]): Tok[] {
  const out: Tok[] = [];
  // Whether the cell's life estates can go: read at its first one only (most cells have none; this runs a few times
  // a cell, for every row of a roll).
  let lifeEstates: boolean | undefined;
  for (let i = 0; i < ts.length; i++) {
    const k = ts[i]!.key;
    if (CARE_OF.has(k)) break;
    if (TENANCY_MARKERS.has(k) && (!NAME_WORD_MARKERS.has(k) || endsAnOwner(ts, i + 1))) continue;
    if (coTrustees(ts, i)) continue;
    // `SUCCESSOR TRUSTEE`, `SUC TR`: the qualifier goes with the trustee word (not a name: `SMALLWOOD, SUCCESSOR`).
    if (TRUSTEE_QUALIFIERS.has(k) && TRUSTEE_MARKERS.has(ts[i + 1]?.key ?? '')) continue;
    // A marker dropped between two commas leaves one (`VENTON, ANDREW, ETAL, TRUSTEES OF ...`).
    if (k === ',' && out[out.length - 1]?.key === ',') continue;
    // Two-word markers: ET AL, LIFE ESTATE (Lebanon's `(LF EST)`).
    if (lifeEstates === undefined && lifeEstateAt(ts, i)) lifeEstates = lifeEstatesClose(ts);
    if ((k === 'ET' && ET_SECOND.has(ts[i + 1]?.key ?? '')) || (lifeEstates && lifeEstateAt(ts, i))) {
      i++;
      continue;
    }
    out.push(ts[i]!);
  }
  return out;
}

/**
 * Word j ends an owner where a marker stood before it: the cell's end, an `&`, or another marker (not a comma:
 * `EIGHT TEN, LLC`).
 */
function endsAnOwner(ts: readonly Tok[], j: number): boolean {
  const k = ts[j]?.key;
  return k === undefined || AMP.has(k) || (TENANCY_MARKERS.has(k) && !NAME_WORD_MARKERS.has(k));
}

function trimConnectors(ts: Tok[]): Tok[] {
  let a = 0;
  let b = ts.length;
  while (a < b && (AMP.has(ts[a]!.key) || ts[a]!.key === ',')) a++;
  while (b > a && (AMP.has(ts[b - 1]!.key) || ts[b - 1]!.key === ',')) b--;
  return ts.slice(a, b);
}

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
  if (order === 'last-first') {
    if (prev === undefined || AMP.has(prev.key)) return true;
    // A two-word name the name lists read FIRST LAST (`JULIAN CHURCH`, as lastFirst reads it): its second word.
    const before = ts[i - 2];
    return (
      (next === undefined || AMP.has(next.key)) &&
      (before === undefined || AMP.has(before.key)) &&
      readsFirstLast(prev.key, ts[i]!.key)
    );
  }
  return next === undefined || AMP.has(next.key);
}

/** Word i stands where a given name does: just after a comma, or second in a LAST FIRST name of three words or more. */
function givenNamePlace(ts: readonly Tok[], i: number, order: NameOrder, commaStyle: boolean, words: number): boolean {
  if (commaStyle) return ts[i - 1]?.key === ',';
  return order === 'last-first' && i === 1 && words >= 3;
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
    const phrase = second && PHRASE_FIRST.has(k) ? ENTITY_PHRASES[`${k}-${second}`] : undefined;
    if (phrase) found |= bitOf(phrase);
    if (k === 'ESTATE' && next !== 'OF') bareEstate = ts[i - 1]?.key !== 'REAL';
    const t = GIVEN_NAMES_TOO.has(k) && givenNamePlace(ts, i, order, commaStyle, words) ? undefined : WORD_TYPE.get(k);
    if (t && !WEAK_WORDS.has(k)) found |= bitOf(t);
    else if (t && words >= 2) {
      const slot = surnamePosition(ts, i, order, commaStyle) || initialBefore(ts, i);
      if (!slot && (words >= 3 || !GIVEN_NAME_WORDS.has(k))) weak |= bitOf(t);
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

function joinText(ts: readonly Tok[]): string {
  let out = '';
  ts.forEach((t, i) => {
    // A comma against the word before it; a trustee word split from what follows it (tokens: `TR-1314`), as written.
    const prev = ts[i - 1];
    if (prev && t.key !== ',' && !(TRUSTEE_MARKERS.has(prev.key) && prev.text.endsWith('-'))) out += ' ';
    out += t.text;
  });
  return out;
}

// ---- persons ------------------------------------------------------------------------------------------------------

interface Person {
  first: Tok[];
  last: Tok[];
  suffix: Tok[];
}

function splitSuffixes(ts: Tok[], keepFirst: boolean): { name: Tok[]; suffix: Tok[] } {
  const name: Tok[] = [];
  const suffix: Tok[] = [];
  ts.forEach((t, i) => {
    if (SUFFIXES.has(t.key) && !(keepFirst && i === 0)) suffix.push(t);
    else name.push(t);
  });
  return { name, suffix };
}

/** How many words the surname at the start takes: `MC LEAN`, `DE LA CRUZ`, `VAN DER BERG` (a first name must stay). */
function leadingSurname(ts: readonly Tok[]): number {
  let n = 0;
  while (n < ts.length - 2 && SURNAME_PARTICLES.has(ts[n]!.key)) n++;
  return n + 1;
}

/** How many words the surname at the end takes: `JUAN DE LA CRUZ`. */
function trailingSurname(ts: readonly Tok[]): number {
  let n = 1;
  while (n < ts.length - 1 && SURNAME_PARTICLES.has(ts[ts.length - 1 - n]!.key)) n++;
  return n;
}

function lastFirst(ts: Tok[]): Person {
  const { name, suffix } = splitSuffixes(ts, true);
  // FIRST M LAST inside a LAST FIRST roll (`GEORGE J ALLEN`, `HENRY V P WALSH`, `ROBERT J DE GUIO`): middle initials
  // between two names are read in order.
  if (
    name.length >= 3 &&
    isInitial(name[1]!) &&
    !isInitial(name[name.length - 1]!) &&
    name.slice(2, -1).every((t) => isInitial(t) || SURNAME_PARTICLES.has(t.key))
  ) {
    // The surname: the last word and the particles before it (initials before those are the first name's).
    let s = name.length - 1;
    while (s > 2 && SURNAME_PARTICLES.has(name[s - 1]!.key) && !isInitial(name[s - 1]!)) s--;
    return { first: name.slice(0, s), last: name.slice(s), suffix };
  }
  // FIRST LAST, where the census' and the SSA's lists say so clearly (`JAMES HILL`, not `BRAXTON MARLO`), or where
  // the first word is an initial, which no surname is (`L KNOWLES`; not O of `O BRIEN`, a surname's particle).
  if (
    name.length === 2 &&
    !isInitial(name[1]!) &&
    (isInitial(name[0]!) ? !SURNAME_PARTICLES.has(name[0]!.key) : readsFirstLast(name[0]!.key, name[1]!.key))
  ) {
    return { first: name.slice(0, 1), last: name.slice(1), suffix };
  }
  const n = leadingSurname(name);
  return { last: name.slice(0, n), first: name.slice(n), suffix };
}

function firstLast(ts: Tok[]): Person {
  const { name, suffix } = splitSuffixes(ts, true);
  if (name.length === 1) return { first: [], last: name, suffix };
  const n = trailingSurname(name);
  return { first: name.slice(0, name.length - n), last: name.slice(name.length - n), suffix };
}

/** First names only (`CAROLE`, `CAROLE A`, `BETH F J`): a co-owner sharing the previous owner's surname. */
function givenOnly(ts: readonly Tok[]): boolean {
  const name = ts.filter((t) => !SUFFIXES.has(t.key));
  return name.length >= 1 && !isInitial(name[0]!) ? name.slice(1).every(isInitial) : name.every(isInitial);
}

/**
 * One `&`-separated part with commas: `LAST, FIRST M`, `LAST, FIRST M, JR`, and several owners written one after
 * the other, `MEDRANO, MAURICIO C ZUNIGA, ELSA M` (a word before a comma, after a first name, starts the next owner)
 * or `WILLIAMS, LEWIS T, KAREN E` (a list of first names under one surname).
 */
/** A suffix or a trustee word: at a comma group's start, it closes the owner before (commaPart). */
const closesGroup = (t: Tok | undefined) => t !== undefined && (SUFFIXES.has(t.key) || TRUSTEE_MARKERS.has(t.key));

function commaPart(ts: Tok[], inherited: Tok[] | null): Person[] {
  const groups: Tok[][] = [[]];
  for (const t of ts) {
    if (t.key === ',') groups.push([]);
    else groups[groups.length - 1]!.push(t);
  }
  while (groups.length > 1 && groups[groups.length - 1]!.length === 0) groups.pop();
  const people: Person[] = [];
  const head = splitSuffixes(
    groups[0]!.filter((t) => !TRUSTEE_MARKERS.has(t.key)),
    true,
  );
  let last = head.name;
  let pendingSuffix = head.suffix;
  // After `&`, `SARAH MORGAN, SUSAN P`: SARAH shares the surname before the `&`, MORGAN is the next owner's (`DUSTON DE
  // VILLEREGLAN, ISABELLE`: DE VILLEREGLAN). Not a surname with its particles alone (`DE MICHELE, MARINA`, `VAN
  // ZANDT, W`, `ST LEDGER-OLSON, BLAIR`), nor the surname before the `&` again (`DIJKMAN DULKES, ELLEN J & DIJKMAN
  // DULKES, ROBERT H P`).
  if (
    inherited &&
    last.length >= 2 &&
    !isInitial(last[last.length - 1]!) &&
    !last.slice(0, -1).every((t) => SURNAME_PARTICLES.has(t.key)) &&
    words(last) !== words(inherited)
  ) {
    const n = Math.min(trailingSurname(last), last.length - 1);
    people.push({ first: last.slice(0, last.length - n), last: inherited, suffix: [] });
    last = last.slice(last.length - n);
  } else if (inherited && givenNamesThenInitial(last) && closesGroup(groups[1]?.[0])) {
    // After `&`, `JANET E, TRUSTEES BRUNELLE, NATHAN`, `ROGER D, JR BONDA, NADINE`: first names and an initial under the
    // surname before the `&`, closed by a trustee word or a suffix; the next owner's surname follows it.
    people.push({ first: last, last: inherited, suffix: [] });
    last = [];
  }
  /** The words a group took from its end as the next owner's surname (`B WISTAR`), while the next group may undo it. */
  let predicted: Tok[] | null = null;
  for (let g = 1; g < groups.length; g++) {
    const group = groups[g]!;
    // Suffixes and trustee words open a group when they close the previous owner (`KENNETH C, JR CRADDOCK, JENNY`).
    let a = 0;
    while (a < group.length && closesGroup(group[a])) a++;
    // The closing suffixes are the previous owner's (the head's, when none is made yet).
    (people[people.length - 1]?.suffix ?? pendingSuffix).push(...group.slice(0, a).filter((t) => SUFFIXES.has(t.key)));
    const rest = group.slice(a).filter((t) => !TRUSTEE_MARKERS.has(t.key));
    if (rest.length === 0) continue;
    const more = groups.slice(g + 1).some((x) => x.some((t) => !SUFFIXES.has(t.key) && !TRUSTEE_MARKERS.has(t.key)));
    if (a > 0 && more) {
      // `III KOSTER, JENNIFER A`, `TRUSTEE SETTLE, MARTHA A`: what follows the closing word is the next surname. The
      // words the group before took for it were its owner's own (`MORRIS, B WISTAR, III MORAN, KAREN M`: B WISTAR
      // MORRIS III).
      if (predicted && last === predicted) people[people.length - 1]!.first.push(...predicted);
      predicted = null;
      last = rest;
      continue;
    }
    predicted = null;
    const { name, suffix } = splitSuffixes(rest, false);
    let first = name;
    let nextLast: Tok[] | null = null;
    if (more && name.length >= 2 && !isInitial(name[name.length - 1]!)) {
      const n = Math.min(trailingSurname(name), name.length - 1);
      first = name.slice(0, name.length - n);
      nextLast = name.slice(name.length - n);
    }
    people.push({ first: first.filter((t) => t.key !== 'FNU'), last, suffix: [...pendingSuffix, ...suffix] });
    pendingSuffix = [];
    if (nextLast) {
      last = nextLast;
      predicted = nextLast;
    }
  }
  const lastPerson = people[people.length - 1];
  if (last.length > 0 && (people.length === 0 || (lastPerson && lastPerson.last !== last))) {
    // A surname left without a first name after it (`ZAHRA, FNU`, or a cell of one surname and a comma).
    people.push({ first: [], last, suffix: pendingSuffix });
  }
  return people;
}

function personsOf(ts: Tok[], order: NameOrder, inherited: Tok[] | null): Person[] {
  const parts: Tok[][] = [[]];
  for (const t of ts) {
    if (AMP.has(t.key)) parts.push([]);
    else parts[parts.length - 1]!.push(t);
  }
  const commaStyle = ts.some((t) => t.key === ',');
  const people: Person[] = [];
  let surname = inherited;
  for (const raw of parts) {
    const part = trimConnectors(raw);
    if (part.length === 0) continue;
    const hasComma = part.some((t) => t.key === ',');
    let named = part.filter((t) => t.key !== ',' && !TRUSTEE_MARKERS.has(t.key));
    // A title before a name of two words or more (`MR COOPER` alone stays: a company's name, as likely).
    if (named.length >= 3 && HONORIFICS.has(named[0]!.key) && part[0] === named[0]) {
      named = named.slice(1);
      part.splice(0, 1);
    }
    if (named.length === 0) continue;
    const leadingCommaGroups = hasComma ? part.filter((t, i) => t.key === ',' && i < part.length - 1).length : 0;
    let found: Person[];
    if (hasComma && leadingCommaGroups > 0 && part[0]!.key !== ',' && commaHasName(part)) {
      found = commaPart(part, people.length > 0 ? surname : null);
    } else if (surname && sharesSurname(named, people, order, commaStyle)) {
      const { name, suffix } = splitSuffixes(named, true);
      found = [{ first: name, last: surname, suffix }];
    } else if (order === 'first-last' || (commaStyle && surname)) {
      found = [firstLast(named)];
    } else {
      found = [lastFirst(named)];
    }
    for (const p of found) {
      if (p.last.length > 0) surname = p.last;
      people.push(p);
    }
  }
  return people;
}

/**
 * A part after `&` of first names only, under the surname before it: `VALERIE W`, `BETH F J`, `HERNAN`
 * (givenOnly), unless it is an owner of its own in a roll of initials (surnameBeforeInitials); and with commas, first
 * names that end with an initial (givenNamesThenInitial).
 */
function sharesSurname(named: readonly Tok[], people: readonly Person[], order: NameOrder, commaStyle: boolean) {
  if (givenOnly(named)) return !surnameBeforeInitials(named, people, order, commaStyle);
  return commaStyle && givenNamesThenInitial(named);
}

/**
 * `SMITH, RICHARD C & BARBARA ANN B`: after `&` in a cell with commas, names that end with an initial are first
 * names and a middle initial under the surname before (BARBARA ANN B SMITH); read FIRST LAST, the initial was the
 * surname. (`FRITZ, KYLE C & SISSON BARI S`, LAST FIRST M, reads so too: nothing tells it apart.)
 */
function givenNamesThenInitial(named: readonly Tok[]): boolean {
  const name = named.filter((t) => !SUFFIXES.has(t.key));
  return name.length >= 2 && isInitial(name[name.length - 1]!) && !isInitial(name[0]!);
}

/**
 * `BECKER D R & DRAKE R E`: a roll that writes LAST FIRST without commas, and gives the owner just before the `&`
 * initials only, writes the next one so too: a word before initials there is that owner's surname (R E DRAKE), not a
 * first name under BECKER (Lebanon's trustee pairs). With full first names before it (`SMITH JOHN & MARY K`), without
 * an initial after it (`SMITH J & JOHN JR`), or in a cell with commas (`JOLLY, W F & BARBARA N`), the word is a first
 * name, as before.
 */
function surnameBeforeInitials(
  named: readonly Tok[],
  people: readonly Person[],
  order: NameOrder,
  commaStyle: boolean,
) {
  if (order !== 'last-first' || commaStyle || named.length < 2 || isInitial(named[0]!)) return false;
  const before = people[people.length - 1];
  if (!before || before.first.length === 0 || !before.first.every(isInitial)) return false;
  const rest = named.slice(1);
  return rest.some(isInitial) && rest.every((t) => isInitial(t) || SUFFIXES.has(t.key));
}

/** A comma that splits a name: some words after it that are not only suffixes. */
function commaHasName(part: Tok[]): boolean {
  const i = part.findIndex((t) => t.key === ',');
  return part.slice(i + 1).some((t) => t.key !== ',' && !SUFFIXES.has(t.key) && !TRUSTEE_MARKERS.has(t.key));
}

/** Words' text, spaced; null when none. */
function words(ts: Tok[]): string | null {
  return ts.length === 0 ? null : ts.map((t) => t.text).join(' ');
}

function personOwner(p: Person, type: OwnerType): ParsedOwner | null {
  const first = words(p.first.slice(0, 1));
  const middle = words(p.first.slice(1));
  const last = words(p.last);
  const suffix = words(p.suffix);
  const fullName = [first, middle, last, suffix].filter((w) => w !== null).join(' ');
  if (fullName === '') return null;
  return { fullName, firstName: first, middleName: middle, lastName: last, suffix, type };
}

// ---- cells --------------------------------------------------------------------------------------------------------

function isPersonMarked(ts: readonly Tok[]): boolean {
  return ts.some((t) => t.key === ',' || TRUSTEE_MARKERS.has(t.key) || SUFFIXES.has(t.key));
}

/** A word that ends an owner's name: a legal form, a trust's word (CLOSING_WORDS, TRST), a trustee word. */
const closesOwner = (t: Tok) => CLOSING_WORDS.has(t.key) || t.key === 'TRST' || TRUSTEE_MARKERS.has(t.key);

function closed(ts: readonly Tok[]): boolean {
  const last = ts[ts.length - 1];
  return last !== undefined && CLOSING_WORDS.has(last.key);
}

/**
 * `DANIEL J JUSTYNSKI, RE DIRECTOR`, `JOEL MCPHERSON, PASTOR` after a company's or a church's own cell: a person to
 * write to, not an owner (what follows the cell's last comma is a title and its qualifiers only); so is a cell of a
 * title alone (`DAVIDS HOUSE INC` / `EXECUTIVE DIRECTOR`). After a person's cell (`SMITH, JOHN &` / `DOE, JANE,
 * TREASURER`) it is another owner, as before.
 */
function contactLine(ts: readonly Tok[], prev: Tok[] | undefined, order: NameOrder): boolean {
  if (!prev) return false;
  const comma = ts.findLastIndex((t) => t.key === ',');
  if (comma === 0 || comma === ts.length - 1) return false;
  // A cell of a title alone (`EXECUTIVE DIRECTOR`) names no one either.
  const title = ts.slice(comma + 1);
  if (!title.some((t) => CONTACT_TITLES.has(t.key))) return false;
  if (!title.every((t) => CONTACT_TITLES.has(t.key) || CONTACT_QUALIFIERS.has(t.key))) return false;
  const owner = dropMarkers(prev);
  const last = owner[owner.length - 1];
  return last !== undefined && !CONNECTORS.has(last.key) && entityType(trimConnectors(owner), order) !== null;
}

/**
 * Whether the next cell continues this one's name rather than naming another owner: this cell ends with `AND`/`&`
 * (`GANGEMI JOSEPH A AND` / `CAROLE A H/W`); the next begins with a connector (`OF PHILADELPHIA`, `& ANDERSON,
 * PAMELA`, `IN TRUST`); the next holds only entity words (`CHURCH`, `BAPTIST CHURCH`, `CO`, `INC`); or this is an
 * entity whose name is not closed (no LLC, INC, TRUST... at its end) and the next is an entity's words, not a trust's
 * or an estate's (`CITY OF PHILA` / `DEPT OF PUBLIC PROP`, `PHILADELPHIA HOUSING` / `DEVELOPMENT CORPORATION`).
 */
function continues(prev: Tok[], next: Tok[], order: NameOrder): boolean {
  const end = prev[prev.length - 1];
  const start = next[0];
  if (!end || !start) return false;
  // `HYANNIS AIR SERVICE INC D/B/A` / `CAPE AIR`: the trade name is the same owner's.
  // `MCFARLAND GEORGE ESTATE OF` is whole: its OF is the estate's, not the start of the next cell's name.
  const estateOf = end.key === 'OF' && ESTATE_WORDS.has(prev[prev.length - 2]?.key ?? '');
  if (AMP.has(end.key) || (end.key === 'OF' && !estateOf) || end.key === 'FOR' || TRADE_NAME.has(end.key)) return true;
  // `J TAI LLC` / `DBA QUALITY INN` too.
  if (CONNECTORS.has(start.key) || TRADE_NAME.has(start.key)) return true;
  if (next.every((t) => WORD_TYPE.has(t.key))) return true;
  const prevType = entityType(prev, order);
  if (prevType === null || closed(prev) || isPersonMarked(next)) return false;
  // One word after an unclosed entity is the rest of its name (`ROMAN CATHOLIC BISHOP OF MANCH` / `ESTER`).
  if (next.length === 1) return true;
  // An unclosed entity is continued by entity words (`DEPT OF TRANS`, `HUD`), not by a person's name.
  const nextType = entityType(next, order);
  return nextType !== null && nextType !== 'Trust' && nextType !== 'Estate';
}

const TRUST_ENDINGS = new Set(['TR', 'TRS', 'TRUST', 'TRST', 'TRUSTS', 'LD']);
const TRUST_LEAD_INS = new Set(['OF', 'UNDER', 'FOR', 'U/A', 'UA', 'UAD', 'U/D', 'UDT']);
/**
 * The trust's last word from its first ending (`LD` of `DAIRY RD LD TR`, of `WOOD&WOOD LD T`, of `MACGREGOR LD
 * TR#2`): the endings that follow it are its name's too, and so is a T that ends the cell (TR cut short).
 */
function trustEnd(ts: readonly Tok[], e: number): number {
  let end = e;
  for (;;) {
    const k = ts[end + 1]?.key;
    if (k === undefined) return end;
    if (TRUST_ENDINGS.has(k) || NUMBERED_TRUST.test(k) || (k === 'T' && end + 2 === ts.length)) end++;
    else return end;
  }
}
const NUMBERED_TRUST = /^TR(UST)?#?\d+$/;

/** What trustees may hold for besides a trust, named after them (`GARRITY, ROBERT S, ETAL, TR SOJOURNERS CHURCH`). */
const HELD_FOR = new Set<OwnerType>(['Religious', 'Association']);

/**
 * Where the trustees end and what they hold for begins in one cell: `SEIDMAN, JOSHUA M & JERI K, TR SEIDMAN LIVING
 * TR`, `MAIN, RALPH TR OF BLACK DUCK LD TR`, `WILLIAMS, J & D PETTIT, TR ADVANCE AUTO LD`: [the trustee word, the
 * trust's last word, Trust], or null. The trust's name ends with TR, TRUST or LD not just after a comma (`NIDEVER,
 * DAVID L, TR REINES, AMY E, TR` is two trustees). Or a church's or an association's name, one name to the cell's
 * end (no comma, no `&`): [the trustee word, the last word, its type]; after a trustee word glued to it (`CALLAGHAN,
 * ROBERT ETAL TR-HOLLIDAY`, `CARTER, RICHARD TR-1314 OXFORD PL L`), any name, a Trust unless its words say otherwise.
 */
function trustAfterTrustees(ts: readonly Tok[], order: NameOrder): [number, number, OwnerType] | null {
  for (let m = 1; m < ts.length - 1; m++) {
    if (!TRUSTEE_MARKERS.has(ts[m]!.key)) continue;
    for (let e = m + 2; e < ts.length; e++) {
      if (TRUST_ENDINGS.has(ts[e]!.key) && ts[e - 1]!.key !== ',') return [m, trustEnd(ts, e), 'Trust'];
    }
    let a = m + 1;
    while (a < ts.length && TRUST_LEAD_INS.has(ts[a]!.key)) a++;
    const held = ts.slice(a);
    if (held.length === 0 || held.some((t) => t.key === ',' || AMP.has(t.key))) return null;
    const type = entityType(held, order);
    if (ts[m]!.text.endsWith('-')) return [m, ts.length - 1, type !== null && HELD_FOR.has(type) ? type : 'Trust'];
    return held.length >= 2 && type !== null && HELD_FOR.has(type) ? [m, ts.length - 1, type] : null;
  }
  return null;
}

function ownersOfSegment(seg: Tok[], order: NameOrder, previous: ParsedOwner | null): ParsedOwner[] {
  const ts = trimConnectors(dropMarkers(seg));
  if (ts.length === 0) return [];
  const split = trustAfterTrustees(ts, order);
  if (split) {
    const [m, e, heldType] = split;
    let a = m + 1;
    while (a < e && TRUST_LEAD_INS.has(ts[a]!.key)) a++;
    const trustees = ts.slice(0, m + 1);
    // A suffix after the trust's last word is its name's (`FRANKLIN LD TR III`), not an owner of its own.
    let end = e + 1;
    while (end < ts.length && SUFFIXES.has(ts[end]!.key)) end++;
    const trust: ParsedOwner = {
      fullName: joinText(ts.slice(a, end)),
      firstName: null,
      middleName: null,
      lastName: null,
      suffix: null,
      type: heldType,
    };
    const before = ownersOfSegment(trustees, order, previous);
    // More trustees and trusts after this trust's name (`... REVOCABLE TR & COLLEY, THOMAS MICHAEL, TR ...`).
    const rest = ownersOfSegment(ts.slice(end), order, trust);
    return [...before, trust, ...rest];
  }
  const type = entityType(ts, order);
  if (type !== null) {
    // Two owners joined by `&`, the first closed by its legal form or a trustee word (`DALTON, PAUL REV TRST &` /
    // `HOAG, ANNE B REV TRST`, `OPENHEIMER, ARTHUR F CO-TRUSTEE & SUNTRUST BANK`): each read alone, not one entity
    // named by both (`SMITH & WESSON INC` is one: SMITH closes nothing).
    const amp = ts.findIndex(
      (t, i) => i > 0 && i < ts.length - 1 && (t.key === '&' || t.key === 'AND') && closesOwner(ts[i - 1]!),
    );
    if (amp > 0) {
      const first = ownersOfSegment(ts.slice(0, amp), order, previous);
      return [...first, ...ownersOfSegment(ts.slice(amp + 1), order, first[first.length - 1] ?? previous)];
    }
    return [{ fullName: joinText(ts), firstName: null, middleName: null, lastName: null, suffix: null, type }];
  }
  const trustee = ts.some((t) => TRUSTEE_MARKERS.has(t.key));
  // Trustee words stay for the comma parse (they close an owner there); the other parses drop them.
  const named = ts.filter((t) => !TRUSTEE_MARKERS.has(t.key));
  // A cell of first names only after a person's cell (`SHAPLEY DONALD` / `RUTH`) shares that person's surname.
  const inherited =
    previous?.lastName && !named.some((t) => t.key === ',') && givenOnlyCell(named) ? tokens(previous.lastName) : null;
  const out: ParsedOwner[] = [];
  for (const p of personsOf(ts, order, inherited)) {
    const o = personOwner(p, trustee ? 'Trustee' : 'Individual');
    if (o) out.push(o);
  }
  return out;
}

/** One word, or a first name and initials: too little for a surname and a first name of its own. */
function givenOnlyCell(ts: readonly Tok[]): boolean {
  const name = ts.filter((t) => !AMP.has(t.key));
  if (name.length === 0 || name.length !== ts.length) return false;
  return name.length === 1 || (!isInitial(name[0]!) && name.slice(1).every(isInitial));
}

/** The owners written in one or two cells (owner_1, owner_2 of one roll row). Returns each owner once, in order. */
export function parseOwnerCells(cells: readonly (string | null | undefined)[], order: NameOrder): ParsedOwner[] {
  if (cells.length > MAX_CELLS) throw new RangeError(`at most ${MAX_CELLS} owner cells, got ${cells.length}`);
  const segments: Tok[][] = [];
  for (const cell of cells) {
    const ts = tokens(cell);
    if (dropMarkers(ts).length === 0) continue;
    const prev = segments[segments.length - 1];
    if (contactLine(ts, prev, order)) continue;
    if (prev && continues(dropMarkers(prev), ts, order)) prev.push(...ts);
    else segments.push(ts);
  }
  const out: ParsedOwner[] = [];
  const seen = new Set<string>();
  for (const seg of segments) {
    const prevOwner = out[out.length - 1] ?? null;
    for (const o of ownersOfSegment(seg, order, prevOwner)) {
      const id = `${o.type}|${o.fullName}`;
      if (seen.has(id)) continue;
      seen.add(id);
      out.push(o);
    }
  }
  return out;
}

/**
 * The record's owner1 and owner2 from a row's parsed owners (SPEC's record has two places). owner1 is the first the
 * roll names. With three or more, owner2 is the first of the others that an owner search could not find through
 * owner1: an entity, or a person of another surname (`GALBRAITH, M A & M M TTEES` / `GALBRAITH, MARGARET A REV
 * TRST` keeps the trust, the parcel's titled owner, over the second trustee; `SMITH JOHN & MARY` / `JONES ROBERT`
 * keeps ROBERT JONES, where MARY SMITH is found by SMITH through owner1); when each shares owner1's surname, the
 * second. Middle names and suffixes are in `fullName`.
 */
export function recordOwners(owners: readonly ParsedOwner[]): [OwnerInput | null, OwnerInput | null] {
  const [first] = owners;
  let second = owners[1];
  if (first && owners.length > 2 && first.lastName !== null) {
    const sameSurname = (o: ParsedOwner) => o.lastName !== null && o.lastName === first.lastName;
    second = owners.slice(1).find((o) => !sameSurname(o)) ?? second;
  }
  return [ownerInput(first), ownerInput(second)];
}

/** A parsed owner as a record's owner. */
function ownerInput(o: ParsedOwner | undefined): OwnerInput | null {
  return o ? { firstName: o.firstName, lastName: o.lastName, fullName: o.fullName, type: o.type } : null;
}
