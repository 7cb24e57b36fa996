// An owner cell as words (tokens): cut to a bound, upper case, shares and brackets out, `&`s spaced, care-of and
// trustee words parted from what they touch; and the words that are no one's name (tenancy and executor markers,
// life estates, a care-of tail) dropped. The first step of the owner-name parser (owner-names.ts).
import {
  AMP,
  CARE_OF,
  ET_SECOND,
  LIFE_ESTATE_SECOND,
  DROPPED_MARKERS,
  ESTATE_WORDS,
  HONORIFICS,
  NAME_WORD_MARKERS,
  PERIOD_ABBREVIATIONS,
  SUFFIXES,
  SURNAME_PARTICLES,
  TENANCY_PAIR_FIRST,
  TENANCY_PAIRS,
  TRUSTEE_MARKERS,
  TRUST_ENDINGS,
  TRUSTEE_QUALIFIERS,
  WORD_TYPE,
} from './owner-words.js';

export type NameOrder = 'last-first' | 'first-last';

/** A cell is cut to this many characters (at a space): no roll writes an owner that long; the parse stays bounded. */
export const MAX_CELL_CHARS = 200;
/** More cells than this is a caller's error (a row's owner columns are one or two). */
export const MAX_CELLS = 4;

export interface Tok {
  /** As written, upper case. */
  text: string;
  /** Without dots and apostrophes, what the word lists are matched on. */
  key: string;
}

export const isInitial = (t: Tok) => t.key.length === 1 && t.key >= 'A' && t.key <= 'Z';
/** Two words that are a two-word tenancy marker (`JT TEN`); no string is made for the words of a name. */
const tenancyPair = (k: string, next: string) => TENANCY_PAIR_FIRST.has(k) && TENANCY_PAIRS.has(`${k} ${next}`);
// Brackets are spaces by now (tokens).
const DROPPED_CHARS = /["[\]{};:]/g;
const KEY_CHARS = /[.'’`]/g;
const BRACKETED_ESTATE = /\(\s*EST\s*\)/g;
/** A bracketed EST while a cell is split into words (a private-use character, taken out of the cell before). */
const ESTATE_MARK = '\uE000';
/** `(EST)`'s word: written EST, keyed ESTATE (an estate's word), and closing its owner (owner-names.ts closesOwner). */
const BRACKETED_ESTATE_WORD: Tok = Object.freeze({ text: 'EST', key: 'ESTATE' });
export const isBracketedEstate = (t: Tok) => t.text === 'EST' && t.key === 'ESTATE';
const NEEDS_CLEANING = /["[\]{};:.'’`]/;
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

export function tokens(cell: string | null | undefined, order: NameOrder = 'last-first'): Tok[] {
  if (!cell) return [];
  let s = cell;
  if (s.length > MAX_CELL_CHARS) {
    // Cut before anything else, so the work is bounded by the cut whatever the cell's length.
    const cut = s.lastIndexOf(' ', MAX_CELL_CHARS);
    s = s.slice(0, cut > 0 ? cut : MAX_CELL_CHARS);
  }
  s = s.toUpperCase();
  if (order === 'last-first' && s.includes('.')) s = periodForComma(s);
  if (s.includes('%') || (s.includes('/') && HAS_DIGIT.test(s))) s = sharesOut(s);
  if (s.includes('&') && s.includes(',')) s = spaceAmpersands(s);
  // A bracket parts words (`TR(105 EHS LD TR`); it is no part of a name (`LEVEL (3)`). `(EST)` after a name is its
  // estate (`BOISVERT, M A (EST)`), where EST alone would be a middle name's word: a word written EST, keyed ESTATE.
  if (s.includes(ESTATE_MARK)) s = s.replaceAll(ESTATE_MARK, '');
  if (s.includes('(') || s.includes(')')) s = s.replace(BRACKETED_ESTATE, ` ${ESTATE_MARK} `).replace(/[()]/g, ' ');
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
    if (raw === ESTATE_MARK) {
      out.push(BRACKETED_ESTATE_WORD);
      continue;
    }
    if (!NEEDS_CLEANING.test(raw)) {
      out.push(plusOff({ text: raw, key: raw }));
      continue;
    }
    // Quotes and the like are no part of a name: `"SMITH"`.
    const text = raw.replace(DROPPED_CHARS, '');
    if (text === '') continue;
    const key = text.replace(KEY_CHARS, '');
    if (key === '') continue;
    out.push(plusOff({ text, key }));
  }
  return out;
}

/** A first word of three letters or more closed by a period, the next word, and a comma right after it if any. */
const PERIOD_FIRST = /^\s*([A-Z][A-Z'’`]{2,})\.\s+([A-Z][^\s,]*)(,?)/;
/** Words that may not stand first with a period for a comma: the parser's own, and particles (`DEL. ROSARIO`). */
const NOT_A_SURNAME_CLOSED = [
  PERIOD_ABBREVIATIONS,
  HONORIFICS,
  SUFFIXES,
  DROPPED_MARKERS,
  SURNAME_PARTICLES,
  TRUSTEE_MARKERS,
  ESTATE_WORDS,
  TRUST_ENDINGS,
];
/** Words of a cell that is not a person's name alone: an entity's, a trust's or an estate's, or OF/THE/FOR. */
const NOT_A_PERSON = [WORD_TYPE, ESTATE_WORDS, TRUST_ENDINGS, new Set(['OF', 'THE', 'FOR'])];

/**
 * `BYRNE. LAURA C`, `O'LEARY. THOMAS J & SARA L`, `HEISER. JUSTIN B TAYLOR, MEGAN E`: a period keyed for the comma
 * after the first surname of a LAST FIRST cell (6 of the real rolls' cells). Read as the comma only in a person's
 * cell of three words or more (`ELIZ. SMITH` keeps its reading) whose first word has three letters or more and is
 * none of NOT_A_SURNAME_CLOSED (`CHAS.`, `STA.`, `TRS.`, `DEL.`), where no comma follows the next word (`STA. MARIA,
 * JUAN`: the period is inside the surname) and no word is an entity's, a trust's or an estate's (`NATL. BANK OF`,
 * `SMITH. JOHN REV TR`: their names as written).
 */
function periodForComma(s: string): string {
  const m = PERIOD_FIRST.exec(s);
  if (!m || m[3] === ',') return s;
  const first = m[1]!.replace(KEY_CHARS, '');
  if (NOT_A_SURNAME_CLOSED.some((words) => words.has(first))) return s;
  const words = s
    .split(/[\s,&]+/)
    .map((w) => w.replace(KEY_CHARS, ''))
    .filter((w) => w !== '');
  if (words.length < 3 || words.some((w) => NOT_A_PERSON.some((set) => set.has(w)))) return s;
  const period = s.indexOf('.');
  return `${s.slice(0, period)},${s.slice(period + 1)}`;
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
/**
 * Word j ends an owner: the cell's end, an `&`, a care-of, a trustee word, a marker (`ETAL`, `H/W`, `ET AL`, `JT TEN`)
 * but one that is a word of names too (`EIGHT TEN, LLC`: not a comma either, which parts a name's words as often).
 */
function endsOwner(ts: readonly Tok[], j: number): boolean {
  const k = ts[j]?.key;
  if (k === undefined) return true;
  const next = ts[j + 1]?.key ?? '';
  return (
    AMP.has(k) ||
    CARE_OF.has(k) ||
    TRUSTEE_MARKERS.has(k) ||
    (DROPPED_MARKERS.has(k) && !NAME_WORD_MARKERS.has(k)) ||
    tenancyPair(k, next) ||
    (k === 'ET' && ET_SECOND.has(next))
  );
}
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
    if (!endsOwner(ts, j)) return false;
  }
  return true;
}

/**
 * Drops what names no one: tenancy and executor markers (H/W, ET AL, JT TEN, JTRS, EX...; those that are words of
 * names too only where an owner ends), a life estate that ends an owner (as L/E: the life tenant owns, and is the
 * person named), CO of co-trustees, a trustee word's qualifier (SUCCESSOR), and a care-of tail; and the comma a
 * marker dropped between two commas leaves twice.
 */
export function dropMarkers(ts: Tok[]): Tok[] {
  const out: Tok[] = [];
  // Whether the cell's life estates can go: read at its first one only (most cells have none; this runs a few times
  // a cell, for every row of a roll).
  let lifeEstates: boolean | undefined;
  for (let i = 0; i < ts.length; i++) {
    const k = ts[i]!.key;
    if (CARE_OF.has(k)) break;
    const next = ts[i + 1]?.key ?? '';
    if (tenancyPair(k, next)) {
      i++;
      continue;
    }
    if (DROPPED_MARKERS.has(k) && (!NAME_WORD_MARKERS.has(k) || endsOwner(ts, i + 1))) continue;
    if (coTrustees(ts, i)) continue;
    // `SUCCESSOR TRUSTEE`, `SUC TR`: the qualifier goes with the trustee word (not a name: `SMALLWOOD, SUCCESSOR`).
    if (TRUSTEE_QUALIFIERS.has(k) && TRUSTEE_MARKERS.has(next)) continue;
    // A marker dropped between two commas leaves one (`VENTON, ANDREW, ETAL, TRUSTEES OF ...`).
    if (k === ',' && out[out.length - 1]?.key === ',') continue;
    // Two-word markers: ET AL, LIFE ESTATE (Lebanon's `(LF EST)`).
    if (lifeEstates === undefined && lifeEstateAt(ts, i)) lifeEstates = lifeEstatesClose(ts);
    if ((k === 'ET' && ET_SECOND.has(next)) || (lifeEstates && lifeEstateAt(ts, i))) {
      i++;
      continue;
    }
    out.push(ts[i]!);
  }
  return out;
}

export function trimConnectors(ts: Tok[]): Tok[] {
  let a = 0;
  let b = ts.length;
  while (a < b && (AMP.has(ts[a]!.key) || ts[a]!.key === ',')) a++;
  while (b > a && (AMP.has(ts[b - 1]!.key) || ts[b - 1]!.key === ',')) b--;
  return ts.slice(a, b);
}

export function joinText(ts: readonly Tok[]): string {
  let out = '';
  ts.forEach((t, i) => {
    // A comma against the word before it; a trustee word split from what follows it (tokens: `TR-1314`), as written.
    const prev = ts[i - 1];
    if (prev && t.key !== ',' && !(TRUSTEE_MARKERS.has(prev.key) && prev.text.endsWith('-'))) out += ' ';
    out += t.text;
  });
  return out;
}
