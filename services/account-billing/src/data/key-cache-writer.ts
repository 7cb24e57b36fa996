// The writer of the API key cache in Redis (the gateway and the services read it through KeyCache). Each entry
// carries its row's version and a write never replaces a newer entry. A change that takes access away is mirrored
// before it commits (when Redis cannot take it nothing changes); a change that gives access is mirrored only after
// it committed (a rolled-back enable never reaches the cache). Where a mirror may be wrong, the entry is deleted
// instead: a key missing from the cache is looked up in PostgreSQL (restoreKey). The loaded marker
// (keyCacheLoadedKey, named by the cache's format) says the cache holds every key in the current format.
import type { Redis } from 'ioredis';
import { ApiError } from '@pra/core/errors';
import { KEY_MISS_TTL_MS, type KeyCacheEntry } from '../client/key-cache.js';
import { keyCacheLayoutFor } from './key-cache-layout.js';
import { withTransaction, type Pool, type PoolClient } from '@pra/platform';

interface KeyRow {
  id: number;
  account_id: number;
  key_hash: string;
  kind: string;
  status: string;
  tier: string;
  account_status: string;
  rate_limit_override: number | null;
  daily_quota_override: number | null;
  cache_version: number;
  /** A subscriber's: the end of its latest period granted (null for a key). */
  period_ends: Date | null;
}

const KEY_COLUMNS = `k.id, k.account_id, k.key_hash, k.kind, k.status, k.cache_version, a.tier, a.status AS account_status,
    a.rate_limit_override, a.daily_quota_override, s.period_ends`;

/** The tables a key's entry is read from (`k` the key rows): its account, and a subscriber's subscription. */
const KEY_JOINS = `JOIN billing.accounts a ON a.id = k.account_id
  LEFT JOIN billing.marketplace_subscriptions s ON s.key_id = k.id`;

const KEY_BY_HASH = `SELECT ${KEY_COLUMNS} FROM billing.api_keys k ${KEY_JOINS} WHERE k.key_hash = $1`;

function keyCacheEntry(r: KeyRow): KeyCacheEntry {
  return {
    keyId: r.id,
    accountId: r.account_id,
    tier: r.tier as KeyCacheEntry['tier'],
    status: r.status === 'active' && r.account_status === 'active' ? 'active' : 'disabled',
    kind: r.kind === 'marketplace' || r.kind === 'subscriber' ? r.kind : 'standard',
    ...(r.period_ends !== null ? { periodEnds: r.period_ends.getTime() } : {}),
    ...(r.rate_limit_override !== null ? { ratePerMinute: r.rate_limit_override } : {}),
    ...(r.daily_quota_override !== null ? { dailyQuota: r.daily_quota_override } : {}),
    v: r.cache_version,
  };
}

/**
 * KEYS: entry keys. ARGV: version, entry text, for each key. Writes an entry only over an older one (or none); an
 * entry of the old format (without its kind, KEY_CACHE_FORMAT) counts as older than any.
 */
const PUT_IF_NEWER = `
local written = 0
for i, key in ipairs(KEYS) do
  local version = tonumber(ARGV[2 * i - 1])
  local current = redis.call('GET', key)
  local currentVersion = -1
  if current then
    local ok, entry = pcall(cjson.decode, current)
    if ok and type(entry) == 'table' and tonumber(entry.v) and entry.kind then currentVersion = tonumber(entry.v) end
  end
  if version > currentVersion then
    redis.call('SET', key, ARGV[2 * i])
    written = written + 1
  end
end
return written
`;

async function putEntries(redis: Redis, prefix: string, rows: readonly KeyRow[]): Promise<number> {
  const l = keyCacheLayoutFor(redis, prefix);
  const byHash = new Map(rows.map((r) => [r.key_hash, r]));
  let written = 0;
  // One script names keys of one group (one slot in a cluster), 500 at most.
  for (const group of l.group(rows.map((r) => r.key_hash))) {
    for (let i = 0; i < group.length; i += 500) {
      const chunk = group.slice(i, i + 500).map((h) => byHash.get(h)!);
      const keys = chunk.map((r) => l.entry(r.key_hash));
      const args = chunk.flatMap((r) => [r.cache_version, JSON.stringify(keyCacheEntry(r))]);
      // EVAL, not a defined command: its key count varies, and a defined command without numberOfKeys is batched
      // by auto-pipelining in a cluster as if its first argument (the count) were its key, failing its batch.
      written += (await redis.eval(PUT_IF_NEWER, keys.length, ...keys, ...args)) as number;
    }
  }
  return written;
}

/**
 * KEYS: the entry key. ARGV: version, entry text. Writes the entry over an older one (or none, or one of the old
 * format); returns the entry the cache holds afterwards (a newer one, written meanwhile by a change, wins).
 */
const PUT_ONE_IF_NEWER = `
local current = redis.call('GET', KEYS[1])
if current then
  local ok, entry = pcall(cjson.decode, current)
  if ok and type(entry) == 'table' and entry.kind and tonumber(entry.v) and tonumber(entry.v) >= tonumber(ARGV[1]) then
    return current
  end
end
redis.call('SET', KEYS[1], ARGV[2])
return ARGV[2]
`;

type PutOneRedis = Redis & { pra_put_key(key: string, version: number, text: string): Promise<string> };

/**
 * What the cache entry of a key says, read from PostgreSQL by the key's hash (not from the cache): its account,
 * tier, kind, and whether it is active (a key of a suspended account is not). Null when no such key exists.
 */
export async function keyEntryFromDatabase(db: Pick<Pool, 'query'>, keyHash: string): Promise<KeyCacheEntry | null> {
  const { rows } = await db.query<KeyRow>(KEY_BY_HASH, [keyHash]);
  return rows[0] ? keyCacheEntry(rows[0]) : null;
}

/**
 * Looks one key up in PostgreSQL by its hash and restores its entry in the cache (never over a newer one), or, for
 * a key that does not exist, writes the negative cache entry (KEY_MISS_TTL_MS). The row is read FOR SHARE and held
 * until the entry is written, so a change to the key (which updates the row) cannot commit and mirror itself in
 * between: a restore never puts back what a change just replaced, even if the entry was deleted meanwhile.
 */
export async function restoreKey(
  pool: Pool,
  redis: Redis,
  prefix: string,
  keyHash: string,
): Promise<KeyCacheEntry | null> {
  return withTransaction(pool, (c) => restoreKeyIn(c, redis, prefix, keyHash));
}

/** restoreKey inside a transaction the caller holds open on `c` (and commits). */
export async function restoreKeyIn(
  c: Pick<PoolClient, 'query'>,
  redis: Redis,
  prefix: string,
  keyHash: string,
): Promise<KeyCacheEntry | null> {
  if (!('pra_put_key' in redis)) redis.defineCommand('pra_put_key', { numberOfKeys: 1, lua: PUT_ONE_IF_NEWER });
  const { rows } = await c.query<KeyRow>(`${KEY_BY_HASH} FOR SHARE OF k`, [keyHash]);
  const row = rows[0];
  const l = keyCacheLayoutFor(redis, prefix);
  if (!row) {
    await redis.set(l.miss(keyHash), '1', 'PX', KEY_MISS_TTL_MS);
    return null;
  }
  const text = await (redis as PutOneRedis).pra_put_key(
    l.entry(keyHash),
    row.cache_version,
    JSON.stringify(keyCacheEntry(row)),
  );
  return JSON.parse(text) as KeyCacheEntry;
}

/** Rewrites the whole key cache from PostgreSQL (a suspended account's keys count as disabled), then marks it loaded. */
export async function rebuildKeyCache(db: Pick<Pool, 'query'>, redis: Redis, prefix: string): Promise<number> {
  const { rows } = await db.query<KeyRow>(`SELECT ${KEY_COLUMNS} FROM billing.api_keys k ${KEY_JOINS} ORDER BY k.id`);
  await putEntries(redis, prefix, rows);
  const loadedAt = new Date().toISOString();
  await Promise.all(keyCacheLayoutFor(redis, prefix).loadedMarkers.map((m) => redis.set(m, loadedAt)));
  return rows.length;
}

/**
 * How a change to an account's keys reaches the cache. 'revoke' (a disable, a limit change): written before COMMIT,
 * so it is in force everywhere when the change is; if Redis cannot take it, the change is rolled back (503).
 * 'grant' (an enable, a new key): written only after COMMIT, so a change that did not commit never gives access.
 */
export type KeyChangeEffect = 'revoke' | 'grant';

const cacheUnreachable = (message: string) => new ApiError('unavailable', message, 0, { 'retry-after': '2' });

/** Deletes entries (they are then looked up in PostgreSQL on their next use); false when Redis did not take it. */
async function forgetEntries(redis: Redis, prefix: string, rows: readonly KeyRow[]): Promise<boolean> {
  if (rows.length === 0) return true;
  const l = keyCacheLayoutFor(redis, prefix);
  return Promise.all(l.group(rows.map((r) => r.key_hash)).map((g) => redis.del(...g.map((h) => l.entry(h))))).then(
    () => true,
    () => false,
  );
}

/** New versions for an account's keys, so that whatever the cache holds of them is replaced at the next write. */
async function outdateEntries(pool: Pool, accountId: number): Promise<void> {
  await pool
    .query(`UPDATE billing.api_keys SET cache_version = nextval('billing.key_cache_version') WHERE account_id = $1`, [
      accountId,
    ])
    .catch(() => {}); // PostgreSQL away too: the entry stays until the key is changed again (docs/known-gaps.md)
}

/**
 * Applies a change to an account or its keys in one transaction and gives every key of the account a new version;
 * their entries reach the cache as `effect` says. Whenever the cache may be left saying something the database
 * does not (a revoke written, then the commit failed; a grant committed, then its write failed), the entries are
 * deleted, to be looked up again in PostgreSQL. A grant whose entries could be neither written nor deleted is a 503
 * (the change is saved; the cache still says what it said before, which never gives more access; a retry or the
 * next rebuild brings it in) unless `grantWriteOptional` (a new key: it has no entry to be stale).
 */
export async function changeAccountKeys<T>(
  pool: Pool,
  redis: Redis,
  prefix: string,
  accountId: number,
  change: (c: PoolClient) => Promise<T>,
  effect: KeyChangeEffect = 'revoke',
  grantWriteOptional = false,
): Promise<T> {
  let rows: KeyRow[] = [];
  let written = false;
  let result: T;
  try {
    result = await withTransaction(pool, async (c) => {
      const out = await change(c);
      rows = (
        await c.query<KeyRow>(
          `WITH k AS (UPDATE billing.api_keys SET cache_version = nextval('billing.key_cache_version') WHERE account_id = $1 RETURNING *)
           SELECT ${KEY_COLUMNS} FROM k ${KEY_JOINS}`,
          [accountId],
        )
      ).rows;
      if (effect === 'revoke') {
        // Counted as written once sent: a write whose reply is lost (a timeout) may still have landed.
        written = true;
        try {
          await putEntries(redis, prefix, rows);
        } catch {
          throw cacheUnreachable('The key cache is unreachable, so nothing was changed; retry shortly');
        }
      }
      return out;
    });
  } catch (err) {
    // Written (or perhaps written), then not committed: the cache must not keep a change the database does not
    // have. If even the delete fails, the keys get versions newer than the one written, so that the next restore
    // or rebuild replaces it (a revoke's own version was taken from the sequence, which a rollback does not undo).
    if (written && !(await forgetEntries(redis, prefix, rows))) await outdateEntries(pool, accountId);
    throw err;
  }
  if (effect === 'grant') {
    const mirrored = await putEntries(redis, prefix, rows).then(
      () => true,
      () => forgetEntries(redis, prefix, rows),
    );
    if (!mirrored && !grantWriteOptional) {
      throw cacheUnreachable(
        'The change is saved, but the key cache is unreachable, so it is not in effect yet; retry shortly (or it takes effect at the next key-cache rebuild)',
      );
    }
  }
  return result;
}
