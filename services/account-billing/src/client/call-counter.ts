// /usage counts every call the gateway admitted that reached a service (SPEC 2.4: calls.today, calls.total,
// last_used, daily_usage[].calls), as the daily quota counts every admitted call: a charged call through its charge
// event, any other (type-ahead, a 400, 404 or 402, a repeat or conflict under an Idempotency-Key, a preview) here, once the response is sent, as one HINCRBY on a
// per-account, per-day, per-endpoint counter in Redis (data/call-count-scripts.ts). The ledger writers' flusher
// moves the counters to PostgreSQL (workers/call-flusher.ts). Type-ahead traffic is many calls per lookup: a row
// per keystroke in the ledger, as calls were before (0-credit usage events), would be most of its writes.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Redis } from 'ioredis';
import type { Identity } from '@pra/core/auth';
import { BASE_PATH, expressPath, servedPaths } from '@pra/core/endpoints';
import { logger } from '@pra/platform/telemetry';
import { RECORD_CALL_SCRIPT } from '../data/call-count-scripts.js';
import { billingBucket, layoutFor, type RedisLayout } from '../data/redis-layout.js';
import { IDEMPOTENCY_TTL_SECONDS } from './credit-meter.js';

export interface CallRecord {
  /** The call's own request id (the gateway's): a replay of this very request is counted once. */
  requestId: string;
  /** The transaction whose charge, if any, counts this call (a keyed request's comes from its Idempotency-Key). */
  transactionId: string;
  accountId: number;
  keyId: number;
  endpoint: string;
  /** The calls it counts for, as the gateway's quota counted it (a batch: by its entries); default 1. */
  weight?: number;
}

/** Where calls are counted (account-billing's call counters). */
export interface CallCounter {
  /** Counts a call once per request id, unless this very call was charged (its charge event counts it). */
  recordCall(c: CallRecord): Promise<void>;
}

/**
 * What a counter is kept under: a path of the API as the table writes it (`/webhooks/{id}`, whether given so or as
 * express routed it, `/webhooks/:id`), or "other" (a path a client made up is not a new counter).
 */
const KNOWN_PATHS = new Map(
  servedPaths().flatMap((p) => [[p.path, p.path] as const, [expressPath(p.path), p.path] as const]),
);
export const counterEndpoint = (endpoint: string) => KNOWN_PATHS.get(endpoint) ?? 'other';

type CallRedis = Redis & { pra_record_call(...args: (string | number)[]): Promise<number> };

export class RedisCallCounter implements CallCounter {
  private readonly layout: RedisLayout;
  private readonly redis: CallRedis;

  private readonly now: () => number;

  /**
   * No outbox limit: calls are counters, not outbox entries, so they take no room that grows while the ledger is
   * away, and are counted through an outage of PostgreSQL too.
   */
  constructor(redis: Redis, prefix: string, o: { now?: () => number } = {}) {
    this.layout = layoutFor(redis, prefix);
    this.now = o.now ?? Date.now;
    if (!('pra_record_call' in redis))
      redis.defineCommand('pra_record_call', { numberOfKeys: 3, lua: RECORD_CALL_SCRIPT });
    this.redis = redis as CallRedis;
  }

  async recordCall(c: CallRecord): Promise<void> {
    const l = this.layout;
    await this.redis.pra_record_call(
      l.charged(c.accountId, c.transactionId),
      l.called(c.accountId, c.requestId),
      l.pendingCalls(billingBucket(c.accountId)),
      c.accountId,
      counterEndpoint(c.endpoint),
      this.now(),
      IDEMPOTENCY_TTL_SECONDS,
      c.requestId,
      c.weight ?? 1,
    );
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
  /** Calls this request counts for (a batch: by its entries, as the gateway's quota counted it); default 1. */
  callWeight?: number;
};

/**
 * A warning for calls that could not be counted, at most once per `everyMs` with how many it stands for: while the
 * Redis is away every call fails alike, and a line per call would flood.
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
          weight: r.callWeight,
        })
        .catch(onError);
    });
    next();
  };
}
