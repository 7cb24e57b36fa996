// Accounts, keys and credit grants: written to PostgreSQL and mirrored into Redis (a key change that takes access
// away before it commits, one that gives access after; see changeAccountKeys).
import type { Redis } from 'ioredis';
import { findPlan, TIER_NAMES, type TierName } from '@pra/core/tiers';
import { ApiError } from '@pra/core/errors';
import { generateApiKey, type KeyKind } from '@pra/core/auth';
import { withTransaction, type Pool } from '@pra/platform';
import { putGrants } from '../data/balances.js';
import { changeAccountKeys } from '../data/key-cache-writer.js';
import type { RedisLayout } from '../data/redis-layout.js';
import { MAX_LIMIT } from './account-limits.js';

export interface BillingDeps {
  pool: Pool;
  redis: Redis;
  layout: RedisLayout;
}

export interface Account {
  id: number;
  email: string;
  name: string;
  tier: TierName;
  status: 'active' | 'suspended';
}

const badInput = (m: string) => new ApiError('invalid_parameter', m);

export async function createAccount(
  d: BillingDeps,
  input: { email: string; name: string; tier: string },
): Promise<Account> {
  if (!(TIER_NAMES as readonly string[]).includes(input.tier))
    throw badInput(`Unknown tier '${input.tier}': one of ${TIER_NAMES.join(', ')}`);
  if (!/^[^@\s]+@[^@\s]+$/.test(input.email)) throw badInput(`'${input.email}' is not an email address`);
  const { rows } = await d.pool.query<Account>(
    `INSERT INTO billing.accounts (email, name, tier) VALUES ($1, $2, $3)
     ON CONFLICT (email) DO NOTHING RETURNING id, email, name, tier, status`,
    [input.email.toLowerCase(), input.name, input.tier],
  );
  if (!rows[0]) throw new ApiError('already_exists', `An account with email ${input.email} exists already`);
  return rows[0];
}

export async function findAccount(d: BillingDeps, idOrEmail: string | number): Promise<Account> {
  const byId = typeof idOrEmail === 'number' || /^\d+$/.test(idOrEmail);
  const { rows } = await d.pool.query<Account>(
    `SELECT id, email, name, tier, status FROM billing.accounts WHERE ${byId ? 'id = $1' : 'email = lower($1)'}`,
    [byId ? Number(idOrEmail) : idOrEmail],
  );
  if (!rows[0]) throw new ApiError('not_found', `No account ${idOrEmail}`);
  return rows[0];
}

/** Issues a key; the key itself is returned once and never stored. */
export async function issueKey(d: BillingDeps, accountId: number, kind: KeyKind = 'standard') {
  // A subscriber's key row is made with its subscription (domain/marketplace-subscribers.ts), never issued.
  if (kind === 'subscriber')
    throw badInput('Keys are standard or marketplace: subscribers are made on their first call');
  const account = await findAccount(d, accountId);
  const { key, prefix, hash } = generateApiKey();
  // In the cache only once committed; if Redis cannot take it then, the key is found in PostgreSQL on first use.
  const keyId = await changeAccountKeys(
    d.pool,
    d.redis,
    d.layout.prefix,
    account.id,
    async (c) => {
      const { rows } = await c.query<{ id: number }>(
        'INSERT INTO billing.api_keys (account_id, kind, prefix, key_hash) VALUES ($1, $2, $3, $4) RETURNING id',
        [account.id, kind, prefix, hash],
      );
      return rows[0]!.id;
    },
    'grant',
    true,
  );
  return { keyId, key, prefix };
}

export async function listKeys(d: BillingDeps, accountId: number) {
  const { rows } = await d.pool.query<{ id: number; prefix: string; kind: string; status: string; created_at: Date }>(
    'SELECT id, prefix, kind, status, created_at FROM billing.api_keys WHERE account_id = $1 ORDER BY id',
    [accountId],
  );
  return rows;
}

/**
 * Enables or disables a key: in effect everywhere within a second (the gateways' local cache), or not at all (503).
 * A disable reaches the cache before it commits, an enable only after.
 */
export async function setKeyStatus(d: BillingDeps, keyId: number, status: 'active' | 'disabled') {
  const { rows } = await d.pool.query<{ account_id: number }>('SELECT account_id FROM billing.api_keys WHERE id = $1', [
    keyId,
  ]);
  if (!rows[0]) throw new ApiError('not_found', `No key ${keyId}`);
  await changeAccountKeys(
    d.pool,
    d.redis,
    d.layout.prefix,
    rows[0].account_id,
    (c) =>
      c.query(
        `UPDATE billing.api_keys SET status = $2, disabled_at = CASE WHEN $2 = 'disabled' THEN now() END WHERE id = $1`,
        [keyId, status],
      ),
    status === 'active' ? 'grant' : 'revoke',
  );
}

/**
 * Per-account limits (enterprise contracts): requests per rolling minute and calls per UTC day; null = the tier's,
 * undefined (left out) = as they are.
 */
export async function setAccountLimits(
  d: BillingDeps,
  accountId: number,
  limits: { ratePerMinute?: number | null; dailyQuota?: number | null },
) {
  for (const [name, v] of Object.entries(limits)) {
    if (v !== null && v !== undefined && (!Number.isInteger(v) || v <= 0 || v > MAX_LIMIT))
      throw badInput(`${name} must be a whole number from 1 to ${MAX_LIMIT}, or the tier's default, not ${v}`);
  }
  const { ratePerMinute: rate, dailyQuota: quota } = limits;
  // May lower limits: in the cache before it commits (a failed commit deletes the entries, reloaded from PostgreSQL).
  await changeAccountKeys(d.pool, d.redis, d.layout.prefix, accountId, async (c) => {
    const { rowCount } = await c.query(
      `UPDATE billing.accounts SET rate_limit_override = CASE WHEN $4 THEN $2 ELSE rate_limit_override END,
              daily_quota_override = CASE WHEN $5 THEN $3 ELSE daily_quota_override END WHERE id = $1`,
      [accountId, rate ?? null, quota ?? null, rate !== undefined, quota !== undefined],
    );
    if (rowCount === 0) throw new ApiError('not_found', `No account ${accountId}`);
  });
}

/** Grants credits: a plan from the plan table, or an amount with its validity. */
export async function grantCredits(
  d: BillingDeps,
  accountId: number,
  input: { plan?: string; amount?: number; validDays?: number },
  now = new Date(),
) {
  const plan = input.plan !== undefined ? findPlan(input.plan) : undefined;
  if (input.plan !== undefined && !plan) throw badInput(`Unknown plan '${input.plan}'`);
  const amount = input.amount ?? plan?.records ?? undefined;
  if (amount === undefined || amount === null)
    throw badInput('Give an amount (the plan has no fixed number of records)');
  if (!Number.isInteger(amount) || amount <= 0) throw badInput(`Amount must be a positive whole number, not ${amount}`);
  const validDays = input.validDays ?? plan?.validDays ?? 30;
  if (!(validDays > 0)) throw badInput(`Valid days must be positive, not ${validDays}`);
  const expiresAt = new Date(now.getTime() + validDays * 86_400_000);
  const grant = await withTransaction(d.pool, async (c) => {
    const { rows } = await c.query<{ id: number; account_id: number; remaining: number; expires_at: Date }>(
      `INSERT INTO billing.credit_grants (account_id, amount, remaining, purchased_at, expires_at, source_plan)
       VALUES ($1, $2, $2, $3, $4, $5) RETURNING id, account_id, remaining, expires_at`,
      [accountId, amount, now, expiresAt, plan?.plan ?? null],
    );
    const g = rows[0]!;
    await c.query(
      `INSERT INTO billing.ledger_entries (account_id, grant_id, kind, amount, at) VALUES ($1, $2, 'grant', $3, $4)`,
      [accountId, g.id, amount, now],
    );
    return g;
  });
  // Mirrored after commit; if Redis is unreachable now, the reload or the reconcile job brings it in.
  await putGrants(d.redis, d.layout, [grant]).catch(() => {});
  return { grantId: grant.id, amount, expiresAt };
}
