// Moves the counters of calls without a charge from Redis to PostgreSQL (billing.call_counts), exactly once.
//
// Why not a row per call: type-ahead is many calls per lookup, and every such call was a usage event of 0 credits,
// written once by its own id (usage_events' primary key made a redelivery a no-op). Counters have no per-call id to
// deduplicate on, so exactness comes from the flush instead, which has one:
//   1. A call is counted in Redis by one script (client/call-counter.ts): a marker per request id (a replay of the
//      request counts once) and HINCRBY on its bucket's pending hash. Atomic: counted once or not at all.
//   2. A flush takes a bucket's pending hash by RENAME to the bucket's flushing hash, stamped with a new flush id
//      (one script, data/call-count-scripts.ts). Calls arriving after it go to a new pending hash: none is lost,
//      none lands in a hash already taken.
//   3. The flushing hash is applied in ONE PostgreSQL statement that also inserts its id into
//      billing.call_flushes; an id already there adds nothing (workers/apply-calls.ts).
//   4. Only after the commit is the flushing hash deleted (if it still has that id).
// A crash (or an error) at any point either changed nothing (before 3's commit: the hash is still there, and is
// applied by whoever takes it next, under the same id) or leaves a hash whose id is known (between 3 and 4: taking
// it again applies nothing, then deletes it). While a flushing hash exists the pending hash is not taken, so a
// bucket's flushes are applied in order and one at a time. A flushing hash is held by its flusher for `leaseMs`
// (refreshed each time it takes it); past that any flusher takes it over (it died, or hangs), as the ledger
// writers take over a dead writer's entries. A lease is only about wasted work: two flushers applying the same
// flush add it once (3).
//
// Flush ids are kept a day, then pruned, never while a flushing hash with that id exists (the pruner has just read
// every bucket's), so an id is remembered for as long as it can come back.
//
// Redis restarted without its data loses the counts not flushed yet (as it loses charges still in the outbox,
// documented in docs/billing.md); with AOF everysec, about a second. Reconciliation is about credits and never
// reads these counters. A bucket's keys share a hash tag: each script touches one Redis Cluster slot.
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { StoppableLoop } from './stoppable-loop.js';
import { NODE_ANSWER_MS, within } from './within.js';
import type { Pool } from '@pra/platform';
import { callGroups, END_FLUSH_SCRIPT, TAKE_CALLS_SCRIPT } from '../data/call-count-scripts.js';
import { BUCKETS, type RedisLayout } from '../data/redis-layout.js';
import { applyCallFlushes, type CallFlush, pruneCallFlushes } from './apply-calls.js';

export interface CallFlusherOptions {
  pool: Pool;
  redis: Redis;
  layout: RedisLayout;
  log: (o: Record<string, unknown>) => void;
  /** This flusher's name (unique per process by default). */
  consumer?: string;
  /** Pause between rounds (ms): the lag of /usage's call counts. Default 250. */
  everyMs?: number;
  /** A flushing hash untouched this long is taken over by another flusher (ms). Default 30 s. */
  leaseMs?: number;
  /** How long one bucket's node may take to answer before it is left for a later round (NODE_ANSWER_MS). */
  answerMs?: number;
}

type FlushRedis = Redis & {
  pra_take_calls(...a: (string | number)[]): Promise<[number, string[] | string | undefined]>;
  pra_end_flush(...a: string[]): Promise<number>;
};

const PRUNE_EVERY_MS = 3_600_000;

/** Buckets whose calls are not all in PostgreSQL yet (a pending or a flushing hash): 0 once flushed. */
export async function callBucketsWaiting(redis: Redis, layout: RedisLayout): Promise<number> {
  // One command per bucket, sent together: a bucket's keys are of one slot, different buckets' are not.
  const waiting = await Promise.all(
    BUCKETS.map((b) =>
      redis.exists(layout.pendingCalls(b), layout.flushingCalls(b)).then(
        (n) => n > 0,
        () => true,
      ),
    ),
  );
  return waiting.filter(Boolean).length;
}

export class CallFlusher extends StoppableLoop {
  private readonly redis: FlushRedis;
  private failures = 0;
  private lastPruneAt = 0;
  private failedBuckets = '';

  constructor(private readonly o: CallFlusherOptions) {
    super(o.consumer);
    const r = o.redis;
    if (!('pra_take_calls' in r)) r.defineCommand('pra_take_calls', { numberOfKeys: 2, lua: TAKE_CALLS_SCRIPT });
    if (!('pra_end_flush' in r)) r.defineCommand('pra_end_flush', { numberOfKeys: 1, lua: END_FLUSH_SCRIPT });
    this.redis = r as FlushRedis;
  }

  /**
   * One round over every bucket: take (one round trip), apply (one statement), end (one round trip). Returns the
   * calls taken (applied now or before). `stopAfter` ends a round after that step, as a crash there would (tests).
   */
  async flushOnce(o: { stopAfter?: 'take' | 'apply' } = {}): Promise<number> {
    const { layout } = this.o;
    // Every bucket at once (one round trip per Redis node): a bucket's keys share a slot, different buckets' do not.
    // A bucket whose node fails or does not answer in time is left for a later round; the others are flushed.
    const replies = await Promise.all(
      BUCKETS.map((b) =>
        within(
          this.redis.pra_take_calls(
            layout.pendingCalls(b),
            layout.flushingCalls(b),
            randomUUID(),
            this.consumer,
            this.o.leaseMs ?? 30_000,
          ),
          this.o.answerMs ?? NODE_ANSWER_MS,
          layout.pendingCalls(b),
        ).then(
          (reply): [Error | null, unknown] => [null, reply],
          (err: Error): [Error | null, unknown] => [err, undefined],
        ),
      ),
    );
    const flushes: CallFlush[] = [];
    const live: string[] = [];
    const failed = replies.flatMap(([err], b) => (err ? [b] : []));
    this.reportFailed(failed, replies.find(([err]) => err)?.[0]);
    for (const [b, [err, reply]] of replies.entries()) {
      if (err) continue;
      const [status, body] = reply as [number, string[] | string | undefined];
      if (status === 0) live.push(body as string);
      if (status !== 1) continue;
      const fields = body as string[];
      const id = fields[fields.indexOf('_id') + 1]!;
      live.push(id);
      const { groups, unknown } = callGroups(fields);
      if (unknown.length > 0)
        this.o.log({ msg: 'call counter fields that are not counts: skipped', bucket: b, fields: unknown.slice(0, 5) });
      flushes.push({ id, bucket: b, groups });
    }
    if (flushes.length === 0 || o.stopAfter === 'take') return 0;
    await applyCallFlushes(this.o.pool, flushes);
    if (o.stopAfter === 'apply') return 0;
    // A flush whose end does not land is taken again by this flusher next round: applying it again adds nothing.
    await Promise.all(
      flushes.map((f) =>
        within(
          this.redis.pra_end_flush(layout.flushingCalls(f.bucket), f.id),
          this.o.answerMs ?? NODE_ANSWER_MS,
          layout.flushingCalls(f.bucket),
        ).catch(() => {}),
      ),
    );
    // Flush ids are pruned only when every bucket answered: an id is kept while its hash may still be in Redis.
    if (failed.length === 0 && Date.now() - this.lastPruneAt > PRUNE_EVERY_MS) {
      this.lastPruneAt = Date.now();
      await pruneCallFlushes(this.o.pool, live);
    }
    return flushes.reduce((n, f) => n + f.groups.reduce((s, g) => s + g.calls, 0), 0);
  }

  /** One line when the buckets that cannot be flushed change (not one per round while a node is away). */
  private reportFailed(buckets: number[], err: Error | null | undefined): void {
    const now = buckets.join(',');
    if (now === this.failedBuckets) return;
    this.failedBuckets = now;
    if (buckets.length > 0)
      this.o.log({
        msg: 'call counts of some buckets could not be taken; they stay in Redis, the other buckets are flushed',
        buckets,
        err: String(err),
      });
  }

  protected async run(): Promise<void> {
    while (this.running) {
      try {
        await this.flushOnce();
        this.failures = 0;
        await this.sleep(this.o.everyMs ?? 250);
      } catch (err) {
        this.failures++;
        const delay = Math.min(10_000, 250 * 2 ** Math.min(this.failures - 1, 6));
        this.o.log({
          msg: 'call counts not flushed; they stay in Redis and are retried',
          err: String(err),
          retryInMs: delay,
        });
        await this.sleep(delay);
      }
    }
  }
}
