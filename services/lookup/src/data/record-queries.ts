// SQL of the record lookups. Named (prepared) statements: parsed and planned once per connection.
// Every query returns pre-rendered bodies plus the tract's demographics body; nothing is re-serialised. A paged
// lookup counts its matches in the same statement, and still returns the count when the page is past the end
// (one count, never a second query for it).
import type { Pool } from '@pra/platform';

export interface RecordRow {
  body: string;
  demo: string | null;
  total: number;
  hist?: string;
}

const FROM_WITH_DEMOGRAPHICS = `records.properties p LEFT JOIN records.tract_profiles t ON t.tract = p.census_tract`;

// The matches at an address, numbered: the rows of the page, plus the first match (rn = 1) when the page is past
// the end, so that its total arrives anyway. Addresses match a handful of records: numbering them all is cheap.
const addressPage = (where: string, limit: string, offset: string) =>
  `SELECT x.body, t.body AS demo, x.total, x.rn FROM (
     SELECT p.body, p.census_tract, count(*) OVER () AS total, row_number() OVER (ORDER BY p.unit_key, p.id) AS rn
     FROM records.properties p WHERE ${where}) x
   LEFT JOIN records.tract_profiles t ON t.tract = x.census_tract
   WHERE (x.rn > ${offset} AND x.rn <= ${offset} + ${limit}) OR x.rn = 1
   ORDER BY x.rn`;
// One statement with a unit and one without: a `($3 = '' OR unit_key = $3)` form would be planned once, generically,
// for both, and could not use the unit column of the index under a generic plan.
const ADDRESS_BY_ZIP = { name: 'address_by_zip', text: addressPage(`p.line_key = $1 AND p.zip = $2`, '$3', '$4') };
const ADDRESS_UNIT_BY_ZIP = {
  name: 'address_unit_by_zip',
  text: addressPage(`p.line_key = $1 AND p.zip = $2 AND p.unit_key = $3`, '$4', '$5'),
};
const ADDRESS_BY_CITY = {
  name: 'address_by_city',
  text: addressPage(`p.line_key = $1 AND p.state = $2 AND p.city_key = $3`, '$4', '$5'),
};
const ADDRESS_UNIT_BY_CITY = {
  name: 'address_unit_by_city',
  text: addressPage(`p.line_key = $1 AND p.state = $2 AND p.city_key = $3 AND p.unit_key = $4`, '$5', '$6'),
};

// Streets that extend a line given without its suffix ("123 W 5TH" -> "123 W 5TH ST"), at most a few.
const EXTENDED_LINES_BY_ZIP = {
  name: 'extended_lines_by_zip',
  text: `SELECT DISTINCT line_key COLLATE "C" AS line_key FROM records.properties
         WHERE zip = $1 AND line_key COLLATE "C" LIKE $2 LIMIT 4`,
};
const EXTENDED_LINES_BY_CITY = {
  name: 'extended_lines_by_city',
  text: `SELECT DISTINCT line_key COLLATE "C" AS line_key FROM records.properties
         WHERE state = $1 AND city_key = $2 AND line_key COLLATE "C" LIKE $3 LIMIT 4`,
};

// Owners: distinct properties whose owner1 or owner2 matches. The count and the page come from one statement;
// a page past the end is one row with the count and no body.
const BY_OWNER = {
  name: 'by_owner',
  text: `WITH m AS (
           SELECT DISTINCT o.property_id FROM records.owners o
           WHERE o.last_name_key = $1 AND ($2::text IS NULL OR o.first_name_key = $2)
             AND ($3::text IS NULL OR o.state = $3) AND ($4::text IS NULL OR o.city_key = $4)),
         page AS (SELECT property_id FROM m ORDER BY property_id LIMIT $5 OFFSET $6)
         SELECT r.body, r.demo, c.total FROM (SELECT count(*) AS total FROM m) c
         LEFT JOIN (SELECT p.id, p.body, t.body AS demo FROM page JOIN ${FROM_WITH_DEMOGRAPHICS} ON p.id = page.property_id) r ON true
         ORDER BY r.id`,
};

const BY_PARCEL = {
  name: 'by_parcel',
  text: `SELECT p.body, t.body AS demo, count(*) OVER () AS total FROM ${FROM_WITH_DEMOGRAPHICS}
         WHERE (p.apn_key = $1 OR p.tax_parcel_key = $1)
           AND ($2::text IS NULL OR p.state = $2) AND ($3::text IS NULL OR p.county_key = $3)
         ORDER BY p.id LIMIT $4`,
};

const SALE_HISTORY = {
  name: 'sale_history',
  text: `SELECT p.body, t.body AS demo, 1 AS total, COALESCE((
           SELECT json_agg(json_build_object('date', s.sale_date, 'price', s.price, 'documentType', s.document_type,
                    'recordingDate', s.recording_date, 'buyerName', s.buyer_name, 'sellerName', s.seller_name)
                  ORDER BY s.sale_date DESC, s.seq)
           FROM records.sales s WHERE s.property_id = p.id), '[]')::text AS hist
         FROM ${FROM_WITH_DEMOGRAPHICS} WHERE p.id = $1`,
};

const ASSESSMENT_HISTORY = {
  name: 'assessment_history',
  text: `SELECT p.body, t.body AS demo, 1 AS total, COALESCE((
           SELECT json_agg(json_build_object('taxYear', h.tax_year,
                    'assessed', json_build_object('land', h.land, 'improvements', h.improvements, 'total', h.total),
                    'market', json_build_object('total', h.market_total), 'tax', json_build_object('amount', h.tax_amount))
                  ORDER BY h.tax_year DESC)
           FROM records.assessment_history h WHERE h.property_id = p.id), '[]')::text AS hist
         FROM ${FROM_WITH_DEMOGRAPHICS} WHERE p.id = $1`,
};

export interface PagedRows {
  rows: RecordRow[];
  total: number;
}

export interface AddressCriteria {
  lineKey: string;
  unitKey: string;
  zip: string | null;
  state: string | null;
  cityKey: string | null;
}

export interface OwnerCriteria {
  lastNameKey: string;
  firstNameKey: string | null;
  state: string | null;
  cityKey: string | null;
}

export class RecordStore {
  constructor(private readonly pool: Pool) {}

  /** One page of the records at an address, and how many there are in all (also when the page is past the end). */
  async byAddress(c: AddressCriteria, limit: number, offset: number): Promise<PagedRows> {
    const where = c.zip !== null ? [c.lineKey, c.zip] : [c.lineKey, c.state, c.cityKey];
    const statement =
      c.zip !== null
        ? c.unitKey === ''
          ? ADDRESS_BY_ZIP
          : ADDRESS_UNIT_BY_ZIP
        : c.unitKey === ''
          ? ADDRESS_BY_CITY
          : ADDRESS_UNIT_BY_CITY;
    const q = { ...statement, values: [...where, ...(c.unitKey === '' ? [] : [c.unitKey]), limit, offset] };
    const { rows } = await this.pool.query<RecordRow & { rn: number }>(q);
    return { rows: rows.filter((r) => r.rn > offset), total: rows[0]?.total ?? 0 };
  }

  /** Lines that start with `c.lineKey` followed by more words, in the same ZIP or city. */
  async extendedLines(c: AddressCriteria): Promise<string[]> {
    const prefix = `${c.lineKey.replace(/[\\%_]/g, '\\$&')} %`;
    const q =
      c.zip !== null
        ? { ...EXTENDED_LINES_BY_ZIP, values: [c.zip, prefix] }
        : { ...EXTENDED_LINES_BY_CITY, values: [c.state, c.cityKey, prefix] };
    return (await this.pool.query<{ line_key: string }>(q)).rows.map((r) => r.line_key);
  }

  /** One page of an owner's properties, and how many there are in all (also when the page is past the end). */
  async byOwner(c: OwnerCriteria, limit: number, offset: number): Promise<PagedRows> {
    const values = [c.lastNameKey, c.firstNameKey, c.state, c.cityKey, limit, offset];
    const { rows } = await this.pool.query<Omit<RecordRow, 'body'> & { body: string | null }>({ ...BY_OWNER, values });
    return { rows: rows.filter((r): r is RecordRow => r.body !== null), total: rows[0]?.total ?? 0 };
  }

  async byParcel(apnKey: string, state: string | null, countyKey: string | null, limit: number): Promise<RecordRow[]> {
    return (await this.pool.query<RecordRow>({ ...BY_PARCEL, values: [apnKey, state, countyKey, limit] })).rows;
  }

  async saleHistory(id: number): Promise<RecordRow | undefined> {
    return (await this.pool.query<RecordRow>({ ...SALE_HISTORY, values: [id] })).rows[0];
  }

  async assessmentHistory(id: number): Promise<RecordRow | undefined> {
    return (await this.pool.query<RecordRow>({ ...ASSESSMENT_HISTORY, values: [id] })).rows[0];
  }

  async recordCount(): Promise<number> {
    const { rows } = await this.pool.query<{ n: number }>({
      name: 'record_count',
      text: 'SELECT property_count AS n FROM records.dataset_stats',
    });
    return rows[0]?.n ?? 0;
  }
}
