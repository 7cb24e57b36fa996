// Calls without a charge, counted in Redis (one hash per bucket: data/redis-layout.ts) and moved to PostgreSQL's
// billing.call_counts by the flusher (workers/call-flusher.ts, which says why a call is counted exactly once).
//
// A pending hash holds, per account, UTC day and endpoint (a "group"), two fields:
//   c|<account>|<day>|<endpoint>  the number of calls (HINCRBY)
//   t|<account>|<day>|<endpoint>  the time of the latest one (ms), for last_used
// <day> is days since 1970-01-01 UTC, taken from the call's own time, as a charge's day is taken from its time.
// A flushing hash is a pending hash renamed, plus _id (the flush's id), _by (the flusher holding it) and _at (when
// it was taken, Redis's clock, ms). Its size is the number of groups, never the number of calls.

/**
 * KEYS: the transaction's charge record, the request's call marker, the bucket's pending hash. ARGV: account,
 * endpoint, now ms, marker ttl s, the request id, the call's weight (calls it counts for: a batch counts by its
 * entries). A call whose own charge is in the record (the record names its request id, reversed or not: the charge
 * event counts it) or a request counted already (a replay of the same request) adds nothing; a repeat, a conflict or
 * a preview under a charged transaction is another call, and counts. Returns 1 when the call was counted.
 */
export const RECORD_CALL_SCRIPT = `
local rec = redis.call('GET', KEYS[1])
if rec then
  local by = string.match(rec, '^%d+:%d+:[^|:]*:([^|:]+)') or string.match(rec, '^v:(.+)$')
  if by == ARGV[5] then return 0 end
end
if not redis.call('SET', KEYS[2], '1', 'NX', 'EX', tonumber(ARGV[4])) then return 0 end
local group = ARGV[1] .. '|' .. math.floor(tonumber(ARGV[3]) / 86400000) .. '|' .. ARGV[2]
redis.call('HINCRBY', KEYS[3], 'c|' .. group, tonumber(ARGV[6]))
local last = tonumber(redis.call('HGET', KEYS[3], 't|' .. group) or '0')
if tonumber(ARGV[3]) > last then redis.call('HSET', KEYS[3], 't|' .. group, ARGV[3]) end
return 1
`;

/**
 * Takes a bucket's calls for a flush. KEYS: the pending hash, the flushing hash. ARGV: a new flush id, the flusher's
 * name, the lease (ms).
 * - A flushing hash exists (a flush not finished): {1, fields} when it is this flusher's or its holder has not
 *   touched it for the lease (it died, or hangs): the same flush, same id, taken over. {0, id} while another
 *   flusher holds it.
 * - Else the pending hash is renamed to the flushing hash under the new id: {1, fields}. New calls start a new
 *   pending hash meanwhile.
 * - Else {2}: nothing to flush.
 */
export const TAKE_CALLS_SCRIPT = `
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local held = redis.call('HMGET', KEYS[2], '_id', '_by', '_at')
if held[1] then
  if held[2] ~= ARGV[2] and now - tonumber(held[3] or '0') < tonumber(ARGV[3]) then return {0, held[1]} end
  redis.call('HSET', KEYS[2], '_by', ARGV[2], '_at', now)
  return {1, redis.call('HGETALL', KEYS[2])}
end
if redis.call('EXISTS', KEYS[1]) == 0 then return {2} end
redis.call('RENAME', KEYS[1], KEYS[2])
redis.call('HSET', KEYS[2], '_id', ARGV[1], '_by', ARGV[2], '_at', now)
return {1, redis.call('HGETALL', KEYS[2])}
`;

/** Ends a flush once PostgreSQL has it: KEYS the flushing hash, ARGV its id (a later flush's hash is kept). */
export const END_FLUSH_SCRIPT = `
if redis.call('HGET', KEYS[1], '_id') == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`;

/** One group of a flush: the calls of an account on a day to an endpoint. */
export interface CallGroup {
  account: number;
  /** Days since 1970-01-01 UTC. */
  day: number;
  endpoint: string;
  calls: number;
  /** The latest call's time (ms). */
  lastAt: number;
}

/** The groups of a pending or flushing hash (HGETALL's flat list), and the fields that are not a group's. */
export function callGroups(fields: string[]): { groups: CallGroup[]; unknown: string[] } {
  const groups = new Map<string, CallGroup>();
  const unknown: string[] = [];
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const field = fields[i]!;
    const value = Number(fields[i + 1]);
    if (field.startsWith('_')) continue; // _id, _by, _at
    const kind = field.slice(0, 2);
    const key = field.slice(2);
    const [account, day] = key.split('|', 2).map(Number) as [number, number];
    const endpoint = key.slice(key.indexOf('|', key.indexOf('|') + 1) + 1);
    if (
      (kind !== 'c|' && kind !== 't|') ||
      !Number.isSafeInteger(account) ||
      account <= 0 ||
      !Number.isSafeInteger(day) ||
      !Number.isSafeInteger(value) ||
      value < 0 ||
      endpoint === ''
    ) {
      unknown.push(field);
      continue;
    }
    const g = groups.get(key) ?? { account, day, endpoint, calls: 0, lastAt: day * 86_400_000 };
    if (kind === 'c|') g.calls = value;
    else g.lastAt = value;
    groups.set(key, g);
  }
  return { groups: [...groups.values()].filter((g) => g.calls > 0), unknown };
}
