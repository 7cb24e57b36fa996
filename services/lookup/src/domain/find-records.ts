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
  unglued,
} from '@pra/core/address';
import type { AddressQuery, OwnerQuery, ParcelQuery } from '@pra/core/contracts';
import { ApiError, badRequest, notFound } from '@pra/core/errors';
import { postalZips } from '@pra/core/zip-places';
import { pastLastPage } from '@pra/core/wording';
import type { AddressCriteria, PagedRows, RecordStore, Spelling } from '../data/record-queries.js';
import { type AskedAddress, describeMatch } from './address-match.js';
import { withoutSeparatorLookalikes } from './apn-matches.js';
import { postalZipsHolding } from './postal-zips.js';
import { buildingSpellings, resolveSpellings } from './spelling-reads.js';
import { postDirectionalKeys, splitLooseKey } from './spelling-rules.js';
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
 * The criteria of an address query as its line is parsed; the readings tried in turn when that finds nothing
 * (`later`: as a query may also mean it, a number after the street read as a unit, see parseAskedLine; none when that
 * reading is the same); and the stored lines that may hold the unit asked (`units`: unitLines).
 */
export function addressCriteria(
  q: AddressLookup,
): AddressCriteria & { later: AddressCriteria[]; units: UnitLines; written: AskedAddress } {
  // A type glued to its directional, as a roll writes it (`12 WINTER STWEST`): parted, as the importer stored it.
  let line = unglued(q.address!);
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
  // One-letter slips of the name only after every reading as written: on the asked reading (`1299 D Salem Ct` as
  // house 1299D), or, where it only leaves a dash's directional apart, on the first, then on it (`1604-E Monticelo
  // Ave` is house 1604E of Monticello; `123-N Beverly Rd` is first 123 North Beverly, as written, before 123N of
  // Beverley; `123-N Mian St` is 123 North Main where no 123N of a Main is stored).
  const first = criteriaOf(parsed, place, !differs);
  const later = !differs
    ? []
    : dashDirectionalOnly(parsed, asked)
      ? [criteriaOf(asked, place, false), criteriaOf(parsed, place, true), criteriaOf(asked, place, true)]
      : [criteriaOf(asked, place, true)];
  const units = unitLines(parsed);
  return {
    ...first,
    later,
    units: {
      bare: units.bare && criteriaOf(units.bare, place, false),
      houseLetter: units.houseLetter && criteriaOf(units.houseLetter, place, false),
      directionalLetter: units.directionalLetter && criteriaOf(units.directionalLetter, place, false),
    },
    written: { written: line, parsed, unitKey: first.unitKey },
  };
}

/** Stored lines that may hold the unit asked, each answered only by a record stored at exactly that line. */
export interface UnitLines<T = AddressCriteria> {
  /**
   * The unit written bare after the street, where a stored line keeps it in the street's name (`203 N WABASH 608`,
   * a number after a street without a type, asked `203 N Wabash Apt 608`): tried before the building's own record
   * answers for a unit it does not hold.
   */
  bare: T | null;
  /**
   * A unit of one letter as the house number's, glued or after a dash as rolls write it (`1425 Gentry Ln #A` for the
   * parcel `1425-A GENTRY LN`, as Charlottesville's address points write it): tried only where the address holds
   * nothing at all (no building, no unit), as `1425A` may be another building beside it.
   */
  houseLetter: T | null;
  /**
   * No unit asked, a directional's letter after the number (`1604 E Monticello Ave`), as the house number's letter
   * (`1604-E MONTICELLO AVE`, house 1604E since keys v8): tried only where the address holds nothing at all, and
   * answering only where the street asked (East Monticello Avenue, in any spelling a lookup reads) has no line in the
   * place, as the client may mean a house of it we lack. Not in a postal city's ZIPs (findByAddress).
   */
  directionalLetter: T | null;
}

/**
 * The stored readings of the unit asked (UnitLines), each as a stored line reads it, kept only when that is a line
 * without a unit, not the line asked. Never a unit of several parts or one without its number; a directional never
 * bare (`100 X ST Unit E` is not X Street East), only as a house number's letter (`1604-E X AVE` is house 1604E since
 * keys v8: the dash ties the letter to the number), asked as a unit (`#E`) or, no unit asked, as the street's
 * directional (`1604 E X Ave`).
 */
function unitLines(parsed: StreetLine): UnitLines<StreetLine> {
  const { unitKey: unit, houseNumber: house, streetKey } = parsed;
  const none = { bare: null, houseLetter: null, directionalLetter: null };
  if (house === null || parsed.unitUnnamed) return none;
  if (unit === '') return { ...none, directionalLetter: directionalLetterLine(parsed) };
  if (unit.includes('/')) return none;
  // The same street's type: a unit that is a type's word is no other street (`100 X St Unit Ext` is not X Street
  // Extension, `100 X Apt Garden` not X Gardens).
  const bare = DIRECTIONALS.has(unit) ? null : storedLine(parsed, `${house} ${streetKey} ${unit}`);
  // Written glued, as a stored line reads `1604-E X AVE`, `100-A X LN` and `1604E X AVE` (one house, 1604E or
  // 100A): with a dash, `100 Plaza Unit N` would read `100-N PLAZA` as 100 North Plaza, another street.
  const letter =
    /^[A-Z]$/.test(unit) && /^\d+$/.test(house) ? storedLine(parsed, `${house}${unit} ${streetKey}`) : null;
  return {
    bare: bare !== null && bare.streetType === parsed.streetType ? bare : null,
    houseLetter: letter,
    directionalLetter: null,
  };
}

/** `line` as a stored line reads it, when that is a line without a unit, not the line asked (unitLines). */
function storedLine(parsed: StreetLine, line: string): StreetLine | null {
  const l = parseStreetLine(line);
  return l.unitKey === '' && l.lineKey !== parsed.lineKey ? l : null;
}

/**
 * `1604 E X Ave` (all digits, a directional of one letter, a street after it) read as house 1604E of X Avenue; null
 * for any other line (`1604 NE X Ave`, `1604 E Ave`: a street the letter alone would name).
 */
function directionalLetterLine(parsed: StreetLine): StreetLine | null {
  const dir = /^([NSEW]) (.+)$/.exec(parsed.streetKey);
  if (!dir || !/^\d+$/.test(parsed.houseNumber ?? '')) return null;
  const house = `${parsed.houseNumber}${dir[1]}`;
  const lettered = storedLine(parsed, `${house} ${dir[2]}`);
  return lettered?.houseNumber === house ? lettered : null;
}

/** Whether the asked reading is the line's own but for a dash's directional read apart: `1604-E X` as `1604 E X`. */
function dashDirectionalOnly(parsed: StreetLine, asked: StreetLine): boolean {
  const h = asked.houseNumber;
  return (
    h !== null &&
    parsed.houseNumber !== null &&
    parsed.houseNumber.length === h.length + 1 &&
    parsed.houseNumber.startsWith(h) &&
    asked.streetKey === `${parsed.houseNumber.slice(-1)} ${parsed.streetKey}` &&
    asked.unitKey === parsed.unitKey
  );
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
  const { later, units, written, ...c } = addressCriteria(q);
  try {
    return await findReadings(store, c, later, units, q, run, written);
  } catch (err) {
    // Nothing in the city as the records name it: the ZIPs the post office calls by that name. A roll names its
    // municipality (LEBANON), the address a client holds may name the post office (WEST LEBANON, NH 03784). When the
    // address is stored in exactly one of them (in the state asked), it is looked up in that ZIP, by every rule of a
    // lookup by ZIP; in several (one address in two towns of one postal city), a 404 that names them: the address is
    // in doubt, and a page of both would charge for a building the client did not mean. Up to four statements more
    // for a 404 (postalZipsHolding).
    if (c.zip !== null || !isNothingFound(err)) throw err;
    const postal = postalZips(c.state!, c.cityKey!);
    if (postal.length === 0) throw err;
    // Not the directional's letter read as the house's: its guard (the street asked has no line in the place) would
    // be read in one ZIP only, and a ZIP holding the lettered house must not outweigh one holding the address asked.
    const unitLines = [units.bare, units.houseLetter].filter((u) => u !== null);
    const { zips: held, how, sure } = await postalZipsHolding(store, [c, ...later], unitLines, postal, c.state!, run);
    if (held.length === 0) throw err;
    const inCity = `${c.cityKey}, ${c.state}`;
    const what = how === 'stored' ? 'it is stored' : 'a street one letter off it is stored';
    if (held.length > 1) {
      throw notFound(
        `No properties found for address '${addressText(c)}': ${what} in more than one ZIP of ${inCity} (${held.join(', ')}${held.length > 2 ? ', ...' : ''}); give the ZIP`,
      );
    }
    if (!sure) {
      throw notFound(
        `No properties found for address '${addressText(c)}': ${what} in ${held[0]}, among more streets of that number in ${inCity} than are compared; give the ZIP`,
      );
    }
    const inZip = { zip: held[0]!, state: null, cityKey: null };
    const unitsInZip = {
      bare: units.bare && { ...units.bare, ...inZip },
      houseLetter: units.houseLetter && { ...units.houseLetter, ...inZip },
      directionalLetter: null,
    };
    const laterInZip = later.map((r) => ({ ...r, ...inZip }));
    return findReadings(store, { ...c, ...inZip }, laterInZip, unitsInZip, q, run, written);
  }
}

/** A 404 that counted nothing (not a page past the end of what was found). */
const isNothingFound = (err: unknown) => err instanceof ApiError && err.status === 404 && err.total === 0;
/** A 404 that names the units of the address it found ("units there: ..."). */
const namesUnits = (err: unknown) => err instanceof ApiError && /units there:/.test(err.message);
/** A 404 that names the stored lines a reading could not choose between ("did you mean ..."). */
const namesCandidates = (err: unknown) => err instanceof ApiError && /did you mean/.test(err.message);

/**
 * The readings of an address in turn: as parsed (a unit asked that is not stored answered by its building's record
 * only after the stored lines that may hold the unit: UnitLines), then, while each finds nothing, the `later` ones.
 */
async function findReadings(
  store: RecordStore,
  c: AddressCriteria,
  later: readonly AddressCriteria[],
  units: UnitLines,
  q: AddressLookup,
  run: Run,
  written: AskedAddress,
): Promise<RecordPage> {
  const parsed = () =>
    units.bare !== null || units.houseLetter !== null || units.directionalLetter !== null
      ? findUnitLines(store, c, units, q, run, written)
      : findAt(store, c, q, run, written);
  if (later.length === 0) return parsed();
  try {
    return await parsed();
  } catch (err) {
    // Nothing as parsed: the number after the street may be a unit ("203 N WABASH 608"), the letter after the number
    // the house's ("1299 D SALEM CT"). A later reading that finds something, or fails, or is in doubt (its "did you
    // mean"), or names the units of the street it found, is the answer (a page past its last is its 404, a deadline
    // its 503: never a step to a looser reading). When every one finds nothing, the first reading's 404 is given.
    if (!isNothingFound(err)) throw err;
    for (const r of later) {
      try {
        return await findAt(store, r, q, run, written);
      } catch (next) {
        if (!isNothingFound(next) || namesUnits(next) || namesCandidates(next)) throw next;
      }
    }
    throw err;
  }
}

/**
 * The address as parsed, where a stored line may hold the unit asked (UnitLines): the unit as stored; else the line
 * holding it bare; else, the unit not stored, the building's own record; else, nothing at all at the address, the
 * house numbered with the letter (the unit's, or the directional's where the street asked has no line there). Each
 * line of UnitLines answers only with a record stored at exactly that line, without a unit: one statement each.
 */
async function findUnitLines(
  store: RecordStore,
  c: AddressCriteria,
  units: UnitLines,
  q: AddressLookup,
  run: Run,
  written: AskedAddress,
): Promise<RecordPage> {
  let building: BuildingRecord | null = null;
  let first: unknown;
  try {
    return await findAt(store, c, q, run, written, false);
  } catch (err) {
    if (err instanceof BuildingRecord) building = err;
    else if (!isNothingFound(err)) throw err;
    first = err;
  }
  const exactly = async (r: AddressCriteria) => {
    const found = await run(() => store.byLines(r, [r.lineKey], '', q.pagesize, (q.page - 1) * q.pagesize));
    if (found.total === 0) return null;
    const page = pageOrNotFound(found, q.page, q.pagesize, `address '${addressText(r)}'`);
    return { ...page, match: describeMatch(written, r.lineKey, null) };
  };
  const bare = units.bare && (await exactly(units.bare));
  if (bare) return bare;
  if (building !== null) return building.answer();
  // Units stored at the address, but not this one: its 404 names them.
  if (namesUnits(first)) throw first;
  const letter = units.houseLetter && (await exactly(units.houseLetter));
  if (letter) return letter;
  // The house numbered with the directional's letter, unless the street asked has a line there (a statement more
  // only when the lettered house is stored).
  const lettered = units.directionalLetter && (await exactly(units.directionalLetter));
  if (lettered && !(await run(() => store.streetStored(c, streetNames(c))))) return lettered;
  throw first;
}

/**
 * The loose-key names the street asked may be stored under, as a lookup by ZIP reads them (resolveSpellings): as
 * written, without its type's word read as a type (`E_VALLEYGREEN` of `E Valley Green`), and with any post-directional
 * or none (`E_MONTICELLO_N`).
 */
function streetNames(c: AddressCriteria): string[] {
  const names = new Set<string>();
  for (const key of [c.looseKey, c.looseKeyUntyped, c.looseKeyNoPostDir]) if (key) names.add(splitLooseKey(key).name);
  for (const key of postDirectionalKeys(c)?.others ?? []) names.add(splitLooseKey(key).name);
  return [...names];
}

/**
 * Thrown by findAt when told not to answer with the building's record (`building` false) where it would have: the
 * answer it would have given, one statement away. Never leaves findUnitLines.
 */
class BuildingRecord extends Error {
  constructor(readonly answer: () => Promise<RecordPage>) {
    super('the building record answers');
  }
}

/**
 * The page of one reading `c` of the address `written`, with how it matched; `building` false: a unit asked that is
 * not stored, whose building's record would answer, throws BuildingRecord with that answer instead.
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
    if (!spellings.some((s) => s.hasBuilding)) {
      const units = await run(() => store.unitsAt(c, lines));
      const asked = c.unitKey === UNNAMED_UNIT ? 'A unit without its number' : `No unit '${c.unitKey}'`;
      throw notFound(
        `${asked} at '${lines[0]}' in ${c.zip ?? `${c.cityKey}, ${c.state}`}; units there: ${units.join(', ')}${units.length > 5 ? ', ...' : ''}`,
      );
    }
    unit = '';
  }
  const answer = async (u: string | null) => {
    const found = await run(() => store.byLines(c, lines, u, q.pagesize, offset));
    const page = pageOrNotFound(found, q.page, q.pagesize, `address '${addressText(c, lines[0])}'`);
    // The asked line when it is one of the spellings (one building, one answer), else the one that answered first.
    return matched(page, lines.includes(c.lineKey) ? c.lineKey : lines[0]!, u === '' ? null : u);
  };
  if (unit === '' && askedUnit !== null && !building) throw new BuildingRecord(() => answer(''));
  return answer(unit);
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
