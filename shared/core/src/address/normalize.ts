// Address normalisation shared by ingest (keys stored with each record), lookup and autocomplete (keys of the query):
// both sides go through the same functions, so `123 North Main Street Apt 4` and `123 N MAIN ST #4` meet.
// Linear in the input, whatever it holds (normalize.adversarial.test.ts): every pattern is anchored or a single
// character class, and none has two quantifiers that can match the same characters; every loop reads the tokens
// once (no splice, slice or search of the rest inside a loop over them).
import {
  DIRECTIONALS,
  STANDALONE_DESIGNATORS,
  SUFFIX_ABBREVIATIONS,
  SUFFIX_WORDS,
  UNIT_DESIGNATORS,
} from './usps-tables.js';
import { numericOrdinals, ordinalSuffix } from './ordinals.js';
import { STATE_FIPS } from './states.js';

/**
 * The version of the address keys this code computes. Raise it with any change to what parseStreetLine returns for
 * a stored line: the online rekey (services/ingest/src/data/rekey.ts) then recomputes the keys of every stored row.
 */
export const ADDRESS_KEYS_VERSION = 4;

export interface StreetLine {
  /** House number as written after clean-up ("123", "123A", "12-34", "123 1/2"); null when the line has none. */
  houseNumber: string | null;
  /** Normalised street without the number: "N MAIN ST". */
  streetKey: string;
  /** Normalised number + street: "123 N MAIN ST" (the lookup key). */
  lineKey: string;
  /** Standard street type ("ST", "AVE") when the street has one; "" for "201 W 21ST" or "AVE J". */
  streetType: string;
  /**
   * The key that folds the spellings the line key keeps apart: the street name without its type and without spaces,
   * then the house number, the low end of a range ("223-225" -> "223"): "W21ST 201", "BAYRIDGE 130". Lookups fall back
   * to it when the line key finds nothing, and then check the street type (see `streetTypesAgree`).
   */
  looseKey: string;
  /**
   * When the line ends in a word that may be a street type or the end of the name ("7957 VALLEY GREEN"), the loose
   * key read with that word in the name ("VALLEYGREEN 7957"); otherwise null.
   */
  looseKeyUntyped: string | null;
  /** The post-directional after a street type ("E" of "20 PLAZA ST E"), or "" ("20 PLAZA E" has none: no type). */
  postDirectional: string;
  /** The loose key without the post-directional ("PLAZA 20" for "20 PLAZA ST E"); the loose key when there is none. */
  looseKeyNoPostDir: string;
  /** Standard designator ("APT", "STE", "#") or null. */
  unitDesignator: string | null;
  /**
   * Normalised unit id ("4", "4B", "REAR"); "" when there is no unit. Designators are not part of it ("APT 4" and
   * "#4" meet), except a floor's or a complex building's ("FL3", "BLDGB"): floor 3 is not suite 3.
   */
  unitKey: string;
}

const NAME_ABBREVIATIONS = new Map([
  ['SAINT', 'ST'],
  ['MOUNT', 'MT'],
  ['FORT', 'FT'],
]);
const NAME_WORDS = new Map([...NAME_ABBREVIATIONS].map(([word, abbr]) => [abbr, word]));
/** The standard directionals ("N", "SW"), as normalised words are. */
const STANDARD_DIRECTIONALS: ReadonlySet<string> = new Set(DIRECTIONALS.values());

/**
 * A name's words as one word, abbreviations written out ("BAY RDG" and "BAYRIDGE" -> "BAYRIDGE"), with a first or
 * last directional kept apart by "_" ("N_ASH" is not "NASH", "GREEN_E" is not "GREENE"): `looseDirectionals` reads
 * them back.
 */
function looseName(words: readonly string[]): string {
  const last = words.length - 1;
  return words
    .map((w, i) => {
      const joined = NAME_WORDS.get(w) ?? SUFFIX_WORDS.get(w) ?? w;
      if (last === 0 || !STANDARD_DIRECTIONALS.has(w)) return joined;
      return i === 0 ? `${w}_` : i === last ? `_${w}` : joined;
    })
    .join('');
}

/** The pre- and post-directional of a loose key's name ("N_BROADWAY" -> N, ""; "PLAZA_E" -> "", E). */
export function looseDirectionals(name: string): { pre: string; post: string } {
  const pre = name.indexOf('_');
  const post = name.lastIndexOf('_');
  return {
    pre: pre > 0 && STANDARD_DIRECTIONALS.has(name.slice(0, pre)) ? name.slice(0, pre) : '',
    post:
      post >= 0 && post < name.length - 1 && STANDARD_DIRECTIONALS.has(name.slice(post + 1))
        ? name.slice(post + 1)
        : '',
  };
}

const HOUSE_NUMBER = /^\d+[A-Z]?(-\d+[A-Z]?)?$/;
const FRACTION = /^\d\/\d$/;
/** A directional written onto a numbered street: "EAST78TH", "E13". */
const GLUED_DIRECTIONAL = /^(NORTH|SOUTH|EAST|WEST|N|S|E|W)(\d{1,3}(?:ST|ND|RD|TH)?)$/;

/** Uppercase, `#` split off, periods and apostrophes dropped, other punctuation to spaces. */
export function tokenize(text: string): string[] {
  return text
    .toUpperCase()
    .replace(/#/g, ' # ')
    .replace(/[.'’]/g, '')
    .replace(/(\d)-(\d)/g, '$1\uE000$2')
    .replace(/[^A-Z0-9#/\uE000]+/g, ' ')
    .replace(/\uE000/g, '-')
    .trim()
    .split(' ')
    .filter((t) => t !== '');
}

function unitKeyOf(tokens: readonly string[]): string {
  return tokens.map((t) => (/^\d+$/.test(t) ? String(Number(t)) : t)).join('');
}

/** A token that can be (part of) a unit id: anything but a designator, or a designator with a digit ("4B" is not). */
const isUnitIdToken = (t: string) => !UNIT_DESIGNATORS.has(t) || /\d/.test(t);

/** Designators of a part of the building that holds units (a floor, a building of a complex), not of a unit. */
const CONTAINER_DESIGNATORS: ReadonlySet<string> = new Set(['FL', 'BLDG']);
/**
 * Words before a number, or before the type before it, that make it a route's number, not a unit ("FM 1960",
 * "COUNTY RD 12", "US HWY 1", "CALLE 5", "CARR 2").
 */
const ROUTE_WORDS: ReadonlySet<string> = new Set([
  'FM',
  'CR',
  'SR',
  'US',
  'PR',
  'SH',
  'HC',
  'RR',
  'COUNTY',
  'STATE',
  'INTERSTATE',
  'TOWNSHIP',
  'TWP',
  'CALLE',
  'CARR',
  'CARRETERA',
  'RUTA',
]);
/** Street types whose number is the road's ("HIGHWAY 50", "ROUTE 9", "RANCH RD 620" is not: a road may have units). */
const ROUTE_TYPES: ReadonlySet<string> = new Set(['HWY', 'RTE', 'FWY', 'EXPY', 'TPKE', 'SKWY']);
const DIGIT_ORDINAL = /^\d+(ST|ND|RD|TH)$/;

/**
 * The unit of a line from its first designator at `from` on: the innermost one written ("14TH FLOOR ROOM 1418" is
 * room 1418, "APT 4 FL 2" is apartment 4): the last designator with an id that is not a floor or building, else the
 * first with an id. One pass.
 */
function innermostUnit(tokens: readonly string[], from: number): { designator: string; unit: string[] } {
  let first: { designator: string; unit: string[] } | null = null;
  let inner: { designator: string; unit: string[] } | null = null;
  let current: { designator: string; unit: string[] } | null = null;
  for (let i = from; i < tokens.length; i++) {
    const t = tokens[i]!;
    const designator = isUnitIdToken(t) ? undefined : UNIT_DESIGNATORS.get(t);
    if (designator !== undefined) {
      // "APT # 4": designators written together name one unit, by the first of them.
      if (current === null || current.unit.length > 0) current = { designator, unit: [] };
      continue;
    }
    if (current === null) continue;
    if (current.unit.length === 0) {
      first ??= current;
      if (!CONTAINER_DESIGNATORS.has(current.designator)) inner = current;
    }
    current.unit.push(t);
  }
  return inner ?? first ?? { designator: UNIT_DESIGNATORS.get(tokens[from]!)!, unit: [] };
}

/**
 * Whether the last token is a unit written without a designator: it holds a digit, is not an ordinal, and follows a
 * street type ("123 MAIN ST 4B"), a street type and a post-directional ("2641 GATELY DR W 707") or a name word
 * after at least one other street word ("203 N WABASH 608"); never after a directional alone ("201 W 16" is West
 * 16th), a route's word or type ("1000 W FM 1960", "100 US HWY 1", "5 COUNTY RD 12").
 */
function endsInBareUnit(tokens: readonly string[], streetStart: number): boolean {
  const last = tokens.length - 1;
  const unit = tokens[last]!;
  if (last - streetStart < 2 || !/\d/.test(unit) || DIGIT_ORDINAL.test(unit)) return false;
  const prev = tokens[last - 1]!;
  const type = SUFFIX_ABBREVIATIONS.get(prev);
  if (type !== undefined) return !ROUTE_TYPES.has(type) && !ROUTE_WORDS.has(tokens[last - 2]!);
  if (DIRECTIONALS.has(prev)) return last - 2 > streetStart && SUFFIX_ABBREVIATIONS.has(tokens[last - 2]!);
  return /[A-Z]/.test(prev) && !ROUTE_WORDS.has(prev) && !UNIT_DESIGNATORS.has(prev);
}

/** A street of one word then a unit ("4516 KIMBERLY 9", "425 4TH 32"): a name of 3 letters or more, or an ordinal. */
function isNameThenUnit(tokens: readonly string[], streetStart: number): boolean {
  const last = tokens.length - 1;
  const [name, unit] = [tokens[streetStart]!, tokens[last]!];
  if (last - streetStart !== 1 || !/\d/.test(unit) || DIGIT_ORDINAL.test(unit)) return false;
  const isName = /^[A-Z]{3,}$/.test(name) && !SUFFIX_ABBREVIATIONS.has(name) && !DIRECTIONALS.has(name);
  return (isName || DIGIT_ORDINAL.test(name)) && !ROUTE_WORDS.has(name) && !UNIT_DESIGNATORS.has(name);
}

/**
 * Finds where a unit starts: a designator after the number and at least one street word. One pass over the tokens
 * (and one more to collect the unit): where a designator is followed by nothing but designators ("# # # #"), the
 * rest is read once for a standalone one ("UNIT REAR"), and a designator with nothing after it ("1615 MIDLAND CT NE
 * UNIT") is dropped, unless it can end a street's name ("OCEAN PIER").
 */
function splitUnit(
  tokens: string[],
  streetStart: number,
): { street: string[]; designator: string | null; unit: string[] } {
  // The last token that can be a unit id: a designator before it has a unit after it; one past it has none.
  let lastUnitId = tokens.length - 1;
  while (lastUnitId >= 0 && !isUnitIdToken(tokens[lastUnitId]!)) lastUnitId--;
  for (let i = streetStart + 1; i < tokens.length; i++) {
    const designator = UNIT_DESIGNATORS.get(tokens[i]!);
    if (designator === undefined) continue;
    if (lastUnitId > i) {
      const inner = innermostUnit(tokens, i);
      return { street: tokens.slice(streetStart, i), designator: inner.designator, unit: inner.unit };
    }
    if (NAME_ENDING_DESIGNATORS.has(designator)) continue;
    // Nothing but designators from here on: the first standalone one is the unit ("REAR"), else there is none.
    let standalone: string | null = null;
    for (let j = i; j < tokens.length && standalone === null; j++) {
      const d = UNIT_DESIGNATORS.get(tokens[j]!);
      if (d !== undefined && STANDALONE_DESIGNATORS.has(d)) standalone = d;
    }
    return { street: tokens.slice(streetStart, i), designator: standalone, unit: standalone ? [standalone] : [] };
  }
  if (endsInBareUnit(tokens, streetStart) || isNameThenUnit(tokens, streetStart)) {
    const last = tokens.length - 1;
    return { street: tokens.slice(streetStart, last), designator: null, unit: [tokens[last]!] };
  }
  return { street: tokens.slice(streetStart), designator: null, unit: [] };
}

/**
 * Designators that can end a street's name ("OCEAN PIER", "BOAT SLIP", "BUS STOP", "OAK KEY"): kept in the street
 * when nothing follows them. Every other designator with nothing after it is dropped ("1615 MIDLAND CT NE UNIT").
 */
const NAME_ENDING_DESIGNATORS: ReadonlySet<string> = new Set(['PIER', 'SLIP', 'STOP', 'KEY', 'HNGR']);

/** The spellings of the floor designator ("FLOOR", "FL", "FLR"). */
const FLOOR_WORDS: ReadonlySet<string> = new Set([...UNIT_DESIGNATORS].filter(([, d]) => d === 'FL').map(([w]) => w));

/**
 * "41ST FLOOR", "SECOND FLOOR" -> "FL 41", "FL 2": a floor written as an ordinal before the word, after at least
 * one street word. One pass; a new list.
 */
function floorsAsUnits(tokens: readonly string[], streetStart: number): string[] {
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

/** The floor whose ordinal starts at `i`: one word ("41ST", "SECOND") or two ("FORTY FIRST") before the floor word. */
function floorAt(tokens: readonly string[], i: number): { number: string; words: number } | null {
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
 * A unit written before the address ("APT 4 10A DR MARTIN LUTHER KING BLVD", "REAR 12 OAK ST") moved after it; the
 * line otherwise unchanged.
 */
function unitLast(tokens: string[]): string[] {
  const designator = tokens.length > 3 ? UNIT_DESIGNATORS.get(tokens[0]!) : undefined;
  if (designator === undefined) return tokens;
  if (STANDALONE_DESIGNATORS.has(designator) && HOUSE_NUMBER.test(tokens[1]!)) return [...tokens.slice(1), tokens[0]!];
  if (isUnitIdToken(tokens[1]!) && HOUSE_NUMBER.test(tokens[2]!)) return [...tokens.slice(2), tokens[0]!, tokens[1]!];
  return tokens;
}

/**
 * Bare numbers that name a street become ordinals: before a street type ("250 WEST 15 STREET", "77 7 AVENUE") or
 * last after a directional ("201 WEST 16"). Other numbers ("COUNTY ROAD 12", "ROUTE 9", "AVENUE 3") stay.
 */
function numberedStreets(words: string[]): string[] {
  return words.map((t, i) => {
    if (!/^\d{1,3}$/.test(t)) return t;
    const next = words[i + 1];
    const prev = words[i - 1];
    const beforeType = next !== undefined && SUFFIX_ABBREVIATIONS.has(next);
    const afterDirectional = next === undefined && prev !== undefined && DIRECTIONALS.has(prev);
    return beforeType || afterDirectional ? ordinalSuffix(Number(t)) : t;
  });
}

function normalizeStreetWords(input: string[]): string[] {
  const glued = input.length > 0 ? GLUED_DIRECTIONAL.exec(input[0]!) : null;
  const words = glued ? [glued[1]!, glued[2]!, ...input.slice(1)] : input;
  const numbered = numberedStreets(numericOrdinals(words));
  // "NORTH EAST" written apart is one directional, unless the two are the whole street ("NORTH EAST" stays). Built
  // in one pass (a splice per pair would move the rest of the line each time); `length` is the line's length
  // with the pairs joined so far.
  const w: string[] = [];
  let length = numbered.length;
  for (let i = 0; i < numbered.length; i++) {
    const t = numbered[i]!;
    const next = numbered[i + 1];
    if ((t === 'NORTH' || t === 'SOUTH') && (next === 'EAST' || next === 'WEST') && length > 2) {
      w.push(t + next);
      length--;
      i++;
    } else w.push(t);
  }
  const n = w.length;
  return w.map((t, i) => {
    const dir = DIRECTIONALS.get(t);
    // A directional is abbreviated before or after the name, never when it is the name ("NORTH ST", "N ST").
    if (dir !== undefined && n > 1 && (i === 0 || i === n - 1)) {
      const restIsOnlySuffix = n === 2 && SUFFIX_ABBREVIATIONS.has(w[1 - i]!) && i === 0;
      if (!restIsOnlySuffix) return dir;
    }
    // Suffix words are abbreviated wherever they stand, except when they are the street's only word.
    const suffix = SUFFIX_ABBREVIATIONS.get(t);
    if (suffix !== undefined && n > 1) return suffix;
    return NAME_ABBREVIATIONS.get(t) ?? t;
  });
}

/**
 * Whether the part after a comma is a unit: it starts with a designator ("APT 4", "#2H") or a floor ("14TH FLOOR"),
 * or it is a short id ("2C", "4-F", "307 A", "BSMT", "LE"). A city, a state ("CA") or a ZIP ("CA 95814") is not.
 */
function isUnitPart(tokens: readonly string[]): boolean {
  const first = tokens[0];
  if (first === undefined) return false;
  if (UNIT_DESIGNATORS.has(first) || floorAt(tokens, 0) !== null) return true;
  if (tokens.length > 2 || !tokens.every((t) => /^[A-Z0-9-]+$/.test(t))) return false;
  const joined = tokens.join('');
  if (/\d/.test(joined)) return joined.length <= 6 && !/^\d{5}$/.test(joined);
  return tokens.length === 1 && joined.length <= 3 && STATE_FIPS[joined] === undefined;
}

/** The standard street types ("ST", "AVE"): what a line's type can be once normalised. */
const STANDARD_TYPES: ReadonlySet<string> = new Set(SUFFIX_ABBREVIATIONS.values());

/** The street's type and its name without it (a post-directional stays with the name): "PENNSYLVANIA AVE NW". */
function splitStreetType(words: readonly string[]): { type: string; name: string[]; postDirectional: string } {
  const last = words.length - 1;
  const postDirectional = last >= 2 && DIRECTIONALS.has(words[last]!) ? 1 : 0;
  const typeAt = last - postDirectional;
  if (typeAt >= 1 && STANDARD_TYPES.has(words[typeAt]!)) {
    const post = postDirectional ? words[last]! : '';
    return { type: words[typeAt]!, name: words.filter((_, i) => i !== typeAt), postDirectional: post };
  }
  return { type: '', name: [...words], postDirectional: '' };
}

/** The low end of a house-number range ("223-225" -> "223"); a Queens-style "37-15" (not rising) stays whole. */
function houseNumberLow(houseNumber: string): string {
  const range = /^(\d+)-(\d+)$/.exec(houseNumber);
  return range && Number(range[2]) > Number(range[1]) ? range[1]! : houseNumber;
}

/** Parses one street line ("123 North Main Street Apt 4", "123 N MAIN ST #4") into its lookup keys. */
export function parseStreetLine(input: string): StreetLine {
  // A comma-separated unit part ("123 Main St, Apt 4", "345 W 21ST ST, 2C") joins the line as a unit; other parts
  // (city, state) are dropped. A unit part first ("Apt 4, 10A Main St") is read after the street.
  const parts = input.split(',');
  if (parts.length > 1 && UNIT_DESIGNATORS.has(tokenize(parts[0]!)[0] ?? '')) {
    const next = tokenize(parts[1]!);
    if (next.length > 1 && HOUSE_NUMBER.test(next[0]!)) parts.splice(0, 2, parts[1]!, parts[0]!);
  }
  let text = parts[0] ?? '';
  for (const part of parts.slice(1)) {
    const tokens = tokenize(part);
    if (!isUnitPart(tokens)) break;
    text += UNIT_DESIGNATORS.has(tokens[0]!) || floorAt(tokens, 0) !== null ? ` ${part}` : ` # ${part}`;
  }
  let tokens = unitLast(tokenize(text));
  // "104/106 22ND ST" is a range; "187GATES AVE" is a number glued to its street's name.
  const slashRange = tokens.length > 1 ? /^(\d{2,})\/(\d+)$/.exec(tokens[0]!) : null;
  if (slashRange && Number(slashRange[2]) > Number(slashRange[1])) tokens[0] = `${slashRange[1]}-${slashRange[2]}`;
  const glued = tokens.length > 1 ? /^(\d+)([A-Z]{3,})$/.exec(tokens[0]!) : null;
  if (glued) tokens.splice(0, 1, glued[1]!, glued[2]!);
  let streetStart = 0;
  let houseNumber: string | null = null;
  if (tokens.length > 1 && HOUSE_NUMBER.test(tokens[0]!)) {
    houseNumber = tokens[0]!;
    streetStart = 1;
    if (tokens.length > 2 && FRACTION.test(tokens[1]!)) {
      houseNumber += ` ${tokens[1]}`;
      streetStart = 2;
    } else if (isHouseLetter(tokens, houseNumber)) {
      houseNumber += tokens[1]; // "4922 B SOUTH CORNELL AVE" is 4922B
      streetStart = 2;
    }
  }
  tokens = floorsAsUnits(tokens, streetStart);
  const { street, designator, unit } = splitUnit(tokens, streetStart);
  const words = normalizeStreetWords(street);
  const streetKey = words.join(' ');
  const { type, name, postDirectional } = splitStreetType(words);
  const house = houseNumber === null ? '' : houseNumberLow(houseNumber);
  const looseKey = `${looseName(name)} ${house}`.trim();
  return {
    houseNumber,
    streetKey,
    lineKey: houseNumber === null ? streetKey : `${houseNumber} ${streetKey}`.trim(),
    streetType: type,
    looseKey,
    looseKeyUntyped: type === '' ? null : `${looseName(words)} ${house}`.trim(),
    postDirectional,
    looseKeyNoPostDir: postDirectional === '' ? looseKey : `${looseName(name.slice(0, -1))} ${house}`.trim(),
    unitDesignator: designator,
    // Floor 3 and suite 3 are two units of one building: a floor's (or a complex's building's) key says so.
    unitKey: (designator !== null && CONTAINER_DESIGNATORS.has(designator) ? designator : '') + unitKeyOf(unit),
  };
}

/**
 * A house number's letter written apart ("4922 B SOUTH CORNELL AVE", "400 A SOUTH BLVD"): one letter that is not a
 * directional, after a number without one, with at least two words after it of which the first is not a street
 * type or a designator ("12 B ST" is B Street).
 */
function isHouseLetter(tokens: readonly string[], houseNumber: string): boolean {
  const letter = tokens[1]!;
  const next = tokens[2];
  return (
    tokens.length > 3 &&
    /^\d+$/.test(houseNumber) &&
    /^[A-Z]$/.test(letter) &&
    !DIRECTIONALS.has(letter) &&
    next !== undefined &&
    !SUFFIX_ABBREVIATIONS.has(next) &&
    !UNIT_DESIGNATORS.has(next)
  );
}

const CITY_ABBREVIATIONS = new Map([
  ['ST', 'SAINT'],
  ['STE', 'SAINTE'],
  ['FT', 'FORT'],
  ['MT', 'MOUNT'],
]);

/** "St. Louis" and "SAINT LOUIS" -> "SAINT LOUIS"; punctuation and case removed. */
export function normalizeCity(city: string): string {
  const t = tokenize(city).filter((x) => x !== '#');
  if (t.length > 1 && CITY_ABBREVIATIONS.has(t[0]!)) t[0] = CITY_ABBREVIATIONS.get(t[0]!)!;
  return t.join(' ');
}

/** "95814-1234" -> { zip5: "95814", zip4: "1234" }. */
export function splitZip(zip: string): { zip5: string; zip4: string } {
  const digits = zip.replace(/\D/g, '');
  return { zip5: digits.slice(0, 5), zip4: digits.length >= 9 ? digits.slice(5, 9) : '' };
}

/** APN without special characters, as matched against the stored stripped ids: "015-0123-004" -> "0150123004". */
export function apnKey(apn: string): string {
  return apn.toUpperCase().replace(/[^0-9A-Z]/g, '');
}

/** Person or company name for matching: "O'Brien-Smith" -> "OBRIEN SMITH". */
export function nameKey(name: string): string {
  return tokenize(name)
    .filter((t) => t !== '#')
    .join(' ');
}

/** What a county's name may end in, longest first ("CITY AND BOROUGH" before "BOROUGH"). */
const COUNTY_WORDS = ['CITY AND BOROUGH', 'MUNICIPALITY', 'CENSUS AREA', 'BOROUGH', 'COUNTY', 'PARISH'];

/** "Sacramento County" and "SACRAMENTO" -> "SACRAMENTO". */
export function countyKey(county: string): string {
  const key = nameKey(county);
  // A word at the end, after a word boundary (as /\b(COUNTY|...)$/ read it, without trying every position).
  const word = COUNTY_WORDS.find((w) => key.endsWith(w) && !/\w/.test(key.charAt(key.length - w.length - 1)));
  return (word === undefined ? key : key.slice(0, key.length - word.length)).trim();
}
