// Every Redis key billing uses, under one prefix per deployment (and per test run).
import { isClusterClient } from '@pra/platform/redis';
//
// Two layouts, one per kind of Redis, with the same structure:
// - a single Redis: the names billing has always used (an upgrade finds its balances, outbox, idempotency records
//   and windows where it left them);
// - Redis Cluster: every key of an account carries its bucket's hash tag, `{c<bucket>}`, so that each script (the
//   charge, the pre-check, a call's count, a flush) touches keys of ONE slot; the outbox and the `loaded` marker are
//   one per bucket (a node that comes back empty loses the buckets it served, and only those are reloaded); BullMQ's
//   prefix is braced, so that a queue's keys share a slot.
// A bucket is `accountId % BILLING_BUCKETS`: an account always falls in the same one. On a single Redis the buckets
// share one outbox and one marker (one "shard"); in a cluster each bucket is a shard of its own.

/**
 * Accounts fall in a fixed set of buckets. 16: a round over them is one round trip per node whatever the number, up
 * to 16 masters share the load, and up to 16 flushers work in parallel. Changing it moves every key: it is fixed.
 */
export const BILLING_BUCKETS = 16;
/** Calls without a charge are counted per bucket (data/call-count-scripts.ts). */
export const CALL_BUCKETS = BILLING_BUCKETS;
export const callBucket = (accountId: number) => accountId % BILLING_BUCKETS;

/** The keys billing keeps per shard: the outbox of its charges, and the marker of its loaded balances. */
export interface BillingShard {
  /** 0 on a single Redis; the bucket in a cluster. */
  index: number;
  /** The buckets whose accounts this shard holds. */
  buckets: number[];
  /** The usage outbox stream, appended by the charge itself. */
  outbox: string;
  /** Outbox entries that are not usage events, moved aside by the ledger writer (same slot as the outbox). */
  deadLetters: string;
  /**
   * Present while Redis holds this shard's balances loaded from PostgreSQL; gone after a wipe, and charging its
   * accounts fails closed. Its value is Redis's clock (ms) when the load started.
   */
  loaded: string;
}

export interface RedisLayout {
  prefix: string;
  /** True for the Redis Cluster layout. */
  cluster: boolean;
  /** Every shard: one on a single Redis, BILLING_BUCKETS in a cluster. */
  shards: BillingShard[];
  /** The shard of an account. */
  shard(accountId: number): BillingShard;
  /** Hash grantId -> remaining credits of one account. */
  grants(accountId: number): string;
  /** Sorted set grantId -> expiry (ms): consumption goes first-to-expire, expired grants are skipped. */
  expiry(accountId: number): string;
  /** Result of an account's charged transaction, for idempotency. */
  charged(accountId: number, transactionId: string): string;
  /** Marks a request counted as a call without a charge (once per request id: a replay of it counts once). */
  called(accountId: number, requestId: string): string;
  /**
   * Hash of calls without a charge not yet in PostgreSQL, of one bucket: per account, UTC day and endpoint, a count
   * and the last call's time (see data/call-count-scripts.ts).
   */
  pendingCalls(bucket: number): string;
  /** A bucket's pending hash renamed for a flush to PostgreSQL, with the flush's id (workers/call-flusher.ts). */
  flushingCalls(bucket: number): string;
  /** BullMQ key prefix (braced in a cluster: a queue's keys in one slot). */
  queuePrefix: string;
  /** Present while the maintenance schedulers exist in Redis (in the queues' slot): gone with them. */
  schedulersMarker: string;
  /** The single-flight lock of a reload (one key). */
  reloadLock: string;
}

const BUCKET_LIST = Array.from({ length: BILLING_BUCKETS }, (_, b) => b);

export function redisLayout(prefix: string, o: { cluster?: boolean } = {}): RedisLayout {
  const cluster = o.cluster ?? false;
  const tag = (accountId: number) => `{c${callBucket(accountId)}}`;
  const shards: BillingShard[] = cluster
    ? BUCKET_LIST.map((b) => ({
        index: b,
        buckets: [b],
        outbox: `${prefix}usage:{c${b}}:outbox`,
        deadLetters: `${prefix}usage:{c${b}}:outbox:dead`,
        loaded: `${prefix}billing:{c${b}}:loaded`,
      }))
    : [
        {
          index: 0,
          buckets: BUCKET_LIST,
          outbox: `${prefix}usage:outbox`,
          deadLetters: `${prefix}usage:outbox:dead`,
          loaded: `${prefix}billing:loaded`,
        },
      ];
  const queuePrefix = cluster ? `{${prefix}bull}` : `${prefix}bull`;
  return {
    prefix,
    cluster,
    shards,
    shard: (id) => shards[cluster ? callBucket(id) : 0]!,
    grants: cluster ? (id) => `${prefix}acct:${tag(id)}:${id}:grants` : (id) => `${prefix}acct:${id}:grants`,
    expiry: cluster ? (id) => `${prefix}acct:${tag(id)}:${id}:expiry` : (id) => `${prefix}acct:${id}:expiry`,
    charged: cluster ? (id, tx) => `${prefix}charged:${tag(id)}:${tx}` : (_id, tx) => `${prefix}charged:${tx}`,
    called: cluster ? (id, r) => `${prefix}called:${tag(id)}:${r}` : (_id, r) => `${prefix}called:${r}`,
    pendingCalls: (b) => `${prefix}calls:{c${b}}:pending`,
    flushingCalls: (b) => `${prefix}calls:{c${b}}:flushing`,
    queuePrefix,
    schedulersMarker: `${queuePrefix}:pra-schedulers`,
    reloadLock: `${prefix}billing:reload-lock`,
  };
}

export { isClusterClient };

/** The layout of a client's Redis: the cluster layout when it is a cluster. */
export const layoutFor = (redis: object, prefix: string): RedisLayout =>
  redisLayout(prefix, { cluster: isClusterClient(redis) });
