// /usage counts every authenticated call that reached a service (SPEC 2.4: calls.today, calls.total, last_used,
// daily_usage[].calls), as the daily quota counts every admitted call: a charged call through its charge event, any
// other (type-ahead, /usage itself, a 400, 404 or 402) through an event of 0 credits on the same outbox, written
// once the response is sent. The ledger writer counts both alike; a 0-credit event moves no credit.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Redis } from 'ioredis';
import type { Identity } from '@pra/core/auth';
import { BASE_PATH } from '@pra/core/endpoints';
import { currentTraceparent, logger } from '@pra/platform/telemetry';
import { redisLayout, type RedisLayout } from '../data/redis-layout.js';
import { DEFAULT_BILLING_OUTBOX_LIMIT } from '@pra/core/config';
import { IDEMPOTENCY_TTL_SECONDS } from './credit-meter.js';

export interface CallRecord {
  /** The call's own request id (the gateway's): a replay of this very request is counted once. */
  requestId: string;
  /** The transaction whose charge, if any, counts this call (a keyed request's comes from its Idempotency-Key). */
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
 * KEYS: the transaction's charge record, the request's call marker, the outbox. ARGV: event id, request id,
 * account, key, endpoint, now ms, marker ttl s, traceparent, outbox limit. A charged transaction, a request counted
 * already, or an outbox past its high-water mark (an outage of the ledger: charges are refused then too) adds
 * nothing. The event has an id of its own, never the transaction's: a 0-credit event can never take the place of
 * a charge of the same transaction in the ledger (PostgreSQL writes each event id once).
 */
const RECORD_CALL_SCRIPT = `
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
if redis.call('XLEN', KEYS[3]) >= tonumber(ARGV[9]) then return -1 end
if not redis.call('SET', KEYS[2], '1', 'NX', 'EX', tonumber(ARGV[7])) then return 0 end
redis.call('XADD', KEYS[3], '*', 'txid', ARGV[1], 'request', ARGV[2], 'account', ARGV[3], 'key', ARGV[4],
  'endpoint', ARGV[5], 'credits', 0, 'at', ARGV[6], 'consumed', '', 'trace', ARGV[8])
return 1
`;

type CallRedis = Redis & { pra_record_call(...args: (string | number)[]): Promise<number> };

export class RedisCallCounter implements CallCounter {
  private readonly layout: RedisLayout;
  private readonly redis: CallRedis;

  private readonly now: () => number;
  private readonly outboxLimit: number;

  constructor(redis: Redis, prefix: string, o: { now?: () => number; outboxLimit?: number } = {}) {
    this.layout = redisLayout(prefix);
    this.now = o.now ?? Date.now;
    this.outboxLimit = o.outboxLimit ?? DEFAULT_BILLING_OUTBOX_LIMIT;
    if (!('pra_record_call' in redis))
      redis.defineCommand('pra_record_call', { numberOfKeys: 3, lua: RECORD_CALL_SCRIPT });
    this.redis = redis as CallRedis;
  }

  async recordCall(c: CallRecord): Promise<void> {
    const l = this.layout;
    const counted = await this.redis.pra_record_call(
      l.charged(c.transactionId),
      l.called(c.requestId),
      l.outbox,
      randomUUID(),
      c.requestId,
      c.accountId,
      c.keyId,
      c.endpoint,
      this.now(),
      IDEMPOTENCY_TTL_SECONDS,
      currentTraceparent() ?? '',
      this.outboxLimit,
    );
    if (counted < 0) throw new Error('the usage outbox is past its high-water mark (the ledger is catching up)');
  }
}

type CountedRequest = IncomingMessage & {
  identity?: Identity;
  requestId: string;
  /** A keyed request's transaction id (from its Idempotency-Key); unset: the request id. */
  transactionId?: string;
  route?: { path?: unknown };
  /** Set by a route that charged this request: its charge event counts the call. */
  charged?: boolean;
};

/**
 * A warning for calls that could not be counted, at most once per `everyMs` with how many it stands for: while the
 * outbox is past its mark (a long outage of the ledger) every call fails alike, and a line per call would flood.
 */
function warnEvery(everyMs: number): (err: Error) => void {
  let last = 0;
  let dropped = 0;
  return (err) => {
    dropped++;
    const now = Date.now();
    if (now - last < everyMs) return;
    logger.warn({ err: err.message, calls: dropped }, 'calls were not counted in /usage');
    last = now;
    dropped = 0;
  };
}

/**
 * Express middleware: once a response is sent, counts the call if it was authenticated (resolveIdentity answered)
 * and not charged. Counting never delays or fails a response; a count that could not be written is logged.
 */
export function countCalls(counter: CallCounter, onError: (err: Error) => void = warnEvery(10_000)) {
  return (req: IncomingMessage, res: ServerResponse, next: () => void): void => {
    res.once('finish', () => {
      const r = req as CountedRequest;
      if (!r.identity || r.charged) return;
      const path = typeof r.route?.path === 'string' ? r.route.path : (r.url ?? '').split('?')[0]!;
      counter
        .recordCall({
          requestId: r.requestId,
          transactionId: r.transactionId ?? r.requestId,
          accountId: r.identity.accountId,
          keyId: r.identity.keyId,
          endpoint: path.startsWith(BASE_PATH) ? path.slice(BASE_PATH.length) : path,
        })
        .catch(onError);
    });
    next();
  };
}
