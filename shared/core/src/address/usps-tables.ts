// USPS Publication 28 tables: street suffixes and secondary unit designators, read once from shared/core/data.
import { readFileSync } from 'node:fs';

function readPairs(file: string): [string, string][] {
  const text = readFileSync(new URL(`../../data/${file}`, import.meta.url), 'utf8').replace(/^\uFEFF/, '');
  return text
    .split(/\r?\n/)
    .slice(1)
    .filter((l) => l.trim() !== '')
    .map((l) => {
      const [full, abbr] = l.split(',');
      return [full!.trim().toUpperCase(), abbr!.trim().toUpperCase()];
    });
}

/** Common spellings seen in county files that Pub 28's primary table does not list. */
const EXTRA_SUFFIX_VARIANTS: [string, string][] = [
  ['AV', 'AVE'],
  ['AVEN', 'AVE'],
  ['AVENU', 'AVE'],
  ['AVN', 'AVE'],
  ['AVNUE', 'AVE'],
  ['BOUL', 'BLVD'],
  ['BOULV', 'BLVD'],
  ['BLV', 'BLVD'],
  ['CIRC', 'CIR'],
  ['CIRCL', 'CIR'],
  ['CRCL', 'CIR'],
  ['CRT', 'CT'],
  ['DRIV', 'DR'],
  ['DRV', 'DR'],
  ['HIWAY', 'HWY'],
  ['HIWY', 'HWY'],
  ['HWAY', 'HWY'],
  ['LA', 'LN'],
  ['PKY', 'PKWY'],
  ['PARKWY', 'PKWY'],
  ['PKWAY', 'PKWY'],
  ['PLZA', 'PLZ'],
  ['STR', 'ST'],
  ['STRT', 'ST'],
  // Misspellings of STREET found in county files (NYC rolling sales: "1315 EAST 85TH STREE").
  ['STREE', 'ST'],
  ['STRET', 'ST'],
  ['STREEET', 'ST'],
  ['STEET', 'ST'],
  ['SREET', 'ST'],
  ['STRRET', 'ST'],
  ['AVENEU', 'AVE'],
  ['AVNEUE', 'AVE'],
  ['TERR', 'TER'],
  ['TR', 'TRL'],
  ['TRAILS', 'TRL'],
  ['WY', 'WAY'],
  ['CNTR', 'CTR'],
  ['CENTRE', 'CTR'],
  ['EXPRESS', 'EXPY'],
  ['FREEWY', 'FWY'],
  ['SQR', 'SQ'],
  ['HOLLOWS', 'HOLW'],
  ['CRESENT', 'CRES'],
];

/** Any suffix spelling -> its standard abbreviation (standard abbreviations map to themselves). */
export const SUFFIX_ABBREVIATIONS: ReadonlyMap<string, string> = (() => {
  const map = new Map<string, string>();
  for (const [full, abbr] of readPairs('usps-pub28-street-suffixes.csv')) {
    map.set(full, abbr);
    if (!map.has(abbr)) map.set(abbr, abbr);
  }
  for (const [variant, abbr] of EXTRA_SUFFIX_VARIANTS) if (!map.has(variant)) map.set(variant, abbr);
  return map;
})();

/** Standard suffix abbreviation -> the word it stands for ("RDG" -> "RIDGE"), from Pub 28's primary names. */
export const SUFFIX_WORDS: ReadonlyMap<string, string> = (() => {
  const map = new Map<string, string>();
  for (const [full, abbr] of readPairs('usps-pub28-street-suffixes.csv')) if (!map.has(abbr)) map.set(abbr, full);
  return map;
})();

/** Unit designator spelling -> standard abbreviation; `#` is a designator too. */
export const UNIT_DESIGNATORS: ReadonlyMap<string, string> = (() => {
  const map = new Map<string, string>([
    ['#', '#'],
    ['APARTMENT', 'APT'],
    ['NO', '#'],
    ['NUM', '#'],
    ['SUITE', 'STE'],
    ['SPACE', 'SPC'],
  ]);
  for (const [full, abbr] of readPairs('usps-pub28-secondary-designators.csv')) {
    map.set(full, abbr);
    map.set(abbr, abbr);
  }
  map.set('HANGAR', 'HNGR');
  map.set('FLR', 'FL');
  return map;
})();

/** Designators that stand alone, with no number after them (Pub 28: "REAR", "UPPR", ...). */
export const STANDALONE_DESIGNATORS: ReadonlySet<string> = new Set([
  'BSMT',
  'FRNT',
  'LBBY',
  'LOWR',
  'OFC',
  'PH',
  'REAR',
  'SIDE',
  'UPPR',
]);

export const DIRECTIONALS: ReadonlyMap<string, string> = new Map([
  ['NORTH', 'N'],
  ['SOUTH', 'S'],
  ['EAST', 'E'],
  ['WEST', 'W'],
  ['NORTHEAST', 'NE'],
  ['NORTHWEST', 'NW'],
  ['SOUTHEAST', 'SE'],
  ['SOUTHWEST', 'SW'],
  ['N', 'N'],
  ['S', 'S'],
  ['E', 'E'],
  ['W', 'W'],
  ['NE', 'NE'],
  ['NW', 'NW'],
  ['SE', 'SE'],
  ['SW', 'SW'],
]);
