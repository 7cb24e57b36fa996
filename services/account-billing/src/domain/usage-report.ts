// /usage (SPEC 2.4, 4.7), read from PostgreSQL.
import type { UsageResponse } from '@pra/core/contracts';
import { ApiError } from '@pra/core/errors';
import type { Pool } from '@pra/platform';

/** Days of daily_usage in the report, newest first. */
export const USAGE_DAYS = 30;

export async function usageReport(pool: Pool, accountId: number): Promise<UsageResponse> {
  const { rows } = await pool.query(
    `SELECT a.email, a.name, a.tier, a.calls_total, a.last_used,
       (SELECT calls FROM billing.daily_usage d WHERE d.account_id = a.id AND d.day = (now() AT TIME ZONE 'UTC')::date) AS today,
       (SELECT coalesce(sum(remaining), 0) FROM billing.credit_grants g WHERE g.account_id = a.id AND g.expires_at > now()) AS balance,
       (SELECT coalesce(sum(amount), 0) FROM billing.credit_grants g WHERE g.account_id = a.id) AS purchased,
       (SELECT coalesce(-sum(amount), 0) FROM billing.ledger_entries l WHERE l.account_id = a.id AND l.kind = 'charge') AS used,
       (SELECT min(expires_at) FROM billing.credit_grants g WHERE g.account_id = a.id AND g.remaining > 0 AND g.expires_at > now()) AS expires
     FROM billing.accounts a WHERE a.id = $1`,
    [accountId],
  );
  const r = rows[0];
  if (!r) throw new ApiError('UNAUTHORIZED', 'Unknown account');
  const { rows: days } = await pool.query<{ day: string; calls: number; credits_used: number }>(
    `SELECT to_char(day, 'YYYY-MM-DD') AS day, calls, credits_used FROM billing.daily_usage
      WHERE account_id = $1 AND day > (now() AT TIME ZONE 'UTC')::date - $2::int ORDER BY day DESC`,
    [accountId, USAGE_DAYS],
  );
  return {
    account: { email: r.email, name: r.name, tier: r.tier },
    calls: {
      today: r.today ?? 0,
      total: Number(r.calls_total),
      last_used: r.last_used ? new Date(r.last_used).toISOString() : null,
    },
    credits: {
      balance: Number(r.balance),
      purchased: Number(r.purchased),
      used: Number(r.used),
      expires: r.expires ? new Date(r.expires).toISOString() : null,
    },
    daily_usage: days,
  };
}
