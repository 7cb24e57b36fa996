// The delivery engine of one worker process:
//   dispatcher  every WEBHOOK_DISPATCH_EVERY_MS: change feed -> outbox (dispatcher.ts), then the pump
//   pump        outbox heads not yet queued -> BullMQ `webhook-deliveries` (jobId `<webhookId>.<eventId>`: a head
//               queued twice is one job); woken at once by NOTIFY webhooks_outbox (a test event, a re-enabled endpoint)
//   worker      one job = one attempt: sign, send (sender.ts), log; a 2xx or the last attempt finishes the event and
//               queues the next event of the same record; any other failure is retried by BullMQ after the schedule's
//               wait (domain/retry-schedule.ts), counted in PostgreSQL so that a lost job starts where it was
//   slots       one endpoint holds at most a share of this process's deliveries in flight (endpoint-slots.ts);
//               a delivery that finds its endpoint's share taken waits its turn, without it counting as an attempt
//   resync      a marker key in Redis says the queue's data is there; when Redis comes back without it (an empty
//               Redis), every head is queued again from the outbox; a slower full pass repairs jobs BullMQ gave up
// At least once: the outbox row goes only with the 2xx's log entry, so a process killed mid-delivery leaves the job to
// be run again (BullMQ's stalled-job check), under the same webhook-id, which is what receivers deduplicate by.
import { DelayedError, Queue, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import type pg from 'pg';
import { createRedis, type Pool } from '@pra/platform';
import { inSpan, queueTelemetry, SpanKind } from '@pra/platform/telemetry';
import { pruneDeliveries } from '../data/delivery-log.js';
import { forgetExpiredSecrets, OUTBOX_CHANNEL } from '../data/webhook-registry.js';
import {
  finishEvent,
  headsAfter,
  markEnqueued,
  markUnqueued,
  loadDue,
  type Owed,
  pruneEventBodies,
  recordFailure,
  unqueuedHeads,
} from '../data/outbox.js';
import { isLastAttempt, MAX_ATTEMPTS, retryDelayMs } from '../domain/retry-schedule.js';
import { signedHeaders } from '../domain/signing.js';
import type { UrlPolicy } from '../domain/url-policy.js';
import { observeWebhookBacklog } from './backlog-gauges.js';
import { dispatchChanges } from './dispatcher.js';
import { type AttemptOutcome, defaultEndpointShare, EndpointSlots } from './endpoint-slots.js';
import { type Resolve, sendWebhook } from './sender.js';

export const DELIVERY_QUEUE = 'webhook-deliveries';
/** Heads queued per pump statement. */
const PUMP_BATCH = 1_000;
/** Change events read per dispatch round. */
const DISPATCH_BATCH = 500;

export interface EngineOptions {
  pool: Pool;
  /** A redis:// URL or a redis-cluster:// target (createRedis). */
  redisUrl: string;
  /** BullMQ's key prefix (braced in a cluster), one per deployment and per test run. */
  queuePrefix: string;
  log: (o: Record<string, unknown>) => void;
  policy: UrlPolicy;
  timeoutMs: number;
  responseCapBytes: number;
  /** Deliveries in flight at once in this process. */
  concurrency: number;
  /** Of those, at most this many to one endpoint (endpoint-slots.ts); default a fifth of `concurrency`. */
  endpointConcurrency?: number;
  /** To an endpoint whose last attempt failed (default 1). */
  failingEndpointConcurrency?: number;
  /** < 1 compresses the retry schedule (tests, a local system); 1 in production. */
  retryScale: number;
  dispatchEveryMs: number;
  /** The full pass that re-queues every head (jobs BullMQ gave up on, a Redis that lost its data). */
  resyncEveryMs: number;
  /** How long a job is held by a worker that stopped renewing it (killed) before another takes it. */
  lockDurationMs: number;
  /** Consecutive failed attempts at which a dead letter disables the endpoint (default: a whole schedule). */
  disableAfterFailures?: number;
  /** What this process runs: the worker, the dispatcher and pump, or both (default). */
  roles?: { worker: boolean; dispatcher: boolean };
  random?: () => number;
  resolve?: Resolve;
}

/** A failed attempt to be retried after `delayMs` (the backoff strategy reads it). */
class RetryLater extends Error {
  constructor(
    readonly delayMs: number,
    message: string,
  ) {
    super(message);
    this.name = 'RetryLater';
  }
}

export class DeliveryEngine {
  readonly queue: Queue<Owed>;
  private worker?: Worker<Owed>;
  private readonly connections: Redis[] = [];
  /** The LISTEN connection, and how to take its listeners off before it is given back. */
  private listener?: { client: pg.PoolClient; detach: () => void };
  private timers: NodeJS.Timeout[] = [];
  private pumping: Promise<void> | null = null;
  private pumpAgain = false;
  private dispatching = false;
  private stopped = false;
  private readonly marker: string;
  private stopObserving?: () => void;
  /** Each endpoint's share of this process's delivery slots. */
  readonly slots: EndpointSlots;

  constructor(private readonly o: EngineOptions) {
    this.slots = new EndpointSlots({
      total: o.concurrency,
      perEndpoint: o.endpointConcurrency ?? defaultEndpointShare(o.concurrency),
      failingPerEndpoint: o.failingEndpointConcurrency ?? 1,
      timeoutMs: o.timeoutMs,
    });
    this.queue = new Queue<Owed>(DELIVERY_QUEUE, {
      connection: this.connection(),
      prefix: o.queuePrefix,
      telemetry: queueTelemetry(),
    });
    this.marker = `${o.queuePrefix}:${DELIVERY_QUEUE}:outbox-synced`;
  }

  private connection(): Redis {
    const c = createRedis(this.o.redisUrl, 'worker');
    c.on('error', () => {}); // reconnects by itself; commands that need it wait (workers' clients never give up)
    this.connections.push(c);
    return c;
  }

  async start(): Promise<void> {
    const roles = this.o.roles ?? { worker: true, dispatcher: true };
    if (roles.worker) {
      this.worker = new Worker<Owed>(DELIVERY_QUEUE, (job, token) => this.deliverInTurn(job, token), {
        connection: this.connection(),
        prefix: this.o.queuePrefix,
        concurrency: this.o.concurrency,
        lockDuration: this.o.lockDurationMs,
        stalledInterval: Math.max(1_000, Math.floor(this.o.lockDurationMs / 2)),
        // A job whose worker died is run again, even several times (each death is a stall): BullMQ must not fail it.
        maxStalledCount: 1_000,
        settings: { backoffStrategy: (made, _type, err) => this.backoff(made, err) },
        telemetry: queueTelemetry(),
      });
      this.worker.on('failed', (job, err) => {
        if (!job || job.attemptsMade < (job.opts.attempts ?? 1)) return;
        // BullMQ gave up (not a delivery failure: those are retried until dead-lettered in PostgreSQL): the row goes
        // back to the pump.
        this.o.log({ msg: 'webhook job failed for good; queued again', jobId: job.id, err: String(err) });
        void markUnqueued(this.o.pool, job.data).catch(() => {});
      });
      this.worker.on('error', (err) => this.o.log({ msg: 'webhook worker error', err: String(err) }));
    }
    if (roles.dispatcher) {
      this.stopObserving = observeWebhookBacklog(this.o.pool);
      await this.listen();
      await this.resyncIfRedisLost(true);
      this.every(this.o.dispatchEveryMs, () => this.dispatchRound());
      this.every(this.o.resyncEveryMs, () => this.resync());
      this.every(5_000, () => this.resyncIfRedisLost(false));
      this.every(600_000, async () => {
        await pruneEventBodies(this.o.pool);
        await pruneDeliveries(this.o.pool);
        await forgetExpiredSecrets(this.o.pool);
      });
      void this.dispatchRound();
    }
  }

  /** Runs fn every `ms`; a round still running (a store that is slow or away) is not joined by another. */
  private every(ms: number, fn: () => Promise<unknown>): void {
    let running = false;
    const t = setInterval(() => {
      if (this.stopped || running) return;
      running = true;
      void fn()
        .catch((err) => this.o.log({ msg: 'webhook engine round failed', err: String(err) }))
        .finally(() => {
          running = false;
        });
    }, ms);
    t.unref();
    this.timers.push(t);
  }

  /**
   * NOTIFY webhooks_outbox wakes the pump (a test event, a re-enabled endpoint) without waiting for a round. The LISTEN
   * holds a connection of its own; when that connection breaks, the periodic rounds still pump, and it is dropped
   * (closed, not pooled) and LISTEN tried again on a fresh one a second later, and again until one holds. pg may tell
   * a broken connection's error twice: it is handled once (found by review: each time, another LISTEN connection and a
   * pool slot lost, until the pool ran dry).
   */
  private async listen(): Promise<void> {
    const client = await this.o.pool.connect();
    let dropped = false;
    const onNotification = () => void this.pump();
    /** The client's listeners off: once it is given back, its errors and notices are another checkout's business. */
    const detach = () => {
      client.off('notification', onNotification);
      client.off('error', drop);
    };
    const drop = (err: Error) => {
      if (dropped) return;
      dropped = true;
      detach();
      if (this.listener?.client === client) this.listener = undefined;
      client.release(err);
      this.listenLater();
    };
    client.on('notification', onNotification);
    client.on('error', drop);
    try {
      await client.query(`LISTEN ${OUTBOX_CHANNEL}`);
    } catch (err) {
      // Its connection broke: drop has it in hand. Otherwise the caller is told (and the client closed).
      if (dropped) return;
      dropped = true;
      detach();
      client.release(err as Error);
      throw err;
    }
    if (dropped) return;
    // Stopped meanwhile (a retry between its connect and its LISTEN): stop() has let the listener go already.
    if (this.stopped) {
      dropped = true;
      detach();
      client.release(new Error('the engine stopped'));
      return;
    }
    this.listener = { client, detach };
  }

  /** LISTEN again a second from now, and every second after until it holds (not once stopped). */
  private listenLater(): void {
    if (this.stopped) return;
    setTimeout(() => {
      if (!this.stopped) this.listen().catch(() => this.listenLater());
    }, 1_000).unref();
  }

  /** One dispatch round (more at once while the feed has a backlog), then the pump. */
  async dispatchRound(): Promise<void> {
    if (this.dispatching) return;
    this.dispatching = true;
    try {
      for (let i = 0; i < 20; i++) {
        const r = await dispatchChanges(this.o.pool, DISPATCH_BATCH, this.o.log);
        if (r.owed > 0) this.o.log({ msg: 'webhook events matched', events: r.events, deliveries: r.owed });
        if (!r.ran || r.events < DISPATCH_BATCH) break;
      }
    } finally {
      this.dispatching = false;
    }
    await this.pump();
  }

  /** Queues every head not queued yet; calls made while it runs make it run once more. */
  pump(): Promise<void> {
    if (this.pumping) {
      this.pumpAgain = true;
      return this.pumping;
    }
    this.pumping = (async () => {
      try {
        do {
          this.pumpAgain = false;
          for (;;) {
            const heads = await unqueuedHeads(this.o.pool, PUMP_BATCH);
            if (heads.length === 0 || this.stopped) break;
            await this.enqueue(heads);
            if (heads.length < PUMP_BATCH) break;
          }
        } while (this.pumpAgain && !this.stopped);
      } catch (err) {
        this.o.log({ msg: 'webhook pump failed', err: String(err) });
      } finally {
        this.pumping = null;
      }
    })();
    return this.pumping;
  }

  /** Into the queue first, then noted in PostgreSQL: a crash between the two queues them again, as the same jobs. */
  private async enqueue(owed: readonly Owed[]): Promise<void> {
    if (owed.length === 0) return;
    await this.queue.addBulk(
      owed.map((x) => ({
        name: 'deliver',
        data: x,
        opts: {
          jobId: `${x.webhookId}.${x.eventId}`,
          // Delivery failures are counted in PostgreSQL and end in a dead letter there; BullMQ's own count only
          // bounds retries of faults of ours (PostgreSQL unreachable while logging an attempt).
          attempts: MAX_ATTEMPTS + 50,
          backoff: { type: 'webhook' },
          // The outbox, not BullMQ, remembers what was done: a finished job is not kept, so a head queued again
          // later (after a park) is a new job.
          removeOnComplete: true,
          removeOnFail: true,
        },
      })),
    );
    await markEnqueued(this.o.pool, owed);
  }

  private backoff(attemptsMade: number, err: Error | undefined): number {
    if (err instanceof RetryLater || err?.name === 'RetryLater') return (err as RetryLater).delayMs;
    // A fault of ours: a short exponential wait, at most a minute.
    return Math.min(60_000, 500 * 2 ** Math.min(attemptsMade, 7));
  }

  /**
   * One attempt, when its endpoint has a free slot in this process; otherwise the job waits its turn (moved back to
   * delayed, not counted as an attempt: BullMQ's DelayedError).
   */
  private async deliverInTurn(job: Job<Owed>, token: string | undefined): Promise<{ outcome: string }> {
    const endpoint = job.data.webhookId;
    const slot = this.slots.acquire(endpoint, job.id ?? `${endpoint}.${job.data.eventId}`);
    if (!slot.ok) {
      await job.moveToDelayed(Date.now() + slot.retryInMs, token);
      throw new DelayedError();
    }
    const attempt: { outcome: AttemptOutcome } = { outcome: null };
    try {
      return await this.deliver(job, attempt);
    } finally {
      this.slots.release(endpoint, attempt.outcome);
    }
  }

  /** One attempt; `attempt.outcome` says what it showed of the endpoint (null when none was made). */
  private async deliver(job: Job<Owed>, attempt: { outcome: AttemptOutcome }): Promise<{ outcome: string }> {
    const owed = job.data;
    const due = await loadDue(this.o.pool, owed);
    // Acknowledged or dead-lettered by an earlier run of this job, or the endpoint deleted: nothing to send.
    if (!due) return { outcome: 'gone' };
    // Failing as the store counts it (another process saw it, or this one before a restart): one slot from now on.
    this.slots.noteFailing(owed.webhookId, due.consecutiveFailures > 0);
    if (due.status === 'disabled') {
      await markUnqueued(this.o.pool, owed);
      return { outcome: 'parked' };
    }
    const attemptNumber = due.attemptsMade + 1;
    const sentAt = new Date();
    const result = await inSpan(
      'webhook deliver',
      {
        kind: SpanKind.CLIENT,
        attributes: {
          'webhook.id': owed.webhookId,
          'webhook.event_id': owed.eventId,
          'webhook.attempt': attemptNumber,
        },
      },
      async (span) => {
        const r = await sendWebhook(
          { url: due.url, headers: signedHeaders(due.secrets, owed.eventId, due.body), body: due.body },
          {
            policy: this.o.policy,
            timeoutMs: this.o.timeoutMs,
            responseCapBytes: this.o.responseCapBytes,
            resolve: this.o.resolve,
          },
        );
        span.setAttributes({ 'webhook.ok': r.ok, ...(r.status ? { 'http.response.status_code': r.status } : {}) });
        return r;
      },
    );
    attempt.outcome = { ok: result.ok, latencyMs: result.latencyMs };
    const record = {
      attempt: attemptNumber,
      at: sentAt,
      httpStatus: result.status ?? null,
      error: result.ok ? null : (result.error ?? 'failed').slice(0, 500),
      latencyMs: result.latencyMs,
    };
    if (result.ok || isLastAttempt(attemptNumber)) {
      const outcome = result.ok ? 'delivered' : 'dead_letter';
      const done = await finishEvent(this.o.pool, owed, outcome, record, this.o.disableAfterFailures ?? MAX_ATTEMPTS);
      if (done.disabled) this.o.log({ msg: 'webhook disabled', webhookId: owed.webhookId, error: record.error });
      if (done.next) await this.enqueue([done.next]);
      return { outcome: done.recorded ? outcome : 'gone' };
    }
    const delayMs = retryDelayMs(attemptNumber, this.o.random, this.o.retryScale);
    const logged = await recordFailure(
      this.o.pool,
      owed,
      record,
      new Date(sentAt.getTime() + result.latencyMs + delayMs),
    );
    if (!logged) return { outcome: 'gone' };
    throw new RetryLater(delayMs, `attempt ${attemptNumber} failed: ${record.error}`);
  }

  /** Redis came back without the marker (an empty Redis): every head is queued again. At start: sets the marker. */
  private async resyncIfRedisLost(atStart: boolean): Promise<void> {
    const redis = this.connections[0]!;
    const present = await redis.get(this.marker);
    if (present && !atStart) return;
    if (!atStart) this.o.log({ msg: 'Redis lost the delivery queue: re-queueing every event owed from PostgreSQL' });
    await this.resync();
    await redis.set(this.marker, new Date().toISOString());
  }

  /** Queues every head again (jobs still in Redis are the same jobs: nothing is sent twice for it). */
  async resync(): Promise<number> {
    let after: Owed | null = null;
    let n = 0;
    for (;;) {
      const heads = await headsAfter(this.o.pool, after, PUMP_BATCH);
      if (heads.length === 0 || this.stopped) break;
      await this.enqueue(heads);
      n += heads.length;
      after = heads[heads.length - 1]!;
      if (heads.length < PUMP_BATCH) break;
    }
    return n;
  }

  /** In-flight deliveries finish (or are left to be run again), then every connection closes. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.stopObserving?.();
    for (const t of this.timers) clearInterval(t);
    await this.pumping;
    await this.worker?.close();
    await this.queue.close();
    if (this.listener) {
      const { client, detach } = this.listener;
      this.listener = undefined;
      detach();
      // Given back to the pool, not listening: or closed, if its connection is gone.
      const err = await client.query(`UNLISTEN ${OUTBOX_CHANNEL}`).then(
        () => undefined,
        (e: Error) => e,
      );
      client.release(err);
    }
    await Promise.all(this.connections.map((c) => c.quit().catch(() => c.disconnect())));
  }
}
