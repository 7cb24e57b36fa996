// The key lookup: what a gateway asks when its key cache does not hold a key (an eviction, a failover to a replica
// that missed the last writes, an operator's DEL, a Redis not yet reloaded, an entry of the old format). Answered
// from what the cache holds now when it holds it, else from PostgreSQL, the entry restored in Redis (restoreKey), an
// unknown key remembered in Redis for KEY_MISS_TTL_MS. Random keys must not reach PostgreSQL at will: look-ups in
// PostgreSQL are bounded by a token bucket per process and one across the system (in Redis), and past either the
// answer is a 503 with Retry-After (we could not check; never a 401). An answer from Redis costs no token.
// A marketplace subscriber whose entry is missing or of a past period is provisioned here
// (domain/marketplace-subscribers.ts), bounded by the same per-process budget.
import type { Redis } from 'ioredis';
import { subscriberKeyHash, type MarketplaceSubscriber } from '@pra/core/auth';
import { ApiError } from '@pra/core/errors';
import type { Pool } from '@pra/platform';
import { subscriberEntryCurrent, type KeyCacheEntry } from '../client/key-cache.js';
import { restoreKey } from '../data/key-cache-writer.js';
import { admitLookup, whatTheCacheSays, type CacheSays } from '../data/key-lookup-admission.js';
import { layoutFor } from '../data/redis-layout.js';
import { provisionSubscriber } from './marketplace-subscribers.js';
import { TokenBucket } from './token-bucket.js';

/** How many key lookups may reach PostgreSQL: per account-billing process, and in all (every process together). */
export interface KeyLookupLimits {
  perProcessPerSecond: number;
  systemPerSecond: number;
}
export const KEY_LOOKUP_LIMITS: KeyLookupLimits = { perProcessPerSecond: 50, systemPerSecond: 100 };

const lookupsBounded = () =>
  new ApiError(
    'unavailable',
    'Too many unknown API keys are being checked right now; this one could not be checked and the request was not charged. Retry shortly',
    0,
    { 'retry-after': '1' },
  );

const storeUnreachable = () =>
  new ApiError('unavailable', 'The key store cannot be reached; retry shortly', 0, { 'retry-after': '2' });

/** The cache's answer, when it has one: the entry, or null for a key known not to exist. */
const answer = (says: CacheSays): KeyCacheEntry | null | undefined =>
  says === null ? undefined : 'held' in says ? says.held : null;

/** Looks keys up for the gateways: bounded, one lookup per key at a time in this process. */
export class KeyLookupService {
  private readonly bucket: TokenBucket;
  private readonly inFlight = new Map<string, Promise<KeyCacheEntry | null>>();
  private readonly subscribersInFlight = new Map<string, Promise<KeyCacheEntry>>();
  constructor(
    private readonly d: { pool: Pool; redis: Redis; prefix: string },
    private readonly limits: KeyLookupLimits = KEY_LOOKUP_LIMITS,
    private readonly now: () => number = Date.now,
  ) {
    this.bucket = new TokenBucket(limits.perProcessPerSecond, now);
  }

  /**
   * A marketplace subscriber's entry for the current period: from Redis when it holds one (no token), else
   * provisioned (the account on its first call, the period's allowance once); one at a time per subscriber in this
   * process. A 503 when it cannot be done now.
   */
  subscriber(s: MarketplaceSubscriber): Promise<KeyCacheEntry> {
    const hash = subscriberKeyHash(s);
    let pending = this.subscribersInFlight.get(hash);
    if (!pending) {
      pending = this.subscriberOnce(s, hash).finally(() => this.subscribersInFlight.delete(hash));
      this.subscribersInFlight.set(hash, pending);
    }
    return pending;
  }

  private async subscriberOnce(s: MarketplaceSubscriber, hash: string): Promise<KeyCacheEntry> {
    const { pool, redis, prefix } = this.d;
    const says = await whatTheCacheSays(redis, prefix, hash).catch(() => {
      throw storeUnreachable();
    });
    const now = this.now();
    if (says && 'held' in says && subscriberEntryCurrent(says.held, now)) return says.held;
    if (!this.bucket.take()) throw lookupsBounded();
    return provisionSubscriber({ pool, redis, layout: layoutFor(redis, prefix) }, s, new Date(now)).catch((err) => {
      throw err instanceof ApiError ? err : storeUnreachable();
    });
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
    const { pool, redis, prefix } = this.d;
    // Redis first: a key restored meanwhile (by another gateway's ask) or known not to exist costs no token, so a
    // flood of random keys cannot make us refuse keys the cache holds.
    const first = await whatTheCacheSays(redis, prefix, keyHash).catch(() => {
      throw storeUnreachable();
    });
    const cached = answer(first);
    if (cached !== undefined) return cached;
    // A look-up in PostgreSQL: this process's token, then the system's (which checks the cache again, atomically).
    if (!this.bucket.take()) throw lookupsBounded();
    const admission = await admitLookup(redis, prefix, keyHash, this.limits.systemPerSecond).catch(() => {
      throw storeUnreachable();
    });
    if (admission === 'bounded') throw lookupsBounded();
    if (admission !== 'admitted') return answer(admission) ?? null;
    return restoreKey(pool, redis, prefix, keyHash);
  }
}
