// A mailing (or site) cell that writes city, state and ZIP in one: `SPRINGFIELD IL 62704-1234`, `PHILADELPHIA PA`,
// `PHILADELPHIA, PA 19103`, `SAN JUAN PUERTO RICO 00901`. Pure: the state is a postal code or a state's name at the
// end (before the ZIP); what is left before it is the city.
import { STATE_FIPS } from '@pra/core/address';

const STATE_NAMES: Readonly<Record<string, string>> = {
  ALABAMA: 'AL',
  ALASKA: 'AK',
  ARIZONA: 'AZ',
  ARKANSAS: 'AR',
  CALIFORNIA: 'CA',
  COLORADO: 'CO',
  CONNECTICUT: 'CT',
  DELAWARE: 'DE',
  'DISTRICT OF COLUMBIA': 'DC',
  FLORIDA: 'FL',
  GEORGIA: 'GA',
  HAWAII: 'HI',
  IDAHO: 'ID',
  ILLINOIS: 'IL',
  INDIANA: 'IN',
  IOWA: 'IA',
  KANSAS: 'KS',
  KENTUCKY: 'KY',
  LOUISIANA: 'LA',
  MAINE: 'ME',
  MARYLAND: 'MD',
  MASSACHUSETTS: 'MA',
  MICHIGAN: 'MI',
  MINNESOTA: 'MN',
  MISSISSIPPI: 'MS',
  MISSOURI: 'MO',
  MONTANA: 'MT',
  NEBRASKA: 'NE',
  NEVADA: 'NV',
  'NEW HAMPSHIRE': 'NH',
  'NEW JERSEY': 'NJ',
  'NEW MEXICO': 'NM',
  'NEW YORK': 'NY',
  'NORTH CAROLINA': 'NC',
  'NORTH DAKOTA': 'ND',
  OHIO: 'OH',
  OKLAHOMA: 'OK',
  OREGON: 'OR',
  PENNSYLVANIA: 'PA',
  'RHODE ISLAND': 'RI',
  'SOUTH CAROLINA': 'SC',
  'SOUTH DAKOTA': 'SD',
  TENNESSEE: 'TN',
  TEXAS: 'TX',
  UTAH: 'UT',
  VERMONT: 'VT',
  VIRGINIA: 'VA',
  WASHINGTON: 'WA',
  'WEST VIRGINIA': 'WV',
  WISCONSIN: 'WI',
  WYOMING: 'WY',
  'PUERTO RICO': 'PR',
  GUAM: 'GU',
  'VIRGIN ISLANDS': 'VI',
  'AMERICAN SAMOA': 'AS',
  'NORTHERN MARIANA ISLANDS': 'MP',
};

/** The armed forces' "states" (Americas, Europe, Pacific), after their post offices' "cities". */
const MILITARY_STATES = new Set(['AA', 'AE', 'AP']);
const MILITARY_CITIES = new Set(['APO', 'FPO', 'DPO']);

/** A cell longer than this is no city, state and ZIP (it is cut there, at a space, before it is read). */
export const MAX_CITY_STATE_ZIP_CHARS = 120;

const ZIP_AT_END = /(?:^|[\s,])(\d{5})(?:[-\s]?(\d{4}))?$/;

export interface CityStateZip {
  city: string | null;
  state: string | null;
  zip5: string | null;
  zip4: string | null;
}

/**
 * City, state (2 letters) and ZIP of a combined cell; null for an empty one. A part the cell does not give is null:
 * `PHILADELPHIA PA` has no ZIP, a foreign `1052 LE MONT SUR LAUSANNE SWITZERLAND` no state (all of it is the city).
 * A cell that is only a state's name (`NEW YORK`) is read as the state.
 */
export function splitCityStateZip(cell: string): CityStateZip | null {
  let s = cell.toUpperCase().replace(/\./g, '').replace(/\s+/g, ' ').trim();
  if (s.length > MAX_CITY_STATE_ZIP_CHARS) s = s.slice(0, s.lastIndexOf(' ', MAX_CITY_STATE_ZIP_CHARS) + 1).trim();
  if (s === '') return null;
  let zip5: string | null = null;
  let zip4: string | null = null;
  const zip = ZIP_AT_END.exec(s);
  if (zip) {
    zip5 = zip[1]!;
    zip4 = zip[2] ?? null;
    s = s.slice(0, zip.index).trim();
  }
  s = s.replace(/[\s,]+$/, '');
  let state: string | null = null;
  const words = s === '' ? [] : s.split(/[\s,]+/);
  const last = words[words.length - 1];
  if (last !== undefined && MILITARY_STATES.has(last) && MILITARY_CITIES.has(words[words.length - 2] ?? '')) {
    // `APO AE 09012`, `FPO AP`: the armed forces' post offices, with their own state codes.
    state = last;
    words.pop();
  } else if (last !== undefined && last.length === 2 && STATE_FIPS[last] !== undefined) {
    state = last;
    words.pop();
  } else {
    // The longest state name the cell ends with (NORTH CAROLINA before CAROLINA: there is no CAROLINA alone).
    for (let n = Math.min(4, words.length); n >= 1; n--) {
      const code = STATE_NAMES[words.slice(words.length - n).join(' ')];
      if (code) {
        state = code;
        words.length -= n;
        break;
      }
    }
  }
  const city = words.join(' ');
  return { city: city === '' ? null : city, state, zip5, zip4 };
}
