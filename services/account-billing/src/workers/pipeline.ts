// The usage pipeline and the maintenance jobs of account-billing:
//   outbox stream --relay--> BullMQ `usage` queue --worker--> PostgreSQL (applyUsageEvent)
//   job schedulers on `billing-maintenance`: reconcile, expire-credits, rebuild-key-cache
//   a watchdog: when Redis comes back empty (no `loaded` marker) it reloads balances and the key cache, and
//   re-creates the schedulers (they lived in Redis too); charging fails closed until the reload is done.
import { Queue, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { createRedis, type Pool } from '@pra/shared/platform';
import { observeGauges, queueTelemetry, telemetryMetrics } from '@pra/shared/telemetry';
import { reloadBalances } from '../data/balances.js';
import { rebuildKeyCache } from '../data/key-cache.js';
import { keyCacheLoadedKey } from '@pra/shared/platform';
import type { RedisLayout } from '../data/redis-layout.js';
import type { UsageEvent } from '../domain/usage-event.js';
import { expireCredits, UsageBatcher } from './apply-usage.js';
import { OutboxRelay } from './outbox-relay.js';
import { reconcile } from './reconcile.js';

export const USAGE_QUEUE = 'usage';
export const MAINTENANCE_QUEUE = 'billing-maintenance';

export interface PipelineOptions {
  pool: Pool;
  redisUrl: string;
  layout: RedisLayout;
  log: (obj: Record<string, unknown>) => void;
  usageConcurrency?: number;
  /** Worker lock duration (ms): short in tests that kill a worker mid-job. */
  lockDuration?: number;
  reconcileEveryMs?: number;
  expireEveryMs?: number;
  keyCacheEveryMs?: number;
  watchdogEveryMs?: number;
  /** What this process runs: everything (default), or only the usage worker (extra worker processes). */
  roles?: { relay: boolean; usageWorker: boolean; maintenance: boolean };
}

export class UsagePipeline {
  readonly usageQueue: Queue<UsageEvent>;
  readonly maintenanceQueue: Queue;
  private readonly connections: Redis[] = [];
  private relay?: OutboxRelay;
  private workers: Worker[] = [];
  private watchdog?: NodeJS.Timeout;
  private stopObserving?: () => void;
  private reloading = false;

  constructor(private readonly o: PipelineOptions) {
    const conn = this.connection();
    this.usageQueue = new Queue<UsageEvent>(USAGE_QUEUE, { connection: conn, prefix: o.layout.queuePrefix, telemetry: queueTelemetry() });
    this.maintenanceQueue = new Queue(MAINTENANCE_QUEUE, { connection: conn, prefix: o.layout.queuePrefix, telemetry: queueTelemetry() });
  }

  private connection(): Redis {
    const c = createRedis(this.o.redisUrl, 'worker');
    c.on('error', () => {}); // reconnects by itself; failures surface in the commands that need it
    this.connections.push(c);
    return c;
  }

  async start(): Promise<void> {
    const { pool, layout, log } = this.o;
    const roles = this.o.roles ?? { relay: true, usageWorker: true, maintenance: true };
    const redis = this.connection();
    if (roles.maintenance) await this.ensureLoaded(redis);
    if (roles.relay) {
      this.relay = new OutboxRelay(this.connection(), this.usageQueue, layout, (err) => log({ msg: 'relay error', err: String(err) }));
      this.relay.start();
      this.stopObserving = this.observeBacklog(redis);
    }
    const batcher = new UsageBatcher(pool);
    if (roles.usageWorker) this.workers.push(
      new Worker<UsageEvent>(USAGE_QUEUE, async (job) => batcher.apply(job.data), {
        connection: this.connection(),
        prefix: layout.queuePrefix,
        telemetry: queueTelemetry(),
        // Many jobs in flight at once is what fills the batches: the database sees one statement per batch.
        concurrency: this.o.usageConcurrency ?? 256,
        lockDuration: this.o.lockDuration ?? 30_000,
        stalledInterval: this.o.lockDuration ?? 30_000,
      }),
    );
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
    await q.upsertJobScheduler('reconcile', { every: this.o.reconcileEveryMs ?? 60_000 }, { name: 'reconcile' });
    await q.upsertJobScheduler('expire-credits', { every: this.o.expireEveryMs ?? 60_000 }, { name: 'expire-credits' });
    await q.upsertJobScheduler('rebuild-key-cache', { every: this.o.keyCacheEveryMs ?? 300_000 }, { name: 'rebuild-key-cache' });
  }

  /** Reloads balances and the key cache when Redis has lost them (until then: charging 503, unknown keys 503). */
  async ensureLoaded(redis: Redis): Promise<boolean> {
    if (this.reloading) return false;
    const [balancesLoaded, keysLoaded] = await redis.mget(this.o.layout.loaded, keyCacheLoadedKey(this.o.layout.prefix));
    if (balancesLoaded && keysLoaded) return false;
    this.reloading = true;
    try {
      const keys = keysLoaded ? undefined : await rebuildKeyCache(this.o.pool, redis, this.o.layout.prefix);
      const grants = balancesLoaded ? undefined : await reloadBalances(this.o.pool, redis, this.o.layout);
      if (this.watchdog && !balancesLoaded) await this.upsertSchedulers();
      this.o.log({ msg: 'loaded from PostgreSQL into Redis', grants, keys });
      return true;
    } finally {
      this.reloading = false;
    }
  }

  async maintenance(name: string, redis: Redis): Promise<unknown> {
    const { pool, layout, log } = this.o;
    switch (name) {
      case 'reconcile': {
        const report = await reconcile(pool, redis, layout, this.usageQueue);
        telemetryMetrics.reconciled(report.drift.map((d) => d.redis - d.expected));
        if (report.drift.length > 0) log({ msg: 'reconcile repaired drift', drift: report.drift });
        return { checked: report.checked, repaired: report.drift.length };
      }
      case 'expire-credits': {
        const expired = await expireCredits(pool);
        if (expired.length > 0) {
          const m = redis.multi();
          for (const e of expired) m.hdel(layout.grants(e.accountId), String(e.grantId)).zrem(layout.expiry(e.accountId), String(e.grantId));
          await m.exec();
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
        { name: 'pra.usage.outbox.length', description: 'Charges in the Redis outbox not yet moved to the usage queue', unit: '{event}' },
        { name: 'pra.usage.queue.depth', description: 'Usage jobs waiting, delayed or running', unit: '{job}' },
        { name: 'pra.usage.queue.failed', description: 'Usage jobs that ran out of retries (charged in Redis, not in the ledger)', unit: '{job}' },
        { name: 'pra.usage.lag', description: 'Age of the oldest charge not yet written to the ledger (0 when caught up)', unit: 's' },
      ],
      async () => {
        const [outbox, head, counts, oldest] = await Promise.all([
          redis.xlen(this.o.layout.outbox),
          redis.xrange(this.o.layout.outbox, '-', '+', 'COUNT', 1),
          this.usageQueue.getJobCounts('waiting', 'active', 'delayed', 'prioritized', 'failed'),
          this.usageQueue.getJobs(['waiting'], 0, 0, true),
        ]);
        const now = Date.now();
        const since = [head[0] ? Number(head[0][0].split('-')[0]) : now, oldest[0]?.data.at ?? now];
        return {
          'pra.usage.outbox.length': outbox,
          'pra.usage.queue.depth': (counts.waiting ?? 0) + (counts.active ?? 0) + (counts.delayed ?? 0) + (counts.prioritized ?? 0),
          'pra.usage.queue.failed': counts.failed ?? 0,
          'pra.usage.lag': Math.max(0, now - Math.min(...since)) / 1000,
        };
      },
    );
  }

  /** Waits until the outbox is empty and no usage job is waiting or running (tests, benchmarks, shutdown). */
  async drained(redis: Redis, timeoutMs = 30_000): Promise<void> {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const [outbox, counts] = await Promise.all([
        redis.xlen(this.o.layout.outbox),
        this.usageQueue.getJobCounts('waiting', 'active', 'delayed', 'prioritized'),
      ]);
      if (outbox === 0 && Object.values(counts).every((n) => n === 0)) return;
      if (Date.now() > until) throw new Error(`usage pipeline not drained: outbox ${outbox}, jobs ${JSON.stringify(counts)}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  async stop(): Promise<void> {
    if (this.watchdog) clearInterval(this.watchdog);
    this.stopObserving?.();
    await this.relay?.stop();
    await Promise.all(this.workers.map((w) => w.close()));
    await this.usageQueue.close();
    await this.maintenanceQueue.close();
    await Promise.all(this.connections.map((c) => c.quit().catch(() => c.disconnect())));
  }
}
