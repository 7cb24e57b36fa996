// What is owed to each endpoint (webhooks.outbox) and what happened to each attempt (webhooks.deliveries).
// A row leaves the outbox only when its event is acknowledged (2xx) or dead-lettered, in the transaction that logs
// that attempt, so an event is never lost between the queue and the log, whatever process dies when.
// Per (endpoint, record) only the head, the oldest row, is ever queued: that is the order guarantee.
import type { Queryable } from '@pra/platform';

/** One event owed to one endpoint: the BullMQ job's data. */
export interface Owed {
  webhookId: string;
  eventId: string;
}

/** A head row is the oldest of its (endpoint, record); a webhook.test row (no record) always is. */
const IS_HEAD = `(o.property_id IS NULL OR NOT EXISTS (
    SELECT 1 FROM webhooks.outbox p
     WHERE p.webhook_id = o.webhook_id AND p.property_id = o.property_id AND p.position < o.position))`;

/** Heads of active endpoints not handed to the queue yet (new, or parked while their endpoint was disabled). */
export async function unqueuedHeads(db: Queryable, limit: number): Promise<Owed[]> {
  const { rows } = await db.query<Owed>(
    `SELECT o.webhook_id AS "webhookId", o.event_id AS "eventId"
       FROM webhooks.outbox o JOIN webhooks.endpoints e ON e.id = o.webhook_id AND e.status = 'active'
      WHERE o.enqueued_at IS NULL AND ${IS_HEAD}
      ORDER BY o.created_at, o.position NULLS FIRST
      LIMIT $1`,
    [limit],
  );
  return rows;
}

/** Every head of active endpoints, queued or not, a page after `after` (re-enqueueing after Redis lost its data). */
export async function headsAfter(db: Queryable, after: Owed | null, limit: number): Promise<Owed[]> {
  const { rows } = await db.query<Owed>(
    `SELECT o.webhook_id AS "webhookId", o.event_id AS "eventId"
       FROM webhooks.outbox o JOIN webhooks.endpoints e ON e.id = o.webhook_id AND e.status = 'active'
      WHERE ($1::text IS NULL OR (o.webhook_id, o.event_id) > ($1, $2)) AND ${IS_HEAD}
      ORDER BY o.webhook_id, o.event_id
      LIMIT $3`,
    [after?.webhookId ?? null, after?.eventId ?? null, limit],
  );
  return rows;
}

/** Notes that these rows are in the queue. */
export async function markEnqueued(db: Queryable, owed: readonly Owed[]): Promise<void> {
  if (owed.length === 0) return;
  await db.query(
    `UPDATE webhooks.outbox o SET enqueued_at = now()
       FROM unnest($1::text[], $2::text[]) AS q(webhook_id, event_id)
      WHERE o.webhook_id = q.webhook_id AND o.event_id = q.event_id`,
    [owed.map((x) => x.webhookId), owed.map((x) => x.eventId)],
  );
}

/** A row taken out of the queue (its job failed for good, or its endpoint is disabled): the pump queues it again. */
export async function markUnqueued(db: Queryable, owed: Owed): Promise<void> {
  await db.query('UPDATE webhooks.outbox SET enqueued_at = NULL WHERE webhook_id = $1 AND event_id = $2', [
    owed.webhookId,
    owed.eventId,
  ]);
}

/** Everything one attempt needs: where, the secret, the body, and how many attempts came before. */
export interface DueDelivery {
  url: string;
  /** The endpoint's secret, then the one a rotation replaced while it is still valid: each signs the attempt. */
  secrets: string[];
  status: 'active' | 'disabled';
  eventType: string;
  body: string;
  attemptsMade: number;
  propertyId: number | null;
  /** The endpoint's failed attempts since its last success (any event). */
  consecutiveFailures: number;
}

/** The owed event with its endpoint, or null when it is owed no more (acknowledged, dead-lettered, deleted). */
export async function loadDue(db: Queryable, owed: Owed): Promise<DueDelivery | null> {
  const { rows } = await db.query<DueDelivery>(
    `SELECT e.url,
            CASE WHEN e.previous_secret_expires_at > now() THEN ARRAY[e.secret, e.previous_secret]
                 ELSE ARRAY[e.secret] END AS secrets,
            e.status, o.event_type AS "eventType", coalesce(o.body, b.body) AS body,
            o.attempts_made AS "attemptsMade", o.property_id AS "propertyId",
            e.consecutive_failures AS "consecutiveFailures"
       FROM webhooks.outbox o
       JOIN webhooks.endpoints e ON e.id = o.webhook_id
       LEFT JOIN webhooks.event_bodies b ON b.event_id = o.event_id
      WHERE o.webhook_id = $1 AND o.event_id = $2`,
    [owed.webhookId, owed.eventId],
  );
  return rows[0] ?? null;
}

export interface AttemptRecord {
  attempt: number;
  /** When the request was sent. */
  at: Date;
  httpStatus: number | null;
  error: string | null;
  latencyMs: number;
}

/** What finishing an event did: whether it was still owed, the next event of the same record, a disabling. */
export interface Finished {
  recorded: boolean;
  next: Owed | null;
  disabled: boolean;
}

// Each of the two writes below is ONE statement (atomic without a transaction, one round trip). Its first step
// updates the endpoint's row, and the outbox row is touched only after it (its condition reads that step): the
// endpoint's row lock comes first, as in a delete of the endpoint (which then cascades to its outbox rows), so the two
// never deadlock. When two runs of one job race (a duplicate), the loser finds the outbox row gone and records
// nothing; its step on the endpoint's counters stands (a failure counted once more, or a reset already made).

/**
 * An acknowledged (2xx) or dead-lettered event: the attempt logged, the row removed, the endpoint's counters moved,
 * and the next event of the same record (if any) returned to be queued. A dead letter after a whole schedule of
 * failures with no success in between (`disableAfterFailures` consecutive failed attempts) disables the endpoint. A
 * row already gone (acknowledged by a duplicate job, or the endpoint deleted) is not logged again.
 */
export async function finishEvent(
  db: Queryable,
  owed: Owed,
  outcome: 'delivered' | 'dead_letter',
  a: AttemptRecord,
  disableAfterFailures: number,
): Promise<Finished> {
  const endpointStep =
    outcome === 'delivered'
      ? `UPDATE webhooks.endpoints SET consecutive_failures = 0, last_delivered_at = now(),
                last_delivered_position = coalesce(greatest(last_delivered_position,
                  (SELECT position FROM webhooks.outbox WHERE webhook_id = $1 AND event_id = $2)),
                  last_delivered_position)
          WHERE id = $1 RETURNING status`
      : `UPDATE webhooks.endpoints SET consecutive_failures = consecutive_failures + 1,
                status = CASE WHEN consecutive_failures + 1 >= $9 THEN 'disabled' ELSE status END,
                disabled_at = CASE WHEN consecutive_failures + 1 >= $9 AND status = 'active' THEN now()
                                   ELSE disabled_at END,
                disabled_reason = CASE WHEN consecutive_failures + 1 >= $9 AND status = 'active'
                  THEN 'Disabled after ' || (consecutive_failures + 1) || ' failed attempts in a row (event ' ||
                       $2 || ' dead-lettered, last error: ' || $10 || '): fix the receiver, then re-enable it'
                  ELSE disabled_reason END
          WHERE id = $1 RETURNING status`;
  const params: unknown[] = [
    owed.webhookId,
    owed.eventId,
    a.attempt,
    a.httpStatus,
    a.error,
    a.latencyMs,
    outcome,
    a.at,
  ];
  if (outcome === 'dead_letter') params.push(disableAfterFailures, a.error ?? `HTTP ${a.httpStatus}`);
  // The next event of the record is read in the statement's snapshot (before the delete: "another event").
  const { rows } = await db.query<{ status: string; next: string | null }>(
    `WITH e AS (${endpointStep}),
     gone AS (
       DELETE FROM webhooks.outbox WHERE webhook_id = $1 AND event_id = $2 AND EXISTS (SELECT 1 FROM e)
       RETURNING event_type, position, property_id),
     logged AS (
       INSERT INTO webhooks.deliveries
         (webhook_id, event_id, event_type, attempt, http_status, error, latency_ms, outcome, attempted_at)
       SELECT $1, $2, event_type, $3, $4, $5, $6, $7, $8 FROM gone)
     SELECT (SELECT status FROM e) AS status,
            (SELECT o.event_id FROM webhooks.outbox o
              WHERE o.webhook_id = $1 AND o.property_id = gone.property_id AND o.event_id <> $2
              ORDER BY o.position LIMIT 1) AS next
       FROM gone`,
    params,
  );
  const row = rows[0];
  if (!row) return { recorded: false, next: null, disabled: false };
  const disabled = outcome === 'dead_letter' && row.status === 'disabled';
  const next = row.next && !disabled ? { webhookId: owed.webhookId, eventId: row.next } : null;
  return { recorded: true, next, disabled };
}

/** A failed attempt that will be retried at `nextAttemptAt`: logged, counted. False when the row is gone. */
export async function recordFailure(
  db: Queryable,
  owed: Owed,
  a: AttemptRecord,
  nextAttemptAt: Date,
): Promise<boolean> {
  const { rows } = await db.query(
    `WITH e AS (
       UPDATE webhooks.endpoints SET consecutive_failures = consecutive_failures + 1 WHERE id = $1 RETURNING 1),
     o AS (
       UPDATE webhooks.outbox SET attempts_made = $3, next_attempt_at = $7
        WHERE webhook_id = $1 AND event_id = $2 AND EXISTS (SELECT 1 FROM e) RETURNING event_type)
     INSERT INTO webhooks.deliveries
       (webhook_id, event_id, event_type, attempt, http_status, error, latency_ms, outcome, next_attempt_at, attempted_at)
     SELECT $1, $2, event_type, $3, $4, $5, $6, 'failed', $7, $8 FROM o RETURNING 1`,
    [owed.webhookId, owed.eventId, a.attempt, a.httpStatus, a.error, a.latencyMs, nextAttemptAt, a.at],
  );
  return rows.length > 0;
}

/** Bodies of change events no outbox row names any more (kept an hour, for a late duplicate job's sake). */
export async function pruneEventBodies(db: Queryable): Promise<number> {
  const { rowCount } = await db.query(
    `DELETE FROM webhooks.event_bodies b WHERE b.created_at < now() - interval '1 hour'
        AND NOT EXISTS (SELECT 1 FROM webhooks.outbox o WHERE o.event_id = b.event_id)`,
  );
  return rowCount ?? 0;
}
