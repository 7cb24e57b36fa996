// Keeps the type-ahead index in step with the records store through the BullMQ `autocomplete-index` queue:
//   rebuild   full re-index (after a bulk load, or when the index is empty); readers keep the old index meanwhile
//   catch-up  applies the records change feed (inserts, in-place rewrites, removals, rekeys: change-feed.ts);
//             a job scheduler runs it every few seconds
//   prune-change-events  deletes the change events (GET /changes, webhooks) past their retention period, hourly:
//             this queue is the one that runs scheduled work on the records store
// Both hold the feed's consumer lock, so neither runs beside the other, on any replica. A failed batch fails its
// job, which is retried with backoff; nothing is skipped silently. Progress is reported.
import { Queue, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { createRedis, type Pool } from '@pra/platform';
import type { SearchIndex } from '../domain/search-index.js';
import { readSuggestionDocs } from '../data/suggestion-source.js';
import { queueTelemetry } from '@pra/platform/telemetry';
import { pruneChangeEvents } from '@pra/ingest/change-events';
import { applyChanges, dropSeenChanges, feedSnapshot, withFeedLock } from './change-feed.js';

export const INDEX_QUEUE = 'autocomplete-index';
const BATCH = 5_000;

export interface IndexerOptions {
  pool: Pool;
  index: SearchIndex;
  redisUrl: string;
  queuePrefix: string;
  log: (o: Record<string, unknown>) => void;
  catchUpEveryMs?: number;
  /** How often the change events past their retention period are deleted (ms). */
  pruneEveryMs?: number;
}

/** Highest property id the index holds (0 when empty: the service then asks for a rebuild). */
export async function lastIndexedId(pool: Pool): Promise<number> {
  const { rows } = await pool.query<{ id: number | null }>(
    'SELECT max(property_id) AS id FROM search.address_suggestions',
  );
  return rows[0]?.id ?? 0;
}

/**
 * Re-indexes every record. The feed rows committed before it starts are dropped at the end (what they changed is in
 * the pages it read after); rows committed while it runs stay, and the next catch-up applies them, so a write
 * committed during a rebuild is never lost. It waits for a running catch-up, and catch-ups wait for it.
 */
export async function runRebuild(
  o: Pick<IndexerOptions, 'pool' | 'index'>,
  progress: (done: number, total: number) => Promise<void> | void = () => {},
): Promise<number> {
  const done = await withFeedLock(o.pool, true, async (c) => {
    const snapshot = await feedSnapshot(c);
    const { rows } = await c.query<{ n: number }>('SELECT count(*)::bigint AS n FROM records.properties');
    const total = rows[0]!.n;
    const rebuild = await o.index.beginRebuild();
    let after = 0;
    let done = 0;
    for (;;) {
      const docs = await readSuggestionDocs(c, after, BATCH);
      if (docs.length === 0) break;
      await rebuild.write(docs);
      after = docs[docs.length - 1]!.propertyId;
      done += docs.length;
      await progress(done, total);
    }
    await rebuild.finish();
    await dropSeenChanges(c, snapshot);
    return done;
  });
  return done ?? 0;
}

/**
 * Applies the change feed; returns how many properties it applied (0 when another consumer, a catch-up or a
 * rebuild, holds the feed: that one applies the same rows).
 */
export async function runCatchUp(o: Pick<IndexerOptions, 'pool' | 'index'>): Promise<number> {
  return (await withFeedLock(o.pool, false, (c) => applyChanges(o.index, c))) ?? 0;
}

export class Indexer {
  readonly queue: Queue;
  private worker?: Worker;
  private readonly connections: Redis[] = [];

  constructor(private readonly o: IndexerOptions) {
    this.queue = new Queue(INDEX_QUEUE, {
      connection: this.connection(),
      prefix: o.queuePrefix,
      telemetry: queueTelemetry(),
    });
  }

  private connection(): Redis {
    const c = createRedis(this.o.redisUrl, 'worker');
    c.on('error', () => {});
    this.connections.push(c);
    return c;
  }

  async start(): Promise<void> {
    const { log } = this.o;
    this.worker = new Worker(INDEX_QUEUE, (job: Job) => this.process(job), {
      connection: this.connection(),
      prefix: this.o.queuePrefix,
      concurrency: 1,
      telemetry: queueTelemetry(),
    });
    this.worker.on('failed', (job, err) =>
      log({ msg: 'index job failed', job: job?.name, attempts: job?.attemptsMade, err: String(err) }),
    );
    this.worker.on('error', (err) => log({ msg: 'index worker error', err: String(err) }));
    await this.queue.upsertJobScheduler(
      'catch-up',
      { every: this.o.catchUpEveryMs ?? 5_000 },
      { name: 'catch-up', opts: { attempts: 5, backoff: { type: 'exponential', delay: 1_000 } } },
    );
    await this.queue.upsertJobScheduler(
      'prune-change-events',
      { every: this.o.pruneEveryMs ?? 3_600_000 },
      {
        name: 'prune-change-events',
        opts: { attempts: 3, backoff: { type: 'exponential', delay: 5_000 }, removeOnComplete: 100, removeOnFail: 100 },
      },
    );
  }

  /** Asks for a full rebuild (one at a time: a second request while one waits is the same job). */
  async requestRebuild(): Promise<void> {
    await this.queue.add(
      'rebuild',
      {},
      {
        jobId: 'rebuild',
        attempts: 5,
        backoff: { type: 'exponential', delay: 2_000 },
        removeOnComplete: true,
        removeOnFail: 100,
      },
    );
  }

  private async process(job: Job): Promise<unknown> {
    const started = performance.now();
    if (job.name === 'rebuild') {
      const n = await runRebuild(this.o, async (done, total) => {
        await job.updateProgress(total > 0 ? Math.round((done / total) * 100) : 100);
      });
      this.o.log({ msg: 'index rebuilt', documents: n, seconds: +((performance.now() - started) / 1000).toFixed(1) });
      return { documents: n };
    }
    if (job.name === 'catch-up') {
      const rebuild = await this.queue.getJob('rebuild');
      if (rebuild && !(await rebuild.isCompleted()) && !(await rebuild.isFailed()))
        return { documents: 0, deferredTo: 'rebuild' };
      const n = await runCatchUp(this.o);
      if (n > 0) this.o.log({ msg: 'index caught up', properties: n });
      return { documents: n };
    }
    if (job.name === 'prune-change-events') {
      const n = await pruneChangeEvents(this.o.pool);
      if (n > 0) this.o.log({ msg: 'change events pruned', events: n });
      return { events: n };
    }
    throw new Error(`unknown index job ${job.name}`);
  }

  async stop(): Promise<void> {
    await this.worker?.close();
    await this.queue.close();
    await Promise.all(this.connections.map((c) => c.quit().catch(() => c.disconnect())));
  }
}
