// /usage (SPEC 2.4, 4.7), read from PostgreSQL. Calls are counted in two places: charged calls (and the 0-credit
// events written before call counters existed) in daily_usage and accounts.calls_total, by the ledger writer; every
// other call in call_counts, per endpoint, by the call flusher. A report adds the two.
import type { UsageResponse } from '@pra/core/contracts';
import { ApiError } from '@pra/core/errors';
import type { Queryable } from '@pra/platform';
import { webhookNotices } from '@pra/webhooks/registry';

/** Days of daily_usage in the report, newest first. */
export const USAGE_DAYS = 30;

/**
 * The report of one account, read from `db`: /usage gives it the service's reads (the replica of DATABASE_READ_URL
 * when there is one: a report may lag it by up to DATABASE_READ_MAX_LAG_SECONDS, as it lags the ledger writer
 * anyway); the admin API gives it the primary (it must see what it has just written).
 */
export async function usageReport(db: Queryable, accountId: number): Promise<UsageResponse> {
  const { rows } = await db.query(
    `SELECT a.email, a.name, a.tier, a.calls_total + coalesce(c.calls, 0) AS calls_total,
       GREATEST(a.last_used, c.last_at) AS last_used,
       coalesce((SELECT calls FROM billing.daily_usage d WHERE d.account_id = a.id AND d.day = (now() AT TIME ZONE 'UTC')::date), 0)
         + coalesce((SELECT sum(calls) FROM billing.call_counts cc WHERE cc.account_id = a.id AND cc.day = (now() AT TIME ZONE 'UTC')::date), 0) AS today,
       (SELECT coalesce(sum(remaining), 0) FROM billing.credit_grants g WHERE g.account_id = a.id AND g.expires_at > now()) AS balance,
       (SELECT coalesce(sum(amount), 0) FROM billing.credit_grants g WHERE g.account_id = a.id) AS purchased,
       (SELECT coalesce(-sum(amount), 0) FROM billing.ledger_entries l WHERE l.account_id = a.id AND l.kind IN ('charge', 'refund')) AS used,
       (SELECT min(expires_at) FROM billing.credit_grants g WHERE g.account_id = a.id AND g.remaining > 0 AND g.expires_at > now()) AS expires
     FROM billing.accounts a
     LEFT JOIN LATERAL (SELECT sum(calls) AS calls, max(last_at) AS last_at FROM billing.call_counts
                         WHERE account_id = a.id) c ON true
     WHERE a.id = $1`,
    [accountId],
  );
  const r = rows[0];
  if (!r) throw new ApiError('unauthorized', 'Unknown account');
  const { rows: days } = await db.query<{ day: string; calls: number; credits_used: number }>(
    `SELECT to_char(day, 'YYYY-MM-DD') AS day, sum(calls)::int AS calls, sum(credits_used)::int AS credits_used
       FROM (SELECT day, calls, credits_used FROM billing.daily_usage
              WHERE account_id = $1 AND day > (now() AT TIME ZONE 'UTC')::date - $2::int
             UNION ALL
             SELECT day, calls, 0 FROM billing.call_counts
              WHERE account_id = $1 AND day > (now() AT TIME ZONE 'UTC')::date - $2::int) u
      GROUP BY day ORDER BY day DESC`,
    [accountId, USAGE_DAYS],
  );
  return {
    account: { email: r.email, name: r.name, tier: r.tier },
    calls: {
      today: Number(r.today),
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
    // The account learns here too of a webhook disabled after repeated failures (GET /webhooks lists them all).
    webhooks: await webhookNotices(db, accountId),
  };
}
