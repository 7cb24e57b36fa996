// Free work bounded like paid work (issue 35): a preview and a max_credits check need only how many records a page
// would hold. These statements count the matches of the same searches (same keys, same indexes) and read no body:
// nothing is fetched from TOAST, nothing is decoded in the lookup's process. Every other step of a search (the
// spellings, the street types, the units) reads no body already and is shared as it is.
import {
  type AddressCriteria,
  type AddressRows,
  ownerMatches,
  ownerPlace,
  ownerStatements,
  type OwnerCriteria,
  type PagedRows,
  RecordStore,
} from './record-queries.js';

/** The records a page of `limit` from `offset` holds out of `total`. */
export const pageCount = (total: number, limit: number, offset: number) => Math.max(0, Math.min(limit, total - offset));

// The address statements' WHERE clauses, as in record-queries.ts, with the line for the flags last.
const lineFlags = (line: string) =>
  `, bool_or(p.line_key COLLATE "C" = ${line}) AS has_line, bool_and(p.line_key COLLATE "C" = ${line}) AS only_line`;
const count = (name: string, where: string, flags = '') => ({
  name,
  text: `SELECT count(*)::int AS total ${flags} FROM records.properties p WHERE ${where}`,
});
const ADDRESS_COUNT_BY_ZIP = count(
  'address_count_by_zip',
  `p.loose_key COLLATE "C" = $1 AND p.zip = $2`,
  lineFlags('$3'),
);
const ADDRESS_UNIT_COUNT_BY_ZIP = count(
  'address_unit_count_by_zip',
  `p.loose_key COLLATE "C" = $1 AND p.zip = $2 AND p.unit_key = $3`,
  lineFlags('$4'),
);
const ADDRESS_COUNT_BY_CITY = count(
  'address_count_by_city',
  `p.loose_key COLLATE "C" = $1 AND p.state = $2 AND p.city_key = $3`,
  lineFlags('$4'),
);
const ADDRESS_UNIT_COUNT_BY_CITY = count(
  'address_unit_count_by_city',
  `p.loose_key COLLATE "C" = $1 AND p.state = $2 AND p.city_key = $3 AND p.unit_key = $4`,
  lineFlags('$5'),
);
const LINES_COUNT_BY_ZIP = count('lines_count_by_zip', `p.line_key COLLATE "C" = ANY($1) AND p.zip = $2`);
const LINES_UNIT_COUNT_BY_ZIP = count(
  'lines_unit_count_by_zip',
  `p.line_key COLLATE "C" = ANY($1) AND p.zip = $2 AND p.unit_key = $3`,
);
const LINES_COUNT_BY_CITY = count(
  'lines_count_by_city',
  `p.line_key COLLATE "C" = ANY($1) AND p.state = $2 AND p.city_key = $3`,
);
const LINES_UNIT_COUNT_BY_CITY = count(
  'lines_unit_count_by_city',
  `p.line_key COLLATE "C" = ANY($1) AND p.state = $2 AND p.city_key = $3 AND p.unit_key = $4`,
);
// Owners: the same bounded match as the page's (the first OWNER_COUNT_CAP in id order), counted only.
/** The owner counts, by place (record-queries.ts ownerPlace): `$1`-`$2` the names, `$3` the words, then the place's. */
export const OWNER_COUNT = ownerStatements((place) => ({
  name: `owner_count${place}`,
  text: `WITH ${ownerMatches(place, 3)} SELECT count(*)::int AS total FROM m`,
}));

/**
 * A RecordStore whose pages are counted, not read: the address and owner searches run through it exactly as through
 * the store (domain/find-records.ts), and each page comes back with `counted` and no rows.
 */
export class RecordCountStore extends RecordStore {
  override async byAddress(c: AddressCriteria, limit: number, offset: number): Promise<AddressRows> {
    const statement =
      c.zip !== null
        ? c.unitKey === ''
          ? ADDRESS_COUNT_BY_ZIP
          : ADDRESS_UNIT_COUNT_BY_ZIP
        : c.unitKey === ''
          ? ADDRESS_COUNT_BY_CITY
          : ADDRESS_UNIT_COUNT_BY_CITY;
    const unit = c.unitKey === '' ? [] : [c.unitKey];
    const { rows } = await this.pool.query<{ total: number; has_line: boolean | null; only_line: boolean | null }>({
      ...statement,
      values: [c.looseKey, ...this.place(c), ...unit, c.lineKey],
    });
    const total = rows[0]?.total ?? 0;
    return {
      rows: [],
      total,
      counted: pageCount(total, limit, offset),
      hasLine: rows[0]?.has_line ?? false,
      onlyLine: rows[0]?.only_line ?? false,
    };
  }

  override async byLines(
    c: AddressCriteria,
    lines: readonly string[],
    unitKey: string | null,
    limit: number,
    offset: number,
  ): Promise<PagedRows> {
    const statement =
      c.zip !== null
        ? unitKey === null
          ? LINES_COUNT_BY_ZIP
          : LINES_UNIT_COUNT_BY_ZIP
        : unitKey === null
          ? LINES_COUNT_BY_CITY
          : LINES_UNIT_COUNT_BY_CITY;
    const values = [lines, ...this.place(c), ...(unitKey === null ? [] : [unitKey])];
    const { rows } = await this.pool.query<{ total: number }>({ ...statement, values });
    const total = rows[0]?.total ?? 0;
    return { rows: [], total, counted: pageCount(total, limit, offset) };
  }

  override async byOwner(c: OwnerCriteria, limit: number, offset: number): Promise<PagedRows> {
    const { place, values } = ownerPlace(c);
    const { rows } = await this.pool.query<{ total: number }>({
      ...OWNER_COUNT[place],
      values: [c.lastNameKey, c.firstNameKey, c.lastNameKey.split(' '), ...values],
    });
    const total = rows[0]?.total ?? 0;
    return { rows: [], total, counted: pageCount(total, limit, offset) };
  }
}
