// The key lookup: what a gateway asks when its key cache does not hold a key (an eviction, a failover to a replica
// that missed the last writes, an operator's DEL, a Redis not yet reloaded). Answered from PostgreSQL, the entry
// restored in Redis (restoreKey), an unknown key remembered in Redis for KEY_MISS_TTL_MS. Random keys must not
// reach PostgreSQL at will: lookups are bounded by a token bucket per process and one across the system (in Redis),
// and past either the answer is a 503 with Retry-After (we could not check; never a 401).
//
// GET /internal/keys/<sha-256 of the key, hex> on account-billing's service port (the gateway routes no such path),
// signed with the gateway's key (KEY_LOOKUP_SIGNATURE_HEADER). 200 {"key": entry | null}.
import type { Express } from 'express';
import type { Redis } from 'ioredis';
import { ApiError } from '@pra/core/errors';
import { KEY_LOOKUP_SIGNATURE_HEADER, verifyKeyLookup } from '@pra/core/auth';
import { route, sendJson, type Pool } from '@pra/platform';
import { keyCacheKey, keyLookupPath, keyMissKey, type KeyCacheEntry } from '../client/key-cache.js';
import { restoreKey } from '../data/key-cache.js';

/** How many key lookups may reach PostgreSQL: per account-billing process, and in all (every process together). */
export interface KeyLookupLimits {
  perProcessPerSecond: number;
  systemPerSecond: number;
}
export const KEY_LOOKUP_LIMITS: KeyLookupLimits = { perProcessPerSecond: 50, systemPerSecond: 100 };

export const keyLookupBucketKey = (prefix: string) => `${prefix}key-lookups:bucket`;

const lookupsBounded = () =>
  new ApiError(
    'UNAVAILABLE',
    'Too many unknown API keys are being checked right now; this one could not be checked and the request was not charged. Retry shortly',
    0,
    { 'retry-after': '1' },
  );

/** A token bucket in this process: `rate` tokens a second, holding at most `rate` (one second's worth). */
class TokenBucket {
  private tokens: number;
  private at: number;
  constructor(
    private readonly rate: number,
    private readonly now: () => number,
  ) {
    this.tokens = rate;
    this.at = now();
  }
  take(): boolean {
    const now = this.now();
    this.tokens = Math.min(this.rate, this.tokens + ((now - this.at) * this.rate) / 1000);
    this.at = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}

/**
 * KEYS: the entry, the negative-cache key, the system bucket. ARGV: tokens a second (also the bucket's size).
 * {1, entry}: the cache holds the key now (restored by another lookup); {2}: known not to exist; {3}: the system's
 * budget is spent; {0}: a token was taken, look it up. The bucket runs on Redis's clock, shared by every process.
 */
const ADMIT_LOOKUP = `
local entry = redis.call('GET', KEYS[1])
if entry then return {1, entry} end
if redis.call('EXISTS', KEYS[2]) == 1 then return {2} end
local rate = tonumber(ARGV[1])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local b = redis.call('HMGET', KEYS[3], 'tokens', 'at')
local tokens = tonumber(b[1]) or rate
local at = tonumber(b[2]) or now
tokens = math.min(rate, tokens + math.max(0, now - at) * rate / 1000)
local admitted = 0
if tokens >= 1 then
  tokens = tokens - 1
  admitted = 1
end
redis.call('HSET', KEYS[3], 'tokens', tostring(tokens), 'at', tostring(now))
redis.call('PEXPIRE', KEYS[3], 10000)
if admitted == 1 then return {0} end
return {3}
`;

type AdmitRedis = Redis & {
  pra_admit_key_lookup(entry: string, miss: string, bucket: string, rate: number): Promise<[number, string?]>;
};

/** Looks keys up for the gateways: bounded, one lookup per key at a time in this process. */
export class KeyLookupService {
  private readonly bucket: TokenBucket;
  private readonly inFlight = new Map<string, Promise<KeyCacheEntry | null>>();
  private readonly redis: AdmitRedis;
  constructor(
    private readonly d: { pool: Pool; redis: Redis; prefix: string },
    private readonly limits: KeyLookupLimits = KEY_LOOKUP_LIMITS,
    now: () => number = Date.now,
  ) {
    this.bucket = new TokenBucket(limits.perProcessPerSecond, now);
    if (!('pra_admit_key_lookup' in d.redis))
      d.redis.defineCommand('pra_admit_key_lookup', { numberOfKeys: 3, lua: ADMIT_LOOKUP });
    this.redis = d.redis as AdmitRedis;
  }

  /** The key's entry (restored in the cache), null when no such key exists; a 503 when it cannot be checked now. */
  lookup(keyHash: string): Promise<KeyCacheEntry | null> {
    let pending = this.inFlight.get(keyHash);
    if (!pending) {
      pending = this.lookupOnce(keyHash).finally(() => this.inFlight.delete(keyHash));
      this.inFlight.set(keyHash, pending);
    }
    return pending;
  }

  private async lookupOnce(keyHash: string): Promise<KeyCacheEntry | null> {
    if (!this.bucket.take()) throw lookupsBounded();
    const { prefix } = this.d;
    let verdict: [number, string?];
    try {
      verdict = await this.redis.pra_admit_key_lookup(
        keyCacheKey(prefix, keyHash),
        keyMissKey(prefix, keyHash),
        keyLookupBucketKey(prefix),
        this.limits.systemPerSecond,
      );
    } catch {
      throw new ApiError('UNAVAILABLE', 'The key store cannot be reached; retry shortly', 0, { 'retry-after': '2' });
    }
    if (verdict[0] === 1) return JSON.parse(verdict[1]!) as KeyCacheEntry;
    if (verdict[0] === 2) return null;
    if (verdict[0] === 3) throw lookupsBounded();
    return restoreKey(this.d.pool, this.d.redis, prefix, keyHash);
  }
}

const KEY_HASH = /^[0-9a-f]{64}$/;

/** Mounts GET /internal/keys/:hash, for callers holding the gateway's key. */
export function mountKeyLookup(app: Express, service: KeyLookupService, gatewayKey: string): void {
  app.get(
    keyLookupPath(':hash'),
    route(async (req, res) => {
      const hash = String(req.params.hash);
      if (!KEY_HASH.test(hash)) throw new ApiError('BAD_REQUEST', 'A key lookup takes the hex SHA-256 of the key');
      const signature = req.headers[KEY_LOOKUP_SIGNATURE_HEADER];
      if (typeof signature !== 'string' || !verifyKeyLookup(hash, signature, gatewayKey)) {
        throw new ApiError('UNAUTHORIZED', 'A key lookup must be signed with the gateway key');
      }
      sendJson(res, 200, JSON.stringify({ key: await service.lookup(hash) }), req.requestId);
    }),
  );
}
