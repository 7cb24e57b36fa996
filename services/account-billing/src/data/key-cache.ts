// The writer of the API key cache in Redis (the gateway and the services read it through KeyCache). Each entry
// carries its row's version and a write never replaces a newer entry; a change to keys is mirrored before it
// commits, so when Redis cannot take it nothing changes; the `keys:loaded` marker says the cache holds every key.
import type { Redis } from 'ioredis';
import { ApiError } from '@pra/core/errors';
import { keyCacheKey, keyCacheLoadedKey, type KeyCacheEntry } from '../client/key-cache.js';
import { withTransaction, type Pool, type PoolClient } from '@pra/platform';

interface KeyRow {
  id: number;
  account_id: number;
  key_hash: string;
  status: string;
  tier: string;
  account_status: string;
  rate_limit_override: number | null;
  daily_quota_override: number | null;
  cache_version: number;
}

const KEY_COLUMNS = `k.id, k.account_id, k.key_hash, k.status, k.cache_version, a.tier, a.status AS account_status,
    a.rate_limit_override, a.daily_quota_override`;

function keyCacheEntry(r: KeyRow): KeyCacheEntry {
  return {
    keyId: r.id,
    accountId: r.account_id,
    tier: r.tier as KeyCacheEntry['tier'],
    status: r.status === 'active' && r.account_status === 'active' ? 'active' : 'disabled',
    ...(r.rate_limit_override !== null ? { ratePerMinute: r.rate_limit_override } : {}),
    ...(r.daily_quota_override !== null ? { dailyQuota: r.daily_quota_override } : {}),
    v: r.cache_version,
  };
}

/** KEYS: entry keys. ARGV: version, entry text, for each key. Writes an entry only over an older one (or none). */
const PUT_IF_NEWER = `
local written = 0
for i, key in ipairs(KEYS) do
  local version = tonumber(ARGV[2 * i - 1])
  local current = redis.call('GET', key)
  local currentVersion = -1
  if current then
    local ok, entry = pcall(cjson.decode, current)
    if ok and type(entry) == 'table' and tonumber(entry.v) then currentVersion = tonumber(entry.v) end
  end
  if version > currentVersion then
    redis.call('SET', key, ARGV[2 * i])
    written = written + 1
  end
end
return written
`;

type PutRedis = Redis & { pra_put_keys(numKeys: number, ...args: (string | number)[]): Promise<number> };

async function putEntries(redis: Redis, prefix: string, rows: readonly KeyRow[]): Promise<number> {
  if (!('pra_put_keys' in redis)) redis.defineCommand('pra_put_keys', { lua: PUT_IF_NEWER });
  let written = 0;
  for (let i = 0; i < rows.length; i += 500) {
    const chunk = rows.slice(i, i + 500);
    const keys = chunk.map((r) => keyCacheKey(prefix, r.key_hash));
    const args = chunk.flatMap((r) => [r.cache_version, JSON.stringify(keyCacheEntry(r))]);
    written += await (redis as PutRedis).pra_put_keys(keys.length, ...keys, ...args);
  }
  return written;
}

/** Rewrites the whole key cache from PostgreSQL (a suspended account's keys count as disabled), then marks it loaded. */
export async function rebuildKeyCache(db: Pick<Pool, 'query'>, redis: Redis, prefix: string): Promise<number> {
  const { rows } = await db.query<KeyRow>(
    `SELECT ${KEY_COLUMNS} FROM billing.api_keys k JOIN billing.accounts a ON a.id = k.account_id ORDER BY k.id`,
  );
  await putEntries(redis, prefix, rows);
  await redis.set(keyCacheLoadedKey(prefix), new Date().toISOString());
  return rows.length;
}

/**
 * Applies a change to an account or its keys in one transaction, gives every key of the account a new version and
 * writes their entries to the cache before committing. If Redis cannot take the write, the change is rolled back
 * and the caller is told (503): a disabled key is never left active in the cache.
 */
export async function changeAccountKeys<T>(
  pool: Pool,
  redis: Redis,
  prefix: string,
  accountId: number,
  change: (c: PoolClient) => Promise<T>,
): Promise<T> {
  return withTransaction(pool, async (c) => {
    const result = await change(c);
    const { rows } = await c.query<KeyRow>(
      `WITH k AS (UPDATE billing.api_keys SET cache_version = nextval('billing.key_cache_version') WHERE account_id = $1 RETURNING *)
       SELECT ${KEY_COLUMNS} FROM k JOIN billing.accounts a ON a.id = k.account_id`,
      [accountId],
    );
    try {
      await putEntries(redis, prefix, rows);
    } catch {
      throw new ApiError('UNAVAILABLE', 'The key cache is unreachable, so nothing was changed; retry shortly', 0, {
        'retry-after': '2',
      });
    }
    return result;
  });
}
