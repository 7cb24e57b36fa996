// The dispatcher: reads the change feed (records.change_events) after its cursor, matches each event against the
// active endpoints, and writes what is owed (webhooks.outbox, one body per event in webhooks.event_bodies) and the
// advanced cursor in ONE transaction: an event is matched exactly once, and a crash before the commit leaves the
// cursor where it was. Queueing is the pump's (engine.ts), after the commit, from the outbox: so nothing matched is
// lost if Redis or this process dies between the two. One dispatcher runs at a time (a transaction-level advisory
// lock); the others skip their round.
import { withTransaction, type Pool, type PoolClient } from '@pra/platform';
import { type ChangeEvent, readChangeFeed } from '@pra/ingest/change-events';
import { eventIdOf, eventPayload, eventTypeOf, matchesWebhook, type WebhookFilter } from '../domain/webhook.js';

const DISPATCH_LOCK = 'webhooks.dispatch';
/** Outbox rows written per statement. */
const INSERT_CHUNK = 5_000;

interface ActiveEndpoint {
  id: string;
  events: string[];
  filter: WebhookFilter;
  start_position: number;
}

export interface DispatchRound {
  /** False when another dispatcher held the lock. */
  ran: boolean;
  events: number;
  /** Outbox rows written. */
  owed: number;
  cursor: number;
}

const activeEndpoints = async (c: PoolClient) =>
  (
    await c.query<ActiveEndpoint>(
      `SELECT id, events, filter, start_position FROM webhooks.endpoints WHERE status = 'active'`,
    )
  ).rows;

/**
 * Endpoints whose filter names an owner also match the owners merged with it, one redirect step either way (as
 * GET /changes follows them: records.owner_redirects).
 */
async function withOwners(
  c: PoolClient,
  endpoints: ActiveEndpoint[],
): Promise<(ActiveEndpoint & { ownerIds?: number[] })[]> {
  const wanted = [...new Set(endpoints.flatMap((e) => (e.filter.ownerId === undefined ? [] : [e.filter.ownerId])))];
  if (wanted.length === 0) return endpoints;
  const { rows } = await c.query<{ id: string; ids: string[] }>(
    `SELECT w.id::text, array_agg(DISTINCT x)::text[] AS ids
       FROM unnest($1::bigint[]) AS w(id)
       CROSS JOIN LATERAL (SELECT coalesce((SELECT to_id FROM records.owner_redirects WHERE from_id = w.id), w.id) AS t) t
       CROSS JOIN LATERAL (SELECT w.id AS x UNION SELECT t.t UNION
                           SELECT from_id FROM records.owner_redirects WHERE to_id = t.t) ids
      GROUP BY w.id`,
    [wanted],
  );
  const owners = new Map(rows.map((r) => [Number(r.id), r.ids.map(Number)]));
  return endpoints.map((e) =>
    e.filter.ownerId === undefined ? e : { ...e, ownerIds: owners.get(e.filter.ownerId) ?? [e.filter.ownerId] },
  );
}

/** One round: at most `limit` events past the cursor. */
export async function dispatchChanges(
  pool: Pool,
  limit: number,
  log: (o: Record<string, unknown>) => void = () => {},
): Promise<DispatchRound> {
  return withTransaction(pool, async (c) => {
    const { rows: lock } = await c.query<{ ok: boolean }>('SELECT pg_try_advisory_xact_lock(hashtext($1)) AS ok', [
      DISPATCH_LOCK,
    ]);
    if (!lock[0]!.ok) return { ran: false, events: 0, owed: 0, cursor: 0 };
    const { rows: state } = await c.query<{ position: number }>(
      'SELECT position FROM webhooks.dispatch_state FOR UPDATE',
    );
    const cursor = state[0]!.position;
    // Where to read from. No event at or below an endpoint's start position is its, so the feed before the oldest
    // active endpoint's start (or all of it, with none) is passed over. The feed's end is read before the endpoints:
    // an endpoint created after that read starts at or beyond it, so passing over to it skips nothing of its own.
    const { rows: end } = await c.query<{ last: number }>(
      'SELECT coalesce(max(position), 0) AS last FROM records.change_events',
    );
    const before = await activeEndpoints(c);
    const floor = before.length > 0 ? Math.min(...before.map((e) => e.start_position)) : end[0]!.last;
    const after = Math.max(cursor, floor);
    const page = await readChangeFeed(c, { after: String(after), limit });
    const events = page.events;
    if (BigInt(page.prunedThrough) > BigInt(after))
      log({
        msg: 'webhook dispatch: change events were pruned before they were matched (the feed keeps 30 days)',
        cursor: after,
        prunedThrough: page.prunedThrough,
      });
    // Matched against the endpoints as they are now, read after the events: one created meanwhile is included, and
    // one created after this read starts past every event read here.
    const endpoints = events.length > 0 ? await withOwners(c, await activeEndpoints(c)) : [];
    const owed: { webhookId: string; event: ChangeEvent }[] = [];
    const bodies = new Map<string, string>();
    for (const event of events) {
      for (const e of endpoints) {
        if (Number(event.position) <= e.start_position || !matchesWebhook(e, event)) continue;
        owed.push({ webhookId: e.id, event });
        if (!bodies.has(event.position)) bodies.set(event.position, eventPayload(event));
      }
    }
    if (bodies.size > 0) {
      await c.query(
        `INSERT INTO webhooks.event_bodies (event_id, body) SELECT * FROM unnest($1::text[], $2::text[])
         ON CONFLICT (event_id) DO NOTHING`,
        [[...bodies.keys()].map(eventIdOf), [...bodies.values()]],
      );
    }
    for (let i = 0; i < owed.length; i += INSERT_CHUNK) {
      const chunk = owed.slice(i, i + INSERT_CHUNK);
      await c.query(
        `INSERT INTO webhooks.outbox (webhook_id, event_id, event_type, position, property_id)
         SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[], $5::bigint[])
         ON CONFLICT (webhook_id, event_id) DO NOTHING`,
        [
          chunk.map((o) => o.webhookId),
          chunk.map((o) => eventIdOf(o.event.position)),
          chunk.map((o) => eventTypeOf(o.event)),
          chunk.map((o) => o.event.position),
          chunk.map((o) => o.event.propertyId),
        ],
      );
    }
    // The page's `next`: its last event when full, else the feed's head (nothing at or below it can appear later).
    const next = Number(page.next);
    if (next !== cursor)
      await c.query('UPDATE webhooks.dispatch_state SET position = $1, dispatched_at = now()', [next]);
    return { ran: true, events: events.length, owed: owed.length, cursor: next };
  });
}
