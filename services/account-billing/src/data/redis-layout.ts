// Every Redis key billing uses, under one prefix per deployment (and per test run).
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
//
// The tag is `{c<bucket>}` ("c" for calls, where it began): the call counters' keys have had it on a single Redis
// too, and those names must not move, so every key of a bucket took the same tag rather than a new one.
import { bullQueuePrefix, isClusterClient } from '@pra/platform/redis';

/**
 * Accounts fall in a fixed set of buckets. 16: a round over them is one round trip per node whatever the number, up
 * to 16 masters share the load, and up to 16 flushers work in parallel. Changing it moves every key: it is fixed.
 */
export const BILLING_BUCKETS = 16;
/** The bucket of an account: its shard in a cluster, and where its calls without a charge are counted. */
export const billingBucket = (accountId: number) => accountId % BILLING_BUCKETS;
/** Every bucket, 0 to BILLING_BUCKETS - 1. */
export const BUCKETS: readonly number[] = Array.from({ length: BILLING_BUCKETS }, (_, b) => b);
/** The hash tag of a bucket's keys (in a cluster: one slot). */
export const bucketTag = (bucket: number) => `{c${bucket}}`;

/** Items grouped by a key, in the order each key first appears. */
export function groupBy<T, K>(items: readonly T[], key: (t: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of items) {
    const k = key(item);
    const group = groups.get(k);
    if (group) group.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}

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
  /** The single-flight lock of a reload (one key). */
  reloadLock: string;
}

export function redisLayout(prefix: string, o: { cluster?: boolean } = {}): RedisLayout {
  const cluster = o.cluster ?? false;
  const tag = (accountId: number) => bucketTag(billingBucket(accountId));
  const shards: BillingShard[] = cluster
    ? BUCKETS.map((b) => ({
        index: b,
        buckets: [b],
        outbox: `${prefix}usage:${bucketTag(b)}:outbox`,
        deadLetters: `${prefix}usage:${bucketTag(b)}:outbox:dead`,
        loaded: `${prefix}billing:${bucketTag(b)}:loaded`,
      }))
    : [
        {
          index: 0,
          buckets: [...BUCKETS],
          outbox: `${prefix}usage:outbox`,
          deadLetters: `${prefix}usage:outbox:dead`,
          loaded: `${prefix}billing:loaded`,
        },
      ];
  const queuePrefix = bullQueuePrefix(prefix, cluster);
  return {
    prefix,
    cluster,
    shards,
    shard: (id) => shards[cluster ? billingBucket(id) : 0]!,
    grants: cluster ? (id) => `${prefix}acct:${tag(id)}:${id}:grants` : (id) => `${prefix}acct:${id}:grants`,
    expiry: cluster ? (id) => `${prefix}acct:${tag(id)}:${id}:expiry` : (id) => `${prefix}acct:${id}:expiry`,
    charged: cluster ? (id, tx) => `${prefix}charged:${tag(id)}:${tx}` : (_id, tx) => `${prefix}charged:${tx}`,
    called: cluster ? (id, r) => `${prefix}called:${tag(id)}:${r}` : (_id, r) => `${prefix}called:${r}`,
    pendingCalls: (b) => `${prefix}calls:${bucketTag(b)}:pending`,
    flushingCalls: (b) => `${prefix}calls:${bucketTag(b)}:flushing`,
    queuePrefix,
    reloadLock: `${prefix}billing:reload-lock`,
  };
}

/** Items grouped by the shard of their account (a shard's keys are of one slot: one MULTI or script per group). */
export const byShard = <T>(l: RedisLayout, items: readonly T[], account: (t: T) => number): Map<number, T[]> =>
  groupBy(items, (t) => l.shard(account(t)).index);

/** The layout of a client's Redis: the cluster layout when it is a cluster. */
export const layoutFor = (redis: object, prefix: string): RedisLayout =>
  redisLayout(prefix, { cluster: isClusterClient(redis) });
