// The Redis side of the key lookup (domain/key-lookup.ts): what the cache already says about a key, and the
// admission of a look-up in PostgreSQL against the system's budget (a token bucket in Redis, on Redis's clock, shared
// by every account-billing process).
import type { Redis } from 'ioredis';
import { isCurrentEntry, type KeyCacheEntry } from '../client/key-cache.js';
import { keyCacheLayoutFor } from './key-cache-layout.js';

/** What the cache says about a key: its entry, that it does not exist (the negative cache), or nothing. */
export type CacheSays = { held: KeyCacheEntry } | { unknown: true } | null;

/**
 * The entry (in the current format) or the negative cache of a key: one MGET. An entry of the old format (without
 * its kind) is not an answer: the key is looked up again.
 */
export async function whatTheCacheSays(redis: Redis, prefix: string, keyHash: string): Promise<CacheSays> {
  const l = keyCacheLayoutFor(redis, prefix);
  const [text, missed] = await redis.mget(l.entry(keyHash), l.miss(keyHash));
  const entry = text ? (JSON.parse(text) as KeyCacheEntry) : null;
  if (entry && isCurrentEntry(entry)) return { held: entry };
  return missed ? { unknown: true } : null;
}

/**
 * KEYS: the entry, the negative-cache key, the system bucket. ARGV: tokens a second (also the bucket's size).
 * {1, entry}: the cache holds the key now, in the current format (restored by another lookup); {2}: known not to
 * exist; {3}: the system's budget is spent; {0}: a token was taken, look it up.
 */
const ADMIT_LOOKUP = `
local entry = redis.call('GET', KEYS[1])
if entry then
  local ok, e = pcall(cjson.decode, entry)
  if ok and type(e) == 'table' and (e.kind == 'standard' or e.kind == 'marketplace') then return {1, entry} end
end
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

/** What the admission decided: the cache says it now, or the system's budget is spent, or look it up. */
export type Admission = CacheSays | 'bounded' | 'admitted';

/**
 * Checks the cache again and takes a token of the system's budget (systemPerSecond) in one step: 'admitted' when
 * the key is to be looked up in PostgreSQL, 'bounded' when the budget is spent.
 */
export async function admitLookup(
  redis: Redis,
  prefix: string,
  keyHash: string,
  systemPerSecond: number,
): Promise<Admission> {
  if (!('pra_admit_key_lookup' in redis))
    redis.defineCommand('pra_admit_key_lookup', { numberOfKeys: 3, lua: ADMIT_LOOKUP });
  const l = keyCacheLayoutFor(redis, prefix);
  // In a cluster the budget is split among the key buckets (a random key falls in each alike): the system's total
  // stays systemPerSecond.
  const [verdict, text] = await (redis as AdmitRedis).pra_admit_key_lookup(
    l.entry(keyHash),
    l.miss(keyHash),
    l.lookupBudget(keyHash),
    systemPerSecond / l.budgets,
  );
  if (verdict === 1) return { held: JSON.parse(text!) as KeyCacheEntry };
  if (verdict === 2) return { unknown: true };
  return verdict === 3 ? 'bounded' : 'admitted';
}
