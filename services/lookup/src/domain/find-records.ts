// The record lookups of SPEC 4.1-4.5, on normalised keys. No req/res here: criteria in, a page or an ApiError out.
import { apnKey, countyKey, nameKey, normalizeCity, parseStreetLine, splitZip } from '@pra/core/address';
import type { AddressQuery, OwnerQuery, ParcelQuery } from '@pra/core/contracts';
import { ApiError, badRequest, notFound } from '@pra/core/errors';
import type { AddressCriteria, RecordRow, RecordStore, Spelling } from '../data/record-queries.js';
import { chooseSpellings, MIN_FUZZY_NAME, splitLooseKey, withinOneEdit } from './address-resolution.js';
import type { RecordPage } from './record-page.js';

/**
 * One lookup's deadline, across all its statements: each statement gets the time left (its own statement timeout
 * still applies), and a lookup past it is a 503 with Retry-After. Nothing is charged: the charge comes after the
 * lookup. A statement cut short runs on in PostgreSQL until it ends or reaches its statement timeout, its result
 * unread; no further statement of that lookup starts.
 */
export class LookupDeadline {
  private readonly endsAt: number;

  constructor(
    readonly ms: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.endsAt = now() + ms;
  }

  /** Milliseconds left (0 or less: past the deadline). */
  left(): number {
    return this.endsAt - this.now();
  }

  /** Runs one statement within the time left, or refuses to start it when none is left. */
  async run<T>(statement: () => Promise<T>): Promise<T> {
    const left = this.left();
    if (left <= 0) throw this.exceeded();
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(this.exceeded()), left);
    });
    const work = statement();
    try {
      return await Promise.race([work, late]);
    } finally {
      clearTimeout(timer);
      work.catch(() => {}); // a statement cut short may fail later: nobody waits for it any more
    }
  }

  exceeded(): ApiError {
    return new ApiError(
      'UNAVAILABLE',
      `The lookup took longer than its ${this.ms} ms limit; the request was not charged. Retry shortly.`,
      0,
      { 'retry-after': '2' },
    );
  }
}

type Run = LookupDeadline['run'];

/** At most this many records answer a parcel lookup (the endpoint has no page parameters). */
export const PARCEL_MATCH_LIMIT = 100;

export function addressCriteria(q: AddressQuery): AddressCriteria {
  let line = q.address!;
  const given = parseStreetLine(line);
  if (q.number !== undefined) {
    if (given.houseNumber === null) line = `${q.number} ${line}`;
    else if (given.houseNumber.toUpperCase() !== q.number.toUpperCase()) {
      throw badRequest(
        `Parameter 'number' (${q.number}) conflicts with the house number in 'address' (${given.houseNumber})`,
      );
    }
  }
  const parsed = q.number !== undefined && given.houseNumber === null ? parseStreetLine(line) : given;
  if (parsed.houseNumber === null) {
    throw badRequest("Invalid parameter 'address': it must start with a house number (or give the number in 'number')");
  }
  if (parsed.streetKey === '') throw badRequest("Invalid parameter 'address': no street name after the house number");
  const zip = q.zip ?? q.postal1;
  const city = q.city ?? q.locality;
  return {
    lineKey: parsed.lineKey,
    looseKey: parsed.looseKey,
    looseKeyUntyped: parsed.looseKeyUntyped,
    looseKeyBare: parsed.looseKeyBare,
    postDirectional: parsed.postDirectional,
    streetType: parsed.streetType,
    unitKey: parsed.unitKey,
    zip: zip !== undefined ? splitZip(zip).zip5 : null,
    state: zip !== undefined ? null : (q.state ?? q.countrySubd)!,
    cityKey: zip !== undefined ? null : normalizeCity(city!),
  };
}

function pageOrNotFound(rows: RecordRow[], total: number, page: number, pagesize: number, what: string): RecordPage {
  if (total === 0) throw notFound(`No properties found for ${what}`);
  if (rows.length === 0) {
    const pages = Math.ceil(total / pagesize);
    throw notFound(`Page ${page} is past the last page (${pages} of ${pagesize} for ${total} properties)`, total);
  }
  return { rows, total, page, pagesize };
}

/** The address as the 404 names it: "201 W 21ST ST #2C in 11209". */
const addressText = (c: AddressCriteria, line = c.lineKey) =>
  c.zip
    ? `${line}${c.unitKey ? ` #${c.unitKey}` : ''} in ${c.zip}`
    : `${line}${c.unitKey ? ` #${c.unitKey}` : ''}, ${c.cityKey}, ${c.state}`;

function didYouMean(c: AddressCriteria, candidates: readonly string[]): never {
  const names = candidates.slice(0, 3).join("', '");
  throw notFound(
    `No properties found at '${c.lineKey}'; did you mean '${names}'${candidates.length > 3 ? ', ...' : ''}? Give the street type as stored.`,
  );
}

/** A line's pre- and post-directional ("N|", "|SW", "|"), read from its line key. */
function directionalsOf(lineKey: string): string {
  const line = parseStreetLine(lineKey);
  const words = line.streetKey.split(' ');
  const pre = words.length > 1 && POST_DIRECTIONALS.includes(words[0]!) ? words[0]! : '';
  return `${pre}|${line.postDirectional}`;
}

/** The directionals a street can end in (Pub 28), as loose keys end in them. */
const POST_DIRECTIONALS = ['N', 'S', 'E', 'W', 'NE', 'NW', 'SE', 'SW'];

/**
 * The stored spellings of an address whose post-directional is on one side only ("20 PLAZA ST EAST" for "20 PLAZA
 * ST", or the reverse): only when the number is stored on one of the street's variants in the place (with or
 * without a directional). Where "20 MAIN ST E" and "20 MAIN ST W" are both stored, "20 MAIN ST" is a 404 naming
 * both. The store holds a county's every parcel: a number stored on one variant only is that variant's.
 */
async function postDirectionalSpellings(store: RecordStore, c: AddressCriteria, run: Run): Promise<Spelling[] | null> {
  const { name, house } = splitLooseKey(c.looseKeyBare);
  if (house === '' || name === '') return null;
  // A directional asked is found without one, never with another ("20 PLAZA ST SW" is not "20 PLAZA ST NE").
  const keys = c.postDirectional !== '' ? [c.looseKeyBare] : POST_DIRECTIONALS.map((d) => `${name}${d} ${house}`);
  const found = await run(() => store.spellings(c, keys));
  if (found.length === 0) return null;
  const streets = new Set(found.map((s) => s.looseKey));
  if (streets.size > 1) didYouMean(c, found.map((s) => s.lineKey).sort());
  const [looseKey] = streets;
  const placeTypes = () => run(() => store.streetTypes(c, splitLooseKey(looseKey!).name));
  const chosen = await chooseSpellings(c.streetType, found, placeTypes);
  if (chosen.kind === 'ambiguous') didYouMean(c, chosen.candidates);
  return chosen.kind === 'lines' ? chosen.spellings : null;
}

/** The stored spellings a query means: at its loose key, or at one street name a letter away with that number. */
async function resolveSpellings(store: RecordStore, c: AddressCriteria, run: Run): Promise<Spelling[]> {
  const placeTypes = (looseKey: string) => () => run(() => store.streetTypes(c, splitLooseKey(looseKey).name));
  const spellingsAt = (at: AddressCriteria) => run(() => store.spellings(at));
  const found = await chooseSpellings(c.streetType, await spellingsAt(c), placeTypes(c.looseKey));
  if (found.kind === 'lines') return found.spellings;
  if (found.kind === 'ambiguous') didYouMean(c, found.candidates);
  if (c.looseKeyUntyped !== null) {
    // "7957 VALLEY GREEN" for "7957 VALLEY GREEN CIR": the last word was the name's, not a street type.
    const untyped = { ...c, looseKey: c.looseKeyUntyped, streetType: '' };
    const asName = await chooseSpellings('', await spellingsAt(untyped), placeTypes(c.looseKeyUntyped));
    if (asName.kind === 'lines') return asName.spellings;
    if (asName.kind === 'ambiguous') didYouMean(c, asName.candidates);
  }
  const directional = await postDirectionalSpellings(store, c, run);
  if (directional !== null) return directional;
  // Nothing at the loose key: a street name one letter off ("BEVERLEY RD" for "BEVERLY RD"), with the same number.
  const { name, house } = splitLooseKey(c.looseKey);
  if (name.length < MIN_FUZZY_NAME || house === '') return [];
  const near = new Map<string, string[]>();
  const asked = directionalsOf(c.lineKey);
  for (const l of await run(() => store.numberedLines(c, house))) {
    const other = splitLooseKey(l.looseKey);
    if (other.house !== house || other.name.length < MIN_FUZZY_NAME || !withinOneEdit(name, other.name)) continue;
    // One letter off in a directional is another street ("N BROADWAY" / "S BROADWAY", "STERLING PL N" / "... S").
    if (directionalsOf(l.lineKey) !== asked) continue;
    if (c.streetType !== '' && l.streetType !== '' && l.streetType !== c.streetType) continue;
    near.set(l.looseKey, [...(near.get(l.looseKey) ?? []), l.lineKey]);
  }
  if (near.size > 1) didYouMean(c, [...near.values()].flat().sort());
  const [looseKey] = [...near.keys()];
  if (looseKey === undefined) return [];
  const nearC = { ...c, looseKey };
  const again = await chooseSpellings(c.streetType, await spellingsAt(nearC), placeTypes(looseKey));
  if (again.kind === 'ambiguous') didYouMean(c, again.candidates);
  return again.kind === 'lines' ? again.spellings : [];
}

/**
 * The spellings that hold an exact hit's building too ("543 W 122ND" beside "543 W 122ND ST"): null when the exact
 * line alone is the answer, because no other spelling joins it or the others cannot be told apart (the exact
 * spelling is then still answered: it exists as asked).
 */
async function exactWithOthers(store: RecordStore, c: AddressCriteria, run: Run): Promise<Spelling[] | null> {
  try {
    const spellings = await resolveSpellings(store, c, run);
    return spellings.some((s) => s.lineKey !== c.lineKey) ? spellings : null;
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return null;
    throw err;
  }
}

/**
 * The records at an address: the exact line, with its other stored spellings when there are any, else its other
 * spellings (up to ~12 statements), all within one deadline (`store.deadlineMs` unless given). A unit asked that
 * is not stored answers the building's own record or a 404, never another unit.
 */
export async function findByAddress(
  store: RecordStore,
  q: AddressQuery,
  deadline = new LookupDeadline(store.deadlineMs),
): Promise<RecordPage> {
  const run: Run = (statement) => deadline.run(statement);
  const c = addressCriteria(q);
  const offset = (q.page - 1) * q.pagesize;
  const exact = await run(() => store.byAddress(c, q.pagesize, offset));
  const exactPage = () => pageOrNotFound(exact.rows, exact.total, q.page, q.pagesize, `address '${addressText(c)}'`);
  if (exact.total > 0 && !exact.otherSpellings) return exactPage();
  // Other spellings of the same building join an exact hit; without one, other spellings of the address, then the
  // building of a unit.
  const spellings = exact.total > 0 ? await exactWithOthers(store, c, run) : await resolveSpellings(store, c, run);
  if (spellings === null) return exactPage();
  if (spellings.length === 0) throw notFound(`No properties found for address '${addressText(c)}'`);
  const lines = spellings.map((s) => s.lineKey);
  let unit: string | null = c.unitKey === '' ? null : c.unitKey;
  if (unit !== null && !spellings.some((s) => s.hasUnit)) {
    // The unit is not a record of its own: the record of the whole building holds it (a co-op, a house).
    if (!spellings.some((s) => s.hasBuilding)) {
      const units = await run(() => store.unitsAt(c, lines));
      throw notFound(
        `No unit '${c.unitKey}' at '${lines[0]}' in ${c.zip ?? `${c.cityKey}, ${c.state}`}; units there: ${units.join(', ')}${units.length > 5 ? ', ...' : ''}`,
      );
    }
    unit = '';
  }
  const { rows, total } = await run(() => store.byLines(c, lines, unit, q.pagesize, offset));
  return pageOrNotFound(rows, total, q.page, q.pagesize, `address '${addressText(c, lines[0])}'`);
}

export async function findByOwner(
  store: RecordStore,
  q: OwnerQuery,
  deadline = new LookupDeadline(store.deadlineMs),
): Promise<RecordPage> {
  const c = {
    lastNameKey: nameKey(q.lastName),
    firstNameKey: q.firstName ? nameKey(q.firstName) : null,
    state: q.state ?? null,
    cityKey: q.city ? normalizeCity(q.city) : null,
  };
  if (c.lastNameKey === '') throw badRequest("Invalid parameter 'lastName': it must contain letters");
  const { rows, total } = await deadline.run(() => store.byOwner(c, q.pagesize, (q.page - 1) * q.pagesize));
  return pageOrNotFound(
    rows,
    total,
    q.page,
    q.pagesize,
    `owner '${[q.firstName, q.lastName].filter(Boolean).join(' ')}'`,
  );
}

export async function findByParcel(
  store: RecordStore,
  q: ParcelQuery,
  deadline = new LookupDeadline(store.deadlineMs),
): Promise<RecordPage> {
  const key = apnKey(q.apn);
  const county = q.county ? countyKey(q.county) : null;
  const rows = await deadline.run(() => store.byParcel(key, q.state ?? null, county, PARCEL_MATCH_LIMIT));
  if (rows.length === 0) throw notFound(`No properties found for APN '${q.apn}'`);
  return { rows, total: rows[0]!.total, page: 1, pagesize: PARCEL_MATCH_LIMIT };
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
