// Marketplace subscribers (issue 27, part 5): the account of a (marketplace user, plan), made on its first call, and
// the plan's records once per period, as a credit grant that expires when the period ends (the meter, the 402 and
// the expiry job are the ones every account has). Periods are the plan's validDays long, counted from the first call.
//
// Exactly once, whatever the number of gateways and account-billing processes asking at the same moment: each
// provisioning holds a PostgreSQL advisory lock of the subscriber (a session lock, on one connection) from before it
// reads the subscription until the new grant is in Redis and the entry in the key cache; a second asker waits, then
// finds the period granted and answers the same entry. The unique (user, plan) and the period's primary key stand
// behind the lock. The lock is session-wide, not the transaction's, so that no one is answered (and charged against
// a balance Redis does not hold yet) between the commit and the grant's arrival in Redis.
import type { Redis } from 'ioredis';
import { findMarketplacePlan, subscriberKeyHash, type MarketplaceSubscriber } from '@pra/core/auth';
import { ApiError } from '@pra/core/errors';
import { inTransaction, type Pool } from '@pra/platform';
import type { KeyCacheEntry } from '../client/key-cache.js';
import { putGrants } from '../data/balances.js';
import { restoreKeyIn } from '../data/key-cache-writer.js';
import type { RedisLayout } from '../data/redis-layout.js';
import { createSubscription, findSubscription, grantPeriod, withSubscriberLock } from '../data/subscribers.js';

const DAY_MS = 86_400_000;

/** The period `now` falls in, for a subscription anchored at `anchor`: its number, start and end. */
export function periodAt(anchor: Date, validDays: number, now: Date): { period: number; start: Date; end: Date } {
  const length = validDays * DAY_MS;
  const period = Math.max(0, Math.floor((now.getTime() - anchor.getTime()) / length));
  const start = anchor.getTime() + period * length;
  return { period, start: new Date(start), end: new Date(start + length) };
}

/**
 * The subscriber's cache entry for the period `now` falls in: the account made on the first call, the period's
 * allowance granted (once) and in Redis, the entry written in the key cache (never over a newer one). A disabled
 * subscriber (its key row disabled, its account suspended) gets no new allowance; its entry says disabled (403).
 */
export async function provisionSubscriber(
  d: { pool: Pool; redis: Redis; layout: RedisLayout },
  s: MarketplaceSubscriber,
  now = new Date(),
): Promise<KeyCacheEntry> {
  const plan = findMarketplacePlan(s.plan);
  if (!plan) throw new ApiError('invalid_parameter', `Unknown marketplace plan '${s.plan}'`);
  const keyHash = subscriberKeyHash(s);
  return withSubscriberLock(d.pool, keyHash, async (c) => {
    const grant = await inTransaction(c, async () => {
      const sub =
        (await findSubscription(c, s.user, s.plan)) ??
        (await createSubscription(c, { user: s.user, plan: s.plan, keyHash }, now));
      if (!sub.active) return null;
      const p = periodAt(sub.anchor, plan.validDays, now);
      return grantPeriod(c, sub, plan, p.period, p.start, p.end);
    });
    // In Redis before anyone is answered with the new period: the lock is still held.
    if (grant) await putGrants(d.redis, d.layout, [grant]);
    const entry = await inTransaction(c, () => restoreKeyIn(c, d.redis, d.layout.prefix, keyHash));
    if (!entry) throw new Error('a provisioned subscriber has no key row');
    return entry;
  });
}
