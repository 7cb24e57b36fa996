// The usage pipeline and the maintenance jobs of account-billing:
//   outbox stream --ledger writers (one consumer group, batches)--> PostgreSQL (applyUsageEvents)
//   call counters (Redis hashes) --call flusher, beside each ledger writer--> PostgreSQL (applyCallFlushes)
//   job schedulers on `billing-maintenance` (BullMQ): reconcile, expire-credits, rebuild-key-cache
//   a watchdog: when Redis comes back empty (no `loaded` marker) it reloads balances and the key cache, and
//   re-creates the schedulers (they lived in Redis too); charging fails closed until the reload is done.
// Usage events never travel one job per event: a writer reads a few thousand at a time and writes them in one
// statement; BullMQ keeps only the scheduled work (see README, billing).
import { Queue, Worker, type Job } from 'bullmq';
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { createRedis, type Pool } from '@pra/platform';
import { keyCacheLayoutFor } from '../data/key-cache-layout.js';
import { observeGauges, queueTelemetry, telemetryMetrics } from '@pra/platform/telemetry';
import { reloadBalances } from '../data/balances.js';
import { rebuildKeyCache } from '../data/key-cache-writer.js';
import { byShard, type BillingShard, type RedisLayout } from '../data/redis-layout.js';
import { expireCredits } from './apply-usage.js';
import { CallFlusher, callBucketsWaiting } from './call-flusher.js';
import { LEDGER_GROUP, LedgerWriter } from './ledger-writer.js';
import { reconcile } from './reconcile.js';
import { NODE_ANSWER_MS, within } from './within.js';

export const MAINTENANCE_QUEUE = 'billing-maintenance';
/** The maintenance jobs scheduled on it: reconcile, expire-credits, rebuild-key-cache. */
const SCHEDULERS = 3;

export interface PipelineOptions {
  pool: Pool;
  redisUrl: string;
  layout: RedisLayout;
  log: (obj: Record<string, unknown>) => void;
  /** Entries a dead writer held are taken over after this long (ms): short in tests that kill a writer. */
  claimIdleMs?: number;
  /** How often the call counters are flushed to PostgreSQL (ms; the lag of /usage's uncharged calls). */
  flushEveryMs?: number;
  reconcileEveryMs?: number;
  expireEveryMs?: number;
  /** Clock slack between machines when deciding that a charge came before a grant's expiry (seconds). */
  expiryGraceSeconds?: number;
  keyCacheEveryMs?: number;
  watchdogEveryMs?: number;
  /** What this process runs: everything (default), or only a ledger writer (extra worker processes). */
  roles?: { ledgerWriter: boolean; maintenance: boolean };
}

export class UsagePipeline {
  readonly maintenanceQueue: Queue;
  private readonly connections: Redis[] = [];
  private writer?: LedgerWriter;
  private flusher?: CallFlusher;
  private workers: Worker[] = [];
  private watchdog?: NodeJS.Timeout;
  private stopObserving?: () => void;
  private checking = false;

  constructor(private readonly o: PipelineOptions) {
    this.maintenanceQueue = new Queue(MAINTENANCE_QUEUE, {
      connection: this.connection(),
      prefix: o.layout.queuePrefix,
      telemetry: queueTelemetry(),
    });
  }

  private connection(): Redis {
    const c = createRedis(this.o.redisUrl, 'worker');
    c.on('error', () => {}); // reconnects by itself; failures surface in the commands that need it
    this.connections.push(c);
    return c;
  }

  async start(): Promise<void> {
    const { pool, layout, log } = this.o;
    const roles = this.o.roles ?? { ledgerWriter: true, maintenance: true };
    const redis = this.connection();
    if (roles.maintenance) await this.ensureLoaded(redis);
    if (roles.ledgerWriter) {
      this.writer = new LedgerWriter({ pool, redis: this.connection(), layout, log, claimIdleMs: this.o.claimIdleMs });
      this.writer.start();
      this.flusher = new CallFlusher({
        pool,
        redis: this.connection(),
        layout,
        log,
        leaseMs: this.o.claimIdleMs,
        everyMs: this.o.flushEveryMs,
      });
      this.flusher.start();
      this.stopObserving = this.observeBacklog(redis);
    }
    if (roles.maintenance) {
      this.workers.push(
        new Worker(MAINTENANCE_QUEUE, async (job: Job) => this.maintenance(job.name, redis), {
          connection: this.connection(),
          prefix: layout.queuePrefix,
          telemetry: queueTelemetry(),
          concurrency: 1,
        }),
      );
      await this.upsertSchedulers();
      this.watchdog = setInterval(() => void this.ensureLoaded(redis).catch(() => {}), this.o.watchdogEveryMs ?? 1_000);
    }
    for (const w of this.workers) {
      w.on('failed', (job, err) => log({ msg: 'job failed', queue: w.name, jobId: job?.id, err: String(err) }));
      w.on('error', (err) => log({ msg: 'worker error', queue: w.name, err: String(err) }));
    }
  }

  private async upsertSchedulers(): Promise<void> {
    const q = this.maintenanceQueue;
    // Finished jobs are not kept: the last 100 completions and a day of failures, for the logs' sake.
    const opts = { removeOnComplete: 100, removeOnFail: { age: 86_400 } };
    await q.upsertJobScheduler('reconcile', { every: this.o.reconcileEveryMs ?? 60_000 }, { name: 'reconcile', opts });
    await q.upsertJobScheduler(
      'expire-credits',
      { every: this.o.expireEveryMs ?? 60_000 },
      { name: 'expire-credits', opts },
    );
    await q.upsertJobScheduler(
      'rebuild-key-cache',
      { every: this.o.keyCacheEveryMs ?? 300_000 },
      { name: 'rebuild-key-cache', opts },
    );
  }

  /** What Redis has lost: the shards whose balances are not loaded, whether any key-cache bucket is not. */
  private async missing(redis: Redis): Promise<{ shards: BillingShard[]; keys: boolean }> {
    const l = this.o.layout;
    const keyMarkers = keyCacheLayoutFor(redis, l.prefix).loadedMarkers;
    // One GET per marker, sent together: in a cluster the markers sit on the nodes whose data they speak for.
    // A marker whose node does not answer in time is taken as there: another node's loss is reloaded meanwhile.
    const get = (key: string) => within(redis.get(key), NODE_ANSWER_MS, key).catch(() => 'unknown');
    const [shards, keys] = await Promise.all([
      Promise.all(l.shards.map((s) => get(s.loaded))),
      Promise.all(keyMarkers.map(get)),
    ]);
    return { shards: l.shards.filter((_, i) => !shards[i]), keys: keys.some((k) => !k) };
  }

  /**
   * Reloads balances and the key cache when Redis (or a node of a cluster) has lost them; until then charging the
   * accounts of a lost shard is a 503, and an unknown key a lookup. Re-creates the maintenance schedulers when they
   * are gone too (they lived in Redis).
   */
  async ensureLoaded(redis: Redis): Promise<boolean> {
    if (this.checking) return false;
    this.checking = true;
    try {
      // Side by side, each bounded: a hung node that holds the queues does not hold up the reload of another node.
      const [reloaded] = await Promise.all([
        this.reloadIfLost(redis),
        this.watchdog ? this.ensureSchedulers().catch(() => {}) : undefined,
      ]);
      return reloaded;
    } finally {
      this.checking = false;
    }
  }

  /**
   * The schedulers themselves are counted (not a marker beside them): an upsert that failed halfway, or a wipe of
   * their node, is seen and made good on the next round.
   */
  private async ensureSchedulers(): Promise<void> {
    const q = this.maintenanceQueue;
    if ((await within(q.getJobSchedulersCount(), NODE_ANSWER_MS, 'maintenance schedulers')) < SCHEDULERS)
      await within(this.upsertSchedulers(), NODE_ANSWER_MS, 'maintenance schedulers');
  }

  private async reloadIfLost(redis: Redis): Promise<boolean> {
    const l = this.o.layout;
    const before = await this.missing(redis);
    if (before.shards.length === 0 && !before.keys) return false;
    // Single flight across every process: one reload holds the lock; the others find the markers set after it.
    // A second reload after the first would overwrite balances that charges have changed since.
    const token = randomUUID();
    const locked = await within(redis.set(l.reloadLock, token, 'PX', 120_000, 'NX'), NODE_ANSWER_MS, l.reloadLock);
    if (locked !== 'OK') return false;
    try {
      const now = await this.missing(redis);
      if (now.shards.length === 0 && !now.keys) return false;
      // Balances first: charging waits on them; a key the cache lost is looked up meanwhile.
      const grants = now.shards.length > 0 ? await reloadBalances(this.o.pool, redis, l, now.shards) : undefined;
      const keys = now.keys ? await rebuildKeyCache(this.o.pool, redis, l.prefix) : undefined;
      this.o.log({
        msg: 'loaded from PostgreSQL into Redis',
        grants,
        keys,
        ...(l.cluster ? { shards: now.shards.map((s) => s.index) } : {}),
      });
      return true;
    } finally {
      await within(
        redis.eval(
          "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0",
          1,
          l.reloadLock,
          token,
        ),
        NODE_ANSWER_MS,
        l.reloadLock,
      ).catch(() => {}); // a lock not released expires by itself
    }
  }

  async maintenance(name: string, redis: Redis): Promise<unknown> {
    const { pool, layout, log } = this.o;
    switch (name) {
      case 'reconcile': {
        const report = await reconcile(pool, redis, layout);
        telemetryMetrics.reconciled(report.drift.map((d) => d.redis - d.expected));
        if (report.drift.length > 0) log({ msg: 'reconcile repaired drift', drift: report.drift });
        return { checked: report.checked, repaired: report.drift.length };
      }
      case 'expire-credits': {
        // Charges still in the outbox must reach PostgreSQL before a grant that expired after them is written off.
        const heads = (await Promise.all(layout.shards.map((s) => redis.xrange(s.outbox, '-', '+', 'COUNT', 1)))) as [
          string,
          string[],
        ][][];
        const oldest = heads.flatMap(([head]) => (head ? [Number(head[0].split('-')[0])] : []));
        const expired = await expireCredits(pool, {
          graceSeconds: this.o.expiryGraceSeconds,
          oldestPendingMs: oldest.length > 0 ? Math.min(...oldest) : undefined,
        });
        if (expired.length > 0) {
          await Promise.all(
            [...byShard(layout, expired, (e) => e.accountId).values()].map((group) => {
              const m = redis.multi();
              for (const e of group)
                m.hdel(layout.grants(e.accountId), String(e.grantId)).zrem(
                  layout.expiry(e.accountId),
                  String(e.grantId),
                );
              return m.exec();
            }),
          );
          log({ msg: 'credits expired', grants: expired.length, credits: expired.reduce((s, e) => s + e.credits, 0) });
        }
        return { expired: expired.length };
      }
      case 'rebuild-key-cache':
        return { keys: await rebuildKeyCache(pool, redis, layout.prefix) };
      default:
        throw new Error(`unknown maintenance job ${name}`);
    }
  }

  /** Whether billing keeps up: read at each metrics collection (scrape or OTLP push). */
  private observeBacklog(redis: Redis): () => void {
    return observeGauges(
      [
        {
          name: 'pra.usage.outbox.length',
          description: 'Charges in the Redis outbox not yet written to the ledger',
          unit: '{event}',
        },
        {
          name: 'pra.usage.pending',
          description:
            'Charges read by a ledger writer and not yet acknowledged (in flight, or held by a writer that failed)',
          unit: '{event}',
        },
        {
          name: 'pra.usage.lag',
          description: 'Age of the oldest charge not yet written to the ledger (0 when caught up)',
          unit: 's',
        },
        {
          name: 'pra.usage.dead.letters',
          description:
            'Entries in the dead-letter streams (<prefix>usage:outbox:dead; one per bucket in a cluster): outbox entries never written',
          unit: '{event}',
        },
        {
          name: 'pra.billing.loaded',
          description:
            'Whether balances and the key cache are loaded in Redis (1), or a reload is due or running (0: charges 503)',
          unit: '1',
        },
      ],
      async () => {
        const [backlog, pending, missing] = await Promise.all([
          this.writer!.backlog(),
          Promise.all(
            this.o.layout.shards.map((s) =>
              within(
                redis.xpending(s.outbox, LEDGER_GROUP) as Promise<[number, ...unknown[]]>,
                NODE_ANSWER_MS,
                s.outbox,
              ).then(
                (p) => Number(p[0]) || 0,
                () => 0,
              ),
            ),
          ),
          this.missing(redis),
        ]);
        return {
          'pra.usage.outbox.length': backlog.waiting,
          'pra.usage.pending': pending.reduce((a, b) => a + b, 0),
          'pra.usage.lag': backlog.waiting > 0 ? backlog.oldestSeconds : 0,
          'pra.usage.dead.letters': backlog.deadLetters,
          'pra.billing.loaded': missing.shards.length === 0 && !missing.keys ? 1 : 0,
        };
      },
    );
  }

  /** Waits until every charge in the outbox is in the ledger, and every call counted in PostgreSQL (tests, benchmarks). */
  async drained(redis: Redis, timeoutMs = 30_000): Promise<void> {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const lengths = await Promise.all(this.o.layout.shards.map((s) => redis.xlen(s.outbox)));
      const outbox = lengths.reduce((a, b) => a + b, 0);
      const buckets = outbox === 0 ? await callBucketsWaiting(redis, this.o.layout) : 0;
      if (outbox === 0 && buckets === 0) return;
      if (Date.now() > until)
        throw new Error(`usage pipeline not drained: ${outbox} events in the outbox, ${buckets} buckets of calls`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  async stop(): Promise<void> {
    if (this.watchdog) clearInterval(this.watchdog);
    this.stopObserving?.();
    await Promise.all([this.writer?.stop(), this.flusher?.stop()]);
    await Promise.all(this.workers.map((w) => w.close()));
    await this.maintenanceQueue.close();
    await Promise.all(this.connections.map((c) => c.quit().catch(() => c.disconnect())));
  }
}
