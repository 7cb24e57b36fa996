// The change events (migration 0013): written by an import in the transaction of the batch that changes the records,
// read in position order by GET /changes and the webhook deliverer, pruned after the retention period.
//
// Ordering that never skips: positions come from a sequence, drawn under a transaction-level advisory lock that is
// held until the writing transaction ends. A transaction drawing a later position therefore drew it after every
// earlier drawer had committed (or rolled back), and PostgreSQL makes a commit visible before it releases the
// transaction's locks: whoever sees position N+1 sees every committed position up to N. Each writer takes the lock
// as the last thing before it commits (after its rows are written), so the lock serialises only the short tail of
// import transactions, which already queue there for the record count's row.
import { countyKey } from '@pra/core/address';
import { CHANGE_RETENTION_DAYS, type ChangeEvent as PublicChangeEvent } from '@pra/core/contracts';
import type { ChangePart } from '@pra/core/vocabulary';
import type { Pool, PoolClient } from '@pra/platform/db';

/** How long events are kept (@pra/core/contracts): the prune deletes older ones; a cursor into them has expired. */
export { CHANGE_RETENTION_DAYS };

/** A last sale as the feed shows it. */
export interface SaleSummary {
  date: string;
  price: number | null;
}

/** An assessment as the feed shows it. */
export interface AssessmentSummary {
  taxYear: number | null;
  total: number | null;
  marketTotal: number | null;
}

/** What an event says beside its parts: the old and new values of the parts that have them. */
export interface ChangeDetail {
  /** Owner names (owner1's to owner4's full names, in order), before and after. */
  owner?: { old: string[]; new: string[] };
  /** The last sale before and after; null where there was none. */
  sale?: { old: SaleSummary | null; new: SaleSummary | null };
  assessment?: { old: AssessmentSummary | null; new: AssessmentSummary | null };
}

/** An event as a writer makes it (before it has a position). */
export interface ChangeEventDraft {
  propertyId: number;
  parts: ChangePart[];
  zip: string;
  state: string;
  fips: string;
  /** The county name normalised (countyKey), as records.properties has it. */
  countyKey: string;
  /** The record's owner entities after the change (its owners before are added from the store when it is written). */
  ownerIds: number[];
  detail: ChangeDetail;
}

/** An event as the feed reads it. */
export interface ChangeEvent {
  /** The event's id: its position, as a decimal string. */
  id: string;
  /** Its place in the feed (a bigint, as a decimal string): events are read in this order. */
  position: string;
  propertyId: number;
  parts: ChangePart[];
  /** ISO 8601. */
  changedAt: string;
  zip: string;
  state: string;
  fips: string;
  countyKey: string;
  ownerIds: number[];
  source: string;
  detail: ChangeDetail;
}

/**
 * An event as the API shows it (ChangeEvent of the contracts), its id first: what GET /changes answers and what a
 * webhook delivery carries as its `data`. The feed's own fields (position, owner ids, source) stay inside.
 */
export function publicChangeEvent(e: ChangeEvent): PublicChangeEvent {
  return {
    id: e.id,
    propertyId: e.propertyId,
    parts: e.parts,
    changedAt: e.changedAt,
    zip: e.zip,
    state: e.state,
    county: e.countyKey,
    fips: e.fips,
    ...e.detail,
  };
}

/** Which events a reader wants; every given filter must match. */
export interface ChangeFilter {
  zip?: string;
  /** With county: the county's state. */
  state?: string;
  /** A county name (compared normalised, as countyKey makes it) or its five-digit FIPS code; needs `state`. */
  county?: string;
  /** An owner entity: events of records it owned before or after the change (an owner merged into it included). */
  ownerId?: string;
  /** A watch list of property ids. */
  propertyIds?: readonly string[];
}

type Queryable = Pick<Pool, 'query'> | Pick<PoolClient, 'query'>;

const FEED_LOCK = "hashtext('records.change_event_position')";

/** The owner ids the given properties have in the store now: call before their rows are replaced or deleted. */
export async function storedOwnerIds(
  client: Queryable,
  propertyIds: readonly number[],
): Promise<Map<number, number[]>> {
  const out = new Map<number, number[]>();
  if (propertyIds.length === 0) return out;
  const { rows } = await client.query<{ property_id: string; owner_id: string }>(
    'SELECT property_id, owner_id FROM records.owner_mentions WHERE property_id = ANY($1::bigint[])',
    [propertyIds],
  );
  for (const r of rows) {
    const id = Number(r.property_id);
    const list = out.get(id) ?? [];
    list.push(Number(r.owner_id));
    out.set(id, list);
  }
  return out;
}

/**
 * Appends `events` in the caller's transaction, as the last thing it writes before committing (the feed's lock is
 * held from here to the commit). `priorOwners`: the records' owner ids before the change (storedOwnerIds).
 */
export async function appendChangeEvents(
  client: PoolClient,
  source: string,
  events: readonly ChangeEventDraft[],
  priorOwners: ReadonlyMap<number, readonly number[]> = new Map(),
): Promise<void> {
  if (events.length === 0) return;
  const owners = events.map((e) => {
    const ids = new Set([...(priorOwners.get(e.propertyId) ?? []), ...e.ownerIds]);
    return `{${[...ids].join(',')}}`;
  });
  await client.query(`SELECT pg_advisory_xact_lock(${FEED_LOCK})`);
  await client.query(
    `INSERT INTO records.change_events
       (position, property_id, parts, zip, state, fips, county_key, owner_ids, source, detail)
     SELECT nextval('records.change_event_position'), e.property_id, e.parts::text[], e.zip, e.state, e.fips,
            e.county_key, e.owner_ids::bigint[], $9, e.detail::jsonb
       FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[])
            WITH ORDINALITY AS e(property_id, parts, zip, state, fips, county_key, owner_ids, detail, n)
      ORDER BY e.n`,
    [
      events.map((e) => e.propertyId),
      events.map((e) => `{${e.parts.join(',')}}`),
      events.map((e) => e.zip),
      events.map((e) => e.state),
      events.map((e) => e.fips),
      events.map((e) => e.countyKey),
      owners,
      events.map((e) => JSON.stringify(e.detail)),
      source,
    ],
  );
}

/**
 * A source's removal: its records' 'removed' events, staged from the store before their rows are deleted (in a
 * temporary table of the caller's transaction) and appended by appendStagedRemovals as the removal's last write.
 */
export async function stageRemovals(client: PoolClient, source: string): Promise<void> {
  await client.query(
    `CREATE TEMP TABLE removed_records ON COMMIT DROP AS
     SELECT p.id, p.zip::text AS zip, p.state, p.fips, p.county_key,
            coalesce((SELECT array_agg(m.owner_id) FROM records.owner_mentions m WHERE m.property_id = p.id),
                     '{}') AS owner_ids
       FROM records.properties p WHERE p.source = $1`,
    [source],
  );
}

export async function appendStagedRemovals(client: PoolClient, source: string): Promise<void> {
  await client.query(`SELECT pg_advisory_xact_lock(${FEED_LOCK})`);
  await client.query(
    `INSERT INTO records.change_events
       (position, property_id, parts, zip, state, fips, county_key, owner_ids, source, detail)
     SELECT nextval('records.change_event_position'), r.id, '{removed}', r.zip, r.state, r.fips, r.county_key,
            r.owner_ids, $1, '{}'
       FROM (SELECT * FROM removed_records ORDER BY id) r`,
    [source],
  );
}

interface EventRow {
  position: string;
  property_id: string;
  parts: string[];
  changed_at: Date;
  zip: string;
  state: string;
  fips: string;
  county_key: string;
  owner_ids: string[];
  source: string;
  detail: ChangeDetail;
}

const EVENT_COLUMNS =
  'position::text, property_id, parts, changed_at, zip, state, fips, county_key, owner_ids::text[], source, detail';

function toEvent(r: EventRow): ChangeEvent {
  return {
    id: r.position,
    position: r.position,
    propertyId: Number(r.property_id),
    parts: r.parts as ChangePart[],
    changedAt: r.changed_at.toISOString(),
    zip: r.zip.trim(),
    state: r.state,
    fips: r.fips,
    countyKey: r.county_key,
    ownerIds: r.owner_ids.map(Number),
    source: r.source,
    detail: r.detail,
  };
}

/** The WHERE clause of a filter, its parameters numbered from `first`. */
function filterSql(filter: ChangeFilter, first: number): { sql: string; params: unknown[] } {
  const where: string[] = [];
  const params: unknown[] = [];
  const param = (v: unknown) => {
    params.push(v);
    return `$${first + params.length - 1}`;
  };
  if (filter.zip !== undefined) where.push(`e.zip = ${param(filter.zip)}`);
  if (filter.county !== undefined) {
    if (filter.state === undefined) throw new Error('a county filter needs its state');
    const state = param(filter.state.toUpperCase());
    where.push(
      /^\d{5}$/.test(filter.county)
        ? `e.state = ${state} AND e.fips = ${param(filter.county)}`
        : `e.state = ${state} AND e.county_key = ${param(countyKey(filter.county))}`,
    );
  } else if (filter.state !== undefined) where.push(`e.state = ${param(filter.state.toUpperCase())}`);
  if (filter.ownerId !== undefined) {
    const id = param(filter.ownerId);
    // A redirect is one step (owner-registry.ts): the owner asked for, what it answers as, and what merged into that.
    where.push(`e.owner_ids && (
      WITH target AS (SELECT coalesce((SELECT to_id FROM records.owner_redirects WHERE from_id = ${id}::bigint),
                                      ${id}::bigint) AS id)
      SELECT array_agg(x) FROM (SELECT id AS x FROM target
                                UNION SELECT from_id FROM records.owner_redirects WHERE to_id = (SELECT id FROM target)
                                UNION SELECT ${id}::bigint) ids)`);
  }
  if (filter.propertyIds !== undefined) where.push(`e.property_id = ANY(${param(filter.propertyIds)}::bigint[])`);
  return { sql: where.length === 0 ? '' : ` AND ${where.join(' AND ')}`, params };
}

/** Events after position `after` ('0': from the start) matching `filter`, in position order, at most `limit`. */
export async function readChangeEvents(
  db: Queryable,
  opts: { after: string; limit: number; filter?: ChangeFilter },
): Promise<ChangeEvent[]> {
  return (await readChangeFeed(db, opts)).events;
}

/** Events by id (a repeat reads again what it paid for), in any order; pruned ones are missing. */
export async function readChangeEventsByIds(db: Queryable, ids: readonly string[]): Promise<ChangeEvent[]> {
  if (ids.length === 0) return [];
  const { rows } = await db.query<EventRow>(
    `SELECT ${EVENT_COLUMNS} FROM records.change_events e WHERE e.position = ANY($1::bigint[])`,
    [ids],
  );
  return rows.map(toEvent);
}

/** A page of the feed with what a cursor needs, read in one snapshot (one statement). */
export interface ChangeFeedPage {
  events: ChangeEvent[];
  /**
   * Where the next page starts: the last event's position when the page is full; otherwise the feed's head (no
   * event at or below it can appear later), so that a filtered reader's cursor moves on past events it does not
   * match (and does not fall behind the retention period while it polls).
   */
  next: string;
  /** The highest position committed when the page was read (the prune's watermark when it deleted them all). */
  head: string;
  /** Events at or below this position have been pruned: a cursor below it has expired. */
  prunedThrough: string;
}

export async function readChangeFeed(
  db: Queryable,
  opts: { after: string; limit: number; filter?: ChangeFilter },
): Promise<ChangeFeedPage> {
  const where = filterSql(opts.filter ?? {}, 3);
  const { rows } = await db.query<{ page: EventRow[] | null; head: string; pruned_through: string }>(
    `WITH page AS (
       SELECT ${EVENT_COLUMNS} FROM records.change_events e
        WHERE e.position > $1::bigint${where.sql}
        ORDER BY e.position LIMIT $2)
     SELECT (SELECT json_agg(page ORDER BY page.position::bigint) FROM page) AS page,
            greatest((SELECT max(position) FROM records.change_events), s.pruned_through)::text AS head,
            s.pruned_through::text AS pruned_through
       FROM records.change_feed_state s`,
    [opts.after, opts.limit, ...where.params],
  );
  const row = rows[0]!;
  const events = (row.page ?? []).map((r) => toEvent({ ...r, changed_at: new Date(r.changed_at) }));
  const last = events.at(-1)?.position;
  const next = events.length >= opts.limit && last ? last : maxPosition(row.head, opts.after);
  return { events, next, head: row.head, prunedThrough: row.pruned_through };
}

function maxPosition(...ps: string[]): string {
  return ps.reduce((a, b) => (BigInt(a) >= BigInt(b) ? a : b));
}

/**
 * Deletes the events older than the retention period, as a prefix of the feed (every position up to the newest
 * expired one), and records how far it deleted. Returns the number deleted.
 */
export async function pruneChangeEvents(
  pool: Pool,
  opts: { retentionDays?: number; now?: Date } = {},
): Promise<number> {
  const days = opts.retentionDays ?? CHANGE_RETENTION_DAYS;
  const cutoff = new Date((opts.now ?? new Date()).getTime() - days * 86_400_000);
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    // The watermark and the rows go in one transaction; a concurrent prune waits on the watermark's row lock, then
    // deletes what is left (nothing, or less).
    const { rows } = await client.query<{ through: string | null }>(
      `SELECT max(position)::text AS through FROM records.change_events WHERE changed_at < $1`,
      [cutoff],
    );
    const through = rows[0]?.through;
    if (!through) {
      await client.query('COMMIT');
      return 0;
    }
    await client.query(
      `UPDATE records.change_feed_state SET pruned_through = greatest(pruned_through, $1::bigint), pruned_at = now()`,
      [through],
    );
    const deleted = await client.query('DELETE FROM records.change_events WHERE position <= $1::bigint', [through]);
    await client.query('COMMIT');
    return deleted.rowCount ?? 0;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    throw err;
  } finally {
    client.release();
  }
}
