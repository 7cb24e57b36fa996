// An account's webhook endpoints: create (the secret is returned once, here), list, read, delete, re-enable, rotate
// the secret (the new one returned once), and the test event. Every read and change is scoped to the account: another account's webhook is "not found".
// The URL is checked by the caller first (validateWebhookUrl in domain/url-policy.ts: the route has the setting).
import { randomBytes } from 'node:crypto';
import { type UsageResponse, WEBHOOK_SECRET_OVERLAP_MAX_SECONDS, WEBHOOK_TESTS_PENDING_MAX } from '@pra/core/contracts';
import { ApiError, notFound } from '@pra/core/errors';
import { IDEMPOTENCY_KEY_TTL_SECONDS, withTransaction, type Pool, type Queryable } from '@pra/platform';
import { newWebhookSecret } from '../domain/signing.js';
import {
  WEBHOOKS_PER_ACCOUNT_MAX,
  newWebhookId,
  storedFilter,
  TEST_EVENT_TYPE,
  testPayload,
  type WebhookEventType,
  type WebhookFilter,
} from '../domain/webhook.js';

/** The channel the delivery worker listens on: a test event (or anything else owed) is enqueued at once. */
export const OUTBOX_CHANNEL = 'webhooks_outbox';

export interface Webhook {
  id: string;
  url: string;
  events: WebhookEventType[];
  filter: WebhookFilter;
  status: 'active' | 'disabled';
  /** Why it was disabled (repeated failure): shown in the list, and what /usage tells the account. */
  disabledReason: string | null;
  disabledAt: string | null;
  createdAt: string;
  /** Failed attempts since the last acknowledged delivery. */
  consecutiveFailures: number;
  lastDeliveredAt: string | null;
  /** Events owed to it now (queued, being retried, or parked while disabled). */
  pendingEvents: number;
  /** Until when the secret a rotation replaced still signs deliveries beside the current one; null when none does. */
  previousSecretExpiresAt: string | null;
}

interface EndpointRow {
  id: string;
  url: string;
  events: WebhookEventType[];
  filter: WebhookFilter;
  status: 'active' | 'disabled';
  disabled_reason: string | null;
  disabled_at: Date | null;
  created_at: Date;
  consecutive_failures: number;
  last_delivered_at: Date | null;
  pending: number;
  previous_secret_expires_at: Date | null;
}

const SELECT_ENDPOINT = `
  SELECT e.id, e.url, e.events, e.filter, e.status, e.disabled_reason, e.disabled_at, e.created_at,
         e.consecutive_failures, e.last_delivered_at,
         (SELECT count(*) FROM webhooks.outbox o WHERE o.webhook_id = e.id)::int AS pending,
         CASE WHEN e.previous_secret_expires_at > now() THEN e.previous_secret_expires_at END AS previous_secret_expires_at
    FROM webhooks.endpoints e`;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

function toWebhook(r: EndpointRow): Webhook {
  return {
    id: r.id,
    url: r.url,
    events: r.events,
    filter: r.filter,
    status: r.status,
    disabledReason: r.disabled_reason,
    disabledAt: iso(r.disabled_at),
    createdAt: r.created_at.toISOString(),
    consecutiveFailures: r.consecutive_failures,
    lastDeliveredAt: iso(r.last_delivered_at),
    pendingEvents: r.pending,
    previousSecretExpiresAt: iso(r.previous_secret_expires_at),
  };
}

export interface NewWebhook {
  accountId: number;
  /** Already checked with validateWebhookUrl. */
  url: string;
  events: readonly WebhookEventType[];
  filter?: WebhookFilter;
}

/**
 * Creates an endpoint; it receives the change events committed after this call. The secret (`whsec_...`) is in the
 * answer and never again. More than WEBHOOKS_PER_ACCOUNT_MAX endpoints: a 409 limit_reached.
 */
export async function createWebhook(
  pool: Pool,
  w: NewWebhook,
  /**
   * The client's Idempotency-Key and a fingerprint of what it asked: a creation repeated with the key within a day
   * is answered with the webhook the first made (as it is now, with its current secret), not a second one; the key
   * with another request is a 400 idempotency_key_reused.
   */
  keyed?: { key: string; fingerprint: string },
): Promise<{ webhook: Webhook; secret: string; repeated: boolean }> {
  let id = newWebhookId();
  let secret = newWebhookSecret();
  let repeated = false;
  await withTransaction(pool, async (c) => {
    // One creation at a time per account, so two concurrent ones cannot both pass the count (nor both use a key).
    await c.query('SELECT pg_advisory_xact_lock(hashtext($1), $2::int)', ['webhooks.account', w.accountId % 2 ** 31]);
    if (keyed) {
      await c.query(
        `DELETE FROM webhooks.create_requests WHERE account_id = $1 AND created_at < now() - make_interval(secs => $2)`,
        [w.accountId, IDEMPOTENCY_KEY_TTL_SECONDS],
      );
      const { rows: before } = await c.query<{ fingerprint: string; webhook_id: string; secret: string }>(
        `SELECT r.fingerprint, r.webhook_id, e.secret FROM webhooks.create_requests r
           JOIN webhooks.endpoints e ON e.id = r.webhook_id
          WHERE r.account_id = $1 AND r.idempotency_key = $2`,
        [w.accountId, keyed.key],
      );
      if (before[0]) {
        if (before[0].fingerprint !== keyed.fingerprint)
          throw new ApiError(
            'idempotency_key_reused',
            'This Idempotency-Key was already used to create another webhook: use a new key for a new request',
          );
        id = before[0].webhook_id;
        secret = before[0].secret;
        repeated = true;
        return;
      }
    }
    const { rows } = await c.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM webhooks.endpoints WHERE account_id = $1',
      [w.accountId],
    );
    if (rows[0]!.n >= WEBHOOKS_PER_ACCOUNT_MAX)
      throw new ApiError(
        'limit_reached',
        `An account has at most ${WEBHOOKS_PER_ACCOUNT_MAX} webhooks: delete one before creating another`,
      );
    // The feed's last position now: events at or below it were committed before the endpoint existed (the feed's
    // positions become visible in order, records.change_events), every later one is the endpoint's.
    await c.query(
      `INSERT INTO webhooks.endpoints (id, account_id, url, events, filter, secret, start_position)
       VALUES ($1, $2, $3, $4, $5, $6, (SELECT coalesce(max(position), 0) FROM records.change_events))`,
      [id, w.accountId, w.url, [...w.events], JSON.stringify(storedFilter(w.filter ?? {})), secret],
    );
    if (keyed)
      await c.query(
        `INSERT INTO webhooks.create_requests (account_id, idempotency_key, fingerprint, webhook_id)
         VALUES ($1, $2, $3, $4)`,
        [w.accountId, keyed.key, keyed.fingerprint, id],
      );
  });
  const webhook = await getWebhook(pool, w.accountId, id);
  // Deleted by another call between the commit and this read.
  if (!webhook) throw notFound(`Webhook ${id} was deleted while this creation was answered: create it again`);
  return { webhook, secret, repeated };
}

/** The account's endpoints, oldest first (no secrets). */
export async function listWebhooks(db: Queryable, accountId: number): Promise<Webhook[]> {
  const { rows } = await db.query<EndpointRow>(
    `${SELECT_ENDPOINT} WHERE e.account_id = $1 ORDER BY e.created_at, e.id`,
    [accountId],
  );
  return rows.map(toWebhook);
}

/** One of the account's endpoints, or null (unknown, or another account's). */
export async function getWebhook(db: Queryable, accountId: number, id: string): Promise<Webhook | null> {
  const { rows } = await db.query<EndpointRow>(`${SELECT_ENDPOINT} WHERE e.account_id = $1 AND e.id = $2`, [
    accountId,
    id,
  ]);
  return rows[0] ? toWebhook(rows[0]) : null;
}

/**
 * Deletes an endpoint with its delivery log and what it was owed: a delivery still queued finds nothing to send and
 * is dropped (one already on the wire when this commits cannot be called back). False when there is no such endpoint.
 */
export async function deleteWebhook(db: Queryable, accountId: number, id: string): Promise<boolean> {
  const { rowCount } = await db.query('DELETE FROM webhooks.endpoints WHERE account_id = $1 AND id = $2', [
    accountId,
    id,
  ]);
  return (rowCount ?? 0) > 0;
}

/**
 * Re-enables a disabled endpoint: its failure count starts over and what it was owed is queued again (in order).
 * False when there is no such endpoint.
 */
export async function enableWebhook(db: Queryable, accountId: number, id: string): Promise<boolean> {
  const { rowCount } = await db.query(
    `WITH e AS (
       UPDATE webhooks.endpoints SET status = 'active', disabled_reason = NULL, disabled_at = NULL, consecutive_failures = 0
        WHERE account_id = $1 AND id = $2 RETURNING id)
     SELECT pg_notify($3, id) FROM e`,
    [accountId, id, OUTBOX_CHANNEL],
  );
  return (rowCount ?? 0) > 0;
}

/**
 * A new secret for the endpoint (returned once, here). The one it replaces signs every delivery beside it for
 * `previousValidSeconds` more (0: at once no more, for a secret that leaked), so a receiver can move to the new one
 * without refusing a delivery. One previous secret at most: a rotation within the overlap of the last one drops the
 * oldest at once. Null when there is no such endpoint.
 */
export async function rotateWebhookSecret(
  db: Queryable,
  accountId: number,
  id: string,
  previousValidSeconds: number = WEBHOOK_SECRET_OVERLAP_MAX_SECONDS,
): Promise<{ webhook: Webhook; secret: string } | null> {
  if (
    !Number.isInteger(previousValidSeconds) ||
    previousValidSeconds < 0 ||
    previousValidSeconds > WEBHOOK_SECRET_OVERLAP_MAX_SECONDS
  )
    throw new Error(`previousValidSeconds is a whole number from 0 to ${WEBHOOK_SECRET_OVERLAP_MAX_SECONDS}`);
  const secret = newWebhookSecret();
  // A creation's Idempotency-Key replays it with its secret: not one made later by this rotation (a leaked secret's
  // replacement is shown only here). A retry of that creation with the key now makes a new webhook.
  const { rowCount } = await db.query(
    `WITH forget AS (DELETE FROM webhooks.create_requests WHERE account_id = $1 AND webhook_id = $2)
     UPDATE webhooks.endpoints
        SET previous_secret = CASE WHEN $4::int > 0 THEN secret END,
            previous_secret_expires_at = CASE WHEN $4::int > 0 THEN now() + make_interval(secs => $4::int) END,
            secret = $3
      WHERE account_id = $1 AND id = $2`,
    [accountId, id, secret, previousValidSeconds],
  );
  if ((rowCount ?? 0) === 0) return null;
  const webhook = await getWebhook(db, accountId, id);
  return webhook ? { webhook, secret } : null;
}

/** Forgets the replaced secrets whose overlap is over (they sign nothing more): none is kept longer than needed. */
export async function forgetExpiredSecrets(db: Queryable): Promise<number> {
  const { rowCount } = await db.query(
    `UPDATE webhooks.endpoints SET previous_secret = NULL, previous_secret_expires_at = NULL
      WHERE previous_secret_expires_at <= now()`,
  );
  return rowCount ?? 0;
}

/**
 * POST /webhooks/{id}/test: a `webhook.test` event owed to the endpoint, delivered by the worker through the same
 * queue, signing, retries and log as any event (within a second: the worker is woken by NOTIFY). Null when there is
 * no such endpoint. A disabled endpoint gets it once re-enabled.
 */
export async function enqueueTestDelivery(
  db: Queryable,
  accountId: number,
  webhookId: string,
): Promise<{ eventId: string } | null> {
  const eventId = `evt_test_${randomBytes(8).toString('hex')}`;
  // At most WEBHOOK_TESTS_PENDING_MAX owed at once: each is a row and an attempt, and a disabled (or unreachable)
  // endpoint keeps them, so a loop of calls would otherwise grow the outbox without end.
  const { rows } = await db.query<{ queued: boolean }>(
    `WITH e AS (SELECT id FROM webhooks.endpoints WHERE account_id = $1 AND id = $2),
          room AS (SELECT id FROM e WHERE (SELECT count(*) FROM webhooks.outbox
                                            WHERE webhook_id = e.id AND event_type = $4) < $7),
          o AS (INSERT INTO webhooks.outbox (webhook_id, event_id, event_type, body)
                SELECT id, $3, $4, $5 FROM room RETURNING webhook_id),
          n AS (SELECT pg_notify($6, webhook_id) FROM o)
     SELECT (SELECT count(*) FROM n) > 0 AS queued FROM e`,
    [
      accountId,
      webhookId,
      eventId,
      TEST_EVENT_TYPE,
      testPayload(webhookId, eventId, new Date()),
      OUTBOX_CHANNEL,
      WEBHOOK_TESTS_PENDING_MAX,
    ],
  );
  if (!rows[0]) return null;
  if (!rows[0].queued)
    throw new ApiError(
      'limit_reached',
      `This webhook is owed ${WEBHOOK_TESTS_PENDING_MAX} test events already, the most at once: wait for them to be delivered (a disabled webhook gets them once enabled)`,
    );
  return { eventId };
}

/** What /usage can tell an account about its webhooks: how many, and those disabled with why. */
export async function webhookNotices(db: Queryable, accountId: number): Promise<UsageResponse['webhooks']> {
  const { rows } = await db.query<{ id: string; url: string; status: string; reason: string | null; at: Date | null }>(
    `SELECT id, url, status, disabled_reason AS reason, disabled_at AS at FROM webhooks.endpoints
      WHERE account_id = $1 ORDER BY created_at, id`,
    [accountId],
  );
  return {
    active: rows.filter((r) => r.status === 'active').length,
    disabled: rows
      .filter((r) => r.status === 'disabled')
      .map((r) => ({ id: r.id, url: r.url, reason: r.reason, disabledAt: iso(r.at) ?? '' })),
  };
}
