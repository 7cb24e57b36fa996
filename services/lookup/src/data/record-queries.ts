// SQL of the record lookups. Named (prepared) statements: parsed and planned once per connection.
// Every query returns pre-rendered bodies plus the tract's demographics body; nothing is re-serialised. A paged
// lookup counts its matches in the same statement, and still returns the count when the page is past the end
// (one count, never a second query for it).
import { DEFAULT_REQUEST_POOL_LIMITS } from '@pra/core/config';
import { PAGING_DEPTH_MAX } from '@pra/core/contracts';
import { OWNER_FIELDS } from '@pra/core/vocabulary';
import type { Queryable } from '@pra/platform';
import { decodeRecordDoc } from '@pra/core/stored';
import { decodeRecordBody } from '@pra/core/stored/body';

export interface RecordRow {
  body: string;
  demo: string | null;
  total: number;
  hist?: string;
}

/** A row as PostgreSQL returns it: the body in its stored form (@pra/core/stored: with the histories). */
export interface StoredRecordRow {
  body: Buffer;
  demo: string | null;
  total: number;
}

/** The row with its body as JSON text, as pages render it (the histories stored after it are not decoded). */
export function decodeRecordRow<T extends StoredRecordRow>(r: T): Omit<T, 'body'> & RecordRow {
  return { ...r, body: decodeRecordBody(r.body) };
}

const FROM_WITH_DEMOGRAPHICS = `records.properties p LEFT JOIN records.tract_profiles t ON t.tract = p.census_tract`;

// The matches at an address, numbered: the rows of the page, plus the first match (rn = 1) when the page is past
// the end, so that its total arrives anyway. Addresses match a handful of records: numbering them all is cheap.
const addressPage = (where: string, limit: string, offset: string, flags: string | null = null) =>
  `SELECT x.body, t.body AS demo, x.total, x.rn${flags === null ? '' : ', x.has_line, x.only_line'} FROM (
     SELECT p.body, p.census_tract, count(*) OVER () AS total, row_number() OVER (ORDER BY p.unit_key, p.id) AS rn
            ${flags ?? ''}
     FROM records.properties p WHERE ${where}) x
   LEFT JOIN records.tract_profiles t ON t.tract = x.census_tract
   WHERE (x.rn > ${offset} AND x.rn <= ${offset} + ${limit}) OR x.rn = 1
   ORDER BY x.rn`;
// The first statement of an address lookup reads the loose key ("W122ND 543": every spelling of the line, one
// index), and says whether the asked line is among its rows and whether it is all of them: then the page is the
// line's, in one statement; else another spelling is stored ("543 W 122ND" beside "543 W 122ND ST") and the
// lookup gathers the building's spellings (domain/spelling-reads.ts).
const lineFlags = (line: string) =>
  `, bool_or(p.line_key COLLATE "C" = ${line}) OVER () AS has_line,
     bool_and(p.line_key COLLATE "C" = ${line}) OVER () AS only_line`;
// One statement with a unit and one without: a `($3 = '' OR unit_key = $3)` form would be planned once, generically,
// for both, and could not use the unit column of the index under a generic plan.
const ADDRESS_BY_ZIP = {
  name: 'address_by_zip',
  text: addressPage(`p.loose_key COLLATE "C" = $1 AND p.zip = $2`, '$3', '$4', lineFlags('$5')),
};
const ADDRESS_UNIT_BY_ZIP = {
  name: 'address_unit_by_zip',
  text: addressPage(`p.loose_key COLLATE "C" = $1 AND p.zip = $2 AND p.unit_key = $3`, '$4', '$5', lineFlags('$6')),
};
const ADDRESS_BY_CITY = {
  name: 'address_by_city',
  text: addressPage(`p.loose_key COLLATE "C" = $1 AND p.state = $2 AND p.city_key = $3`, '$4', '$5', lineFlags('$6')),
};
const ADDRESS_UNIT_BY_CITY = {
  name: 'address_unit_by_city',
  text: addressPage(
    `p.loose_key COLLATE "C" = $1 AND p.state = $2 AND p.city_key = $3 AND p.unit_key = $4`,
    '$5',
    '$6',
    lineFlags('$7'),
  ),
};

// The same pages over several spellings of one address ("201 W 21ST ST" and "201 W 21ST"), chosen by the rules of
// domain/spelling-rules.ts when the line is not the only spelling stored, or not stored.
const LINES_BY_ZIP = {
  name: 'lines_by_zip',
  text: addressPage(`p.line_key COLLATE "C" = ANY($1) AND p.zip = $2`, '$3', '$4'),
};
const LINES_UNIT_BY_ZIP = {
  name: 'lines_unit_by_zip',
  text: addressPage(`p.line_key COLLATE "C" = ANY($1) AND p.zip = $2 AND p.unit_key = $3`, '$4', '$5'),
};
const LINES_BY_CITY = {
  name: 'lines_by_city',
  text: addressPage(`p.line_key COLLATE "C" = ANY($1) AND p.state = $2 AND p.city_key = $3`, '$4', '$5'),
};
const LINES_UNIT_BY_CITY = {
  name: 'lines_unit_by_city',
  text: addressPage(
    `p.line_key COLLATE "C" = ANY($1) AND p.state = $2 AND p.city_key = $3 AND p.unit_key = $4`,
    '$5',
    '$6',
  ),
};
// The stored spellings at some loose keys, with whether they hold the asked unit and a building-level record.
const spellings = (place: string) =>
  `SELECT loose_key, line_key, street_type, bool_or(unit_key = $1) AS has_unit, bool_or(unit_key = '') AS has_building
     FROM records.properties WHERE loose_key COLLATE "C" = ANY($2::text[]) AND ${place} GROUP BY 1, 2, 3 LIMIT 20`;
const SPELLINGS_BY_ZIP = { name: 'spellings_by_zip', text: spellings('zip = $3') };
const SPELLINGS_BY_CITY = { name: 'spellings_by_city', text: spellings('state = $3 AND city_key = $4') };
// The street types one street name has in a ZIP or city ("W_21ST %": every house of it).
const streetTypes = (place: string) =>
  `SELECT DISTINCT street_type FROM records.properties
    WHERE ${place} AND loose_key COLLATE "C" LIKE $1 AND street_type <> '' LIMIT 5`;
const STREET_TYPES_BY_ZIP = { name: 'street_types_by_zip', text: streetTypes('zip = $2') };
const STREET_TYPES_BY_CITY = { name: 'street_types_by_city', text: streetTypes('state = $2 AND city_key = $3') };
// Whether any of some street names has a line in a ZIP or city: a house of it ("E\_MONTICELLO %") or a lot without a
// number (its loose key the name alone).
const streetStored = (place: string, names: string) =>
  `SELECT EXISTS (SELECT 1 FROM records.properties WHERE ${place}
      AND (loose_key COLLATE "C" LIKE ANY($1::text[]) OR loose_key COLLATE "C" = ANY(${names}::text[]))) AS stored`;
const STREET_STORED_BY_ZIP = { name: 'street_stored_by_zip', text: streetStored('zip = $2', '$3') };
const STREET_STORED_BY_CITY = {
  name: 'street_stored_by_city',
  text: streetStored('state = $2 AND city_key = $3', '$4'),
};
/** The LIKE patterns of the lines numbered `houseNumber`: the number and a space, or a range from it. */
const numberPatterns = (houseNumber: string) => {
  const house = likeEscape(houseNumber);
  return [`${house} %`, `${house}-%`];
};
// Every street with a given house number in a ZIP or city (for a misspelt name): the lines that start with the number
// and a space ("12 X RD"; "12 1/2 X RD" too, which the near-name rule then leaves, its house being "12 1/2") or a dash
// (the range "12-14 X RD"), two ranges of the (place, line) index, not every line whose number starts with its digits
// (120, 1200, ...). At most NUMBERED_LINES, the first in line order, and one more to tell that some were left out
// (NumberedLines.more: a near name found is then in doubt, as another past the cut may be as near).
const NUMBERED_LINES = 300;
const numbered = (place: string) =>
  `SELECT DISTINCT line_key COLLATE "C" AS line_key, loose_key, street_type FROM records.properties
    WHERE ${place} AND (line_key COLLATE "C" LIKE $1 OR line_key COLLATE "C" LIKE $2) ORDER BY 1 LIMIT ${NUMBERED_LINES + 1}`;
const NUMBERED_BY_ZIP = { name: 'numbered_by_zip', text: numbered('zip = $3') };
const NUMBERED_BY_CITY = { name: 'numbered_by_city', text: numbered('state = $3 AND city_key = $4') };
// The same over some ZIPs (a city's postal ZIPs), with each line's ZIP and state: the state is the reader's to check,
// so that the plan reads the (zip, line) index for each ZIP, never every line of the state.
const NUMBERED_IN_ZIPS = {
  name: 'numbered_in_zips',
  text: `SELECT DISTINCT zip, line_key COLLATE "C" AS line_key, loose_key, street_type, state FROM records.properties
          WHERE zip = ANY($3::bpchar[]) AND (line_key COLLATE "C" LIKE $1 OR line_key COLLATE "C" LIKE $2)
          ORDER BY 1, 2 LIMIT ${NUMBERED_LINES + 1}`,
};
// Units at an address (to name them when the asked one is not there).
const units = (place: string) =>
  `SELECT DISTINCT unit_key FROM records.properties WHERE line_key COLLATE "C" = ANY($1) AND ${place} ORDER BY 1 LIMIT 6`;
const UNITS_BY_ZIP = { name: 'units_by_zip', text: units('zip = $2') };
const UNITS_BY_CITY = { name: 'units_by_city', text: units('state = $2 AND city_key = $3') };

// Which of a city's postal ZIPs hold an address (its loose keys) in its state: at most 3, since two already say "give
// the ZIP" (find-records.ts findByAddress). One index read, (zip, loose_key), over both arrays.
const ZIPS_HOLDING = {
  name: 'zips_holding',
  text: `SELECT DISTINCT zip FROM records.properties
          WHERE zip = ANY($2::bpchar[]) AND loose_key COLLATE "C" = ANY($1::text[]) AND state = $3 ORDER BY zip LIMIT 3`,
};

// Owners: distinct properties any of whose owners (owner1 to owner4) matches: a person by last name (and first
// name), an entity (or a full name without a last name) by the words of its name. The count and the page come from
// one statement; a page past the end is one row with the count and no body.
// Bounded whatever the word (LLC, TRUST, SMITH): only the first OWNER_COUNT_CAP matches in id order are counted and
// paged (deeper pages are refused anyway: page x pagesize <= PAGING_DEPTH_MAX), so `total` is at most the cap and
// the cap means "that many or more". Each way of matching keeps its first 4 x cap rows by id (a top-N sort in bounded
// memory; a property can match once a place, owner1 to owner4), and only those few are merged, counted and paged:
// never a UNION, a hash or a count over every owner with that word.
export const OWNER_COUNT_CAP = PAGING_DEPTH_MAX;
/** The rows each way of matching keeps: OWNER_COUNT_CAP properties even if each matched in all of its owner fields. */
const OWNER_MATCH_ROWS = OWNER_FIELDS.length * OWNER_COUNT_CAP;
// One statement per place given (none, city, state, both, a state and ZIPs): a `($3 IS NULL OR state = $3)` form is
// planned once, generically, for every case, and then the state and city cannot bound the name index's range: at 5M
// records a common surname read every owner of that name in the country, row by row (2 s a lookup, bench:scale).
/** The places an owner search is bounded by: nowhere, the records' city, the state, both, or the state and ZIPs. */
const OWNER_PLACES = ['', '_city', '_state', '_state_city', '_state_zips'] as const;
export type OwnerPlace = (typeof OWNER_PLACES)[number];
/**
 * The condition of a place on the owners `o`, its parameters from `$n` on, in ownerPlace's order. ZIPs (the post
 * office's of a city the records do not name: find-records.ts findByOwner) are the owner's parcel's, kept beside the
 * owner (ingest migrations 0019-0020) and read from the name index's entries within the name and state's range.
 */
const ownerPlaceWhere = (place: OwnerPlace, n: number) =>
  ({
    '': '',
    _city: `AND o.city_key = $${n}`,
    _state: `AND o.state = $${n}`,
    _state_city: `AND o.state = $${n} AND o.city_key = $${n + 1}`,
    _state_zips: `AND o.state = $${n} AND o.zip = ANY($${n + 1}::bpchar[])`,
  })[place];
/** The place a search gives, and the values of its parameters in ownerPlaceWhere's order. */
export function ownerPlace(c: Pick<OwnerCriteria, 'state' | 'cityKey' | 'zips'>): {
  place: OwnerPlace;
  values: (string | readonly string[])[];
} {
  if (c.zips !== null) {
    if (c.state === null) throw new Error('An owner search by ZIPs is bounded by its state too');
    return { place: '_state_zips', values: [c.state, c.zips] };
  }
  if (c.state !== null) {
    return c.cityKey !== null
      ? { place: '_state_city', values: [c.state, c.cityKey] }
      : { place: '_state', values: [c.state] };
  }
  return c.cityKey !== null ? { place: '_city', values: [c.cityKey] } : { place: '', values: [] };
}
/**
 * An owner search's matches, the first OWNER_COUNT_CAP in id order: `$1` the last name key, `$2` the first name's or
 * null, `$words` the name's words, and the place's parameters right after it.
 */
export const ownerMatches = (place: OwnerPlace, words: number) => {
  const where = ownerPlaceWhere(place, words + 1);
  return `named AS (
           SELECT o.property_id FROM records.owners o
           WHERE o.last_name_key = $1 AND ($2::text IS NULL OR o.first_name_key = $2) ${where}
           ORDER BY o.property_id LIMIT ${OWNER_MATCH_ROWS}),
         worded AS (
           SELECT o.property_id FROM records.owners o
           WHERE $2::text IS NULL AND o.name_words @> $${words}::text[] ${where}
           ORDER BY o.property_id LIMIT ${OWNER_MATCH_ROWS}),
         m AS (SELECT property_id FROM named UNION SELECT property_id FROM worded
               ORDER BY property_id LIMIT ${OWNER_COUNT_CAP})`;
};
/** One statement for each place (a statement of its own, named by it): BY_OWNER here, record-counts.ts OWNER_COUNT. */
export const ownerStatements = <T>(statement: (place: OwnerPlace) => T) =>
  Object.fromEntries(OWNER_PLACES.map((place) => [place, statement(place)])) as Record<OwnerPlace, T>;
/** The owner searches, by place: `$1`-`$2` the names, `$3`-`$4` the page, `$5` the words, then the place's. */
export const BY_OWNER = ownerStatements((place) => ({
  name: `by_owner${place}`,
  text: `WITH ${ownerMatches(place, 5)},
         page AS (SELECT property_id FROM m ORDER BY property_id LIMIT $3 OFFSET $4)
         SELECT r.body, r.demo, c.total FROM (SELECT count(*) AS total FROM m) c
         LEFT JOIN (SELECT p.id, p.body, t.body AS demo FROM page JOIN ${FROM_WITH_DEMOGRAPHICS} ON p.id = page.property_id) r ON true
         ORDER BY r.id`,
}));

const BY_PARCEL = {
  name: 'by_parcel',
  text: `SELECT p.body, t.body AS demo, count(*) OVER () AS total FROM ${FROM_WITH_DEMOGRAPHICS}
         WHERE (p.apn_key = $1 OR p.tax_parcel_key = $1)
           AND ($2::text IS NULL OR p.state = $2) AND ($3::text[] IS NULL OR p.county_key = ANY($3))
         ORDER BY p.id LIMIT $4`,
};

// The histories are stored with the body, as the JSON these endpoints return (@pra/core/stored).
const WITH_HISTORIES = {
  name: 'with_histories',
  text: `SELECT p.body, t.body AS demo, 1 AS total FROM ${FROM_WITH_DEMOGRAPHICS} WHERE p.id = $1`,
};

export interface PagedRows {
  rows: RecordRow[];
  total: number;
  /**
   * Set by a count (data/record-counts.ts: a preview, a max_credits check): the records the page would hold, read
   * from the index only; `rows` is then empty.
   */
  counted?: number;
}

/** The page at a line's loose key, and whether the line is among its rows and all of them (see `lineFlags`). */
export interface AddressRows extends PagedRows {
  hasLine: boolean;
  onlyLine: boolean;
}

/** A stored line of a house number (numberedLines): its keys. */
export interface NumberedLine {
  lineKey: string;
  looseKey: string;
  streetType: string;
}
/** The same read over several ZIPs (numberedLinesIn), with its ZIP and state. */
export interface NumberedLineIn extends NumberedLine {
  zip: string;
  state: string;
}
/** At most NUMBERED_LINES lines, in line order; `more`: some were left out. */
export interface NumberedLines<L> {
  lines: L[];
  more: boolean;
}
type NumberedRow = { line_key: string; loose_key: string; street_type: string };

/** A numbered statement's rows (NUMBERED_LINES and one more) as lines, and whether that one more came. */
function numberedLines<R extends NumberedRow, X>(rows: R[], extra?: (r: R) => X): NumberedLines<NumberedLine & X> {
  const lines = rows.slice(0, NUMBERED_LINES).map((r) => ({
    lineKey: r.line_key,
    looseKey: r.loose_key,
    streetType: r.street_type,
    ...(extra?.(r) as X),
  }));
  return { lines, more: rows.length > NUMBERED_LINES };
}

export interface AddressCriteria {
  lineKey: string;
  looseKey: string;
  /** The loose key with the last word read as part of the name rather than as the street type. */
  looseKeyUntyped: string | null;
  /** The loose key without the post-directional (the loose key when the line has none). */
  looseKeyNoPostDir: string;
  /** The post-directional ("E"), or "". */
  postDirectional: string;
  /**
   * Whether a street name one letter off may be read: not for a first reading that has a second one (its letter or
   * number apart is more likely that reading's than a slip: "100 D LANCASTER AVE" is 100D, not 100 LANCASTER).
   */
  slips: boolean;
  streetType: string;
  unitKey: string;
  zip: string | null;
  state: string | null;
  cityKey: string | null;
}

/** One stored spelling of an address. */
export interface Spelling {
  looseKey: string;
  lineKey: string;
  streetType: string;
  /** Some record of this spelling has the asked unit. */
  hasUnit: boolean;
  /** Some record of this spelling has no unit (the building, or a house). */
  hasBuilding: boolean;
}

const likeEscape = (s: string) => s.replace(/[\\%_]/g, '\\$&');

export interface OwnerCriteria {
  lastNameKey: string;
  firstNameKey: string | null;
  state: string | null;
  cityKey: string | null;
  /** The parcels' ZIPs, in place of a city (with a state): the post office's ZIPs of a city the records do not name. */
  zips: readonly string[] | null;
}

/**
 * How long one lookup may take, all its statements together (the address fallback runs up to ~12): the pool's
 * statement timeout (DB_STATEMENT_TIMEOUT_MS, 4 s by default), so a lookup of many statements takes no longer than
 * one statement could. A pool without limits (batch work, tests) gets the default. A ReadPool gives its primary's:
 * the replica's own, shorter, timeout leaves the rest to a fallback on the primary (read-pool.ts).
 */
export function lookupDeadlineMs(pool: Queryable): number {
  const configured = (pool as { options?: { statement_timeout?: unknown } }).options?.statement_timeout;
  return typeof configured === 'number' && configured > 0 ? configured : DEFAULT_REQUEST_POOL_LIMITS.statementTimeoutMs;
}

export class RecordStore {
  constructor(
    /** What the lookups read: the request pool, or the replica's ReadPool (give it the primary's deadline); area search reads it too. */
    readonly pool: Queryable,
    /** The time one lookup may take in all (see lookupDeadlineMs). */
    readonly deadlineMs = lookupDeadlineMs(pool),
  ) {}

  /**
   * One page of the records at an address's loose key, how many there are in all (also when the page is past the
   * end), and whether they are the asked line's.
   */
  async byAddress(c: AddressCriteria, limit: number, offset: number): Promise<AddressRows> {
    const statement =
      c.zip !== null
        ? c.unitKey === ''
          ? ADDRESS_BY_ZIP
          : ADDRESS_UNIT_BY_ZIP
        : c.unitKey === ''
          ? ADDRESS_BY_CITY
          : ADDRESS_UNIT_BY_CITY;
    const unit = c.unitKey === '' ? [] : [c.unitKey];
    const q = { ...statement, values: [c.looseKey, ...this.place(c), ...unit, limit, offset, c.lineKey] };
    const { rows } = await this.pool.query<StoredRecordRow & { rn: number; has_line: boolean; only_line: boolean }>(q);
    return {
      rows: rows.filter((r) => r.rn > offset).map(({ has_line: _h, only_line: _o, ...r }) => decodeRecordRow(r)),
      total: rows[0]?.total ?? 0,
      hasLine: rows[0]?.has_line ?? false,
      onlyLine: rows[0]?.only_line ?? false,
    };
  }

  /** One page of the records stored under any of `lines` (spellings of one address); a unit of '' is the building. */
  async byLines(
    c: AddressCriteria,
    lines: readonly string[],
    unitKey: string | null,
    limit: number,
    offset: number,
  ): Promise<PagedRows> {
    const statement =
      c.zip !== null
        ? unitKey === null
          ? LINES_BY_ZIP
          : LINES_UNIT_BY_ZIP
        : unitKey === null
          ? LINES_BY_CITY
          : LINES_UNIT_BY_CITY;
    const values = [lines, ...this.place(c), ...(unitKey === null ? [] : [unitKey]), limit, offset];
    const { rows } = await this.pool.query<StoredRecordRow & { rn: number }>({ ...statement, values });
    return { rows: rows.filter((r) => r.rn > offset).map(decodeRecordRow), total: rows[0]?.total ?? 0 };
  }

  /** The stored spellings of the address at `looseKeys` (`c.looseKey` unless given), in the ZIP or city. */
  async spellings(c: AddressCriteria, looseKeys: readonly string[] = [c.looseKey]): Promise<Spelling[]> {
    const statement = c.zip !== null ? SPELLINGS_BY_ZIP : SPELLINGS_BY_CITY;
    const { rows } = await this.pool.query<{
      loose_key: string;
      line_key: string;
      street_type: string;
      has_unit: boolean;
      has_building: boolean;
    }>({ ...statement, values: [c.unitKey, looseKeys, ...this.place(c)] });
    return rows.map((r) => ({
      looseKey: r.loose_key,
      lineKey: r.line_key,
      streetType: r.street_type,
      hasUnit: r.has_unit,
      hasBuilding: r.has_building,
    }));
  }

  /** The street types a street name (a loose key without its number) has in the ZIP or city. */
  async streetTypes(c: AddressCriteria, name: string): Promise<string[]> {
    const statement = c.zip !== null ? STREET_TYPES_BY_ZIP : STREET_TYPES_BY_CITY;
    const values = [`${likeEscape(name)} %`, ...this.place(c)];
    return (await this.pool.query<{ street_type: string }>({ ...statement, values })).rows.map((r) => r.street_type);
  }

  /** Whether any line of some street names (loose keys without their number) is stored in the ZIP or city. */
  async streetStored(c: AddressCriteria, names: readonly string[]): Promise<boolean> {
    const statement = c.zip !== null ? STREET_STORED_BY_ZIP : STREET_STORED_BY_CITY;
    const values = [names.map((n) => `${likeEscape(n)} %`), ...this.place(c), names];
    return (await this.pool.query<{ stored: boolean }>({ ...statement, values })).rows[0]!.stored;
  }

  /** The streets with the house number `houseNumber` (or a range from it), in the ZIP or city. */
  async numberedLines(c: AddressCriteria, houseNumber: string): Promise<NumberedLines<NumberedLine>> {
    const statement = c.zip !== null ? NUMBERED_BY_ZIP : NUMBERED_BY_CITY;
    const values = [...numberPatterns(houseNumber), ...this.place(c)];
    const { rows } = await this.pool.query<NumberedRow>({ ...statement, values });
    return numberedLines(rows);
  }

  /** The streets with the house number `houseNumber` (or a range from it) in some ZIPs, with their ZIP and state. */
  async numberedLinesIn(zips: readonly string[], houseNumber: string): Promise<NumberedLines<NumberedLineIn>> {
    const values = [...numberPatterns(houseNumber), zips];
    const { rows } = await this.pool.query<NumberedRow & { zip: string; state: string }>({
      ...NUMBERED_IN_ZIPS,
      values,
    });
    return numberedLines(rows, (r) => ({ zip: r.zip, state: r.state }));
  }

  /** Units stored at an address (at most 6). */
  async unitsAt(c: AddressCriteria, lines: readonly string[]): Promise<string[]> {
    const statement = c.zip !== null ? UNITS_BY_ZIP : UNITS_BY_CITY;
    const { rows } = await this.pool.query<{ unit_key: string }>({ ...statement, values: [lines, ...this.place(c)] });
    return rows.map((r) => r.unit_key);
  }

  /** Which of `zips` hold an address at one of `looseKeys` in `state` (at most 3, in order). */
  async zipsHolding(looseKeys: readonly string[], zips: readonly string[], state: string): Promise<string[]> {
    const { rows } = await this.pool.query<{ zip: string }>({ ...ZIPS_HOLDING, values: [looseKeys, zips, state] });
    return rows.map((r) => r.zip);
  }

  /** The ZIP or city's parameters, where a statement names its place. */
  protected place(c: AddressCriteria): (string | null)[] {
    return c.zip !== null ? [c.zip] : [c.state, c.cityKey];
  }

  /**
   * One page of an owner's properties, and how many there are in all up to OWNER_COUNT_CAP (also when the page is
   * past the end).
   */
  async byOwner(c: OwnerCriteria, limit: number, offset: number): Promise<PagedRows> {
    const words = c.lastNameKey.split(' ');
    const { place, values: placeValues } = ownerPlace(c);
    const values = [c.lastNameKey, c.firstNameKey, limit, offset, words, ...placeValues];
    const { rows } = await this.pool.query<Omit<StoredRecordRow, 'body'> & { body: Buffer | null }>({
      ...BY_OWNER[place],
      values,
    });
    return {
      rows: rows.filter((r): r is StoredRecordRow => r.body !== null).map(decodeRecordRow),
      total: rows[0]?.total ?? 0,
    };
  }

  /** `countyKeys`: the county keys the asked county may mean (countyKeys); null: any county. */
  async byParcel(
    apnKey: string,
    state: string | null,
    countyKeys: readonly string[] | null,
    limit: number,
  ): Promise<RecordRow[]> {
    const { rows } = await this.pool.query<StoredRecordRow>({
      ...BY_PARCEL,
      values: [apnKey, state, countyKeys, limit],
    });
    return rows.map(decodeRecordRow);
  }

  async saleHistory(id: number): Promise<RecordRow | undefined> {
    const row = await this.withHistories(id);
    return row && { body: row.doc.body, demo: row.demo, total: row.total, hist: row.doc.sales };
  }

  async assessmentHistory(id: number): Promise<RecordRow | undefined> {
    const row = await this.withHistories(id);
    return row && { body: row.doc.body, demo: row.demo, total: row.total, hist: row.doc.assessments };
  }

  private async withHistories(id: number) {
    const r = (await this.pool.query<StoredRecordRow>({ ...WITH_HISTORIES, values: [id] })).rows[0];
    return r && { doc: decodeRecordDoc(r.body), demo: r.demo, total: r.total };
  }

  async recordCount(): Promise<number> {
    const { rows } = await this.pool.query<{ n: number }>({
      name: 'record_count',
      text: 'SELECT property_count AS n FROM records.dataset_stats',
    });
    return rows[0]?.n ?? 0;
  }
}
