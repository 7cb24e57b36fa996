// Every Redis key billing uses, under one prefix per deployment (and per test run).

/**
 * Calls without a charge are counted in a fixed set of buckets (an account always falls in the same one). A bucket's
 * keys share a hash tag, `{c<bucket>}`, so each script that touches them stays in one Redis Cluster slot, and the
 * flusher walks a known list of keys rather than scanning. 16: a flush round is one pipelined round trip whatever
 * the number, and up to 16 writers can flush in parallel.
 */
export const CALL_BUCKETS = 16;
export const callBucket = (accountId: number) => accountId % CALL_BUCKETS;

export interface RedisLayout {
  prefix: string;
  /** Hash grantId -> remaining credits of one account. */
  grants(accountId: number): string;
  /** Sorted set grantId -> expiry (ms): consumption goes first-to-expire, expired grants are skipped. */
  expiry(accountId: number): string;
  /**
   * Present while Redis holds balances loaded from PostgreSQL; gone after a wipe, and charging fails closed.
   * Its value is Redis's clock (ms) when the load started.
   */
  loaded: string;
  /** Result of a charged transaction, for idempotency. */
  charged(transactionId: string): string;
  /** Marks a request counted as a call without a charge (once per request id: a replay of it counts once). */
  called(requestId: string): string;
  /**
   * Hash of calls without a charge not yet in PostgreSQL, of one bucket: per account, UTC day and endpoint, a count
   * and the last call's time (see data/call-count-scripts.ts).
   */
  pendingCalls(bucket: number): string;
  /** A bucket's pending hash renamed for a flush to PostgreSQL, with the flush's id (workers/call-flusher.ts). */
  flushingCalls(bucket: number): string;
  /** The usage outbox stream, appended by the charge itself. */
  outbox: string;
  /** BullMQ key prefix. */
  queuePrefix: string;
}

export function redisLayout(prefix: string): RedisLayout {
  return {
    prefix,
    grants: (id) => `${prefix}acct:${id}:grants`,
    expiry: (id) => `${prefix}acct:${id}:expiry`,
    loaded: `${prefix}billing:loaded`,
    charged: (tx) => `${prefix}charged:${tx}`,
    called: (requestId) => `${prefix}called:${requestId}`,
    pendingCalls: (b) => `${prefix}calls:{c${b}}:pending`,
    flushingCalls: (b) => `${prefix}calls:{c${b}}:flushing`,
    outbox: `${prefix}usage:outbox`,
    queuePrefix: `${prefix}bull`,
  };
}
