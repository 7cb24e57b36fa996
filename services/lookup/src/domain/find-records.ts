// The record lookups of SPEC 4.1-4.5, on normalised keys. No req/res here: criteria in, a page or an ApiError out.
import {
  apnKey,
  countyKeys,
  DIRECTIONALS,
  nameKey,
  normalizeCity,
  parseAskedLine,
  parseStreetLine,
  type StreetLine,
  splitZip,
} from '@pra/core/address';
import type { AddressQuery, OwnerQuery, ParcelQuery } from '@pra/core/contracts';
import { ApiError, badRequest, notFound } from '@pra/core/errors';
import { postalZips } from '@pra/core/zip-places';
import { pastLastPage } from '@pra/core/wording';
import type { AddressCriteria, PagedRows, RecordStore, Spelling } from '../data/record-queries.js';
import { type AskedAddress, describeMatch } from './address-match.js';
import { withoutSeparatorLookalikes } from './apn-matches.js';
import { buildingSpellings, resolveSpellings } from './spelling-reads.js';
import { LookupDeadline, type Run } from './lookup-deadline.js';
import type { RecordPage } from './record-page.js';

export { LookupDeadline } from './lookup-deadline.js';

/** The parameters of an address lookup (its cost parameters are the metered path's). */
export type AddressLookup = Omit<AddressQuery, 'preview' | 'max_credits'>;

/** At most this many records answer a parcel lookup (the endpoint has no page parameters). */
export const PARCEL_MATCH_LIMIT = 100;

/** "4922B" (a letter written apart: "4922 B South Cornell Ave") is house number 4922 as well as 4922B. */
const sameHouseNumber = (inAddress: string, number: string) =>
  [inAddress, inAddress.replace(/^(\d+)[A-Z]$/, '$1')].includes(number.toUpperCase());

/** Never a stored unit key: what a designator with nothing after it asks for ("1615 MIDLAND CT NE UNIT"). */
export const UNNAMED_UNIT = '?';

/**
 * The criteria of an address query as its line is parsed, and the other readings a query may also mean, tried in
 * turn when those before find nothing: the unit asked as part of a stored line (`unitLines`: written bare after the
 * street, or a letter as the house number's), tried before the building's own record answers for a unit it does not
 * hold; then a number after the street read as a unit (`asked`, parseAskedLine), or null when that reading is the
 * same.
 */
export function addressCriteria(q: AddressLookup): AddressCriteria & {
  asked: AddressCriteria | null;
  unitLines: AddressCriteria[];
  written: AskedAddress;
} {
  let line = q.address!;
  const given = parseStreetLine(line);
  if (q.number !== undefined) {
    if (given.houseNumber === null) line = `${q.number} ${line}`;
    else if (!sameHouseNumber(given.houseNumber, q.number)) {
      throw badRequest(
        `Parameter 'number' (${q.number}) conflicts with the house number in 'address' (${given.houseNumber})`,
        'invalid_parameter',
      );
    }
  }
  const parsed = q.number !== undefined && given.houseNumber === null ? parseStreetLine(line) : given;
  if (parsed.houseNumber === null) {
    throw badRequest(
      "Invalid parameter 'address': it must start with a house number (or give the number in 'number')",
      'invalid_parameter',
    );
  }
  if (parsed.streetKey === '')
    throw badRequest("Invalid parameter 'address': no street name after the house number", 'invalid_parameter');
  const zip = q.zip ?? q.postal1;
  const city = q.city ?? q.locality;
  const place = {
    zip: zip !== undefined ? splitZip(zip).zip5 : null,
    state: zip !== undefined ? null : (q.state ?? q.countrySubd)!,
    cityKey: zip !== undefined ? null : normalizeCity(city!),
  };
  const asked = parseAskedLine(line);
  // A number given apart is the house number: "number=1299&address=D Name Ct" is D Name Court, not 1299D.
  const numberKept = q.number === undefined || asked.houseNumber?.toUpperCase() === q.number.toUpperCase();
  const differs = asked.lineKey !== parsed.lineKey && asked.streetKey !== '' && numberKept;
  const first = criteriaOf(parsed, place, !differs);
  return {
    ...first,
    asked: differs ? criteriaOf(asked, place, true) : null,
    unitLines: unitAsLine(parsed).map((l) => criteriaOf(l, place, false)),
    written: { written: line, parsed, unitKey: first.unitKey },
  };
}

/**
 * The unit asked as part of a stored line, where as a unit it finds nothing: written bare after the street (Lebanon's
 * `367 NH ROUTE 120 B3`: a unit after a route's number stays in the street's name; asked `367 NH Route 120 Unit B3`);
 * one letter, not a directional, as the house number's (`100 MELBOURNE PARK CIR #A` for the parcel `100-A`, as
 * Charlottesville's address points write its 200 such parcels), glued or after a dash as rolls write it (`405-A
 * VALLEY RD EXT` keeps its letter as a word of the street: VALLEY is a street type, and a letter is a house's only
 * before a name word). Each as a stored line reads it, kept only when that is a line without a unit, not the line
 * asked.
 */
function unitAsLine(parsed: StreetLine): StreetLine[] {
  const { unitKey: unit, houseNumber: house, streetKey } = parsed;
  if (unit === '' || parsed.unitUnnamed || house === null || unit.includes('/')) return [];
  const lines = [`${house} ${streetKey} ${unit}`];
  if (/^[A-Z]$/.test(unit) && !DIRECTIONALS.has(unit) && /^\d+$/.test(house))
    lines.push(`${house}${unit} ${streetKey}`, `${house}-${unit} ${streetKey}`);
  const seen = new Set([parsed.lineKey]);
  return lines.map(parseStreetLine).filter((l) => {
    if (l.unitKey !== '' || seen.has(l.lineKey)) return false;
    seen.add(l.lineKey);
    return true;
  });
}

function criteriaOf(
  parsed: StreetLine,
  place: Pick<AddressCriteria, 'zip' | 'state' | 'cityKey'>,
  slips: boolean,
): AddressCriteria {
  return {
    slips,
    lineKey: parsed.lineKey,
    looseKey: parsed.looseKey,
    looseKeyUntyped: parsed.looseKeyUntyped,
    looseKeyNoPostDir: parsed.looseKeyNoPostDir,
    postDirectional: parsed.postDirectional,
    streetType: parsed.streetType,
    unitKey: parsed.unitUnnamed ? UNNAMED_UNIT : parsed.unitKey,
    ...place,
  };
}

export function pageOrNotFound(
  { rows, total, counted }: PagedRows,
  page: number,
  pagesize: number,
  what: string,
): RecordPage {
  if (total === 0) throw notFound(`No properties found for ${what}`);
  // A page counted (data/record-counts.ts) holds `counted` records and no rows.
  if ((counted ?? rows.length) === 0) {
    throw new ApiError('page_out_of_range', pastLastPage({ page, pagesize, total }), total);
  }
  return { rows, total, page, pagesize, ...(counted !== undefined ? { counted } : {}) };
}

/** The unit as a 404 names it: "#2C", "a unit without its number". */
const unitText = (c: AddressCriteria) => (c.unitKey === UNNAMED_UNIT ? 'a unit without its number' : `#${c.unitKey}`);

/** The address as the 404 names it: "201 W 21ST ST #2C in 11209". */
const addressText = (c: AddressCriteria, line = c.lineKey) =>
  c.zip
    ? `${line}${c.unitKey ? ` ${unitText(c)}` : ''} in ${c.zip}`
    : `${line}${c.unitKey ? ` ${unitText(c)}` : ''}, ${c.cityKey}, ${c.state}`;

/**
 * The records at an address: the exact line when it is the only spelling stored at its loose key (one statement),
 * else every spelling of the same building, else the other spellings of the address (up to ~12 statements in all),
 * within one deadline (`store.deadlineMs` unless given). A unit asked that is not stored answers the building's own
 * record or a 404, never another unit.
 */
export async function findByAddress(
  store: RecordStore,
  q: AddressLookup,
  deadline = new LookupDeadline(store.deadlineMs),
): Promise<RecordPage> {
  const run: Run = (statement) => deadline.run(statement);
  const { asked, unitLines, written, ...c } = addressCriteria(q);
  try {
    return await findReadings(store, c, asked, unitLines, q, run, written);
  } catch (err) {
    // Nothing in the city as the records name it: the ZIPs the post office calls by that name. A roll names its
    // municipality (LEBANON), the address a client holds may name the post office (WEST LEBANON, NH 03784). When the
    // address is stored in exactly one of them (in the state asked), it is looked up in that ZIP, by every rule of a
    // lookup by ZIP; in several (one address in two towns of one postal city), a 404 that names them: the address is
    // in doubt, and a page of both would charge for a building the client did not mean. One statement more for a 404.
    if (c.zip !== null || !isNothingFound(err)) throw err;
    const postal = postalZips(c.state!, c.cityKey!);
    if (postal.length === 0) throw err;
    const keys = [c.looseKey, ...(asked ? [asked.looseKey] : []), ...unitLines.map((r) => r.looseKey)];
    const held = await run(() => store.zipsHolding(keys, postal, c.state!));
    if (held.length === 0) throw err;
    if (held.length > 1) {
      throw notFound(
        `No properties found for address '${addressText(c)}': it is stored in more than one ZIP of ${c.cityKey}, ${c.state} (${held.join(', ')}${held.length > 2 ? ', ...' : ''}); give the ZIP`,
      );
    }
    const inZip = { zip: held[0]!, state: null, cityKey: null };
    const units = unitLines.map((r) => ({ ...r, ...inZip }));
    return findReadings(store, { ...c, ...inZip }, asked && { ...asked, ...inZip }, units, q, run, written);
  }
}

/** A 404 that counted nothing (not a page past the end of what was found). */
const isNothingFound = (err: unknown) => err instanceof ApiError && err.status === 404 && err.total === 0;
/** A 404 that names the units of the address it found ("units there: ..."). */
const namesUnits = (err: unknown) => err instanceof ApiError && /units there:/.test(err.message);

/**
 * The readings of an address in turn. A unit asked that a stored line may hold (`unitLines`): first the unit as asked,
 * never answered by its building's record, then each such line. Then as parsed (a unit not stored answered by its
 * building's record), then (when it differs and the first finds nothing) as asked.
 */
async function findReadings(
  store: RecordStore,
  c: AddressCriteria,
  asked: AddressCriteria | null,
  unitLines: readonly AddressCriteria[],
  q: AddressLookup,
  run: Run,
  written: AskedAddress,
): Promise<RecordPage> {
  if (unitLines.length > 0) {
    for (const [r, building] of [[c, false] as const, ...unitLines.map((l) => [l, true] as const)]) {
      try {
        return await findAt(store, r, q, run, written, building);
      } catch (err) {
        if (!isNothingFound(err)) throw err;
      }
    }
  }
  if (asked === null) return findAt(store, c, q, run, written);
  try {
    return await findAt(store, c, q, run, written);
  } catch (err) {
    // Nothing as parsed: the number after the street may be a unit ("203 N WABASH 608"), the letter after the number
    // the house's ("1299 D SALEM CT"). When that finds nothing either, the first reading's 404 is the one given (its
    // "did you mean"), unless the second names the units of the street it found.
    if (!isNothingFound(err)) throw err;
    try {
      return await findAt(store, asked, q, run, written);
    } catch (second) {
      throw namesUnits(second) ? second : err;
    }
  }
}

/**
 * The page of one reading `c` of the address `written`, with how it matched; `building`: a unit asked that is not
 * stored is answered by its building's own record (else a 404).
 */
async function findAt(
  store: RecordStore,
  c: AddressCriteria,
  q: AddressLookup,
  run: Run,
  written: AskedAddress,
  building = true,
): Promise<RecordPage> {
  const offset = (q.page - 1) * q.pagesize;
  const askedUnit = c.unitKey === '' ? null : c.unitKey;
  const matched = (page: RecordPage, line: string, unit: string | null): RecordPage => ({
    ...page,
    match: describeMatch(written, line, unit),
  });
  const exact = await run(() => store.byAddress(c, q.pagesize, offset));
  if (exact.total > 0 && exact.onlyLine) {
    const page = pageOrNotFound(exact, q.page, q.pagesize, `address '${addressText(c)}'`);
    return matched(page, c.lineKey, askedUnit);
  }
  let spellings: Spelling[];
  if (exact.hasLine) {
    // Stored under this line and another spelling of its loose key: the building's spellings together, or (when the
    // others may be another street's) the line as asked.
    const building = await buildingSpellings(store, c, run);
    if (building === null) {
      const found = await run(() => store.byLines(c, [c.lineKey], askedUnit, q.pagesize, offset));
      return matched(pageOrNotFound(found, q.page, q.pagesize, `address '${addressText(c)}'`), c.lineKey, askedUnit);
    }
    spellings = building;
  } else spellings = await resolveSpellings(store, c, run);
  if (spellings.length === 0) throw notFound(`No properties found for address '${addressText(c)}'`);
  const lines = spellings.map((s) => s.lineKey);
  let unit = askedUnit;
  if (unit !== null && !spellings.some((s) => s.hasUnit)) {
    // The unit is not a record of its own: the record of the whole building holds it (a co-op, a house).
    if (!building || !spellings.some((s) => s.hasBuilding)) {
      const units = await run(() => store.unitsAt(c, lines));
      const asked = c.unitKey === UNNAMED_UNIT ? 'A unit without its number' : `No unit '${c.unitKey}'`;
      throw notFound(
        `${asked} at '${lines[0]}' in ${c.zip ?? `${c.cityKey}, ${c.state}`}; units there: ${units.join(', ')}${units.length > 5 ? ', ...' : ''}`,
      );
    }
    unit = '';
  }
  const found = await run(() => store.byLines(c, lines, unit, q.pagesize, offset));
  const page = pageOrNotFound(found, q.page, q.pagesize, `address '${addressText(c, lines[0])}'`);
  // The asked line when it is one of the spellings (one building, one answer), else the one that answered first.
  return matched(page, lines.includes(c.lineKey) ? c.lineKey : lines[0]!, unit === '' ? null : unit);
}

export async function findByOwner(
  store: RecordStore,
  q: OwnerQuery,
  deadline = new LookupDeadline(store.deadlineMs),
): Promise<RecordPage> {
  // The query's schema requires lastName unless ownerId is given (which domain/find-owners.ts answers).
  const lastName = q.lastName ?? '';
  const c = {
    lastNameKey: nameKey(lastName),
    firstNameKey: q.firstName ? nameKey(q.firstName) : null,
    state: q.state ?? null,
    cityKey: q.city ? normalizeCity(q.city) : null,
    zips: null,
  };
  if (c.lastNameKey === '')
    throw badRequest("Invalid parameter 'lastName': it must contain letters", 'invalid_parameter');
  const offset = (q.page - 1) * q.pagesize;
  let found = await deadline.run(() => store.byOwner(c, q.pagesize, offset));
  // No owner of the name in the city as the records name it: the owners of the parcels in the ZIPs the post office
  // calls by that name, in the state asked (WEST LEBANON, NH is 03784, parcels whose roll names the municipality,
  // LEBANON), as an address lookup reads it (findByAddress). One statement more when nothing is found.
  if (found.total === 0 && c.state !== null && c.cityKey !== null) {
    const zips = postalZips(c.state, c.cityKey);
    if (zips.length > 0)
      found = await deadline.run(() => store.byOwner({ ...c, cityKey: null, zips }, q.pagesize, offset));
  }
  return pageOrNotFound(found, q.page, q.pagesize, `owner '${[q.firstName, lastName].filter(Boolean).join(' ')}'`);
}

export async function findByParcel(
  store: RecordStore,
  q: ParcelQuery,
  deadline = new LookupDeadline(store.deadlineMs),
): Promise<RecordPage> {
  const key = apnKey(q.apn);
  // A bare name is the county or the independent city of that name (Charlottesville is CHARLOTTESVILLE CITY).
  const county = q.county ? countyKeys(q.county) : null;
  const found = await deadline.run(() => store.byParcel(key, q.state ?? null, county, PARCEL_MATCH_LIMIT));
  if (found.length === 0) throw notFound(`No properties found for APN '${q.apn}'`);
  // `total` counts every match. Past the limit the rows not read are not known, nor how many of them the filter would
  // leave out: the rows read answer as they are, with that total (a stripped APN that common: no state or county).
  const complete = found[0]!.total === found.length;
  const rows = complete ? withoutSeparatorLookalikes(found, q.apn) : found;
  return { rows, total: complete ? rows.length : found[0]!.total, page: 1, pagesize: PARCEL_MATCH_LIMIT };
}

export async function findHistory(
  store: RecordStore,
  id: number,
  kind: 'sale' | 'assessment',
  deadline = new LookupDeadline(store.deadlineMs),
): Promise<RecordPage> {
  const row = await deadline.run(() => (kind === 'sale' ? store.saleHistory(id) : store.assessmentHistory(id)));
  if (!row) throw notFound(`No property with id ${id}`);
  return {
    rows: [row],
    total: 1,
    page: 1,
    pagesize: 1,
    historyField: kind === 'sale' ? 'saleHistory' : 'assessmentHistory',
  };
}
