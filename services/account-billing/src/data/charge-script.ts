// The one atomic charge (SPEC 4.10), and the pre-check that runs before any store read.
//
// Both scripts take KEYS: the account's grants hash, its expiry set, the `loaded` marker, the transaction's charge
// record, the outbox stream.
//
// The charge record of a transaction is `granted:remaining:fingerprint|receipt`: what was charged, the balance
// after it, a hash of the request (the same id for another request is refused, or it would return other records
// free) and the caller's receipt (which records were paid for), so a repeat is answered with the records it paid
// for without searching again.

/** The unexpired balance of KEYS[1]/KEYS[2] at ARGV[now]: defines `balance`, `ids` and `remaining`. */
const LIVE_BALANCE = (now: string) => `
local ids = redis.call('ZRANGEBYSCORE', KEYS[2], '(' .. ${now}, '+inf')
local remaining, balance = {}, 0
for i, id in ipairs(ids) do
  local r = tonumber(redis.call('HGET', KEYS[1], id) or '0')
  if r < 0 then r = 0 end
  remaining[i] = r
  balance = balance + r
end
`;

/** Answers a transaction charged before: {1, 'granted:remaining', receipt}, or {2} for another request. */
const REPEAT = (fingerprint: string) => `
local done = redis.call('GET', KEYS[4])
if done then
  local granted, remaining, fp, receipt = string.match(done, '^(%d+):(%d+):([^|]*)|?(.*)$')
  if fp ~= ${fingerprint} then return {2, ''} end
  return {1, granted .. ':' .. remaining, receipt}
end
`;

/**
 * Before the store is read: a repeat is answered from its charge record; otherwise refuse while balances are not
 * loaded (-1), while the outbox is past its high-water mark (-2), or when the balance is 0 (3: a 402 that tells
 * nothing about the store). {0, balance} means go ahead. ARGV: now ms, fingerprint, outbox limit.
 */
export const PRECHECK_SCRIPT = `
${REPEAT('ARGV[2]')}
if redis.call('EXISTS', KEYS[3]) == 0 then return {-1, ''} end
if redis.call('XLEN', KEYS[5]) >= tonumber(ARGV[3]) then return {-2, ''} end
${LIVE_BALANCE('ARGV[1]')}
if balance <= 0 then return {3, ''} end
return {0, tostring(balance)}
`;

/**
 * The charge: refuse when balances are not loaded (fail closed) or the outbox is past its mark; answer a repeated
 * transaction id with its first result; grant min(balance, wanted) taking credits from the grants that expire first
 * and skipping expired ones, and append the usage event to the outbox stream.
 *
 * ARGV: 1 transaction id (the client's), 2 wanted, 3 now ms, 4 account, 5 key, 6 endpoint, 7 seconds to keep the
 * record, 8 fingerprint, 9 traceparent (may be empty), 10 event id, 11 receipt, 12 outbox limit.
 *
 * The event's id (ARGV[10]) is new for every charge, apart from the client's transaction id: PostgreSQL writes each
 * event once by that id, so a charge is never taken for a repeat of another event (a call counted under the same
 * transaction id, or a charge of the same Idempotency-Key after its record expired) and skipped.
 */
export const CHARGE_SCRIPT = `
${REPEAT('ARGV[8]')}
if redis.call('EXISTS', KEYS[3]) == 0 then return {-1, ''} end
if redis.call('XLEN', KEYS[5]) >= tonumber(ARGV[12]) then return {-2, ''} end
local wanted, now = tonumber(ARGV[2]), tonumber(ARGV[3])
${LIVE_BALANCE('ARGV[3]')}
local granted = math.min(balance, wanted)
local left, consumed = granted, {}
for i, id in ipairs(ids) do
  if left == 0 then break end
  local take = math.min(remaining[i], left)
  if take > 0 then
    -- A grant used up leaves Redis (memory stays bounded by live grants; reconcile adds one back if it must).
    if redis.call('HINCRBY', KEYS[1], id, -take) <= 0 then
      redis.call('HDEL', KEYS[1], id)
      redis.call('ZREM', KEYS[2], id)
    end
    consumed[#consumed + 1] = id .. ':' .. take
    left = left - take
  end
end
local result = granted .. ':' .. (balance - granted)
if granted > 0 then
  redis.call('SET', KEYS[4], result .. ':' .. ARGV[8] .. '|' .. ARGV[11], 'EX', tonumber(ARGV[7]))
  redis.call('XADD', KEYS[5], '*', 'txid', ARGV[10], 'request', ARGV[1], 'account', ARGV[4], 'key', ARGV[5],
    'endpoint', ARGV[6], 'credits', granted, 'at', ARGV[3], 'consumed', table.concat(consumed, ','),
    'trace', ARGV[9] or '')
end
return {0, result, ''}
`;

/** The unexpired balance in one call (-1 while balances are not loaded). KEYS as above (the first three). */
export const BALANCE_SCRIPT = `
if redis.call('EXISTS', KEYS[3]) == 0 then return -1 end
${LIVE_BALANCE('ARGV[1]')}
return balance
`;
