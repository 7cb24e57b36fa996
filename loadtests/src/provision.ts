// Test accounts and keys, made through the admin API of the target (never by writing to its stores).
import type { UsageResponse } from '@pra/core/contracts';
import type { Account } from '../k6/lib/types.js';

export interface AdminApi {
  url: string;
  token: string;
}

async function call<T>(admin: AdminApi, method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${admin.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`admin API ${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
  return JSON.parse(text) as T;
}

/** A new account of `tier` with `credits`, the given limits (null: the tier's), and one key. */
export async function provisionAccount(
  admin: AdminApi,
  o: {
    label: string;
    tier: string;
    credits: number;
    ratePerMinute: number;
    dailyQuota: number | null;
    override: boolean;
  },
): Promise<Account> {
  const tag = `${o.label}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;
  const account = await call<{ id: number }>(admin, 'POST', '/admin/accounts', {
    email: `loadtest-${tag}@example.com`,
    name: `Load test ${tag}`,
    tier: o.tier,
  });
  if (o.credits > 0)
    await call(admin, 'POST', `/admin/accounts/${account.id}/grants`, { amount: o.credits, validDays: 30 });
  if (o.override)
    await call(admin, 'POST', `/admin/accounts/${account.id}/limits`, {
      ratePerMinute: o.ratePerMinute,
      dailyQuota: o.dailyQuota,
    });
  const { key } = await call<{ key: string }>(admin, 'POST', `/admin/accounts/${account.id}/keys`, {});
  return {
    accountId: account.id,
    key,
    tier: o.tier,
    credits: o.credits,
    ratePerMinute: o.ratePerMinute,
    dailyQuota: o.dailyQuota,
  };
}

/** What the ledger (PostgreSQL) says of an account: credits charged and the balance left. */
export async function ledgerCredits(admin: AdminApi, accountId: number): Promise<{ used: number; balance: number }> {
  const r = await call<{ usage: UsageResponse }>(admin, 'GET', `/admin/accounts/${accountId}`);
  return { used: r.usage.credits.used, balance: r.usage.credits.balance };
}
