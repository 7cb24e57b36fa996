// Address normalisation shared by ingest (keys stored with each record), lookup and autocomplete (keys of the query):
// both sides go through the same functions, so `123 North Main Street Apt 4` and `123 N MAIN ST #4` meet.
// Linear in the input, whatever it holds (normalize.adversarial.test.ts): every pattern is anchored or a single
// character class, and none has two quantifiers that can match the same characters; every loop reads the tokens
// once (no splice, slice or search of the rest inside a loop over them).
import { DIRECTIONALS, SUFFIX_ABBREVIATIONS, SUFFIX_WORDS, UNIT_DESIGNATORS } from './usps-tables.js';
import { numericOrdinals, ordinalSuffix } from './ordinals.js';
import {
  DASHED_FRACTION,
  dashedUnitJoined,
  FRACTION,
  floorAt,
  floorsAsUnits,
  HOUSE_NUMBER,
  splitUnit,
  typeWithoutName,
  unitLast,
  unitPart,
} from './units.js';

/**
 * The version of the address keys this code computes. Raise it with any change to what parseStreetLine returns for
 * a stored line: the online rekey (services/ingest/src/data/rekey.ts) then recomputes the keys of every stored row.
 */
export const ADDRESS_KEYS_VERSION = 8;

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
  /** A designator with nothing after it ("1615 MIDLAND CT NE UNIT"): a unit meant, its id not given (unitKey ""). */
  unitUnnamed: boolean;
  /** Standard designator ("APT", "STE", "#") or null. */
  unitDesignator: string | null;
  /**
   * Normalised unit id ("4", "4B", "REAR"); "" when there is no unit. Designators are not part of it ("APT 4" and
   * "#4" meet), except a floor's or a complex building's ("FL3", "BLDG3201"): floor 3 is not suite 3, apartment 201
   * of building 3 is not that of building 4.
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

/** A directional written onto a numbered street: "EAST78TH", "E13". */
const GLUED_DIRECTIONAL = /^(NORTH|SOUTH|EAST|WEST|N|S|E|W)(\d{1,3}(?:ST|ND|RD|TH)?)$/;

/**
 * Letters, digits, slashes and spaces only: what most lines, names and cities are. Tokenizing such a text is
 * splitting its uppercase on spaces (no rule below applies but the runs of spaces), which tokenize does without its
 * six passes over the text (about ten texts a row of a county file).
 */
const PLAIN_TEXT = /^[A-Za-z0-9/ ]*$/;

/** Uppercase, `#` split off, periods and apostrophes dropped, other punctuation to spaces. */
export function tokenize(text: string): string[] {
  if (PLAIN_TEXT.test(text)) {
    const tokens: string[] = [];
    for (const t of text.toUpperCase().split(' ')) if (t !== '') tokens.push(t);
    return tokens;
  }
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
  return parseLine(input, false, false);
}

/**
 * The line as a query may also mean it, where a stored line is never read so: a number after the street with no
 * designator read as a unit ("203 N WABASH 608", "4516 KIMBERLY 9"; see units.ts), an O, L or D after the number as
 * its letter ("1299 D SALEM CT"). Lookups try it when the line as parsed finds nothing.
 */
export function parseAskedLine(input: string): StreetLine {
  return parseLine(input, true, false);
}

/**
 * A mailing line as its owner may mean it, for absentee ownership's second reading (services/ingest absentee.ts): as a
 * query (parseAskedLine), and one letter after the street's type as the unit ("1130 E HIGH ST D"). Never a stored
 * line's keys, nor a query's: a change here changes absentee flags as records are rendered again, not keys.
 */
export function parseMailingLine(input: string): StreetLine {
  return parseLine(input, true, true);
}

/** A house number, a dash (or an en or em dash) and one letter, then the street: `1604-E MONTICELLO AVE`. */
const NUMBER_DASH_LETTER = /^\s*(\d+)[-\u2013\u2014]([A-Z])\s+(?=\S)/i;

/**
 * A line numbered with a letter after a dash, `1604-E MONTICELLO AVE`, `100-A MELBOURNE PARK CIR`, written as the unit
 * that letter is where a county writes it so (Charlottesville's address points: `1604 MONTICELLO AVE #E`):
 * `1604 MONTICELLO AVE # E`; null for any other line. Only a line written with the dash (`1604 E MONTICELLO AVE`,
 * East Monticello, has none). The stored line keeps its own reading (house 1604E or 100A: houseLetterJoined): this
 * is a second key a caller may look for, never the line's.
 */
export function dashLetterAsUnit(line: string): string | null {
  const m = NUMBER_DASH_LETTER.exec(line);
  return m ? `${m[1]} ${line.slice(m[0].length)} # ${m[2]!.toUpperCase()}` : null;
}

/**
 * The tokens of `text` with the house number's letter joined to it where the line writes them with a dash (keys v8):
 * `1604-E MONTICELLO AVE` is house 1604E, as `100-A MELBOURNE PARK CIR` is 100A, `100-D ...` 100D (an O, L or D
 * written apart may be a name's: `100 O NEAL ST`) and `405-A VALLEY RD EXT` 405A (a letter written apart before a
 * type's word is a street's: `400 A PARK AVE`): the dash ties the letter to the number, and Charlottesville's address
 * points write these `1604 MONTICELLO AVE #E`. Not where the street would be left a type alone (`12-B ST`, `12-B ST
 * NW`, `5-A AVE N`, `12-B ST 4`: B Street, A Avenue; typeWithoutName). As a query may also mean it (`asked`), a
 * directional's letter is left apart: `123-N MAIN ST`, when no house 123N is stored, is tried as 123 North Main.
 */
function houseLetterJoined(text: string, tokens: string[], asked: boolean): string[] {
  const m = NUMBER_DASH_LETTER.exec(text);
  if (m === null) return tokens;
  const [, number, letter] = m as unknown as [string, string, string];
  if (tokens[0] !== number || tokens[1] !== letter.toUpperCase()) return tokens;
  if ((asked && DIRECTIONALS.has(tokens[1])) || typeWithoutName(tokens.slice(2))) return tokens;
  return [number + tokens[1], ...tokens.slice(2)];
}

function parseLine(input: string, asked: boolean, letters: boolean): StreetLine {
  // A comma-separated unit part ("123 Main St, Apt 4", "345 W 21ST ST, 2C") joins the line as a unit, with floor or
  // building parts around it ("14th Floor, Room 1418"); other parts (city, state) are dropped. A unit part first ("Apt 4,
  // 10A Main St") is read after the street.
  const parts = input.split(',');
  if (parts.length > 1 && unitPart(tokenize(parts[0]!)) === 'unit') {
    const next = tokenize(parts[1]!);
    if (next.length > 1 && HOUSE_NUMBER.test(next[0]!)) parts.splice(0, 2, parts[1]!, parts[0]!);
  }
  let text = parts[0] ?? '';
  let unitRead = false;
  for (const part of parts.slice(1)) {
    const tokens = tokenize(part);
    const kind = unitPart(tokens);
    // One unit, with the floors or buildings around it ("Apt 201, Bldg 3"); "Apt 4, 2" is apartment 4.
    if (kind === null || (kind === 'unit' && unitRead)) break;
    text += UNIT_DESIGNATORS.has(tokens[0]!) || floorAt(tokens, 0) !== null ? ` ${part}` : ` # ${part}`;
    unitRead ||= kind === 'unit';
  }
  let tokens = unitLast(dashedUnitJoined(text, houseLetterJoined(text, tokenize(text), asked), asked));
  // "104/106 22ND ST" is a range; "187GATES AVE" is a number glued to its street's name; "60-1/2" is "60 1/2".
  const slashRange = tokens.length > 1 ? /^(\d{2,})\/(\d+)$/.exec(tokens[0]!) : null;
  if (slashRange && Number(slashRange[2]) > Number(slashRange[1])) tokens[0] = `${slashRange[1]}-${slashRange[2]}`;
  const dashedHalf = tokens.length > 1 ? DASHED_FRACTION.exec(tokens[0]!) : null;
  if (dashedHalf) tokens.splice(0, 1, dashedHalf[1]!, dashedHalf[2]!);
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
    } else if (isHouseLetter(tokens, houseNumber, asked)) {
      houseNumber += tokens[1]; // "4922 B SOUTH CORNELL AVE" is 4922B
      streetStart = 2;
    }
  }
  tokens = floorsAsUnits(tokens, streetStart);
  const { street, designator, unitKey, unnamed } = splitUnit(tokens, streetStart, asked, letters);
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
    unitUnnamed: unnamed,
    unitDesignator: designator,
    unitKey,
  };
}

/**
 * A house number's letter written apart ("4922 B SOUTH CORNELL AVE", "400 A SOUTH BLVD"): one letter that is not a
 * directional, after a number without one, with at least two words after it of which the first is not a street
 * type or a designator ("12 B ST" is B Street); not a name's initial ("100 J F KENNEDY BLVD", "123 M L KING DR"). The
 * O, L or D of a name written apart ("100 O NEAL ST", "L ENFANT PLZ") is a house letter only when a directional
 * follows it. As a query may also mean it (`asked`, tried when the line as read finds nothing), an O, L or D too, and
 * a letter before a type's word that a name follows (`405 A VALLEY RD EXT`, stored `405-A ...`: keys v8).
 */
function isHouseLetter(tokens: readonly string[], houseNumber: string, asked: boolean): boolean {
  const letter = tokens[1]!;
  const next = tokens[2];
  if (tokens.length <= 3 || !/^\d+$/.test(houseNumber) || !/^[A-Z]$/.test(letter) || DIRECTIONALS.has(letter)) {
    return false;
  }
  if (next === undefined || UNIT_DESIGNATORS.has(next)) return false;
  if (SUFFIX_ABBREVIATIONS.has(next)) return asked && !typeWithoutName(tokens.slice(2));
  return DIRECTIONALS.has(next) || (!/^[A-Z]$/.test(next) && (asked || !NAME_PREFIX_LETTERS.has(letter)));
}
const NAME_PREFIX_LETTERS: ReadonlySet<string> = new Set(['O', 'L', 'D']);

/** A city's first word abbreviated, written out (`St. Louis` is SAINT LOUIS). */
export const CITY_ABBREVIATIONS: ReadonlyMap<string, string> = new Map([
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

/**
 * An APN's parts as written, for a county whose APNs differ only by where their separators are (`2-11`, `21-1`):
 * `2 11`, `2.11` and `2-11` are one, `21-1` another. An import keys such a county's parcels by it (mapping option
 * apnKey "separators"), and a parcel lookup asked so answers that parcel only.
 */
export function separatedApnKey(apn: string): string {
  return apn
    .trim()
    .toUpperCase()
    .replace(/[^0-9A-Z]+/g, '-')
    .replace(/^-|-$/g, '');
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

/**
 * The stored county keys (countyKey) a county name asked for may mean. An independent city is stored as its roll or
 * GeoNames names it: `X city` or `X (city)` (CHARLOTTESVILLE CITY, CARSON CITY CITY), or `City of X` (CITY OF
 * RICHMOND). A name with a county's designator means the county (`Fairfax County`: FAIRFAX). `City of X` means the
 * city. A bare name means the county or the city of that name (`Charlottesville`, `Richmond`), since a client names
 * a city by its name alone; a name ending in City may be either too (`Charles City` is a county, `Carson City` a
 * city). The state tells apart what remains (a bare `Charles` also means Virginia's Charles City County).
 */
export function countyKeys(county: string): string[] {
  const key = countyKey(county);
  if (key !== nameKey(county) || key === '') return [key];
  const cityOf = /^CITY OF (.+)$/.exec(key)?.[1];
  if (cityOf !== undefined) return [`${cityOf} CITY`, key];
  const bare = key.endsWith(' CITY') ? key.slice(0, -' CITY'.length) : key;
  return [...new Set([key, `${key} CITY`, `${bare} CITY`, `CITY OF ${bare}`])];
}
