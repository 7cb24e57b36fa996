// /usage counts every authenticated call that reached a service (SPEC 2.4: calls.today, calls.total, last_used,
// daily_usage[].calls), as the daily quota counts every admitted call: a charged call through its charge event, any
// other (type-ahead, /usage itself, a 400, 404 or 402) through an event of 0 credits on the same outbox, written
// once the response is sent. The ledger writer counts both alike; a 0-credit event moves no credit.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Redis } from 'ioredis';
import type { Identity } from '@pra/core/auth';
import { BASE_PATH } from '@pra/core/endpoints';
import { currentTraceparent, logger } from '@pra/platform/telemetry';
import { redisLayout, type RedisLayout } from '../data/redis-layout.js';
import { IDEMPOTENCY_TTL_SECONDS } from './credit-meter.js';

export interface CallRecord {
  transactionId: string;
  accountId: number;
  keyId: number;
  endpoint: string;
}

/** Where calls are counted (account-billing's outbox). */
export interface CallCounter {
  /** Counts a call once per transaction id, unless that transaction was charged (its charge counts it). */
  recordCall(c: CallRecord): Promise<void>;
}

/**
 * KEYS: the transaction's charge record, its call marker, the outbox. ARGV: txid, account, key, endpoint, now ms,
 * marker ttl s, traceparent. A charged transaction, or one counted already, adds nothing.
 */
const RECORD_CALL_SCRIPT = `
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
if not redis.call('SET', KEYS[2], '1', 'NX', 'EX', tonumber(ARGV[6])) then return 0 end
redis.call('XADD', KEYS[3], '*', 'txid', ARGV[1], 'account', ARGV[2], 'key', ARGV[3], 'endpoint', ARGV[4],
  'credits', 0, 'at', ARGV[5], 'consumed', '', 'trace', ARGV[7])
return 1
`;

type CallRedis = Redis & { pra_record_call(...args: (string | number)[]): Promise<number> };

export class RedisCallCounter implements CallCounter {
  private readonly layout: RedisLayout;
  private readonly redis: CallRedis;

  constructor(
    redis: Redis,
    prefix: string,
    private readonly now: () => number = Date.now,
  ) {
    this.layout = redisLayout(prefix);
    if (!('pra_record_call' in redis))
      redis.defineCommand('pra_record_call', { numberOfKeys: 3, lua: RECORD_CALL_SCRIPT });
    this.redis = redis as CallRedis;
  }

  async recordCall(c: CallRecord): Promise<void> {
    const l = this.layout;
    await this.redis.pra_record_call(
      l.charged(c.transactionId),
      l.called(c.transactionId),
      l.outbox,
      c.transactionId,
      c.accountId,
      c.keyId,
      c.endpoint,
      this.now(),
      IDEMPOTENCY_TTL_SECONDS,
      currentTraceparent() ?? '',
    );
  }
}

type CountedRequest = IncomingMessage & {
  identity?: Identity;
  requestId: string;
  route?: { path?: unknown };
  /** Set by a route that charged this request: its charge event counts the call. */
  charged?: boolean;
};

/**
 * Express middleware: once a response is sent, counts the call if it was authenticated (resolveIdentity answered)
 * and not charged. Counting never delays or fails a response; a count that could not be written is logged.
 */
export function countCalls(
  counter: CallCounter,
  onError: (err: Error) => void = (err) => logger.warn({ err: err.message }, 'a call was not counted in /usage'),
) {
  return (req: IncomingMessage, res: ServerResponse, next: () => void): void => {
    res.once('finish', () => {
      const r = req as CountedRequest;
      if (!r.identity || r.charged) return;
      const path = typeof r.route?.path === 'string' ? r.route.path : (r.url ?? '').split('?')[0]!;
      counter
        .recordCall({
          transactionId: r.requestId,
          accountId: r.identity.accountId,
          keyId: r.identity.keyId,
          endpoint: path.startsWith(BASE_PATH) ? path.slice(BASE_PATH.length) : path,
        })
        .catch(onError);
    });
    next();
  };
}
