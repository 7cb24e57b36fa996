// Per-account admission: a rolling 60-second window (never more than N admitted in any 60 s) and a daily quota per
// UTC day, decided together in ONE Redis call on Redis's own clock, so that every gateway replica, whatever its own
// clock says, counts on the same time line. Tests may pass a clock instead, to pace requests exactly.
import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { isClusterClient } from '@pra/platform/redis';

export const WINDOW_MS = 60_000;
const DAY_MS = 86_400_000;

/**
 * KEYS: window zset (member per admitted request, score = ms), the account's quota counter ("<day>:<count>").
 * ARGV: now ms ('' = Redis's TIME), limit per window, daily quota (0 = none), unique member, quota key ttl s, the
 * call's weight (calls it counts for: a batch by its entries; its members in the window and its count in the quota).
 * Returns {admitted 1|0, remaining in window, ms until the oldest admission leaves the window (or, refused for the
 * quota, until the next UTC day), quota used, reason}.
 */
const ADMIT = `
local now
if ARGV[1] == '' then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
else
  now = tonumber(ARGV[1])
end
local limit, quota, weight = tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[6] or '1')
-- A call heavier than the account's whole window (or day) counts as all of it: admitted once that is empty, never
-- refused for good (a batch of 100 under a custom limit of 5 a minute would be answered 429 Retry-After 1 forever).
weight = math.min(weight, limit)
if quota > 0 then weight = math.min(weight, quota) end
local day = math.floor(now / ${DAY_MS})
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - ${WINDOW_MS})
local inWindow = redis.call('ZCARD', KEYS[1])
local used = 0
local counted = redis.call('GET', KEYS[2])
if counted then
  local d, c = string.match(counted, '^(%d+):(%d+)$')
  if tonumber(d) == day then used = tonumber(c) end
end
local function untilOldestLeaves()
  local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  if oldest[2] then return tonumber(oldest[2]) + ${WINDOW_MS} - now end
  return 0
end
if quota > 0 and used + weight > quota then
  return {0, math.max(0, limit - inWindow), (day + 1) * ${DAY_MS} - now, used, 'quota'}
end
if inWindow + weight > limit then
  return {0, math.max(0, limit - inWindow), untilOldestLeaves(), used, 'rate'}
end
for i = 1, weight do redis.call('ZADD', KEYS[1], now, ARGV[4] .. ':' .. i) end
redis.call('PEXPIRE', KEYS[1], ${WINDOW_MS})
used = used + weight
redis.call('SET', KEYS[2], string.format('%d:%d', day, used), 'EX', tonumber(ARGV[5]))
return {1, limit - inWindow - weight, untilOldestLeaves(), used, ''}
`;

export interface Admission {
  admitted: boolean;
  /** RateLimit-Limit */
  limit: number;
  /** RateLimit-Remaining */
  remaining: number;
  /** RateLimit-Reset: seconds until a slot frees (the oldest admission leaves the window; the next day for the quota). */
  resetSeconds: number;
  /** Seconds until the caller may retry (Retry-After); 0 when admitted. */
  retryAfterSeconds: number;
  refusedFor?: 'rate' | 'quota';
}

type AdmitRedis = Redis & { pra_admit(...a: (string | number)[]): Promise<[number, number, number, number, string]> };

/** Members of the window must be unique across every gateway replica: a random id per process, then a counter. */
const PROCESS_ID = randomBytes(8).toString('hex');
let sequence = 0;

/**
 * An account's window and quota counter. In a Redis Cluster both carry the account's hash tag, so the one script
 * that decides on them runs on one node; on a single Redis, the names the limits have always had.
 */
export function rateLimitKeys(prefix: string, accountId: number, cluster: boolean): [string, string] {
  return cluster
    ? [`${prefix}rl:{a${accountId}}`, `${prefix}quota:{a${accountId}}`]
    : [`${prefix}rl:${accountId}`, `${prefix}quota:${accountId}`];
}

export class RateLimiter {
  private readonly redis: AdmitRedis;
  private readonly cluster: boolean;
  constructor(
    redis: Redis,
    private readonly prefix: string,
  ) {
    if (!('pra_admit' in redis)) redis.defineCommand('pra_admit', { numberOfKeys: 2, lua: ADMIT });
    this.redis = redis as AdmitRedis;
    this.cluster = isClusterClient(redis);
  }

  /**
   * Admits one call of the account counting for `weight` calls (a batch: by its entries), or says why not; `nowMs`
   * overrides Redis's clock (tests only).
   */
  async admit(
    accountId: number,
    limit: number,
    dailyQuota: number | null,
    nowMs?: number,
    weight = 1,
  ): Promise<Admission> {
    const [ok, remaining, waitMs, , reason] = await this.redis.pra_admit(
      ...rateLimitKeys(this.prefix, accountId, this.cluster),
      nowMs ?? '',
      limit,
      dailyQuota ?? 0,
      `${PROCESS_ID}-${sequence++}`,
      2 * 86_400,
      weight,
    );
    const resetSeconds = Math.max(ok === 1 ? 0 : 1, Math.ceil(waitMs / 1000));
    if (ok === 1)
      return { admitted: true, limit, remaining: Math.max(0, remaining), resetSeconds, retryAfterSeconds: 0 };
    return {
      admitted: false,
      limit,
      remaining: Math.max(0, remaining),
      resetSeconds,
      retryAfterSeconds: resetSeconds,
      refusedFor: reason as 'rate' | 'quota',
    };
  }
}
