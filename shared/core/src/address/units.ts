// The unit part of a street line: where it starts, what its key is. Read the same way for stored and asked lines
// (a unit without a designator after a street type, after a type and a post-directional, after a route's number, or
// written with a dash: `N-2`), except the guesses that only a query may make (a number after a street without a
// type, or after a route's type and a post-directional: `bareUnit`), and one more a mailing line's second reading
// makes (one letter after the type: `letters`, parseMailingLine).
// Linear in the input: every loop reads the tokens once.
import { numericOrdinals } from './ordinals.js';
import { STATE_FIPS } from './states.js';
import { DIRECTIONALS, STANDALONE_DESIGNATORS, SUFFIX_ABBREVIATIONS, UNIT_DESIGNATORS } from './usps-tables.js';

export const HOUSE_NUMBER = /^\d+[A-Z]?(-\d+[A-Z]?)?$/;
const DIGIT_ORDINAL = /^\d+(ST|ND|RD|TH)$/;

/** A token that can be (part of) a unit id: anything but a designator, or a designator with a digit ("4B" is not). */
const isUnitIdToken = (t: string) => !UNIT_DESIGNATORS.has(t) || /\d/.test(t);

/**
 * Designators that can end a street's name ("OCEAN PIER", "BOAT SLIP", "BUS STOP", "OAK KEY"): kept in the street
 * when nothing follows them. Every other designator with nothing after it is dropped ("1615 MIDLAND CT NE UNIT").
 */
const NAME_ENDING_DESIGNATORS: ReadonlySet<string> = new Set(['PIER', 'SLIP', 'STOP', 'KEY', 'HNGR']);

/**
 * Words before a number, or before the type before it, that make it a route's number, not a unit ("FM 1960",
 * "COUNTY RD 12", "US HWY 1", "CALLE 5", "CARR 2", "IH 35").
 */
const ROUTE_WORDS: ReadonlySet<string> = new Set(
  'FM CR SR US PR SH HC RR IH I TX CO COUNTY STATE INTERSTATE TOWNSHIP TWP CALLE CARR CARRETERA RUTA BELTWAY'.split(
    ' ',
  ),
);
/**
 * Street types whose number is the road's ("HIGHWAY 50", "ROUTE 9"). Not a road's: `123 MAIN RD 4` is unit 4 (and
 * `RANCH RD 620 4` keeps both numbers in its name: a number after a number is never a bare unit).
 */
const ROUTE_TYPES: ReadonlySet<string> = new Set(['HWY', 'RTE', 'FWY', 'EXPY', 'TPKE', 'SKWY', 'LOOP', 'SPUR']);

export interface UnitSplit {
  street: string[];
  /** The designator of the unit ("APT", "STE", "#"), or null. */
  designator: string | null;
  /** Normalised unit id, "" when there is none (see StreetLine.unitKey). */
  unitKey: string;
  /** A designator with nothing after it ("... UNIT", "... APT #"): a unit was meant, its id not given. */
  unnamed: boolean;
}

const idKey = (ids: readonly string[]) => ids.map((t) => (/^\d+$/.test(t) ? String(Number(t)) : t)).join('');

/**
 * The key of a unit written as designator segments ("BLDG 3 APT 201", "14TH FLOOR ROOM 1418" read as FL 14 RM 1418):
 * every segment's ids, apart, a complex's building first and named ("BLDG3/201": apartment 201 of building 3 is not
 * of building 4; "STE 100 RM 5" is "100/5", not suite 1005); a floor only when no unit is written ("FL3": floor 3 is
 * not suite 3; "FL 14 RM 1418" is room 1418; "BLDG 2 FL 3" is "BLDG2/FL3"). The designator given is the innermost
 * one that is not a floor or building. One pass.
 */
function unitOfSegments(tokens: readonly string[], from: number): { designator: string; unitKey: string } {
  const segments: { designator: string; ids: string[] }[] = [];
  let current: { designator: string; ids: string[] } | null = null;
  for (let i = from; i < tokens.length; i++) {
    const t = tokens[i]!;
    const designator = isUnitIdToken(t) ? undefined : UNIT_DESIGNATORS.get(t);
    if (designator !== undefined) {
      // "APT # 4": designators written together name one unit, by the first of them.
      if (current === null || current.ids.length > 0) current = { designator, ids: [] };
      continue;
    }
    if (current === null) continue;
    if (current.ids.length === 0) segments.push(current);
    current.ids.push(t);
  }
  const buildings = segments.filter((s) => s.designator === 'BLDG');
  const units = segments.filter((s) => s.designator !== 'BLDG' && s.designator !== 'FL');
  const floors = units.length === 0 ? segments.filter((s) => s.designator === 'FL').slice(0, 1) : [];
  // Segments apart ("BLDG3/21" is not "BLDG32/1", "100/5" is not "1005"); one segment is its ids ("4B").
  const key = [
    ...buildings.map((s) => `BLDG${idKey(s.ids)}`),
    ...floors.map((s) => `FL${idKey(s.ids)}`),
    ...units.map((s) => idKey(s.ids)),
  ].join('/');
  return { designator: (units.at(-1) ?? floors[0] ?? buildings.at(-1) ?? segments[0]!).designator, unitKey: key };
}

/**
 * Whether a street's words are a type with no name (`ST`, `ST NW`, `AVE N`, `ST APT 4`, `ST 4`): a type, then only
 * directionals, and a unit from its designator on or, after Street, a last id with a digit (no street is named
 * Street 4; `ROAD 12`, `AVENUE 416` and `HWY 29` are numbered roads' names). What a letter before them is: the
 * street's name (`12 B ST`), not the house's.
 */
export function typeWithoutName(words: readonly string[]): boolean {
  if (words.length === 0 || !SUFFIX_ABBREVIATIONS.has(words[0]!)) return false;
  const last = words.length - 1;
  for (let i = 1; i <= last; i++) {
    const w = words[i]!;
    if (UNIT_DESIGNATORS.has(w)) return true;
    if (i === last && /\d/.test(w)) return words[0] === 'ST';
    if (!DIRECTIONALS.has(w)) return false;
  }
  return true;
}

/**
 * Whether the token at `typeAt` is a street type that a unit may follow: not a route's type, nor after a route's word
 * (after `MAIN ST` a number is a unit; after `US HWY` or `COUNTY RD` it is the route's number).
 */
function typeTakesUnit(tokens: readonly string[], typeAt: number): boolean {
  const type = SUFFIX_ABBREVIATIONS.get(tokens[typeAt]!);
  return type !== undefined && !ROUTE_TYPES.has(type) && !ROUTE_WORDS.has(tokens[typeAt - 1]!);
}

/**
 * Whether the last token is a unit written without a designator. On both sides: after a street type ("123 MAIN ST
 * 4B"), unless the type or the word before it makes the number a route's ("100 US HWY 1", "5 COUNTY RD 12"); after
 * such a type and a post-directional ("211 5TH ST SW 101", "2641 GATELY DR W 707": keys v8, it was West 101st);
 * letters and digits after a route's number (endsInRouteUnit). Only for a query (`bareUnit`, a guess tried when the
 * line as read finds nothing): after a route's type and a post-directional ("100 US HWY N 4"), after a name word
 * that follows another street word ("203 N WABASH 608"), or after a one-word street ("4516 KIMBERLY 9", "425 4TH
 * 32"); never after a directional alone ("201 W 16" is West 16th), a route's word ("1000 W FM 1960", "6500 N IH
 * 35"), or when it is an ordinal. For a mailing line's second reading only (`letters`), one letter after the type
 * too (bareLetterUnit).
 */
function endsInBareUnit(tokens: readonly string[], streetStart: number, bareUnit: boolean, letters: boolean): boolean {
  const last = tokens.length - 1;
  const unit = tokens[last]!;
  const words = last - streetStart;
  if (words < 1) return false;
  const prev = tokens[last - 1]!;
  if (letters && words >= 2 && bareLetterUnit(tokens, last)) return true;
  if (!/\d/.test(unit) || DIGIT_ORDINAL.test(unit)) return false;
  if (SUFFIX_ABBREVIATIONS.has(prev)) return words >= 2 && typeTakesUnit(tokens, last - 1);
  if (words >= 3 && DIRECTIONALS.has(prev) && typeTakesUnit(tokens, last - 2)) return true;
  if (words >= 2 && endsInRouteUnit(tokens, last)) return true;
  if (!bareUnit || ROUTE_WORDS.has(prev) || UNIT_DESIGNATORS.has(prev)) return false;
  if (DIRECTIONALS.has(prev)) return words >= 3 && SUFFIX_ABBREVIATIONS.has(tokens[last - 2]!);
  if (words >= 2) return /[A-Z]/.test(prev);
  return /^[A-Z]{3,}$/.test(prev) || DIGIT_ORDINAL.test(prev);
}

const ROUTE_NUMBER = /^\d+[A-Z]?$/;
/** Letters then digits, or digits then letters: `B3`, `13UP`. */
const LETTERS_DIGITS_EITHER_ORDER = /^(?:[A-Z]+\d+|\d+[A-Z]+)$/;

/**
 * Whether the last token is a unit of letters and digits after a route's type and its number, `367 NH ROUTE 120
 * B3`, `86 NH ROUTE 4A 13UP` (Lebanon's), `100 ROUTE 9 12B`, where nothing else could stand: a route's number is one
 * word. Not a number alone (`HWY 50 4` may be the route's name) nor letters alone (`ROUTE 5 N` is a directional).
 */
function endsInRouteUnit(tokens: readonly string[], last: number): boolean {
  if (!LETTERS_DIGITS_EITHER_ORDER.test(tokens[last]!) || !ROUTE_NUMBER.test(tokens[last - 1]!)) return false;
  const type = SUFFIX_ABBREVIATIONS.get(tokens[last - 2]!);
  return type !== undefined && ROUTE_TYPES.has(type);
}

/**
 * A mailing line's unit of one letter after the type, `1130 E HIGH ST D`, `1703 ESSEX RD B`: not a directional (`MAIN
 * ST E`), not after a route's type or word, and with a name word before the type that is not a directional (`E
 * AVENUE B` is Avenue B). Not a query's: `100 X LN A` may be house 100A, and a letter-named street (`OLD AVENUE B`)
 * read so would answer another.
 */
function bareLetterUnit(tokens: readonly string[], last: number): boolean {
  const unit = tokens[last]!;
  if (unit.length !== 1 || unit < 'A' || unit > 'Z' || DIRECTIONALS.has(unit)) return false;
  return typeTakesUnit(tokens, last - 1) && !DIRECTIONALS.has(tokens[last - 2]!);
}

/**
 * Whether the last two tokens are one unit written without a designator after a street type: a building and its
 * unit, each letters then digits (Lebanon's hangars, `54 AIRPORT RD B2 U7`, written `#B2 U1` beside them), on both
 * sides. Not two numbers: `100 RANCH RD 620 4` is Ranch Road 620, and `1 23` would be one key with `12 3` and `123`;
 * not after a route's type or word.
 */
const LETTERS_THEN_DIGITS = /^[A-Z]+\d+$/;
function endsInBarePair(tokens: readonly string[], streetStart: number): boolean {
  const last = tokens.length - 1;
  // A name word, the type, then the two.
  if (last - 3 < streetStart) return false;
  if (!LETTERS_THEN_DIGITS.test(tokens[last - 1]!) || !LETTERS_THEN_DIGITS.test(tokens[last]!)) return false;
  return typeTakesUnit(tokens, last - 2);
}

/** A unit's id of a letter or two, a dash (or an en or em dash) and a number, written last: Lebanon's `N-2`. */
const DASHED_ID = /^[A-Z]{1,2}[-\u2013\u2014]\d{1,4}[A-Z]?$/i;
/** A house number's half written apart: `60 1/2`. */
export const FRACTION = /^\d\/\d$/;
/** `60-1/2`: a house number and its half written with a dash. */
export const DASHED_FRACTION = /^(\d+)-(\d\/\d)$/;

/**
 * A route's letters written before its number with a dash: a route word (`I-95`, `US-1`, `SR-9`), `RT` (`RT-9`) or a
 * state's code (`NH-120`) that is no directional's or street type's (`NE-2` and `CT-1` are units, as `NW-2` is).
 */
function isRouteLetters(t: string): boolean {
  if (ROUTE_WORDS.has(t) || t === 'RT') return true;
  return STATE_FIPS[t] !== undefined && !DIRECTIONALS.has(t) && !SUFFIX_ABBREVIATIONS.has(t);
}

/**
 * The tokens of `text` with their last two joined where the line ends in one id written with a dash after a street
 * type (`31 OLD ETNA RD N-2`, which tokenizing reads as the directional N and the number 2: North 2nd): `N2`, a unit
 * written without a designator. Only after a name word and its type (`10 ST A-1` is `ST A 1`), not after a route's
 * type or word (`100 US HWY I-95`), and not where its letters are a route word's or a state's (`100 FRONTAGE RD
 * I-95`, `US-1`, `NH-120`: a route's designation). A query may mean those as a unit too (`asked`, tried when the
 * line as read finds nothing): `9 Linden Dr I-1` for Lebanon's `9 LINDEN DR I1`.
 */
export function dashedUnitJoined(text: string, tokens: string[], asked: boolean): string[] {
  const n = tokens.length;
  let firstNameAt = n > 0 && (HOUSE_NUMBER.test(tokens[0]!) || DASHED_FRACTION.test(tokens[0]!)) ? 1 : 0;
  if (firstNameAt === 1 && FRACTION.test(tokens[1] ?? '')) firstNameAt = 2;
  if (n - 4 < firstNameAt || !/[-\u2013\u2014]/.test(text)) return tokens;
  if (!asked && isRouteLetters(tokens[n - 2]!)) return tokens;
  const trimmed = text.trimEnd();
  if (!DASHED_ID.test(trimmed.slice(trimmed.lastIndexOf(' ') + 1)) || !typeTakesUnit(tokens, n - 3)) return tokens;
  return [...tokens.slice(0, n - 2), tokens[n - 2]! + tokens[n - 1]!];
}

/**
 * Finds where a unit starts: a designator after the number and at least one street word. One pass over the tokens
 * (and one more to collect the unit): where a designator is followed by nothing but designators ("# # # #"), the
 * rest is read once for a standalone one ("UNIT REAR"), and a designator with nothing after it is dropped, unless it
 * can end a street's name ("OCEAN PIER").
 */
export function splitUnit(
  tokens: readonly string[],
  streetStart: number,
  bareUnit: boolean,
  letters = false,
): UnitSplit {
  // The last token that can be a unit id: a designator before it has a unit after it; one past it has none.
  let lastUnitId = tokens.length - 1;
  while (lastUnitId >= 0 && !isUnitIdToken(tokens[lastUnitId]!)) lastUnitId--;
  for (let i = streetStart + 1; i < tokens.length; i++) {
    const designator = UNIT_DESIGNATORS.get(tokens[i]!);
    if (designator === undefined) continue;
    if (lastUnitId > i) return { street: tokens.slice(streetStart, i), ...unitOfSegments(tokens, i), unnamed: false };
    if (NAME_ENDING_DESIGNATORS.has(designator)) continue;
    // Nothing but designators from here on: the first standalone one is the unit ("REAR"), else there is none.
    let standalone: string | null = null;
    for (let j = i; j < tokens.length && standalone === null; j++) {
      const d = UNIT_DESIGNATORS.get(tokens[j]!);
      if (d !== undefined && STANDALONE_DESIGNATORS.has(d)) standalone = d;
    }
    const street = tokens.slice(streetStart, i);
    return { street, designator: standalone, unitKey: standalone ?? '', unnamed: standalone === null };
  }
  if (endsInBareUnit(tokens, streetStart, bareUnit, letters)) {
    const last = tokens.length - 1;
    return {
      street: tokens.slice(streetStart, last),
      designator: null,
      unitKey: idKey([tokens[last]!]),
      unnamed: false,
    };
  }
  if (endsInBarePair(tokens, streetStart)) {
    const first = tokens.length - 2;
    return {
      street: tokens.slice(streetStart, first),
      designator: null,
      unitKey: idKey(tokens.slice(first)),
      unnamed: false,
    };
  }
  return { street: tokens.slice(streetStart), designator: null, unitKey: '', unnamed: false };
}

/** The spellings of the floor designator ("FLOOR", "FL", "FLR"). */
const FLOOR_WORDS: ReadonlySet<string> = new Set([...UNIT_DESIGNATORS].filter(([, d]) => d === 'FL').map(([w]) => w));

/** The floor whose ordinal starts at `i`: one word ("41ST", "SECOND") or two ("FORTY FIRST") before the floor word. */
export function floorAt(tokens: readonly string[], i: number): { number: string; words: number } | null {
  for (const words of [1, 2]) {
    const floorWord = tokens[i + words];
    if (floorWord === undefined || !FLOOR_WORDS.has(floorWord)) continue;
    const ordinal = numericOrdinals(tokens.slice(i, i + words));
    if (ordinal.length === 1 && DIGIT_ORDINAL.test(ordinal[0]!)) {
      return { number: String(Number.parseInt(ordinal[0]!, 10)), words };
    }
  }
  return null;
}

/**
 * "41ST FLOOR", "SECOND FLOOR" -> "FL 41", "FL 2": a floor written as an ordinal before the word, after at least
 * one street word. One pass; a new list.
 */
export function floorsAsUnits(tokens: readonly string[], streetStart: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const floor = i > streetStart ? floorAt(tokens, i) : null;
    if (floor === null) out.push(tokens[i]!);
    else {
      out.push('FL', floor.number);
      i += floor.words;
    }
  }
  return out;
}

/**
 * A unit written before the address ("APT 4 10A DR MARTIN LUTHER KING BLVD", "# 4 10A ...") moved after it: a
 * designator, its id, then a house number and a street. A descriptor first is left ("LOWER 5 MILE RD" is a street).
 */
export function unitLast(tokens: string[]): string[] {
  const designator = tokens.length > 3 ? UNIT_DESIGNATORS.get(tokens[0]!) : undefined;
  if (designator === undefined || STANDALONE_DESIGNATORS.has(designator)) return tokens;
  if (isUnitIdToken(tokens[1]!) && HOUSE_NUMBER.test(tokens[2]!)) return [...tokens.slice(2), tokens[0]!, tokens[1]!];
  return tokens;
}

/**
 * What the part after a comma is: a unit when it starts with a designator ("APT 4", "#2H") or a floor ("14TH
 * FLOOR"), or when it is a short id ("2C", "4-F", "307 A", "BSMT", "LE"); a floor or a complex's building, after
 * which another unit part may follow ("14th Floor, Room 1418"). A city, a state ("CA") or a ZIP ("CA 95814") is
 * none.
 */
export function unitPart(tokens: readonly string[]): 'unit' | 'container' | null {
  const first = tokens[0];
  if (first === undefined) return null;
  const designator = UNIT_DESIGNATORS.get(first);
  if (floorAt(tokens, 0) !== null || designator === 'FL' || designator === 'BLDG') return 'container';
  if (designator !== undefined) return 'unit';
  if (tokens.length > 2 || !tokens.every((t) => /^[A-Z0-9-]+$/.test(t))) return null;
  const joined = tokens.join('');
  if (/\d/.test(joined)) return joined.length <= 6 && !/^\d{5}$/.test(joined) ? 'unit' : null;
  return tokens.length === 1 && joined.length <= 3 && STATE_FIPS[joined] === undefined ? 'unit' : null;
}
