// Where the key cache keeps its entries in Redis: the names on a single Redis, and the hash-tagged ones of a Redis
// Cluster. account-billing writes them (data/key-cache-writer.ts), the gateway and the services read them
// (client/key-cache.ts).
import { isClusterClient } from '@pra/platform/redis';
import { groupBy } from './redis-layout.js';

/**
 * The cache's format. 2: every entry carries its key's kind. An entry without one was written before kinds were
 * enforced (format 1) and is not trusted to say what kind its key is: a reader with a resolver looks the key up
 * again (account-billing rewrites the entry with its kind), and every writer replaces it whatever its version.
 * The loaded marker names the format, so the first account-billing of a new format rebuilds the whole cache.
 */
export const KEY_CACHE_FORMAT = 2;
/** The names below are a single Redis's; keyCacheLayout gives a cluster's too. */
export const keyCacheKey = (prefix: string, keyHash: string) => `${prefix}key:${keyHash}`;
/**
 * Present while the key cache holds every key in format KEY_CACHE_FORMAT (set at the end of a rebuild); gone after
 * Redis lost its data, and never set for a new format until a rebuild wrote it (the marker of format 1 was
 * `keys:loaded`).
 */
export const keyCacheLoadedKey = (prefix: string) => `${prefix}keys:loaded:v${KEY_CACHE_FORMAT}`;
/** The negative cache: present for KEY_MISS_TTL_MS after PostgreSQL said a key does not exist (every gateway reads it). */
export const keyMissKey = (prefix: string, keyHash: string) => `${prefix}key-miss:${keyHash}`;

/** In a cluster, keys fall in 16 buckets by the first hex digit of their hash, each bucket a hash tag of its own. */
const KEY_BUCKETS = '0123456789abcdef'.split('');

/**
 * Where the cache keeps a key. On a single Redis: the names above (one loaded marker, one lookup budget). In a
 * cluster: a key's entry, its negative-cache entry and the loaded marker of its bucket share the bucket's hash tag `{k<digit>}`, so that one MGET or one script reads them on one node, and a node
 * that comes back empty loses the markers of exactly the buckets whose entries it lost.
 */
export interface KeyCacheLayout {
  entry(keyHash: string): string;
  miss(keyHash: string): string;
  /** The loaded marker that speaks for this key's entry. */
  loaded(keyHash: string): string;
  /** Every loaded marker (one on a single Redis, 16 in a cluster). */
  loadedMarkers: string[];
  /** The system's token bucket of key lookups in PostgreSQL (one key, whatever the layout). */
  lookupBudget: string;
  /** Groups key hashes by what one script or MGET may name together (one group on a single Redis). */
  group(keyHashes: readonly string[]): string[][];
}

export function keyCacheLayout(prefix: string, cluster: boolean): KeyCacheLayout {
  if (!cluster) {
    return {
      entry: (h) => keyCacheKey(prefix, h),
      miss: (h) => keyMissKey(prefix, h),
      loaded: () => keyCacheLoadedKey(prefix),
      loadedMarkers: [keyCacheLoadedKey(prefix)],
      lookupBudget: `${prefix}key-lookups:bucket`,
      group: (hashes) => (hashes.length > 0 ? [[...hashes]] : []),
    };
  }
  const tag = (h: string) => `{k${h[0]?.toLowerCase() ?? '0'}}`;
  const loaded = (h: string) => `${prefix}keys:${tag(h)}:loaded:v${KEY_CACHE_FORMAT}`;
  return {
    entry: (h) => `${prefix}key:${tag(h)}:${h}`,
    miss: (h) => `${prefix}key-miss:${tag(h)}:${h}`,
    loaded,
    loadedMarkers: KEY_BUCKETS.map(loaded),
    lookupBudget: `${prefix}key-lookups:bucket`,
    group: (hashes) => [...groupBy(hashes, tag).values()],
  };
}

/** The key cache layout of a client's Redis. */
export const keyCacheLayoutFor = (redis: object, prefix: string) => keyCacheLayout(prefix, isClusterClient(redis));
