// The delivery log of an endpoint (GET /webhooks/{id}/deliveries): one entry per attempt, newest first, paged by id.
import type { Queryable } from '@pra/platform';

export type DeliveryOutcome = 'delivered' | 'failed' | 'dead_letter';

export interface Delivery {
  id: number;
  eventId: string;
  eventType: string;
  attempt: number;
  attemptedAt: string;
  /** The receiver's HTTP status, or null when none came (refused address, time-out, connection error). */
  httpStatus: number | null;
  /** What went wrong, in words (null when delivered). */
  error: string | null;
  latencyMs: number;
  /** delivered: acknowledged with a 2xx; failed: will be retried at nextAttemptAt; dead_letter: given up. */
  outcome: DeliveryOutcome;
  nextAttemptAt: string | null;
}

export const MAX_DELIVERIES_PAGE = 100;

/** How long an attempt stays in the log (as long as the change feed keeps its events): the sweep deletes older ones. */
export const DELIVERY_LOG_RETENTION_DAYS = 30;

/** Deletes the attempts older than the retention period (every endpoint's); returns how many. */
export async function pruneDeliveries(db: Queryable, now: Date = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - DELIVERY_LOG_RETENTION_DAYS * 86_400_000);
  const { rowCount } = await db.query('DELETE FROM webhooks.deliveries WHERE attempted_at < $1', [cutoff]);
  return rowCount ?? 0;
}

/**
 * Attempts for one of the account's endpoints, newest first: `limit` of them (1-100), older than the attempt id
 * `before` when given. Null when the endpoint is not the account's (or does not exist).
 */
export async function listDeliveries(
  db: Queryable,
  accountId: number,
  webhookId: string,
  o: { limit: number; before?: number },
): Promise<Delivery[] | null> {
  const limit = Math.min(Math.max(1, Math.trunc(o.limit)), MAX_DELIVERIES_PAGE);
  const { rows: owner } = await db.query('SELECT 1 FROM webhooks.endpoints WHERE account_id = $1 AND id = $2', [
    accountId,
    webhookId,
  ]);
  if (owner.length === 0) return null;
  const { rows } = await db.query<{
    id: number;
    event_id: string;
    event_type: string;
    attempt: number;
    attempted_at: Date;
    http_status: number | null;
    error: string | null;
    latency_ms: number;
    outcome: DeliveryOutcome;
    next_attempt_at: Date | null;
  }>(
    `SELECT id, event_id, event_type, attempt, attempted_at, http_status, error, latency_ms, outcome, next_attempt_at
       FROM webhooks.deliveries
      WHERE webhook_id = $1 AND ($2::bigint IS NULL OR id < $2)
      ORDER BY id DESC LIMIT $3`,
    [webhookId, o.before ?? null, limit],
  );
  return rows.map((r) => ({
    id: r.id,
    eventId: r.event_id,
    eventType: r.event_type,
    attempt: r.attempt,
    attemptedAt: r.attempted_at.toISOString(),
    httpStatus: r.http_status,
    error: r.error,
    latencyMs: r.latency_ms,
    outcome: r.outcome,
    nextAttemptAt: r.next_attempt_at ? r.next_attempt_at.toISOString() : null,
  }));
}
