// Writes the usage outbox into PostgreSQL. The charge script appends each charged request to a Redis stream (one per
// shard: one on a single Redis, one per bucket in a cluster, data/redis-layout.ts); every ledger writer reads every
// stream through one consumer group each, in batches (up to `batchSize` events, or what arrived within a few ms;
// with many streams, up to about twice that when one is busy: see take()), writes a batch in ONE statement
// (idempotent on the transaction id) and only then acknowledges and deletes its entries. So an entry leaves the
// stream only once it is in the ledger:
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
import { NODE_ANSWER_MS, within } from './within.js';
import type { Pool } from '@pra/platform';
import { contextFromTraceparent, inSpan, ROOT_CONTEXT, trace } from '@pra/platform/telemetry';
import type { BillingShard, RedisLayout } from '../data/redis-layout.js';
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
  if (!Number.isSafeInteger(e.credits)) return 'no credits';
  if (e.credits === 0 && e.consumed.length > 0) return 'credits taken by a call without a charge';
  // A reversal (credits < 0) gives back exactly what its grants list says, each a negative amount.
  if (
    e.credits < 0 &&
    (e.consumed.some((c) => c.credits >= 0) || e.consumed.reduce((n, c) => n + c.credits, 0) !== e.credits)
  )
    return 'a reversal whose grants do not add up to it';
  if (!Number.isFinite(e.at)) return 'no time';
  if (e.calls !== undefined && (!Number.isSafeInteger(e.calls) || e.calls < 0)) return 'bad call count';
  if (e.consumed.some((c) => !Number.isSafeInteger(c.grantId) || !Number.isSafeInteger(c.credits)))
    return 'bad grant list';
  return null;
}
type ReadReply = [string, Entry[]][] | null;
/** Entries read for one write: per stream, their ids (all acknowledged once written) and what is not an event. */
interface Batch {
  parts: Part[];
  events: UsageEvent[];
  /** Entries in all (events, dead letters and deleted entries). */
  size: number;
  /** The read waited for entries (BLOCK): an empty batch needs no pause before the next read. */
  waited: boolean;
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
  /** How long one stream's read or acknowledgement may take before its node is taken for hung (NODE_ANSWER_MS). */
  answerMs?: number;
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

/** Where a writer's reading of one stream stands: changed only by a read that answered in time. */
interface StreamCursor {
  /** After a failure, this writer's own unacknowledged entries are read again first. */
  retryOwn: boolean;
  /** Where re-reading this writer's own pending entries continues (they are paged, never read twice in a round). */
  ownCursor: string;
  claimCursor: string;
  lastClaimAt: number;
}

/** What a writer keeps per outbox stream (one per shard: data/redis-layout.ts). */
interface StreamState extends StreamCursor {
  shard: BillingShard;
  /** The last read filled its share: the stream has a backlog and gets a bigger share of the next batch. */
  full: boolean;
  /** A stream whose node failed or did not answer is left out of the rounds until then (ms). */
  pausedUntil: number;
  /** Counts setBack(): a read that answers after one (a failed acknowledgement meanwhile) keeps its retry. */
  setBacks: number;
}

/** How long a stream whose node failed or hung is left out before it is tried again (ms). */
export const STREAM_PAUSE_MS = 2_000;

/** The entries of one stream in a batch: acknowledged together once the batch is written. */
interface Part {
  stream: StreamState;
  ids: string[];
  dead: { id: string; fields: string[]; reason: string }[];
}

export class LedgerWriter extends StoppableLoop {
  private readonly streams: StreamState[];
  private failures = 0;

  constructor(private readonly o: LedgerWriterOptions) {
    super(o.consumer);
    this.streams = o.layout.shards.map((shard) => ({
      shard,
      retryOwn: true,
      ownCursor: '0',
      claimCursor: '0-0',
      lastClaimAt: 0,
      full: false,
      pausedUntil: 0,
      setBacks: 0,
    }));
  }

  private get batchSize() {
    return this.o.batchSize ?? DEFAULT_BATCH_SIZE;
  }

  private async ensureGroup(shard: BillingShard): Promise<void> {
    try {
      await this.o.redis.xgroup('CREATE', shard.outbox, LEDGER_GROUP, '0', 'MKSTREAM');
    } catch (err) {
      if (!String(err).includes('BUSYGROUP')) throw err;
    }
  }

  private async read(s: BillingShard, id: string, count: number, block: boolean): Promise<Entry[]> {
    const args = [
      'GROUP',
      LEDGER_GROUP,
      this.consumer,
      'COUNT',
      String(count),
      ...(block ? ['BLOCK', String(this.o.blockMs ?? 20)] : []),
      'STREAMS',
      s.outbox,
      id,
    ];
    const reply =
      (await (this.o.redis as unknown as { xreadgroup(...a: string[]): Promise<ReadReply> }).xreadgroup(...args)) ??
      null;
    return reply?.[0]?.[1] ?? [];
  }

  /** Entries a dead (or stuck) consumer holds, taken over once they have been idle for claimIdleMs. */
  private async claim(shard: BillingShard, s: StreamCursor, count: number): Promise<Entry[]> {
    const idle = this.o.claimIdleMs ?? 30_000;
    const now = Date.now();
    if (now - s.lastClaimAt < Math.min(idle / 2, 5_000) && s.claimCursor === '0-0') return [];
    s.lastClaimAt = now;
    const [next, entries] = (await this.o.redis.xautoclaim(
      shard.outbox,
      LEDGER_GROUP,
      this.consumer,
      idle,
      s.claimCursor,
      'COUNT',
      count,
    )) as [string, (Entry | null)[]];
    s.claimCursor = next;
    return entries.filter((e): e is Entry => e !== null);
  }

  /** A stream's share of the next batch: its own unacknowledged entries after a failure, else claimed, else new. */
  private async takeFrom(shard: BillingShard, c: StreamCursor, count: number, block: boolean): Promise<Entry[]> {
    let entries: Entry[] = [];
    if (c.retryOwn) {
      entries = await this.read(shard, c.ownCursor, count, false);
      if (entries.length === 0) {
        c.retryOwn = false;
        c.ownCursor = '0';
      } else c.ownCursor = entries[entries.length - 1]![0];
    }
    if (entries.length === 0) entries = await this.claim(shard, c, count);
    if (entries.length === 0) entries = await this.read(shard, '>', count, block);
    return entries;
  }

  /**
   * A stream's share, read within NODE_ANSWER_MS on a copy of its cursor (a read that answers late changes
   * nothing). A stream that fails or does not answer gives nothing this round and is left out for STREAM_PAUSE_MS:
   * the other streams go on. What its read may still deliver is this writer's pending entries, read again first.
   */
  private async takeWithin(s: StreamState, count: number, block: boolean): Promise<Entry[]> {
    const c: StreamCursor = {
      retryOwn: s.retryOwn,
      ownCursor: s.ownCursor,
      claimCursor: s.claimCursor,
      lastClaimAt: s.lastClaimAt,
    };
    const setBacks = s.setBacks;
    try {
      const entries = await within(this.takeFrom(s.shard, c, count, block), this.answerMs, s.shard.outbox);
      Object.assign(s, c, { full: entries.length >= count });
      // A stream set back while this read was out (an acknowledgement that failed) re-reads its pending entries.
      if (s.setBacks !== setBacks) {
        s.retryOwn = true;
        s.ownCursor = '0';
      }
      return entries;
    } catch (err) {
      this.setBack(s, err);
      if (String(err).includes('NOGROUP'))
        await within(this.ensureGroup(s.shard), this.answerMs, s.shard.outbox).catch((e) => this.setBack(s, e));
      return [];
    }
  }

  private get answerMs() {
    return this.o.answerMs ?? NODE_ANSWER_MS;
  }

  /** A stream that failed: its pending entries read again first; left out for a while unless its group was gone. */
  private setBack(s: StreamState, err: unknown): void {
    s.setBacks++;
    s.retryOwn = true;
    s.ownCursor = '0';
    s.full = false;
    if (String(err).includes('NOGROUP')) return; // first start, or its node came back empty: made again at once
    const first = s.pausedUntil <= Date.now();
    s.pausedUntil = Date.now() + STREAM_PAUSE_MS;
    if (first)
      this.o.log({
        msg: 'an outbox stream did not answer; the other streams go on, and it is tried again shortly',
        stream: s.shard.outbox,
        err: String(err),
        retryInMs: STREAM_PAUSE_MS,
      });
  }

  /**
   * The next batch, from every stream at once (one round trip per Redis node). A stream whose last read filled its
   * share gets a bigger one, so that one busy account's stream drains in big batches; a single stream (a single
   * Redis) is read with BLOCK, as it always was, and many are read without it (the caller lingers instead).
   */
  private async take(): Promise<Batch> {
    const n = this.streams.length;
    const now = Date.now();
    const live = this.streams.filter((s) => s.pausedUntil <= now);
    const busy = live.filter((s) => s.full).length;
    const share = (s: StreamState) => Math.ceil(this.batchSize / (busy > 0 && s.full ? busy : n));
    const read = await Promise.all(live.map((s) => this.takeWithin(s, share(s), n === 1)));
    const events: UsageEvent[] = [];
    const parts: Part[] = [];
    read.forEach((entries, i) => {
      if (entries.length === 0) return;
      const part: Part = { stream: live[i]!, ids: [], dead: [] };
      for (const [id, fields] of entries) {
        part.ids.push(id);
        if (!fields) continue; // deleted while pending: nothing to write, only to acknowledge
        const event = eventFromStream(id, fields);
        const reason = invalidEvent(event);
        if (reason) part.dead.push({ id, fields, reason });
        else events.push(event);
      }
      parts.push(part);
    });
    return { parts, events, size: parts.reduce((k, p) => k + p.ids.length, 0), waited: n === 1 && live.length === 1 };
  }

  /**
   * Writes a batch, then (only then) acknowledges and deletes its entries: one MULTI per stream (one slot each). A
   * stream whose acknowledgement fails or does not answer keeps its entries pending: they are read again and written
   * again, which adds nothing (each event is written once by its id), then acknowledged.
   */
  private async commit(batch: Batch): Promise<number> {
    const { parts, events } = batch;
    if (batch.size === 0) return 0;
    if (events.length > 0) await this.write(events);
    await Promise.all(
      parts.map(async ({ stream, ids, dead }) => {
        const { outbox, deadLetters } = stream.shard;
        const m = this.o.redis.multi();
        for (const d of dead) m.xadd(deadLetters, '*', 'id', d.id, 'reason', d.reason, ...d.fields);
        const acknowledged = m
          .xack(outbox, LEDGER_GROUP, ...ids)
          .xdel(outbox, ...ids)
          .exec();
        try {
          await within(acknowledged, this.answerMs, outbox);
        } catch (err) {
          this.setBack(stream, err);
          return;
        }
        for (const d of dead)
          this.o.log({
            msg: 'outbox entry is not a usage event: moved to the dead-letter stream',
            id: d.id,
            reason: d.reason,
            stream: deadLetters,
          });
      }),
    );
    return batch.size;
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
        if (batch.size === 0) {
          // Many streams are read without BLOCK (and a paused one not at all): an empty round waits a little.
          if (!batch.waited && this.running) await this.sleep(Math.max(this.o.blockMs ?? 20, linger));
          continue;
        }
        writing = this.commit(batch);
        writing.catch(() => {}); // seen by settle()
        if (!this.streams.some((s) => s.full) && linger > 0 && this.running) await this.sleep(linger);
      } catch (err) {
        // The batch in flight first: its failure is this one, its success is kept.
        await settle().catch(() => {});
        // The batch that failed, and the one read meanwhile, are this writer's pending entries: read again first.
        for (const s of this.streams) {
          s.retryOwn = true;
          s.ownCursor = '0';
        }
        this.failures++;
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
    // A stream whose node does not answer in time counts as empty here (the writer's log says which).
    const perStream = await Promise.all(
      this.streams.map(({ shard }) =>
        within(
          Promise.all([
            this.o.redis.xlen(shard.outbox),
            this.o.redis.xrange(shard.outbox, '-', '+', 'COUNT', 1),
            this.o.redis.xlen(shard.deadLetters),
          ]),
          this.answerMs,
          shard.outbox,
        ).catch((): [number, [string, string[]][], number] => [0, [], 0]),
      ),
    );
    const now = Date.now();
    let waiting = 0;
    let deadLetters = 0;
    let oldest = now;
    for (const [length, head, dead] of perStream) {
      waiting += length;
      deadLetters += dead;
      if (head[0]) oldest = Math.min(oldest, Number(head[0][0].split('-')[0]));
    }
    return { waiting, oldestSeconds: Math.max(0, (now - oldest) / 1000), deadLetters };
  }
}
