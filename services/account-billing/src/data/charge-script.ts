// The one atomic charge (SPEC 4.10), the pre-check that runs before any store read, and the reversal of a charge
// whose answer was lost (a 503 never costs).
//
// The scripts take KEYS: the account's grants hash, its expiry set, the `loaded` marker, the transaction's charge
// record, the outbox stream.
//
// The charge record of a transaction is `granted:remaining:fingerprint:request:spent|receipt`: what was charged, the
// balance after it, a hash of the request (the same id for another request is refused, or it would return other
// records free), the id of the call that was charged (its own X-Request-Id: that call's count is its charge event's,
// and only that call may reverse it), what it took from each grant (`grant~credits~expiry,...`, so a reversal can
// give them back; emptied once another call was answered from the record: from then on it is never reversed) and the
// caller's receipt (which records were paid for), so a repeat is answered with the records it paid for without
// searching again. A record written before the request and spent parts were kept reads as `granted:remaining:fp|...`.
// A reversed charge leaves `v:<request>` in its place (kept as long as the record would have been): no repeat is
// answered from it, and the call's count is still its charge event's.
/**
 * The unexpired balance of KEYS[1]/KEYS[2] at ARGV[now]: defines `balance`, and per live grant `ids`, `exps` (its
 * expiry, ms) and `remaining`.
 */
const LIVE_BALANCE = (now: string) => `
local live = redis.call('ZRANGEBYSCORE', KEYS[2], '(' .. ${now}, '+inf', 'WITHSCORES')
local ids, exps, remaining, balance = {}, {}, {}, 0
for i = 1, #live, 2 do
  local r = tonumber(redis.call('HGET', KEYS[1], live[i]) or '0')
  if r < 0 then r = 0 end
  ids[#ids + 1] = live[i]
  exps[#ids] = live[i + 1]
  remaining[#ids] = r
  balance = balance + r
end
`;

/** Reads a charge record: `granted` is nil for none, or one reversed (`v:<request>`). */
const READ_RECORD = `
local done = redis.call('GET', KEYS[4])
local granted, remaining, fp, by, spent, receipt
if done then
  granted, remaining, fp, by, spent, receipt = string.match(done, '^(%d+):(%d+):([^|:]*):?([^|:]*):?([^|]*)|?(.*)$')
end
`;

/**
 * Answers a transaction charged before: {1, 'granted:remaining', receipt}, or {2} for another request. The call that
 * was charged asking again (an attempt resent after a time-out, or the gateway's retry of the same request) is
 * answered by `own` (a script's own answer for it). Any other call answered from the record received its records:
 * the record's spent part is emptied, so the charge is never reversed after that.
 */
const REPEAT = (fingerprint: string, request: string, own: string) => `
${READ_RECORD}
if granted then
  if fp ~= ${fingerprint} then return {2, ''} end
  if by ~= '' and by == ${request} then ${own} end
  if spent ~= '' then
    redis.call('SET', KEYS[4], granted .. ':' .. remaining .. ':' .. fp .. ':' .. by .. ':|' .. receipt, 'KEEPTTL')
  end
  return {1, granted .. ':' .. remaining, receipt}
end
`;

/**
 * Before the store is read: a repeat is answered from its charge record; otherwise refuse while balances are not
 * loaded (-1), while the outbox is past its high-water mark (-2), or when the balance is 0 (3: a 402 that tells
 * nothing about the store). {0, balance} means go ahead. ARGV: now ms, fingerprint, outbox limit, request id.
 */
export const PRECHECK_SCRIPT = `
${REPEAT('ARGV[2]', 'ARGV[4]', "return {1, granted .. ':' .. remaining, receipt}")}
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
 * record, 8 fingerprint, 9 traceparent (may be empty), 10 event id, 11 receipt, 12 outbox limit, 13 the call's own
 * request id, 14 the calls it counts for (a batch: by its entries), 15 the call's deadline (ms since the epoch, 0 for
 * none). The call's own charge found again (an attempt resent after a time-out) is answered as charged: {0}.
 *
 * A new charge that runs after the call's deadline (by Redis's clock) is refused, {-3}: the call may have been
 * answered 503 "not charged" by then. That is a command that waited in a paused or stalled Redis and ran once it
 * resumed; refused here, it never needs the reversal the call sends (which a process that died in the meantime
 * never sends).
 *
 * The event's id (ARGV[10]) is new for every charge, apart from the client's transaction id: PostgreSQL writes each
 * event once by that id, so a charge is never taken for a repeat of another event (a call counted under the same
 * transaction id, or a charge of the same Idempotency-Key after its record expired) and skipped.
 */
export const CHARGE_SCRIPT = `
${REPEAT('ARGV[8]', 'ARGV[13]', "return {0, granted .. ':' .. remaining, ''}")}
local deadline = tonumber(ARGV[15] or '0') or 0
if deadline > 0 then
  local t = redis.call('TIME')
  if tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000) > deadline then return {-3, ''} end
end
if redis.call('EXISTS', KEYS[3]) == 0 then return {-1, ''} end
if redis.call('XLEN', KEYS[5]) >= tonumber(ARGV[12]) then return {-2, ''} end
local wanted, now = tonumber(ARGV[2]), tonumber(ARGV[3])
${LIVE_BALANCE('ARGV[3]')}
local granted = math.min(balance, wanted)
local left, consumed, spent = granted, {}, {}
for i, id in ipairs(ids) do
  if left == 0 then break end
  local take = math.min(remaining[i], left)
  if take > 0 then
    -- A grant used up leaves Redis (memory stays bounded by live grants; a reversal or reconcile adds one back).
    if redis.call('HINCRBY', KEYS[1], id, -take) <= 0 then
      redis.call('HDEL', KEYS[1], id)
      redis.call('ZREM', KEYS[2], id)
    end
    consumed[#consumed + 1] = id .. ':' .. take
    spent[#spent + 1] = id .. '~' .. take .. '~' .. exps[i]
    left = left - take
  end
end
local result = granted .. ':' .. (balance - granted)
if granted > 0 then
  redis.call('SET', KEYS[4], result .. ':' .. ARGV[8] .. ':' .. ARGV[13] .. ':' .. table.concat(spent, ',') .. '|' ..
    ARGV[11], 'EX', tonumber(ARGV[7]))
  redis.call('XADD', KEYS[5], '*', 'txid', ARGV[10], 'request', ARGV[1], 'account', ARGV[4], 'key', ARGV[5],
    'endpoint', ARGV[6], 'credits', granted, 'at', ARGV[3], 'consumed', table.concat(consumed, ','),
    'trace', ARGV[9] or '', 'calls', ARGV[14] or '1')
end
return {0, result, ''}
`;

/** The unexpired balance in one call (-1 while balances are not loaded). KEYS as above (the first three). */
export const BALANCE_SCRIPT = `
if redis.call('EXISTS', KEYS[3]) == 0 then return -1 end
${LIVE_BALANCE('ARGV[1]')}
return balance
`;

/**
 * Reverses the charge of a call that was answered 503 because the charge's answer was lost (a time-out): once Redis
 * answers again, the call sends this. Only a charge of that very call (ARGV[1], its request id) that no other call
 * was answered from is reversed, once: its credits go back to the grants they came from (a grant used up comes back
 * with its expiry), the record becomes `v:<request>` (no repeat is answered from it; a keyed retry runs afresh), and
 * a reversal event (its own event id, negative credits and grants) goes to the outbox, so the ledger writes a
 * `refund` entry per grant and /usage's used credits drop by as much. Returns the credits given back (0: nothing of
 * this call's to reverse: never charged, already reversed, or answered to another call).
 *
 * ARGV: 1 the call's request id, 2 now ms, 3 the reversal's event id, 4 account, 5 key, 6 endpoint, 7 transaction id
 * (the client's), 8 traceparent.
 */
export const REVERSE_SCRIPT = `
${READ_RECORD}
if not granted or by ~= ARGV[1] or spent == '' then return 0 end
local consumed = {}
for g, t, e in string.gmatch(spent, '([^~,]+)~([^~,]+)~([^~,]+)') do
  if redis.call('HINCRBY', KEYS[1], g, tonumber(t)) > 0 then redis.call('ZADD', KEYS[2], e, g) end
  consumed[#consumed + 1] = g .. ':-' .. t
end
redis.call('SET', KEYS[4], 'v:' .. ARGV[1], 'KEEPTTL')
redis.call('XADD', KEYS[5], '*', 'txid', ARGV[3], 'request', ARGV[7], 'account', ARGV[4], 'key', ARGV[5],
  'endpoint', ARGV[6], 'credits', -tonumber(granted), 'at', ARGV[2], 'consumed', table.concat(consumed, ','),
  'trace', ARGV[8] or '')
return tonumber(granted)
`;
