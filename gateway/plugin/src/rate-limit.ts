// Per-account admission: a rolling 60-second window (never more than N admitted in any 60 s) and a daily quota per
// UTC day, decided together in ONE Redis call. The clock is an argument, so tests can pace requests exactly.
import type { Redis } from 'ioredis';

export const WINDOW_MS = 60_000;

/**
 * KEYS: window zset (member per admitted request, score = ms), quota counter of the day.
 * ARGV: now ms, limit per window, daily quota (0 = none), unique member, quota key ttl s.
 * Returns {admitted 1|0, remaining in window, ms until a slot frees (0 if admitted), quota used, reason}.
 */
const ADMIT = `
local now, limit, quota = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - ${WINDOW_MS})
local inWindow = redis.call('ZCARD', KEYS[1])
local used = tonumber(redis.call('GET', KEYS[2]) or '0')
if quota > 0 and used >= quota then
  return {0, limit - inWindow, 0, used, 'quota'}
end
if inWindow >= limit then
  local oldest = tonumber(redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')[2])
  return {0, 0, oldest + ${WINDOW_MS} - now, used, 'rate'}
end
redis.call('ZADD', KEYS[1], now, ARGV[4])
redis.call('PEXPIRE', KEYS[1], ${WINDOW_MS})
used = redis.call('INCR', KEYS[2])
redis.call('EXPIRE', KEYS[2], tonumber(ARGV[5]))
return {1, limit - inWindow - 1, 0, used, ''}
`;

export interface Admission {
  admitted: boolean;
  /** RateLimit-Limit */
  limit: number;
  /** RateLimit-Remaining */
  remaining: number;
  /** Seconds until the caller may retry (Retry-After, RateLimit-Reset); 0 when admitted. */
  retryAfterSeconds: number;
  refusedFor?: 'rate' | 'quota';
}

type AdmitRedis = Redis & { pra_admit(...a: (string | number)[]): Promise<[number, number, number, number, string]> };

let sequence = 0;

export class RateLimiter {
  private readonly redis: AdmitRedis;
  constructor(redis: Redis, private readonly prefix: string) {
    if (!('pra_admit' in redis)) redis.defineCommand('pra_admit', { numberOfKeys: 2, lua: ADMIT });
    this.redis = redis as AdmitRedis;
  }

  async admit(accountId: number, limit: number, dailyQuota: number | null, nowMs: number): Promise<Admission> {
    const day = new Date(nowMs).toISOString().slice(0, 10);
    const nextMidnight = Date.parse(`${day}T00:00:00Z`) + 86_400_000;
    const [ok, remaining, waitMs, , reason] = await this.redis.pra_admit(
      `${this.prefix}rl:${accountId}`,
      `${this.prefix}quota:${accountId}:${day}`,
      nowMs,
      limit,
      dailyQuota ?? 0,
      `${nowMs}-${process.pid}-${sequence++}`,
      2 * 86_400,
    );
    if (ok === 1) return { admitted: true, limit, remaining: Math.max(0, remaining), retryAfterSeconds: 0 };
    const retryMs = reason === 'quota' ? nextMidnight - nowMs : waitMs;
    return { admitted: false, limit, remaining: Math.max(0, remaining), retryAfterSeconds: Math.max(1, Math.ceil(retryMs / 1000)), refusedFor: reason as 'rate' | 'quota' };
  }
}
