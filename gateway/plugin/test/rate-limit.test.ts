// Rate-limit accuracy with an injected clock against real Redis.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type {} from '@pra/platform/testing';
import { createRedis, redisReady, type RedisClient } from '@pra/platform';
import { TIER_LIMITS } from '@pra/core/tiers';
import { RateLimiter, WINDOW_MS } from '../src/rate-limit.js';

let redis: RedisClient;
let limiter: RateLimiter;
let account = 0;
beforeAll(async () => {
  redis = createRedis(inject('redisUrl'), 'producer');
  await redisReady(redis);
  limiter = new RateLimiter(redis, `${inject('redisPrefix')}gw${randomBytes(3).toString('hex')}:`);
});
afterAll(() => redis.quit());

const T0 = Date.UTC(2026, 10, 22, 10, 0, 0);

/** The most admissions found in any rolling window of 60 s. */
function maxInAnyWindow(times: number[]): number {
  let best = 0;
  for (let i = 0, j = 0; i < times.length; i++) {
    while (times[i]! - times[j]! >= WINDOW_MS) j++;
    best = Math.max(best, i - j + 1);
  }
  return best;
}

describe('rolling-minute limit', () => {
  it.each(['starter', 'growth'] as const)(
    'a client pacing at exactly N/min for two minutes is never refused (%s)',
    async (tier) => {
      const n = TIER_LIMITS[tier].ratePerMinute;
      const id = ++account;
      for (let k = 0; k < 2 * n; k++) {
        const a = await limiter.admit(id, n, null, T0 + k * (WINDOW_MS / n));
        expect(a.admitted, `request ${k}`).toBe(true);
      }
    },
  );

  it('a burst at 3x the limit admits exactly N in the first window and never more than N in any rolling window', async () => {
    const n = TIER_LIMITS.starter.ratePerMinute;
    const id = ++account;
    const admitted: number[] = [];
    let refused = 0;
    for (let k = 0; k < 6 * n; k++) {
      const t = T0 + Math.floor(k * (WINDOW_MS / (3 * n)));
      const a = await limiter.admit(id, n, null, t);
      if (a.admitted) admitted.push(t);
      else {
        refused++;
        expect(a.refusedFor).toBe('rate');
        expect(a.retryAfterSeconds).toBeGreaterThanOrEqual(1);
        expect(a.remaining).toBe(0);
      }
    }
    expect(admitted.filter((t) => t < T0 + WINDOW_MS)).toHaveLength(n);
    expect(maxInAnyWindow(admitted)).toBe(n);
    expect(admitted.length + refused).toBe(6 * n);
  });

  it('reports what remains, and when a slot frees', async () => {
    const id = ++account;
    const first = await limiter.admit(id, 3, null, T0);
    expect(first).toMatchObject({ admitted: true, limit: 3, remaining: 2 });
    await limiter.admit(id, 3, null, T0 + 1_000);
    await limiter.admit(id, 3, null, T0 + 2_000);
    const refused = await limiter.admit(id, 3, null, T0 + 10_000);
    expect(refused).toMatchObject({ admitted: false, remaining: 0, retryAfterSeconds: 50, refusedFor: 'rate' });
    expect((await limiter.admit(id, 3, null, T0 + 60_001)).admitted).toBe(true);
  });
});

describe('daily quota', () => {
  it('refuses past the quota until the next UTC day, and refusals do not count', async () => {
    const id = ++account;
    for (let k = 0; k < 5; k++) expect((await limiter.admit(id, 100, 5, T0 + k)).admitted).toBe(true);
    const over = await limiter.admit(id, 100, 5, T0 + 10);
    expect(over).toMatchObject({ admitted: false, refusedFor: 'quota' });
    expect(over.retryAfterSeconds).toBe(14 * 3600); // 10:00 UTC to midnight
    expect((await limiter.admit(id, 100, 5, T0 + 20)).admitted).toBe(false);
    expect((await limiter.admit(id, 100, 5, T0 + 14 * 3600 * 1000 + 1)).admitted).toBe(true); // the next day
  });
});
