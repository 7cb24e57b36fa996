// SQL of the owner endpoints (issue 37) over the owner registry the ingest writes (migration 0012): owner detail,
// an owner's properties, owner search. An owner's JSON is rendered here, with its id first (`{"id":N,...`), so that
// a charged page's receipt names it like a record (domain/paid-page.ts) and a repeat reads it again by id.
import type { Queryable } from '@pra/platform';
import { PAGING_DEPTH_MAX } from '@pra/core/contracts';
import { decodeRecordRow, type RecordRow, type StoredRecordRow } from './record-queries.js';

/** At most this many distinct names, mailing addresses and counties are listed in one owner's detail. */
export const OWNER_LIST_MAX = 100;

/** Owners matched by a name search before they are counted and ordered (the name index's first rows). */
export const OWNER_MATCH_CAP = PAGING_DEPTH_MAX;

const CURRENT = {
  name: 'owner_current',
  text: `SELECT coalesce((SELECT to_id FROM records.owner_redirects WHERE from_id = $1),
                        (SELECT owner_id FROM records.owner_entities WHERE owner_id = $1)) AS id`,
};

// Distinct properties of the owner (it may be more than one owner of one: owner1 and owner3, say), the first
// PAGING_DEPTH_MAX by id counted and paged; a page past the end is one row with the count and no body (as the name search).
const PROPERTIES_OF = {
  name: 'owner_properties',
  text: `WITH m AS (SELECT DISTINCT property_id FROM records.owner_mentions WHERE owner_id = $1
                   ORDER BY property_id LIMIT ${PAGING_DEPTH_MAX}),
         page AS (SELECT property_id FROM m ORDER BY property_id LIMIT $2 OFFSET $3)
         SELECT r.body, r.demo, c.total FROM (SELECT count(*) AS total FROM m) c
         LEFT JOIN (SELECT p.id, p.body, t.body AS demo FROM page
                    JOIN records.properties p ON p.id = page.property_id
                    LEFT JOIN records.tract_profiles t ON t.tract = p.census_tract) r ON true
         ORDER BY r.id`,
};

// One row per owner asked, with sums over its distinct properties (an owner with none left: zero and empty lists).
const DETAILS = {
  name: 'owner_details',
  text: `WITH m AS (SELECT DISTINCT ON (owner_id, property_id) * FROM records.owner_mentions
                   WHERE owner_id = ANY($1::bigint[]) ORDER BY owner_id, property_id, seq)
         SELECT e.owner_id AS id, e.name_key,
                count(m.property_id)::int AS parcels,
                coalesce(sum(m.market_total), 0)::bigint AS market,
                coalesce(sum(m.assessed_total), 0)::bigint AS assessed,
                (array_agg(DISTINCT m.name) FILTER (WHERE m.name IS NOT NULL))[1:${OWNER_LIST_MAX}] AS names,
                (array_agg(DISTINCT m.mailing) FILTER (WHERE m.mailing IS NOT NULL))[1:${OWNER_LIST_MAX}] AS mailings,
                array_agg(DISTINCT m.state) FILTER (WHERE m.state IS NOT NULL) AS states,
                (array_agg(DISTINCT m.county || ', ' || m.state) FILTER (WHERE m.county IS NOT NULL))[1:${OWNER_LIST_MAX}] AS counties,
                min(m.acquired)::text AS first_acquired, max(m.acquired)::text AS last_acquired,
                mode() WITHIN GROUP (ORDER BY m.name) AS name,
                mode() WITHIN GROUP (ORDER BY m.owner_type) AS type
           FROM records.owner_entities e LEFT JOIN m ON m.owner_id = e.owner_id
          WHERE e.owner_id = ANY($1::bigint[])
          GROUP BY e.owner_id, e.name_key`,
};

// Owners whose name key starts with either spelling asked, the first OWNER_MATCH_CAP by name, counted by their
// parcels (in the state, when given), most first; owners with no parcel (there) are not listed.
const SEARCH = {
  name: 'owner_search',
  text: `WITH c AS (SELECT owner_id FROM records.owner_entities
                   WHERE name_key LIKE $1 OR name_key LIKE $2
                   ORDER BY name_key, owner_id LIMIT ${OWNER_MATCH_CAP}),
         a AS (SELECT c.owner_id, count(DISTINCT m.property_id)::int AS parcels,
                      mode() WITHIN GROUP (ORDER BY m.name) AS name,
                      mode() WITHIN GROUP (ORDER BY m.owner_type) AS type,
                      array_agg(DISTINCT m.state) AS states
                 FROM c JOIN records.owner_mentions m ON m.owner_id = c.owner_id
                WHERE $3::text IS NULL OR m.state = $3
                GROUP BY c.owner_id),
         page AS (SELECT * FROM a ORDER BY parcels DESC, owner_id LIMIT $4 OFFSET $5)
         SELECT page.*, t.total FROM (SELECT count(*)::int AS total FROM a) t LEFT JOIN page ON true
         ORDER BY page.parcels DESC, page.owner_id`,
};

// The same summaries for given owners (a repeat of a search reads what it paid for again).
const SUMMARIES = {
  name: 'owner_summaries',
  text: `SELECT m.owner_id, count(DISTINCT m.property_id)::int AS parcels,
                mode() WITHIN GROUP (ORDER BY m.name) AS name, mode() WITHIN GROUP (ORDER BY m.owner_type) AS type,
                array_agg(DISTINCT m.state) AS states
           FROM records.owner_mentions m
          WHERE m.owner_id = ANY($1::bigint[]) AND ($2::text IS NULL OR m.state = $2)
          GROUP BY m.owner_id`,
};

interface DetailRow {
  id: string;
  name_key: string;
  parcels: number;
  market: string;
  assessed: string;
  names: string[] | null;
  mailings: string[] | null;
  states: string[] | null;
  counties: string[] | null;
  first_acquired: string | null;
  last_acquired: string | null;
  name: string | null;
  type: string | null;
}

interface SummaryRow {
  owner_id: string;
  parcels: number;
  name: string;
  type: string | null;
  states: string[];
}

const sorted = (a: string[] | null) => [...(a ?? [])].sort();

/** An owner's detail JSON (OwnerDetail), its id first. */
export function renderOwnerDetail(r: DetailRow): string {
  return JSON.stringify({
    id: Number(r.id),
    name: r.name ?? r.name_key,
    names: sorted(r.names),
    type: r.type,
    mailingAddresses: sorted(r.mailings),
    parcelCount: r.parcels,
    marketTotal: Number(r.market),
    assessedTotal: Number(r.assessed),
    states: sorted(r.states),
    counties: sorted(r.counties),
    firstAcquired: r.first_acquired,
    lastAcquired: r.last_acquired,
  });
}

const renderSummary = (r: SummaryRow) =>
  JSON.stringify({
    id: Number(r.owner_id),
    name: r.name,
    type: r.type,
    parcelCount: r.parcels,
    states: sorted(r.states),
  });

/** Owner rows as pages carry them: the JSON in `body`, no demographics. */
const asRow = (body: string, total: number): RecordRow => ({ body, demo: null, total });

export class OwnerStore {
  constructor(readonly pool: Queryable) {}

  /** The owner an id answers as (itself, or the owner it was merged into); null when no owner ever had it. */
  async current(id: number): Promise<number | null> {
    const { rows } = await this.pool.query<{ id: string | null }>({ ...CURRENT, values: [id] });
    return rows[0]?.id == null ? null : Number(rows[0].id);
  }

  /** A page of the owner's properties, and how many it has (up to PAGING_DEPTH_MAX). */
  async propertiesOf(ownerId: number, limit: number, offset: number): Promise<{ rows: RecordRow[]; total: number }> {
    const { rows } = await this.pool.query<Omit<StoredRecordRow, 'body'> & { body: Buffer | null }>({
      ...PROPERTIES_OF,
      values: [ownerId, limit, offset],
    });
    return {
      rows: rows.filter((r): r is StoredRecordRow => r.body !== null).map(decodeRecordRow),
      total: Number(rows[0]?.total ?? 0),
    };
  }

  /** Owner details by id, as rows (in any order; unknown ids left out). */
  async details(ids: readonly number[]): Promise<RecordRow[]> {
    const { rows } = await this.pool.query<DetailRow>({ ...DETAILS, values: [ids] });
    return rows.map((r) => asRow(renderOwnerDetail(r), 1));
  }

  /** Owners whose name starts with one of `prefixes` (name keys), most parcels first. */
  async search(
    prefixes: readonly [string, string],
    state: string | null,
    limit: number,
    offset: number,
  ): Promise<{ rows: RecordRow[]; total: number }> {
    const { rows } = await this.pool.query<Partial<SummaryRow> & { total: number }>({
      ...SEARCH,
      values: [`${prefixes[0]}%`, `${prefixes[1]}%`, state, limit, offset],
    });
    const total = rows[0]?.total ?? 0;
    return {
      rows: rows.filter((r) => r.owner_id != null).map((r) => asRow(renderSummary(r as SummaryRow), total)),
      total,
    };
  }

  /** The summaries of given owners (as a search in `state` lists them). */
  async summaries(ids: readonly number[], state: string | null): Promise<RecordRow[]> {
    const { rows } = await this.pool.query<SummaryRow>({ ...SUMMARIES, values: [ids, state] });
    return rows.map((r) => asRow(renderSummary(r), 0));
  }
}
