// The one atomic charge (SPEC 4.10). In a single Redis call: refuse when balances are not loaded (fail closed),
// answer a repeated transaction id with its first result (charge once; the same id for another request is refused,
// or it would return other records free), grant min(balance, wanted) taking credits
// from the grants that expire first and skipping expired ones, and append the usage event to the outbox stream
// with the request's W3C traceparent (ARGV[9], may be empty), so the usage job joins the request's trace.
export const CHARGE_SCRIPT = `
local grantsKey, expiryKey, loadedKey, chargedKey, outboxKey = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local txid, wanted, now = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3])
local done = redis.call('GET', chargedKey)
if done then
  local granted, remaining, fingerprint = string.match(done, '^(%d+):(%d+):(.*)$')
  if fingerprint ~= ARGV[8] then return {2, ''} end
  return {1, granted .. ':' .. remaining}
end
if redis.call('EXISTS', loadedKey) == 0 then return {-1, ''} end
local ids = redis.call('ZRANGEBYSCORE', expiryKey, '(' .. now, '+inf')
local remaining, balance = {}, 0
for i, id in ipairs(ids) do
  local r = tonumber(redis.call('HGET', grantsKey, id) or '0')
  if r < 0 then r = 0 end
  remaining[i] = r
  balance = balance + r
end
local granted = math.min(balance, wanted)
local left, consumed = granted, {}
for i, id in ipairs(ids) do
  if left == 0 then break end
  local take = math.min(remaining[i], left)
  if take > 0 then
    -- A grant used up leaves Redis (memory stays bounded by live grants; reconcile adds one back if it must).
    if redis.call('HINCRBY', grantsKey, id, -take) <= 0 then
      redis.call('HDEL', grantsKey, id)
      redis.call('ZREM', expiryKey, id)
    end
    consumed[#consumed + 1] = id .. ':' .. take
    left = left - take
  end
end
local result = granted .. ':' .. (balance - granted)
if granted > 0 then
  redis.call('SET', chargedKey, result .. ':' .. ARGV[8], 'EX', tonumber(ARGV[7]))
  redis.call('XADD', outboxKey, '*', 'txid', txid, 'account', ARGV[4], 'key', ARGV[5], 'endpoint', ARGV[6],
    'credits', granted, 'at', ARGV[3], 'consumed', table.concat(consumed, ','), 'trace', ARGV[9] or '')
end
return {0, result}
`;
