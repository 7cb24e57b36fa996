// The key cache in Redis: its format (account-billing writes it, data/key-cache-writer.ts) and its reader (the gateway and
// services in development mode authenticate through nothing else). A key the cache does not hold is not a verdict:
// the reader asks account-billing, which looks it up in PostgreSQL and restores the entry (domain/key-lookup.ts).
// A marketplace subscriber is cached the same way, under a hash derived from its user and plan: a missing entry, or
// one whose period has ended, is asked of account-billing, which provisions the account on the first call and grants
// each period's allowance once (domain/marketplace-subscribers.ts).
import type { Redis } from 'ioredis';
import { ApiError } from '@pra/core/errors';
import {
  hashApiKey,
  KEY_LOOKUP_SIGNATURE_HEADER,
  signKeyLookup,
  subscriberKeyHash,
  type KeyLookup,
  type KeyRecord,
  type MarketplaceSubscriber,
} from '@pra/core/auth';
import { telemetryMetrics } from '@pra/platform/telemetry/metrics';
import { TokenBucket } from '../domain/token-bucket.js';
import { keyCacheLayoutFor, type KeyCacheLayout } from '../data/key-cache-layout.js';

export {
  KEY_CACHE_FORMAT,
  keyCacheKey,
  keyCacheLayout,
  keyCacheLayoutFor,
  keyCacheLoadedKey,
  keyMissKey,
  type KeyCacheLayout,
} from '../data/key-cache-layout.js';

/** What account-billing writes for every key. */
export interface KeyCacheEntry extends KeyRecord {
  /** Version of the key's row when written: a write never replaces a newer one (a rebuild cannot undo a disable). */
  v?: number;
  /** A subscriber's: when its current period ends (ms since the epoch); past it the entry is asked again. */
  periodEnds?: number;
}

/** True when the entry is in the current format (it says its key's kind). */
export const isCurrentEntry = (entry: KeyCacheEntry): boolean =>
  entry.kind === 'standard' || entry.kind === 'marketplace' || entry.kind === 'subscriber';

/**
 * True when a subscriber's entry speaks for the period `now` falls in (a new period needs its allowance first). A
 * disabled one speaks for every period: it gets no allowance, and asking again would cost a provisioning and a token
 * of the lookup budget on each of its calls (an operator's enable rewrites the entry, which is then asked again).
 */
export const subscriberEntryCurrent = (entry: KeyCacheEntry, now: number): boolean =>
  entry.kind === 'subscriber' &&
  (entry.status !== 'active' || (entry.periodEnds !== undefined && now < entry.periodEnds));

/** How long PostgreSQL's "no such key" is remembered in Redis. */
export const KEY_MISS_TTL_MS = 5_000;

/** How many keys one reader process asks account-billing about a second at most (past it: 503, Retry-After 1). */
export const KEY_RESOLVES_PER_SECOND = 50;

/** The path of account-billing's key lookup (on its service port, behind no gateway route), by key hash. */
export const keyLookupPath = (keyHash: string) => `/internal/keys/${keyHash}`;

/**
 * The path of account-billing's subscriber lookup (POST: it provisions on the first call); the user and the plan go
 * in the query, the signature is signKeyLookup's over their subscriberKeyHash.
 */
export const SUBSCRIBER_LOOKUP_PATH = '/internal/marketplace-subscribers';
export const subscriberLookupTarget = (s: MarketplaceSubscriber) =>
  `${SUBSCRIBER_LOOKUP_PATH}?${new URLSearchParams({ plan: s.plan, user: s.user })}`;

/** The key cache cannot say whether a key is valid (Redis unreachable, or emptied and not yet rebuilt). */
export const keyCacheUnavailable = (retryAfterSeconds = 2) =>
  new ApiError(
    'unavailable',
    'Authentication is temporarily unavailable (our key store cannot be read right now); the request was not charged. Retry shortly',
    0,
    { 'retry-after': String(retryAfterSeconds) },
  );

/**
 * Where a key the cache does not hold is looked up: account-billing, which reads PostgreSQL and restores the entry.
 * Resolves to the entry, or null when no such key exists; throws an ApiError (503) when it cannot tell. Its
 * `subscriber`, when it has one, resolves a marketplace subscriber whose entry is missing or of a past period:
 * account-billing provisions the account (first call) and the period's allowance, and answers the entry.
 */
export interface KeyMissResolver {
  (keyHash: string): Promise<KeyCacheEntry | null>;
  subscriber?: (s: MarketplaceSubscriber) => Promise<KeyCacheEntry>;
}

/** Why a key lookup through account-billing gave no answer. */
export type KeyResolveFailure = 'unreachable' | 'timeout' | 'status' | 'bad-answer';

/** A warning line about failed key lookups: what, why, how many were not logged since; never a key or its hash. */
export interface KeyResolveWarning {
  msg: string;
  reason: KeyResolveFailure;
  /** account-billing's HTTP status, for 'status'. */
  status?: number;
  /** The connection error's code (ECONNREFUSED, ENOTFOUND: a KEY_LOOKUP_URL that does not resolve...). */
  error?: string;
  /** The lookup's base URL (KEY_LOOKUP_URL). */
  url: string;
  /** Failures of this kind since the last line about it that were counted but not logged. */
  suppressed: number;
}

/** How often a failure of one kind (reason and status) is logged at most. */
export const KEY_RESOLVE_LOG_EVERY_MS = 10_000;

/** The default warning sink: a JSON line on stderr (Kong's plugin server sends it to Kong's error log). */
const warnToStderr = (w: KeyResolveWarning) => {
  if (process.env.LOG_LEVEL === 'silent') return;
  process.stderr.write(`${JSON.stringify({ level: 'warn', time: new Date().toISOString(), ...w })}\n`);
};

export interface HttpKeyResolverOptions {
  /** How long one lookup may take (default 2 s). */
  timeoutMs?: number;
  /** Where failures are logged (at most one line per kind of failure every KEY_RESOLVE_LOG_EVERY_MS). */
  warn?: (w: KeyResolveWarning) => void;
  now?: () => number;
}

/**
 * Asks account-billing's key lookup over HTTP, signed with the gateway's key. Anything but its answer (unreachable,
 * slow, refused) is a 503 with Retry-After: a key we could not check is never called invalid. Every failure is
 * counted (pra.keycache.resolve.failures, by reason and status) and logged, at most once every 10 s per reason and
 * status, never with the key.
 */
export function httpKeyResolver(
  baseUrl: string,
  hmacKey: string,
  options: HttpKeyResolverOptions = {},
): KeyMissResolver {
  const base = baseUrl.replace(/\/+$/, '');
  const { timeoutMs = 2_000, warn = warnToStderr, now = Date.now } = options;
  const lastLogged = new Map<string, { at: number; suppressed: number }>();
  const failed = (reason: KeyResolveFailure, detail: { status?: number; error?: string }, retryAfter = 2) => {
    telemetryMetrics.keyResolveFailed(reason, detail.status);
    const kind = `${reason}:${detail.status ?? ''}`;
    const t = now();
    const last = lastLogged.get(kind);
    if (last && t - last.at < KEY_RESOLVE_LOG_EVERY_MS) {
      last.suppressed++;
    } else {
      lastLogged.set(kind, { at: t, suppressed: 0 });
      warn({
        msg: 'A key the cache does not hold could not be looked up through account-billing (answered 503)',
        reason,
        ...detail,
        url: base,
        suppressed: last?.suppressed ?? 0,
      });
    }
    return keyCacheUnavailable(retryAfter);
  };
  /** Asks account-billing at `target`, signed over `hash`: the entry it answers (null for an unknown key). */
  const ask = async (method: 'GET' | 'POST', target: string, hash: string): Promise<KeyCacheEntry | null> => {
    let res: Response;
    try {
      res = await fetch(base + target, {
        method,
        headers: { [KEY_LOOKUP_SIGNATURE_HEADER]: signKeyLookup(hash, hmacKey) },
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (err) {
      const e = err as { name?: string; cause?: unknown };
      if (e.name === 'TimeoutError' || e.name === 'AbortError') throw failed('timeout', {});
      const cause = e.cause as { code?: unknown; message?: unknown } | undefined;
      const what =
        typeof cause?.code === 'string' ? cause.code : typeof cause?.message === 'string' ? cause.message : '';
      // A connection error names a host and port, never the path; a key hash is blanked all the same.
      throw failed('unreachable', what ? { error: what.replace(/[0-9a-f]{64}/gi, '<hash>').slice(0, 200) } : {});
    }
    const body = (await res.json().catch(() => undefined)) as { key?: KeyCacheEntry | null } | undefined;
    if (res.status === 200 && body && 'key' in body) return body.key ?? null;
    const retryAfter = Number(res.headers.get('retry-after'));
    const wait = Number.isInteger(retryAfter) && retryAfter > 0 ? retryAfter : 2;
    throw res.status === 200
      ? failed('bad-answer', { status: 200 }, wait)
      : failed('status', { status: res.status }, wait);
  };
  const resolver: KeyMissResolver = (keyHash) => ask('GET', keyLookupPath(keyHash), keyHash);
  resolver.subscriber = async (s) => {
    const entry = await ask('POST', subscriberLookupTarget(s), subscriberKeyHash(s));
    if (!entry) throw failed('bad-answer', { status: 200 });
    return entry;
  };
  return resolver;
}

export interface KeyCacheOptions {
  /** How long an answer is remembered in this process (default 1 s: a change takes effect within it; 0: never). */
  ttlMs?: number;
  /** Where a key Redis does not hold is looked up (account-billing); without one, see KeyCache. */
  resolver?: KeyMissResolver;
  /** How many keys this process asks the resolver about a second at most (default KEY_RESOLVES_PER_SECOND). */
  resolvesPerSecond?: number;
}

/**
 * Reads the Redis key cache (one MGET: the entry, the loaded marker and the negative cache), with a short in-process
 * cache (a change takes effect within ttlMs). A key missing from Redis is asked of the resolver when there is one
 * (one request per key at a time in this process, at most resolvesPerSecond a second: a flood of random keys costs
 * account-billing no more than that per gateway); without one, a miss in a loaded cache is an unknown key and a miss
 * in a cold cache a 503 (our outage is not answered 401). An entry of the old format (without its kind) is asked of
 * the resolver too, which rewrites it with its kind; without a resolver, or while it cannot answer, it counts as a
 * standard key, as it did. Answers, unknown keys included, are remembered ttlMs.
 */
export class KeyCache implements KeyLookup {
  private readonly local = new Map<string, { at: number; entry: KeyCacheEntry | null }>();
  private readonly inFlight = new Map<string, Promise<KeyCacheEntry | null>>();
  private readonly ttlMs: number;
  private readonly resolver?: KeyMissResolver;
  private readonly bucket: TokenBucket;
  private readonly layout: KeyCacheLayout;
  constructor(
    private readonly redis: Redis,
    prefix: string,
    options: KeyCacheOptions = {},
  ) {
    this.layout = keyCacheLayoutFor(redis, prefix);
    this.ttlMs = options.ttlMs ?? 1_000;
    this.resolver = options.resolver;
    this.bucket = new TokenBucket(options.resolvesPerSecond ?? KEY_RESOLVES_PER_SECOND);
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
      const l = this.layout;
      [text, loaded, missed] = await this.redis.mget(l.entry(hash), l.loaded(hash), l.miss(hash));
    } catch {
      throw keyCacheUnavailable();
    }
    const held = text ? (JSON.parse(text) as KeyCacheEntry) : null;
    let entry: KeyCacheEntry | null;
    if (held && (isCurrentEntry(held) || !this.resolver)) {
      telemetryMetrics.keyLookup('redis');
      entry = held;
    } else if (held) {
      // The old format: asked again, so that the entry gets its kind; when that cannot be done now, it is answered
      // as before (a standard key) rather than refused, since the key exists.
      telemetryMetrics.keyLookup('resolved');
      entry = await this.resolve(hash).catch(() => held);
    } else if (missed) {
      telemetryMetrics.keyLookup('negative');
      entry = null;
    } else if (this.resolver) {
      telemetryMetrics.keyLookup('resolved');
      entry = await this.resolve(hash);
    } else if (loaded) {
      telemetryMetrics.keyLookup('miss');
      entry = null;
    } else {
      throw keyCacheUnavailable();
    }
    if (this.local.size > 100_000) this.local.clear();
    this.local.set(hash, { at: now, entry });
    return entry;
  }

  /**
   * A marketplace subscriber's entry: from this process's cache or Redis (the same one MGET as a key) while it speaks
   * for the current period; otherwise (missing: the first call, an eviction, a flushed cache; or its period ended)
   * asked of account-billing, which provisions the account and the period's allowance once, whoever asks. Without a
   * resolver, a missing entry is a 503 and an entry of a past period is served as it is (its grant has expired: the
   * charge answers 402).
   */
  async subscriber(s: MarketplaceSubscriber): Promise<KeyCacheEntry> {
    const hash = subscriberKeyHash(s);
    const now = Date.now();
    const hit = this.local.get(hash);
    if (hit?.entry && now - hit.at < this.ttlMs && subscriberEntryCurrent(hit.entry, now)) {
      telemetryMetrics.keyLookup('local');
      return hit.entry;
    }
    let text: string | null;
    try {
      text = await this.redis.get(this.layout.entry(hash));
    } catch {
      throw keyCacheUnavailable();
    }
    const held = text ? (JSON.parse(text) as KeyCacheEntry) : null;
    let entry: KeyCacheEntry;
    if (held && subscriberEntryCurrent(held, now)) {
      telemetryMetrics.keyLookup('redis');
      entry = held;
    } else if (this.resolver?.subscriber) {
      telemetryMetrics.keyLookup('resolved');
      const ask = this.resolver.subscriber;
      entry = (await this.coalesced(hash, () => ask(s)))!;
    } else if (held) {
      entry = held;
    } else {
      throw keyCacheUnavailable();
    }
    if (this.local.size > 100_000) this.local.clear();
    this.local.set(hash, { at: now, entry });
    return entry;
  }

  private resolve(hash: string): Promise<KeyCacheEntry | null> {
    return this.coalesced(hash, () => this.resolver!(hash));
  }

  /** One ask of account-billing per hash at a time in this process, at most resolvesPerSecond a second. */
  private coalesced(hash: string, ask: () => Promise<KeyCacheEntry | null>): Promise<KeyCacheEntry | null> {
    let pending = this.inFlight.get(hash);
    if (!pending) {
      if (!this.bucket.take()) {
        telemetryMetrics.keyResolveFailed('bounded');
        return Promise.reject(keyCacheUnavailable(1));
      }
      pending = ask().finally(() => this.inFlight.delete(hash));
      this.inFlight.set(hash, pending);
    }
    return pending;
  }
}
