// Writes the usage outbox into PostgreSQL. The charge script appends each charged request to a Redis stream; every
// ledger writer reads it through one consumer group, in batches (up to `batchSize` events, or what arrived within a
// few ms), writes a batch in ONE statement (idempotent on the transaction id) and only then acknowledges and deletes
// its entries. So an entry leaves the stream only once it is in the ledger:
// - a batch that cannot be written stays pending and is retried (with backoff) until it is; nothing is given up;
// - a writer that dies leaves its entries pending; after `claimIdleMs` another writer claims them (XAUTOCLAIM);
// - stop() stops reading, finishes (writes and acknowledges) the batches in flight, then returns;
// - reconciliation counts every entry still in the stream as charged-but-not-yet-written, never as drift;
// - an entry that is not a usage event (it cannot come from the charge script) is moved to a dead-letter stream
//   with a log line, so that it never blocks the events behind it; an entry deleted while pending is acknowledged.
// Two batches are in flight at most: the next one is read and decoded from Redis while PostgreSQL writes the one
// before (their statements never overlap: one writer never waits on its own row locks). Without it the writer's and
// PostgreSQL's time added up (a drain spent ~75% in the statement and the rest reading, decoding and acknowledging,
// each waiting for the other); a batch is still acknowledged only after its own commit, and a failure waits for the
// batch in flight, then reads this writer's pending entries again from the first.
import type { Redis } from 'ioredis';
import { StoppableLoop } from './stoppable-loop.js';
import type { Pool } from '@pra/platform';
import { contextFromTraceparent, inSpan, ROOT_CONTEXT, trace } from '@pra/platform/telemetry';
import type { RedisLayout } from '../data/redis-layout.js';
import { eventFromStream, type UsageEvent } from '../domain/usage-event.js';
import { applyUsageEvents } from './apply-usage.js';

export const LEDGER_GROUP = 'ledger';
/**
 * Events per batch. Each batch costs a commit, three Redis round trips and a statement's fixed cost; past a few
 * thousand they no longer show, and a batch's statement holds its accounts' counter rows longer.
 */
export const DEFAULT_BATCH_SIZE = 4_000;

type Entry = [string, string[] | null];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Why an event cannot be written, or null when it can. */
function invalidEvent(e: UsageEvent): string | null {
  if (!UUID.test(e.txid ?? '')) return 'no transaction id';
  if (!Number.isSafeInteger(e.account) || e.account <= 0) return 'no account';
  // 0 credits: a call without a charge, as call counters wrote them before billing migration 0005 (calls are counted
  // in billing.call_counts now: workers/call-flusher.ts). Still written, so that an entry of a process that ran the
  // older code (a rolling deploy) is counted; it takes no credit.
  if (!Number.isSafeInteger(e.credits) || e.credits < 0) return 'no credits';
  if (e.credits === 0 && e.consumed.length > 0) return 'credits taken by a call without a charge';
  if (!Number.isFinite(e.at)) return 'no time';
  if (e.consumed.some((c) => !Number.isSafeInteger(c.grantId) || !Number.isSafeInteger(c.credits)))
    return 'bad grant list';
  return null;
}
type ReadReply = [string, Entry[]][] | null;
/** Entries read for one write: their ids (all acknowledged once written), the events, and what is not an event. */
interface Batch {
  ids: string[];
  events: UsageEvent[];
  dead: { id: string; fields: string[]; reason: string }[];
}

export interface LedgerWriterOptions {
  pool: Pool;
  /** A connection of its own: XREADGROUP blocks it. */
  redis: Redis;
  layout: RedisLayout;
  log: (o: Record<string, unknown>) => void;
  /** This writer's name in the group; unique per process by default (a replaced process is a new consumer). */
  consumer?: string;
  batchSize?: number;
  /** How long a read waits for the first event (the batch is what arrived by then). */
  blockMs?: number;
  /** Entries another consumer has held this long without acknowledging are taken over. */
  claimIdleMs?: number;
  /**
   * After a batch smaller than batchSize, how long the writer waits before reading again, so that the next batch
   * gathers what arrives meanwhile (default 100 ms). Each batch costs three Redis round trips and one PostgreSQL
   * statement whatever its size, and on loopback a round trip's socket work is most of it: at 1,000 charges a second
   * a writer that read again at once wrote batches of two or three events; one that waited 10 ms still took 17% of a
   * core (small batches, ~170 us a charge, measured with a writer process beside steady charging); 100 ms, 6%. The
   * price is up to this much more ledger lag (the outbox keeps the charges meanwhile, reconcile counts them); a full
   * batch is followed by the next read at once.
   */
  lingerMs?: number;
}

export class LedgerWriter extends StoppableLoop {
  private retryOwn = true;
  /** Where re-reading this writer's own pending entries continues (they are paged, never read twice in a round). */
  private ownCursor = '0';
  private claimCursor = '0-0';
  private lastClaimAt = 0;
  private failures = 0;

  constructor(private readonly o: LedgerWriterOptions) {
    super(o.consumer);
  }

  private get batchSize() {
    return this.o.batchSize ?? DEFAULT_BATCH_SIZE;
  }

  private async ensureGroup(): Promise<void> {
    try {
      await this.o.redis.xgroup('CREATE', this.o.layout.outbox, LEDGER_GROUP, '0', 'MKSTREAM');
    } catch (err) {
      if (!String(err).includes('BUSYGROUP')) throw err;
    }
  }

  private async read(id: string, block: boolean): Promise<Entry[]> {
    const args = [
      'GROUP',
      LEDGER_GROUP,
      this.consumer,
      'COUNT',
      String(this.batchSize),
      ...(block ? ['BLOCK', String(this.o.blockMs ?? 20)] : []),
      'STREAMS',
      this.o.layout.outbox,
      id,
    ];
    const reply =
      (await (this.o.redis as unknown as { xreadgroup(...a: string[]): Promise<ReadReply> }).xreadgroup(...args)) ??
      null;
    return reply?.[0]?.[1] ?? [];
  }

  /** Entries a dead (or stuck) consumer holds, taken over once they have been idle for claimIdleMs. */
  private async claim(): Promise<Entry[]> {
    const idle = this.o.claimIdleMs ?? 30_000;
    const now = Date.now();
    if (now - this.lastClaimAt < Math.min(idle / 2, 5_000) && this.claimCursor === '0-0') return [];
    this.lastClaimAt = now;
    const [next, entries] = (await this.o.redis.xautoclaim(
      this.o.layout.outbox,
      LEDGER_GROUP,
      this.consumer,
      idle,
      this.claimCursor,
      'COUNT',
      this.batchSize,
    )) as [string, (Entry | null)[]];
    this.claimCursor = next;
    return entries.filter((e): e is Entry => e !== null);
  }

  /** The next batch: this writer's own unacknowledged entries after a failure, else claimed ones, else new ones. */
  private async take(): Promise<Batch> {
    let entries: Entry[] = [];
    if (this.retryOwn) {
      entries = await this.read(this.ownCursor, false);
      if (entries.length === 0) {
        this.retryOwn = false;
        this.ownCursor = '0';
      } else this.ownCursor = entries[entries.length - 1]![0];
    }
    if (entries.length === 0) entries = await this.claim();
    if (entries.length === 0) entries = await this.read('>', true);
    const events: UsageEvent[] = [];
    const dead: { id: string; fields: string[]; reason: string }[] = [];
    for (const [id, fields] of entries) {
      if (!fields) continue; // deleted while pending: nothing to write, only to acknowledge
      const event = eventFromStream(id, fields);
      const reason = invalidEvent(event);
      if (reason) dead.push({ id, fields, reason });
      else events.push(event);
    }
    return { ids: entries.map(([id]) => id), events, dead };
  }

  /** Writes a batch, then (only then) acknowledges and deletes its entries. */
  private async commit(batch: Batch): Promise<number> {
    const { ids, events, dead } = batch;
    if (ids.length === 0) return 0;
    if (events.length > 0) await this.write(events);
    const m = this.o.redis.multi();
    for (const d of dead) m.xadd(`${this.o.layout.outbox}:dead`, '*', 'id', d.id, 'reason', d.reason, ...d.fields);
    await m
      .xack(this.o.layout.outbox, LEDGER_GROUP, ...ids)
      .xdel(this.o.layout.outbox, ...ids)
      .exec();
    for (const d of dead)
      this.o.log({
        msg: 'outbox entry is not a usage event: moved to the dead-letter stream',
        id: d.id,
        reason: d.reason,
        stream: `${this.o.layout.outbox}:dead`,
      });
    return ids.length;
  }

  /** One batch, read, written and acknowledged before it returns (tests, and tools that drive a writer by hand). */
  async writeOnce(): Promise<number> {
    return this.commit(await this.take());
  }

  /** One ledger write for many requests: a span under the first traced event's trace, linked to every one. */
  private write(events: UsageEvent[]): Promise<number> {
    const contexts = events.flatMap((e) =>
      e.trace ? [trace.getSpanContext(contextFromTraceparent(e.trace))].filter((c) => c !== undefined) : [],
    );
    const parent = contexts[0] ? trace.setSpanContext(ROOT_CONTEXT, contexts[0]) : ROOT_CONTEXT;
    return inSpan(
      'usage ledger write',
      {
        attributes: { 'pra.usage.batch.size': events.length },
        links: contexts.map((context) => ({ context })),
        parent,
      },
      () => applyUsageEvents(this.o.pool, events),
    );
  }

  protected async run(): Promise<void> {
    const linger = this.o.lingerMs ?? 100;
    // The batch being written while the next is read (at most one: statements of one writer never overlap).
    let writing: Promise<number> | undefined;
    const settle = async () => {
      const w = writing;
      writing = undefined;
      if (w) await w;
    };
    while (this.running) {
      try {
        const batch = await this.take();
        await settle();
        this.failures = 0;
        if (batch.ids.length === 0) continue;
        writing = this.commit(batch);
        writing.catch(() => {}); // seen by settle()
        if (batch.ids.length < this.batchSize && linger > 0 && this.running) await this.sleep(linger);
      } catch (err) {
        // The batch in flight first: its failure is this one, its success is kept.
        await settle().catch(() => {});
        if (String(err).includes('NOGROUP')) {
          // First start, or Redis came back empty: the group is made again (entries lost with Redis are the
          // reload's business: balances come back from PostgreSQL).
          await this.ensureGroup().catch(() => {});
          continue;
        }
        this.failures++;
        this.retryOwn = true;
        this.ownCursor = '0';
        const delay = Math.min(10_000, 250 * 2 ** Math.min(this.failures - 1, 6));
        const waiting = await this.backlog().catch(() => undefined);
        this.o.log({
          msg: 'ledger write failed; the events stay in the outbox and are retried',
          err: String(err),
          retryInMs: delay,
          ...waiting,
        });
        await this.sleep(delay);
      }
    }
    await settle().catch((err) =>
      this.o.log({ msg: 'ledger write failed at stop; the events stay in the outbox', err: String(err) }),
    );
  }

  /**
   * How many events wait for the ledger, the age of the oldest (seconds), and how many entries the dead-letter
   * stream holds (each one a charge that never reached the ledger: someone must look at it).
   */
  async backlog(): Promise<{ waiting: number; oldestSeconds: number; deadLetters: number }> {
    const [length, head, deadLetters] = await Promise.all([
      this.o.redis.xlen(this.o.layout.outbox),
      this.o.redis.xrange(this.o.layout.outbox, '-', '+', 'COUNT', 1),
      this.o.redis.xlen(`${this.o.layout.outbox}:dead`),
    ]);
    const oldest = head[0] ? Number(head[0][0].split('-')[0]) : Date.now();
    return { waiting: length, oldestSeconds: Math.max(0, (Date.now() - oldest) / 1000), deadLetters };
  }
}
