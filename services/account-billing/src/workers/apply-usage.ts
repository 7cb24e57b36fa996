// Writes one usage event to PostgreSQL in one transaction: the event (insert-if-absent on the transaction id, so a
// duplicated or retried job is a no-op), the charge per grant in the append-only ledger, the grants' remaining
// credits, the daily rollup and the account's call counters.
import { withTransaction, type Pool } from '@pra/shared/platform';
import type { UsageEvent } from '../domain/usage-event.js';

export async function applyUsageEvent(pool: Pool, e: UsageEvent): Promise<'applied' | 'duplicate'> {
  return withTransaction(pool, async (c) => {
    const at = new Date(e.at);
    const inserted = await c.query(
      `INSERT INTO billing.usage_events (transaction_id, account_id, key_id, endpoint, credits, stream_id, occurred_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (transaction_id) DO NOTHING`,
      [e.txid, e.account, e.key || null, e.endpoint, e.credits, e.streamId, at],
    );
    if (inserted.rowCount === 0) return 'duplicate';
    for (const { grantId, credits } of e.consumed) {
      await c.query('UPDATE billing.credit_grants SET remaining = remaining - LEAST(remaining, $2) WHERE id = $1', [grantId, credits]);
      await c.query(
        `INSERT INTO billing.ledger_entries (account_id, grant_id, kind, amount, transaction_id, at) VALUES ($1, $2, 'charge', $3, $4, $5)`,
        [e.account, grantId, -credits, e.txid, at],
      );
    }
    await c.query(
      `INSERT INTO billing.daily_usage (account_id, day, calls, credits_used) VALUES ($1, ($2::timestamptz AT TIME ZONE 'UTC')::date, 1, $3)
       ON CONFLICT (account_id, day) DO UPDATE SET calls = daily_usage.calls + 1, credits_used = daily_usage.credits_used + EXCLUDED.credits_used`,
      [e.account, at, e.credits],
    );
    await c.query(
      'UPDATE billing.accounts SET calls_total = calls_total + 1, last_used = GREATEST(last_used, $2) WHERE id = $1',
      [e.account, at],
    );
    return 'applied';
  });
}

/**
 * Expires grants past their date: the rest is written off in the ledger and dropped from Redis. A grace period
 * lets charges made just before expiry reach PostgreSQL first (Redis stops using a grant at its expiry anyway).
 */
export async function expireCredits(pool: Pool, graceSeconds = 300): Promise<{ grantId: number; accountId: number; credits: number }[]> {
  return withTransaction(pool, async (c) => {
    const { rows } = await c.query<{ id: number; account_id: number; remaining: number }>(
      `SELECT id, account_id, remaining FROM billing.credit_grants
        WHERE remaining > 0 AND expires_at <= now() - make_interval(secs => $1) FOR UPDATE`,
      [graceSeconds],
    );
    for (const g of rows) {
      await c.query(`INSERT INTO billing.ledger_entries (account_id, grant_id, kind, amount) VALUES ($1, $2, 'expire', $3)`, [
        g.account_id, g.id, -g.remaining,
      ]);
      await c.query('UPDATE billing.credit_grants SET remaining = 0 WHERE id = $1', [g.id]);
    }
    return rows.map((g) => ({ grantId: g.id, accountId: g.account_id, credits: g.remaining }));
  });
}
