// The SQL of marketplace subscribers (migrations/0008): a subscription row per (marketplace user, plan), its account
// and its key row (kind 'subscriber', no key: the hash is derived from user and plan), and one credit grant per
// period. Every function runs inside the caller's transaction, under the subscriber's lock
// (domain/marketplace-subscribers.ts).
import type { Pool, PoolClient } from '@pra/platform';

type Client = Pick<PoolClient, 'query'>;

export interface SubscriptionRow {
  id: number;
  account_id: number;
  key_id: number;
  anchor: Date;
  period_ends: Date;
  /** True when neither an operator's disable of its key row nor a suspension of its account stops it. */
  active: boolean;
}

/** The subscription of (user, plan), locked until the transaction ends; null before its first call. */
export async function findSubscription(c: Client, user: string, plan: string): Promise<SubscriptionRow | null> {
  const { rows } = await c.query<SubscriptionRow>(
    `SELECT s.id, s.account_id, s.key_id, s.anchor, s.period_ends, (k.status = 'active' AND a.status = 'active') AS active
       FROM billing.marketplace_subscriptions s
       JOIN billing.api_keys k ON k.id = s.key_id
       JOIN billing.accounts a ON a.id = s.account_id
      WHERE s.marketplace_user = $1 AND s.plan = $2
      FOR UPDATE OF s`,
    [user, plan],
  );
  return rows[0] ?? null;
}

/**
 * A subscriber's account (tier: the plan), its key row and its subscription, its first period starting `now` (no
 * allowance yet: grantPeriod gives it). The account's email is made from the key hash (unique per user and plan; the
 * address is not deliverable: `.invalid`).
 */
export async function createSubscription(
  c: Client,
  s: { user: string; plan: string; keyHash: string },
  now: Date,
): Promise<SubscriptionRow> {
  const { rows: accounts } = await c.query<{ id: number }>(
    `INSERT INTO billing.accounts (email, name, tier, created_at) VALUES ($1, $2, $3, $4) RETURNING id`,
    [`${s.keyHash}@marketplace-subscribers.invalid`, `Marketplace subscriber ${s.user} (${s.plan})`, s.plan, now],
  );
  const accountId = accounts[0]!.id;
  const { rows: keys } = await c.query<{ id: number }>(
    `INSERT INTO billing.api_keys (account_id, kind, prefix, key_hash, created_at)
     VALUES ($1, 'subscriber', 'marketplace', $2, $3) RETURNING id`,
    [accountId, s.keyHash, now],
  );
  const keyId = keys[0]!.id;
  const { rows } = await c.query<{ id: number }>(
    `INSERT INTO billing.marketplace_subscriptions (marketplace_user, plan, account_id, key_id, anchor, period_ends)
     VALUES ($1, $2, $3, $4, $5, $5) RETURNING id`,
    [s.user, s.plan, accountId, keyId, now],
  );
  return { id: rows[0]!.id, account_id: accountId, key_id: keyId, anchor: now, period_ends: now, active: true };
}

export interface PeriodGrant {
  id: number;
  account_id: number;
  remaining: number;
  expires_at: Date;
}

/**
 * The allowance of one period: a grant of `records` from `start` to `end`, its ledger entry, the period's row (its
 * primary key makes a second allowance for the period impossible), the subscription's period end, and a new cache
 * version for its key row (so the entry with the new period end replaces the old one). Null when the period has
 * its allowance already.
 */
export async function grantPeriod(
  c: Client,
  sub: SubscriptionRow,
  plan: { plan: string; records: number },
  period: number,
  start: Date,
  end: Date,
): Promise<PeriodGrant | null> {
  const { rows: had } = await c.query(
    'SELECT 1 FROM billing.marketplace_periods WHERE subscription_id = $1 AND period = $2',
    [sub.id, period],
  );
  if (had.length > 0) return null;
  const { rows } = await c.query<PeriodGrant>(
    `INSERT INTO billing.credit_grants (account_id, amount, remaining, purchased_at, expires_at, source_plan)
     VALUES ($1, $2, $2, $3, $4, $5) RETURNING id, account_id, remaining, expires_at`,
    [sub.account_id, plan.records, start, end, plan.plan],
  );
  const grant = rows[0]!;
  await c.query(
    `INSERT INTO billing.ledger_entries (account_id, grant_id, kind, amount, at) VALUES ($1, $2, 'grant', $3, $4)`,
    [sub.account_id, grant.id, plan.records, start],
  );
  await c.query('INSERT INTO billing.marketplace_periods (subscription_id, period, grant_id) VALUES ($1, $2, $3)', [
    sub.id,
    period,
    grant.id,
  ]);
  await c.query('UPDATE billing.marketplace_subscriptions SET period_ends = $2 WHERE id = $1', [sub.id, end]);
  await c.query(`UPDATE billing.api_keys SET cache_version = nextval('billing.key_cache_version') WHERE id = $1`, [
    sub.key_id,
  ]);
  return grant;
}

/**
 * Runs `fn` on one connection holding the subscriber's session-wide advisory lock (taken before, released after,
 * whatever `fn` does): one provisioning of a subscriber at a time, across every process.
 */
export async function withSubscriberLock<T>(
  pool: Pool,
  keyHash: string,
  fn: (c: PoolClient) => Promise<T>,
): Promise<T> {
  const lockKey = `marketplace-subscriber:${keyHash}`;
  const c = await pool.connect();
  try {
    await c.query('SELECT pg_advisory_lock(hashtextextended($1, 0))', [lockKey]);
    return await fn(c);
  } finally {
    // A lock that could not be released goes with its connection (destroyed), never to the pool's next borrower.
    const released = await c.query('SELECT pg_advisory_unlock(hashtextextended($1, 0))', [lockKey]).then(
      () => true,
      () => false,
    );
    c.release(released ? undefined : true);
  }
}
