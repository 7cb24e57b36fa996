// Marketplace subscribers (issue 27, part 5), below the gateway: account-billing provisions a (user, plan) on its first
// call and grants the plan's records once per period, whatever the number of replicas asking at once, a moved clock
// or an emptied key cache. Generated sequences of calls (fast-check) against a model of what each period allows.
// Real PostgreSQL and Redis, this run's database and prefix.
import { randomBytes, randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createPool, type Pool } from '@pra/platform';
import { findMarketplacePlan, subscriberKeyHash, type MarketplaceSubscriber } from '@pra/core/auth';
import type { TierName } from '@pra/core/tiers';
import { keyCacheKey } from '@pra/account-billing/client';
import { RedisCreditMeter } from '../src/client/credit-meter.js';
import { KeyLookupService } from '../src/domain/key-lookup.js';
import { periodAt } from '../src/domain/marketplace-subscribers.js';
import { setKeyStatus } from '../src/domain/accounts.js';
import { billingFixture, type BillingFixture } from './billing-fixtures.js';

const DAY = 86_400_000;
const UNBOUNDED = { perProcessPerSecond: 1_000_000, systemPerSecond: 1_000_000 };
let pool: Pool;
let f: BillingFixture;
let clock = Date.UTC(2027, 0, 10, 12, 0, 0);
const now = () => clock;

beforeAll(async () => {
  pool = createPool(inject('databaseUrl'), 8);
  f = await billingFixture(pool, inject('redisUrl'), `${inject('redisPrefix')}mps${randomBytes(3).toString('hex')}:`);
});
afterAll(async () => {
  await f.close();
  await pool.end();
});

/** One account-billing process (its own in-flight map and budget): `n` of them are n replicas. */
const replica = () => new KeyLookupService({ pool, redis: f.redis, prefix: f.layout.prefix }, UNBOUNDED, now);
const meter = () => new RedisCreditMeter(f.redis, f.layout.prefix, { now });
const charge = (accountId: number, wanted: number) =>
  meter().charge({
    transactionId: randomUUID(),
    who: { accountId, keyId: 0, tier: 'starter' },
    endpoint: '/property/address',
    records: wanted,
    fingerprint: randomUUID(),
  });
const user = (tag: string) => `u-${tag}-${randomBytes(4).toString('hex')}`;

/** What PostgreSQL holds for a subscriber: its subscriptions, accounts with its email, and its period grants. */
async function stored(s: MarketplaceSubscriber) {
  const subs = await pool.query<{ id: string; account_id: string }>(
    'SELECT id, account_id FROM billing.marketplace_subscriptions WHERE marketplace_user = $1 AND plan = $2',
    [s.user, s.plan],
  );
  const accounts = await pool.query('SELECT id FROM billing.accounts WHERE email = $1', [
    `${subscriberKeyHash(s)}@marketplace-subscribers.invalid`,
  ]);
  const periods = await pool.query<{ period: number; amount: number; purchased_at: Date; expires_at: Date }>(
    `SELECT p.period, g.amount, g.purchased_at, g.expires_at FROM billing.marketplace_periods p
       JOIN billing.credit_grants g ON g.id = p.grant_id
       JOIN billing.marketplace_subscriptions s ON s.id = p.subscription_id
      WHERE s.marketplace_user = $1 AND s.plan = $2 ORDER BY p.period`,
    [s.user, s.plan],
  );
  return { subscriptions: subs.rows, accounts: accounts.rows, periods: periods.rows };
}

describe('a marketplace subscriber, provisioned by account-billing', () => {
  it('first call: one account of the plan, one grant of its records for validDays; the entry is cached', async () => {
    const s: MarketplaceSubscriber = { user: user('first'), plan: 'starter' };
    const entry = await replica().subscriber(s);
    expect(entry).toMatchObject({ kind: 'subscriber', status: 'active', tier: 'starter' });
    const plan = findMarketplacePlan('starter')!;
    expect(entry.periodEnds).toBe(clock + plan.validDays * DAY);
    const cached = JSON.parse((await f.redis.get(keyCacheKey(f.layout.prefix, subscriberKeyHash(s))))!);
    expect(cached).toEqual(entry);
    const db = await stored(s);
    expect(db.subscriptions).toHaveLength(1);
    expect(db.accounts).toHaveLength(1);
    expect(db.periods).toEqual([
      { period: 0, amount: plan.records, purchased_at: new Date(clock), expires_at: new Date(entry.periodEnds!) },
    ]);
    expect(await meter().balance(entry.accountId)).toBe(plan.records);
    // Asked again (another gateway, the same period): the same entry, no second grant.
    expect(await replica().subscriber(s)).toEqual(entry);
    expect((await stored(s)).periods).toHaveLength(1);
  });

  it('concurrent first calls on many replicas: exactly one account and one allowance', async () => {
    const s: MarketplaceSubscriber = { user: user('burst'), plan: 'free' };
    const replicas = Array.from({ length: 8 }, replica);
    const entries = await Promise.all(replicas.flatMap((r) => [r.subscriber(s), r.subscriber(s), r.subscriber(s)]));
    expect(new Set(entries.map((e) => e.accountId)).size).toBe(1);
    const db = await stored(s);
    expect(db.subscriptions).toHaveLength(1);
    expect(db.accounts).toHaveLength(1);
    expect(db.periods.map((p) => p.amount)).toEqual([100]);
    expect(await meter().balance(entries[0]!.accountId)).toBe(100);
  });

  it('a plan changed in the subscription header is another account, each metered on its own plan', async () => {
    const u = user('change');
    const free = await replica().subscriber({ user: u, plan: 'free' });
    const pro = await replica().subscriber({ user: u, plan: 'pro' });
    expect(pro.accountId).not.toBe(free.accountId);
    expect([free.tier, pro.tier]).toEqual(['free', 'pro']);
    expect(await meter().balance(pro.accountId)).toBe(100_000);
    // Back to the first plan in the same period: its account again, no new allowance.
    expect((await charge(free.accountId, 30)).granted).toBe(30);
    expect(await replica().subscriber({ user: u, plan: 'free' })).toEqual(free);
    expect(await meter().balance(free.accountId)).toBe(70);
  });

  it('key cache emptied between calls: the subscriber is found again, neither re-granted nor locked out', async () => {
    const s: MarketplaceSubscriber = { user: user('flush'), plan: 'free' };
    const entry = await replica().subscriber(s);
    expect((await charge(entry.accountId, 60)).granted).toBe(60);
    await f.flushKeyCache();
    const again = await replica().subscriber(s);
    expect(again).toMatchObject({ accountId: entry.accountId, keyId: entry.keyId, status: 'active' });
    expect((await stored(s)).periods).toHaveLength(1);
    expect(await meter().balance(entry.accountId)).toBe(40);
    expect((await charge(entry.accountId, 60)).granted).toBe(40);
    expect((await charge(entry.accountId, 1)).granted).toBe(0);
  });

  it('a disabled subscriber is answered disabled (403) and gets no new allowance', async () => {
    const s: MarketplaceSubscriber = { user: user('off'), plan: 'free' };
    const entry = await replica().subscriber(s);
    await setKeyStatus(f.deps, entry.keyId, 'disabled');
    const saved = clock;
    clock += 31 * DAY;
    try {
      expect(await replica().subscriber(s)).toMatchObject({ status: 'disabled' });
      expect((await stored(s)).periods).toHaveLength(1);
    } finally {
      clock = saved;
    }
  });
});

const commands = fc.array(
  fc.oneof(
    {
      weight: 6,
      arbitrary: fc.record({
        kind: fc.constant('call' as const),
        user: fc.integer({ min: 0, max: 2 }),
        plan: fc.constantFrom<TierName>('free', 'starter'),
        wanted: fc.integer({ min: 1, max: 45 }),
        replicas: fc.integer({ min: 1, max: 3 }),
      }),
    },
    {
      weight: 2,
      arbitrary: fc.record({ kind: fc.constant('advance' as const), days: fc.integer({ min: 1, max: 45 }) }),
    },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('flush' as const) }) },
  ),
  { minLength: 1, maxLength: 14 },
);

describe('generated sequences of subscriber calls', () => {
  it('never two accounts for a (user, plan), never more than the plan per period, every call billed or refused uncharged', async () => {
    await fc.assert(
      fc.asyncProperty(commands, async (cmds) => {
        const users = [user('p0'), user('p1'), user('p2')];
        /** The model: per subscriber, its anchor, the period it is in and what that period has left. */
        const model = new Map<string, { accountId: number; anchor: number; period: number; left: number }>();
        for (const cmd of cmds) {
          if (cmd.kind === 'advance') {
            clock += cmd.days * DAY;
            continue;
          }
          if (cmd.kind === 'flush') {
            await f.flushKeyCache();
            continue;
          }
          const s: MarketplaceSubscriber = { user: users[cmd.user]!, plan: cmd.plan };
          const plan = findMarketplacePlan(cmd.plan)!;
          const asked = await Promise.all(Array.from({ length: cmd.replicas }, () => replica().subscriber(s)));
          const entry = asked[0]!;
          expect(new Set(asked.map((e) => e.accountId)).size).toBe(1);
          const key = `${s.user}|${s.plan}`;
          let m = model.get(key);
          if (!m) {
            m = { accountId: entry.accountId, anchor: clock, period: 0, left: plan.records };
            model.set(key, m);
          }
          expect(entry.accountId).toBe(m.accountId);
          const p = periodAt(new Date(m.anchor), plan.validDays, new Date(clock));
          if (p.period !== m.period) {
            // A new period: a new allowance; what the last one left does not carry over.
            m.period = p.period;
            m.left = plan.records;
          }
          expect(entry.periodEnds).toBe(p.end.getTime());
          const before = await meter().balance(entry.accountId);
          expect(before).toBe(m.left);
          const result = await charge(entry.accountId, cmd.wanted);
          // Answered and billed (granted > 0, taken from the balance) or refused (402) with nothing taken.
          expect(result.granted).toBe(Math.min(cmd.wanted, m.left));
          expect(result.remaining).toBe(m.left - result.granted);
          expect(await meter().balance(entry.accountId)).toBe(m.left - result.granted);
          m.left -= result.granted;
        }
        for (const [key, m] of model) {
          const [u, plan] = key.split('|') as [string, TierName];
          const db = await stored({ user: u, plan });
          expect(db.subscriptions).toHaveLength(1);
          expect(db.accounts).toHaveLength(1);
          expect(Number(db.subscriptions[0]!.account_id)).toBe(m.accountId);
          // One grant per period called in, each exactly the plan's records, periods never overlapping.
          const records = findMarketplacePlan(plan)!.records;
          expect(new Set(db.periods.map((p) => p.period)).size).toBe(db.periods.length);
          for (const p of db.periods) expect(p.amount).toBe(records);
          for (let i = 1; i < db.periods.length; i++) {
            expect(db.periods[i]!.purchased_at.getTime()).toBeGreaterThanOrEqual(
              db.periods[i - 1]!.expires_at.getTime(),
            );
          }
          expect(db.periods.at(-1)!.period).toBe(m.period);
        }
      }),
      { numRuns: 12 },
    );
  }, 240_000);
});
