// Absentee ownership (SPEC 2.1 `summary.absenteeInd`): whether the owner is mailed at the property, worked out when a
// record is rendered (render-record.ts). A change here changes flags only as records are rendered again.
import {
  dashLetterAsUnit,
  normalizeCity,
  parseMailingLine,
  parseStreetLine,
  type StreetLine,
  splitZip,
} from '@pra/core/address';
import type { PropertyInput } from './property-input.js';
import { parsedStreetLine, streetWithUnit } from './street-lines.js';

/**
 * `Y` when the owner is mailed elsewhere than the property, `N` when at the property; null when no mailing address
 * (with its ZIP) is on record: unknown is not owner-occupied (issue 26). Like is compared with like: the mailing
 * line, which carries the unit, against the property's street with its unit, both through the lookup keys'
 * normaliser ("500 Elm Boulevard, Apt 3" is "500 ELM BLVD UNIT 3"; another unit of the building is another
 * address), and the ZIP5; for a parcel with no ZIP of its own (a roll without site ZIPs, where no evidence gave one),
 * the mailing state and city, the same name (not a place of it: SOUTH PORTLAND is a town of its own, though WEST
 * LEBANON is Lebanon's; the ZIP evidence may read it so, its ZIP checked against the county: import-row.ts).
 *
 * An owner writes the mailing line as a query is written, so it is read a second time as its owner may mean it
 * (parseMailingLine: a unit after the street without a designator, `1130 E HIGH ST D`, `4516 KIMBERLY 9`), and a
 * property numbered with its unit's letter (`500-B MOSELEY DR`) is also that unit (`500 MOSELEY DR # B`:
 * dashLetterAsUnit). The second readings are made only where the two house numbers' digits agree: elsewhere no
 * reading can make them one address, and the line is not parsed again.
 */
export function absenteeOf(p: PropertyInput): 'Y' | 'N' | null {
  const mailZip = p.mailing ? splitZip(p.mailing.zip).zip5 : '';
  // A mailing address without its ZIP (a county file's empty cell) cannot be compared like with like either.
  if (!p.mailing || mailZip === '') return null;
  const zip5 = splitZip(p.zip).zip5;
  const place =
    zip5 === ''
      ? p.mailing.state === p.state && normalizeCity(p.mailing.city) === normalizeCity(p.city)
      : mailZip === zip5;
  if (!place) return 'Y';
  const at = parsedStreetLine(streetWithUnit(p));
  const mailed = parsedStreetLine(p.mailing.line1);
  if (sameAddress(mailed, at)) return 'N';
  if (numberDigits(mailed.houseNumber) === '' || numberDigits(mailed.houseNumber) !== numberDigits(at.houseNumber))
    return 'Y';
  const mailedAsMeant = parseMailingLine(p.mailing.line1);
  if (sameAddress(mailedAsMeant, at)) return 'N';
  const letter = p.line2 ? null : dashLetterAsUnit(p.line1);
  if (letter === null) return 'Y';
  const atUnit = parseStreetLine(letter);
  return sameAddress(mailed, atUnit) || sameAddress(mailedAsMeant, atUnit) ? 'N' : 'Y';
}

/** A house number's leading digits ("1299" of "1299D", "223" of "223-225"); empty without one. */
function numberDigits(houseNumber: string | null): string {
  return houseNumber === null ? '' : (/^\d+/.exec(houseNumber)?.[0] ?? '');
}

/**
 * The mailing line's street and unit are the property's: the same street however written (a type left out on one side
 * is the same street: the place is the same), and the same unit; a mailing line without a unit is the building's,
 * where the owner's mail arrives.
 */
function sameAddress(mailed: StreetLine, at: StreetLine): boolean {
  return (
    mailed.looseKey === at.looseKey &&
    mailed.postDirectional === at.postDirectional &&
    (mailed.streetType === '' || at.streetType === '' || mailed.streetType === at.streetType) &&
    (mailed.unitKey === '' || mailed.unitKey === at.unitKey)
  );
}
