// The key cache in Redis: its format (account-billing writes it, data/key-cache.ts) and its reader (the gateway and
// services in development mode authenticate through nothing else). A key the cache does not hold is not a verdict:
// the reader asks account-billing, which looks it up in PostgreSQL and restores the entry (routes/key-lookup.ts).
import type { Redis } from 'ioredis';
import { ApiError } from '@pra/core/errors';
import { hashApiKey, KEY_LOOKUP_SIGNATURE_HEADER, signKeyLookup, type KeyLookup, type KeyRecord } from '@pra/core/auth';
import { telemetryMetrics } from '@pra/platform/telemetry/metrics';

/** What account-billing writes for every key. */
export interface KeyCacheEntry extends KeyRecord {
  /** Version of the key's row when written: a write never replaces a newer one (a rebuild cannot undo a disable). */
  v?: number;
}

export const keyCacheKey = (prefix: string, keyHash: string) => `${prefix}key:${keyHash}`;
/** Present while the key cache holds every key (set at the end of a rebuild); gone after Redis lost its data. */
export const keyCacheLoadedKey = (prefix: string) => `${prefix}keys:loaded`;
/** The negative cache: present for KEY_MISS_TTL_MS after PostgreSQL said a key does not exist (every gateway reads it). */
export const keyMissKey = (prefix: string, keyHash: string) => `${prefix}key-miss:${keyHash}`;
/** How long PostgreSQL's "no such key" is remembered in Redis. */
export const KEY_MISS_TTL_MS = 5_000;

/** How many keys one reader process asks account-billing about a second at most (past it: 503, Retry-After 1). */
export const KEY_RESOLVES_PER_SECOND = 50;

/** The path of account-billing's key lookup (on its service port, behind no gateway route), by key hash. */
export const keyLookupPath = (keyHash: string) => `/internal/keys/${keyHash}`;

/** The key cache cannot say whether a key is valid (Redis unreachable, or emptied and not yet rebuilt). */
export const keyCacheUnavailable = (retryAfterSeconds = 2) =>
  new ApiError(
    'UNAVAILABLE',
    'Authentication is temporarily unavailable (our key store cannot be read right now); the request was not charged. Retry shortly',
    0,
    { 'retry-after': String(retryAfterSeconds) },
  );

/**
 * Where a key the cache does not hold is looked up: account-billing, which reads PostgreSQL and restores the entry.
 * Resolves to the entry, or null when no such key exists; throws an ApiError (503) when it cannot tell.
 */
export type KeyMissResolver = (keyHash: string) => Promise<KeyCacheEntry | null>;

/**
 * Asks account-billing's key lookup over HTTP, signed with the gateway's key. Anything but its answer (unreachable,
 * slow, refused) is a 503 with Retry-After: a key we could not check is never called invalid.
 */
export function httpKeyResolver(baseUrl: string, hmacKey: string, timeoutMs = 2_000): KeyMissResolver {
  const base = baseUrl.replace(/\/+$/, '');
  return async (keyHash) => {
    let res: Response;
    try {
      res = await fetch(base + keyLookupPath(keyHash), {
        headers: { [KEY_LOOKUP_SIGNATURE_HEADER]: signKeyLookup(keyHash, hmacKey) },
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch {
      throw keyCacheUnavailable();
    }
    const body = (await res.json().catch(() => undefined)) as { key?: KeyCacheEntry | null } | undefined;
    if (res.status === 200 && body && 'key' in body) return body.key ?? null;
    const retryAfter = Number(res.headers.get('retry-after'));
    throw keyCacheUnavailable(Number.isInteger(retryAfter) && retryAfter > 0 ? retryAfter : 2);
  };
}

/**
 * Reads the Redis key cache (one MGET: the entry, the loaded marker and the negative cache), with a short in-process
 * cache (a change takes effect within ttlMs). A key missing from Redis is asked of the resolver when there is one
 * (one request per key at a time in this process, at most resolvesPerSecond a second: a flood of random keys costs
 * account-billing no more than that per gateway); without one, a miss in a loaded cache is an unknown key and a
 * miss in a cold cache a 503 (our outage is not answered 401). Answers, unknown keys included, are remembered ttlMs.
 */
export class KeyCache implements KeyLookup {
  private readonly local = new Map<string, { at: number; entry: KeyCacheEntry | null }>();
  private readonly inFlight = new Map<string, Promise<KeyCacheEntry | null>>();
  private tokens: number;
  private tokensAt = Date.now();
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly ttlMs = 1_000,
    private readonly resolver?: KeyMissResolver,
    private readonly resolvesPerSecond = KEY_RESOLVES_PER_SECOND,
  ) {
    this.tokens = resolvesPerSecond;
  }

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
    let missed: string | null | undefined;
    try {
      [text, loaded, missed] = await this.redis.mget(
        keyCacheKey(this.prefix, hash),
        keyCacheLoadedKey(this.prefix),
        keyMissKey(this.prefix, hash),
      );
    } catch {
      throw keyCacheUnavailable();
    }
    let entry: KeyCacheEntry | null;
    if (text) {
      telemetryMetrics.keyLookup('redis');
      entry = JSON.parse(text) as KeyCacheEntry;
    } else if (missed || (loaded && !this.resolver)) {
      telemetryMetrics.keyLookup('miss');
      entry = null;
    } else if (this.resolver) {
      telemetryMetrics.keyLookup('miss');
      entry = await this.resolve(hash);
    } else {
      throw keyCacheUnavailable();
    }
    if (this.local.size > 100_000) this.local.clear();
    this.local.set(hash, { at: now, entry });
    return entry;
  }

  private resolve(hash: string): Promise<KeyCacheEntry | null> {
    let pending = this.inFlight.get(hash);
    if (!pending) {
      const now = Date.now();
      const rate = this.resolvesPerSecond;
      this.tokens = Math.min(rate, this.tokens + ((now - this.tokensAt) * rate) / 1000);
      this.tokensAt = now;
      if (this.tokens < 1) return Promise.reject(keyCacheUnavailable(1));
      this.tokens -= 1;
      pending = this.resolver!(hash).finally(() => this.inFlight.delete(hash));
      this.inFlight.set(hash, pending);
    }
    return pending;
  }
}
