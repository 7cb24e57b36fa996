// The key cache in Redis: its format (account-billing writes it, data/key-cache.ts) and its reader (the gateway and
// services in development mode authenticate through nothing else).
import type { Redis } from 'ioredis';
import { ApiError } from '@pra/core/errors';
import { hashApiKey, type KeyLookup, type KeyRecord } from '@pra/core/auth';
import { telemetryMetrics } from '@pra/platform/telemetry/metrics';

/** What account-billing writes for every key. */
export interface KeyCacheEntry extends KeyRecord {
  /** Version of the key's row when written: a write never replaces a newer one (a rebuild cannot undo a disable). */
  v?: number;
}

export const keyCacheKey = (prefix: string, keyHash: string) => `${prefix}key:${keyHash}`;
/** Present while the key cache holds every key (set at the end of a rebuild); gone after Redis lost its data. */
export const keyCacheLoadedKey = (prefix: string) => `${prefix}keys:loaded`;

/** The key cache cannot say whether a key is valid (Redis unreachable, or emptied and not yet rebuilt). */
export const keyCacheUnavailable = () =>
  new ApiError(
    'UNAVAILABLE',
    'Authentication is temporarily unavailable (our key store cannot be read right now); the request was not charged. Retry shortly',
    0,
    { 'retry-after': '2' },
  );

/**
 * Reads the Redis key cache, with a short in-process cache (a change takes effect within ttlMs). A key missing from
 * a cold cache is never called invalid: the lookup throws keyCacheUnavailable (503), so our outage is not answered
 * 401. Unknown keys are remembered for ttlMs too (a short negative cache).
 */
export class KeyCache implements KeyLookup {
  private readonly local = new Map<string, { at: number; entry: KeyCacheEntry | null }>();
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly ttlMs = 1_000,
  ) {}

  async lookup(rawKey: string): Promise<KeyCacheEntry | null> {
    const hash = hashApiKey(rawKey);
    const now = Date.now();
    const hit = this.local.get(hash);
    if (hit && now - hit.at < this.ttlMs) {
      telemetryMetrics.keyLookup('local');
      return hit.entry;
    }
    let text: string | null | undefined;
    let loaded: string | null | undefined;
    try {
      [text, loaded] = await this.redis.mget(keyCacheKey(this.prefix, hash), keyCacheLoadedKey(this.prefix));
    } catch {
      throw keyCacheUnavailable();
    }
    if (!text && !loaded) throw keyCacheUnavailable();
    telemetryMetrics.keyLookup(text ? 'redis' : 'miss');
    const entry = text ? (JSON.parse(text) as KeyCacheEntry) : null;
    if (this.local.size > 100_000) this.local.clear();
    this.local.set(hash, { at: now, entry });
    return entry;
  }
}
