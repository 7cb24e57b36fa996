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
 * KEYS: the system's token bucket. ARGV: tokens a second (also the bucket's size). 1: a token was taken; 0: the
 * budget is spent. On Redis's clock, shared by every account-billing process.
 */
const TAKE_TOKEN = `
local rate = tonumber(ARGV[1])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local b = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(b[1]) or rate
local at = tonumber(b[2]) or now
tokens = math.min(rate, tokens + math.max(0, now - at) * rate / 1000)
local admitted = 0
if tokens >= 1 then
  tokens = tokens - 1
  admitted = 1
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(now))
redis.call('PEXPIRE', KEYS[1], 10000)
return admitted
`;

type AdmitRedis = Redis & { pra_take_lookup_token(bucket: string, rate: number): Promise<number> };

/** What the admission decided: the cache says it now, or the system's budget is spent, or look it up. */
export type Admission = CacheSays | 'bounded' | 'admitted';

/**
 * Checks the cache again, then takes a token of the system's budget (systemPerSecond): 'admitted' when the key is to
 * be looked up in PostgreSQL, 'bounded' when the budget is spent. Two steps, not one script: the budget is one key
 * for the whole system (in a cluster it cannot share a slot with every key's entry, and one budget per key bucket
 * could be spent by an attacker choosing keys of one bucket, sixteen times cheaper). A key restored between the two
 * steps costs a token, no more.
 */
export async function admitLookup(
  redis: Redis,
  prefix: string,
  keyHash: string,
  systemPerSecond: number,
): Promise<Admission> {
  const says = await whatTheCacheSays(redis, prefix, keyHash);
  if (says) return says;
  if (!('pra_take_lookup_token' in redis))
    redis.defineCommand('pra_take_lookup_token', { numberOfKeys: 1, lua: TAKE_TOKEN });
  const taken = await (redis as AdmitRedis).pra_take_lookup_token(
    keyCacheLayoutFor(redis, prefix).lookupBudget,
    systemPerSecond,
  );
  return taken === 1 ? 'admitted' : 'bounded';
}
