// Moves usage events from the Redis outbox stream into the BullMQ `usage` queue. jobId = transaction id, so a
// re-delivered entry (relay killed between add and ack) adds no second job; the worker's insert-if-absent covers
// a job re-added after the first one completed and was removed.
import { hostname } from 'node:os';
import type { Queue } from 'bullmq';
import { contextFromTraceparent, SpanKind, trace, traceHeaders, tracer } from '@pra/shared/telemetry';
import type { Redis } from 'ioredis';
import type { RedisLayout } from '../data/redis-layout.js';
import { eventFromStream, type UsageEvent } from '../domain/usage-event.js';

const GROUP = 'relay';
type StreamReply = [string, [string, string[]][]][] | null;

export class OutboxRelay {
  private running = false;
  private stopped: Promise<void> = Promise.resolve();
  private readonly consumer = `${hostname()}-${process.pid}`;

  constructor(
    /** A dedicated connection: XREADGROUP blocks it. */
    private readonly redis: Redis,
    private readonly queue: Queue<UsageEvent>,
    private readonly layout: RedisLayout,
    private readonly onError: (err: unknown) => void = () => {},
  ) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    this.stopped = this.loop();
  }

  async stop(): Promise<void> {
    this.running = false;
    await this.stopped;
  }

  private async ensureGroup(): Promise<void> {
    try {
      await this.redis.xgroup('CREATE', this.layout.outbox, GROUP, '0', 'MKSTREAM');
    } catch (err) {
      if (!String(err).includes('BUSYGROUP')) throw err;
    }
  }

  /** Relays one read's worth of entries; returns how many. `pending` re-reads entries delivered but not acked. */
  async relayOnce(pending: boolean, blockMs = 1_000): Promise<number> {
    const args = ['GROUP', GROUP, this.consumer, 'COUNT', '500', ...(pending ? [] : ['BLOCK', String(blockMs)]), 'STREAMS', this.layout.outbox, pending ? '0' : '>'];
    let reply: StreamReply;
    try {
      reply = (await (this.redis as unknown as { xreadgroup(...a: string[]): Promise<StreamReply> }).xreadgroup(...args)) ?? null;
    } catch (err) {
      if (String(err).includes('NOGROUP')) {
        await this.ensureGroup(); // Redis came back empty, or first start
        return 0;
      }
      throw err;
    }
    const entries = reply?.[0]?.[1] ?? [];
    if (entries.length === 0) return 0;
    const events = entries.map(([id, fields]) => eventFromStream(id, fields));
    // Each job continues its request's trace: a producer span under the request, whose context the job carries
    // (bullmq-otel's metadata) so the worker's consumer span is its child.
    // Events charged outside a trace get no span.
    const spans = events.map((e) => {
      if (!e.trace) return undefined;
      const parent = contextFromTraceparent(e.trace);
      const span = tracer().startSpan('usage publish', {
        kind: SpanKind.PRODUCER,
        attributes: { 'messaging.system': 'bullmq', 'messaging.destination.name': this.queue.name, 'pra.transaction.id': e.txid, 'pra.credits.charged': e.credits },
      }, parent);
      return { span, metadata: JSON.stringify(traceHeaders(trace.setSpan(parent, span))) };
    });
    try {
      await this.queue.addBulk(
        events.map((e, i) => ({
          name: 'usage',
          data: e,
          opts: {
            jobId: e.txid, attempts: 12, backoff: { type: 'exponential', delay: 500 }, removeOnComplete: true, removeOnFail: false,
            ...(spans[i] ? { telemetry: { metadata: spans[i].metadata } } : {}),
          },
        })),
      );
    } finally {
      for (const s of spans) s?.span.end();
    }
    const ids = entries.map(([id]) => id);
    await this.redis.multi().xack(this.layout.outbox, GROUP, ...ids).xdel(this.layout.outbox, ...ids).exec();
    return entries.length;
  }

  private async loop(): Promise<void> {
    await this.ensureGroup().catch(this.onError);
    let pending = true;
    while (this.running) {
      try {
        const n = await this.relayOnce(pending, 500);
        if (pending && n === 0) pending = false;
      } catch (err) {
        this.onError(err);
        pending = true;
        await new Promise((r) => setTimeout(r, 500));
      }
    }
  }
}
