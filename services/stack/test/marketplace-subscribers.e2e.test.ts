// Marketplace subscribers end to end (issue 27, part 5): through the local gateway (kong.yml routes, the pra-gateway
// plugin), account-billing's provisioning and the lookup service's meter, on this run's PostgreSQL and Redis. A
// subscriber calls with the marketplace's secret, its user and its plan: the first call provisions, every call is
// billed against the plan's records, the call after they are used is a 402.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ErrorResponse, PropertyResponse, UsageResponse } from '@pra/core/contracts';
import { MARKETPLACE_PLAN_NAMES } from '@pra/core/auth';
import { insertProperties, makeProperty, uniqueStreet } from '@pra/ingest/testing';
import { useSystem } from './system-harness.js';

const SECRET = `mkt-${randomBytes(16).toString('hex')}`;
const UNITS = 30;
const street = uniqueStreet();
const path = `/api/v1/property/address?address=${encodeURIComponent(`9 ${street} ST`)}&zip=95814`;
const ctx = useSystem('mse', {
  marketplaceSecret: SECRET,
  only: ['lookup', 'account-billing'],
  setup: async (pool) => {
    await insertProperties(
      pool,
      Array.from({ length: UNITS }, (_, i) =>
        makeProperty({ line1: `9 ${street} ST`, line2: `APT ${i + 1}`, zip: '95814' }),
      ),
    );
  },
});

const get = async (url: string, headers: Record<string, string> = {}) => {
  const res = await fetch(url, { headers });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text.startsWith('{') ? JSON.parse(text) : text };
};
const newUser = () => `e2e-${randomBytes(5).toString('hex')}`;
const subscriber = (user: string, plan = 'free', secret = SECRET) => ({
  'x-marketplace-proxy-secret': secret,
  'x-marketplace-user': user,
  'x-marketplace-subscription': plan,
});
const subscriptions = async (user: string) =>
  (
    await ctx.pool.query<{ account_id: string; plan: string }>(
      'SELECT account_id, plan FROM billing.marketplace_subscriptions WHERE marketplace_user = $1',
      [user],
    )
  ).rows;

describe('a marketplace subscriber through the gateway', () => {
  it("the first call provisions; calls are billed until the plan's records are used, then 402", async () => {
    const user = newUser();
    const first = await get(ctx.system.gatewayUrl + path, subscriber(user, 'free'));
    expect(first.status).toBe(200);
    const body = PropertyResponse.parse(first.body);
    const perCall = body.status.records_returned;
    expect(perCall).toBeGreaterThan(0);
    expect(body.status.credits_remaining).toBe(100 - perCall);
    expect(first.headers.get('ratelimit-limit')).toBe('10'); // the free plan's tier
    const [sub] = await subscriptions(user);
    expect(sub?.plan).toBe('free');

    // /usage as the subscriber: its own account, on the plan's tier, with the plan's records (read from PostgreSQL,
    // which no ledger writer updates in this in-process system: the purchase, not the balance, is checked).
    const usage = await get(`${ctx.system.gatewayUrl}/api/v1/usage`, subscriber(user, 'free'));
    expect(usage.status).toBe(200);
    expect(UsageResponse.parse(usage.body)).toMatchObject({ account: { tier: 'free' }, credits: { purchased: 100 } });

    let billed = perCall;
    let last = 0;
    while (billed < 100) {
      const res = await get(ctx.system.gatewayUrl + path, subscriber(user, 'free'));
      expect(res.status).toBe(200);
      const s = PropertyResponse.parse(res.body).status;
      billed += s.records_returned;
      last = s.credits_remaining;
    }
    expect(billed).toBe(100);
    expect(last).toBe(0);
    const refused = await get(ctx.system.gatewayUrl + path, subscriber(user, 'free'));
    expect(refused.status).toBe(402);
    expect(ErrorResponse.parse(refused.body).status.code).toBe(402);
    // Still one account, one allowance.
    expect(await subscriptions(user)).toHaveLength(1);
    const grants = await ctx.pool.query('SELECT amount FROM billing.credit_grants WHERE account_id = $1', [
      sub!.account_id,
    ]);
    expect(grants.rows).toEqual([{ amount: 100 }]);
  });

  it('concurrent first calls: one account, the records billed once each', async () => {
    const user = newUser();
    const answers = await Promise.all(
      Array.from({ length: 4 }, () => get(ctx.system.gatewayUrl + path, subscriber(user, 'starter'))),
    );
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    const billed = answers.reduce((n, a) => n + PropertyResponse.parse(a.body).status.records_returned, 0);
    const lowest = Math.min(...answers.map((a) => PropertyResponse.parse(a.body).status.credits_remaining));
    expect(lowest).toBe(5_000 - billed);
    expect(await subscriptions(user)).toHaveLength(1);
  });

  it('a Bearer key of ours behind the secret keeps working, charged to its own account', async () => {
    const a = await ctx.billing.fundedAccount(50, { tier: 'growth' });
    const user = newUser();
    const res = await get(ctx.system.gatewayUrl + path, {
      ...subscriber(user, 'pro'),
      authorization: `Bearer ${a.key}`,
    });
    expect(res.status).toBe(200);
    const s = PropertyResponse.parse(res.body).status;
    expect(s.credits_remaining).toBe(50 - s.records_returned);
    expect(await subscriptions(user)).toHaveLength(0);
  });

  it('401 for a wrong secret and for an unknown plan (naming the plans); nothing provisioned', async () => {
    const user = newUser();
    const wrong = await get(ctx.system.gatewayUrl + path, subscriber(user, 'free', 'not-the-marketplace-secret'));
    expect(wrong.status).toBe(401);
    expect(ErrorResponse.parse(wrong.body).status.msg).toBe('Invalid marketplace proxy secret');
    const noSecret = await get(ctx.system.gatewayUrl + path, {
      'x-marketplace-user': user,
      'x-marketplace-subscription': 'free',
    });
    expect(noSecret.status).toBe(401);
    const unknown = await get(ctx.system.gatewayUrl + path, subscriber(user, 'ultra'));
    expect(unknown.status).toBe(401);
    expect(ErrorResponse.parse(unknown.body).status.msg).toBe(
      `Unknown plan 'ultra' in X-Marketplace-Subscription: the marketplace's plans are ${MARKETPLACE_PLAN_NAMES.join(', ')}`,
    );
    const badUser = await get(ctx.system.gatewayUrl + path, subscriber('x'.repeat(200)));
    expect(badUser.status).toBe(401);
    expect(ErrorResponse.parse(badUser.body).status.msg).toMatch(/^Invalid X-Marketplace-User/);
    expect(await subscriptions(user)).toHaveLength(0);
  });

  it('the key cache emptied between calls: served again, same account, no second allowance', async () => {
    const user = newUser();
    const first = PropertyResponse.parse(
      (await get(ctx.system.gatewayUrl + path, subscriber(user, 'free'))).body,
    ).status;
    await ctx.billing.flushKeyCache();
    const res = await get(ctx.system.gatewayUrl + path, subscriber(user, 'free'));
    expect(res.status).toBe(200);
    const second = PropertyResponse.parse(res.body).status;
    expect(second.credits_remaining).toBe(first.credits_remaining - second.records_returned);
    const subs = await subscriptions(user);
    expect(subs).toHaveLength(1);
    const grants = await ctx.pool.query('SELECT amount FROM billing.credit_grants WHERE account_id = $1', [
      subs[0]!.account_id,
    ]);
    expect(grants.rows).toHaveLength(1);
  });
});
