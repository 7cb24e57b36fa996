// The billing client of the services: charge credits for the records a request returns (SPEC 4.10) and read a
// balance. Services and benchmarks depend on the CreditMeter interface; RedisCreditMeter is the real one (one Lua
// script in Redis per charge; account-billing's ledger writer makes it durable).
import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { ApiError } from '@pra/core/errors';
import { currentTraceparent } from '@pra/platform/telemetry';
import { CHARGE_SCRIPT } from '../data/charge-script.js';
import { redisLayout, type RedisLayout } from '../data/redis-layout.js';

export { redisLayout, type RedisLayout } from '../data/redis-layout.js';

export interface ChargeRequest {
  transactionId: string;
  accountId: number;
  keyId: number;
  endpoint: string;
  /** Records on this page: the most that can be charged. */
  wanted: number;
  /** What was asked (endpoint and query): a transaction id repeated for another request is refused. */
  fingerprint: string;
  /** How long the result is remembered for retries (default IDEMPOTENCY_TTL_SECONDS; keyed requests: 24 h). */
  keepSeconds?: number;
}

export interface ChargeResult {
  /** Credits charged = records to return (0 only when the balance is empty: the caller answers 402). */
  granted: number;
  /** Balance after this call. */
  remaining: number;
  /** True when this transaction id was charged before; nothing was charged again. */
  repeated: boolean;
}

/**
 * How long a transaction id's result is remembered: a replay or retry of the same signed request is accepted for
 * SIGNATURE_MAX_AGE_SECONDS (30 s), so two minutes covers it with clock skew to spare. Each record takes about
 * 170 bytes of Redis memory (measured by the tests: the key, the counts, a 22-character hash of the request): at
 * 1,000 charged requests a second, about 20 MB at any time, flat.
 */
export const IDEMPOTENCY_TTL_SECONDS = 120;

/** What a charge remembers of its request: a short hash, never the URL itself. */
export const requestFingerprint = (request: string) =>
  createHash('sha256').update(request).digest('base64url').slice(0, 22);

type ChargeRedis = Redis & {
  pra_charge(...args: (string | number)[]): Promise<[number, string]>;
  pra_balance(...args: (string | number)[]): Promise<number>;
};

/** The unexpired balance in one call (-1 while balances are not loaded). */
const BALANCE_SCRIPT = `
if redis.call('EXISTS', KEYS[3]) == 0 then return -1 end
local total = 0
for _, id in ipairs(redis.call('ZRANGEBYSCORE', KEYS[2], '(' .. ARGV[1], '+inf')) do
  local r = tonumber(redis.call('HGET', KEYS[1], id) or '0')
  if r > 0 then total = total + r end
end
return total
`;

/** What a metered service needs of billing. */
export interface CreditMeter {
  /** Charges up to `wanted` credits once per transaction id; a repeat answers as the first did. */
  charge(r: ChargeRequest): Promise<ChargeResult>;
  /** The live balance (unexpired credits); null while balances are not loaded. */
  balance(accountId: number): Promise<number | null>;
}

export class RedisCreditMeter implements CreditMeter {
  readonly layout: RedisLayout;
  private readonly redis: ChargeRedis;

  constructor(
    redis: Redis,
    prefix: string,
    private readonly now: () => number = Date.now,
    /** How long an unknown outcome (a timeout) is worked out by asking again before the request gives up. */
    private readonly resolveWithinMs = 5_000,
  ) {
    this.layout = redisLayout(prefix);
    if (!('pra_charge' in redis)) redis.defineCommand('pra_charge', { numberOfKeys: 5, lua: CHARGE_SCRIPT });
    if (!('pra_balance' in redis)) redis.defineCommand('pra_balance', { numberOfKeys: 3, lua: BALANCE_SCRIPT });
    this.redis = redis as ChargeRedis;
  }

  /**
   * Charges once per transaction id. When Redis does not answer in time the charge may have run, or may still run
   * (a command queued in a paused Redis): the outcome is worked out before answering by sending the same charge
   * again, which the script answers with the first result if it ran, and charges once if it did not. Only a charge
   * that was never sent (no connection) is reported as not charged.
   */
  async charge(r: ChargeRequest): Promise<ChargeResult> {
    const l = this.layout;
    const keys = [l.grants(r.accountId), l.expiry(r.accountId), l.loaded, l.charged(r.transactionId), l.outbox];
    const fingerprint = requestFingerprint(r.fingerprint);
    const traceparent = currentTraceparent();
    const keep = r.keepSeconds ?? IDEMPOTENCY_TTL_SECONDS;
    let reply: [number, string] | undefined;
    let mayHaveRun = false;
    const giveUpAt = Date.now() + this.resolveWithinMs;
    for (let attempt = 0; reply === undefined; attempt++) {
      try {
        reply = await this.redis.pra_charge(
          ...keys,
          r.transactionId,
          r.wanted,
          this.now(),
          r.accountId,
          r.keyId,
          r.endpoint,
          keep,
          fingerprint,
          traceparent,
        );
      } catch (err) {
        // ioredis refuses at once, without sending, when it has no connection (no offline queue); anything else
        // (a timeout above all) leaves the outcome unknown.
        if (!/Stream isn't writeable|enableOfflineQueue/.test(String(err))) mayHaveRun = true;
        if (!mayHaveRun)
          throw new ApiError('UNAVAILABLE', 'Billing is unavailable; the request was not charged. Retry shortly.');
        if (Date.now() + 250 > giveUpAt) {
          throw new ApiError(
            'UNAVAILABLE',
            'Billing did not answer in time: this request may have been charged. Retrying it with the same Idempotency-Key is never charged twice.',
            0,
            { 'retry-after': '2' },
          );
        }
        await new Promise((resolve) => setTimeout(resolve, Math.min(1_000, 100 * 2 ** attempt)));
      }
    }
    const [status, text] = reply;
    if (status === 2) {
      throw new ApiError(
        'BAD_REQUEST',
        'This Idempotency-Key (or request id) was already used for a different request: use a new key for a new request',
      );
    }
    if (status === -1) {
      throw new ApiError('UNAVAILABLE', 'Balances are being reloaded; the request was not charged. Retry shortly.');
    }
    const [granted, remaining] = text.split(':').map(Number) as [number, number];
    return { granted, remaining, repeated: status === 1 };
  }

  /** The live balance (unexpired credits), as the next charge would see it; null while balances are not loaded. */
  async balance(accountId: number): Promise<number | null> {
    const l = this.layout;
    const total = await this.redis.pra_balance(l.grants(accountId), l.expiry(accountId), l.loaded, this.now());
    return total < 0 ? null : total;
  }
}
