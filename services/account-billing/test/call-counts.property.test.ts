// /usage's calls are exact whatever the faults (issue 24, part 5): generated sequences of charged and uncharged calls
// of three accounts, on two UTC days, with faults between them: a ledger writer that dies between its commit and
// its acknowledgement (its batch taken over and written again), an outbox entry delivered twice, a flush cut short
// after each of its steps (taken; applied, not deleted) and taken over, two flushers on the same hash at once, a
// request counted twice. After every step no call is counted twice (PostgreSQL never holds more than was made); at
// the end, once drained, /usage's calls (today, total, per day, last used) equal the calls made exactly, credits
// used equal the charges, and no usage event row exists for a call without a charge.
//
// Real Redis (a prefix of this file's own) and PostgreSQL, the real credit meter, call counter, ledger writer and
// call flusher, driven one step at a time.
import { randomBytes, randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createPool, type Pool } from '@pra/platform';
import { billingFixture, type BillingFixture } from './billing-fixtures.js';
import { RedisCreditMeter } from '../src/client/credit-meter.js';
import { RedisCallCounter } from '../src/client/call-counter.js';
import { LEDGER_GROUP, LedgerWriter } from '../src/workers/ledger-writer.js';
import { applyUsageEvents } from '../src/workers/apply-usage.js';
import { CallFlusher, callBucketsWaiting } from '../src/workers/call-flusher.js';
import { applyCallFlushes, pruneCallFlushes } from '../src/workers/apply-calls.js';
import { eventFromStream } from '../src/domain/usage-event.js';
import { usageReport } from '../src/domain/usage-report.js';

const DAY = 86_400_000;
const ENDPOINTS = ['/property/autocomplete', '/usage', '/property/address', '/made/up/path'] as const;

type Step =
  | { kind: 'charge'; account: number; wanted: number; day: 0 | 1 }
  | { kind: 'call'; account: number; endpoint: number; day: 0 | 1 }
  | { kind: 'replay' } // the last uncharged request counted again (same request id): adds nothing
  | { kind: 'callOfCharge' } // another call under the transaction of the last charge (a repeat, a conflict): counts
  | { kind: 'chargedCallCounted' } // the charged call itself offered to the counter: its charge counts it
  | { kind: 'write' }
  | { kind: 'writerDies' } // reads a batch, commits it, dies before XACK
  | { kind: 'redeliver' } // the oldest outbox entry appended again
  | { kind: 'flush' }
  | { kind: 'flushDies'; after: 'take' | 'apply' }
  | { kind: 'flushTwice' }; // two flushers at once on the same hashes

const account = fc.nat(2);
const day = fc.constantFrom(0 as const, 1 as const);
const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('charge' as const),
      account,
      wanted: fc.integer({ min: 1, max: 3 }),
      day,
    }),
  },
  {
    weight: 8,
    arbitrary: fc.record({ kind: fc.constant('call' as const), account, endpoint: fc.nat(ENDPOINTS.length - 1), day }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'replay' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'callOfCharge' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'chargedCallCounted' as const }) },
  { weight: 2, arbitrary: fc.constant({ kind: 'write' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'writerDies' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'redeliver' as const }) },
  { weight: 2, arbitrary: fc.constant({ kind: 'flush' as const }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('flushDies' as const),
      after: fc.constantFrom('take' as const, 'apply' as const),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'flushTwice' as const }) },
);
const run = fc.record({
  credits: fc.tuple(fc.nat(6), fc.nat(6), fc.nat(6)),
  steps: fc.array(step, { minLength: 1, maxLength: 30 }),
});
type Run = { credits: [number, number, number]; steps: Step[] };

let pool: Pool;
let f: BillingFixture;
let clock = Date.now();
let meter: RedisCreditMeter;
let counter: RedisCallCounter;
let writer: LedgerWriter;
const flushers: CallFlusher[] = [];

beforeAll(async () => {
  pool = createPool(inject('databaseUrl'), 6);
  f = await billingFixture(pool, inject('redisUrl'), `${inject('redisPrefix')}cc${randomBytes(3).toString('hex')}:`);
  meter = new RedisCreditMeter(f.redis, f.layout.prefix, { now: () => clock });
  counter = new RedisCallCounter(f.redis, f.layout.prefix, { now: () => clock });
  await f.redis.xgroup('CREATE', f.layout.shards[0]!.outbox, LEDGER_GROUP, '0', 'MKSTREAM');
  // Takes over any entry another consumer holds at once (claimIdleMs 0): the dead writer's batch comes back.
  writer = new LedgerWriter({ pool, redis: f.redis, layout: f.layout, log: () => {}, blockMs: 1, claimIdleMs: 0 });
  // Lease 0: each takes over a flush another left at once, as after the lease when its flusher died.
  for (const consumer of ['flusher-a', 'flusher-b'])
    flushers.push(new CallFlusher({ pool, redis: f.redis, layout: f.layout, log: () => {}, consumer, leaseMs: 0 }));
}, 60_000);
afterAll(async () => {
  await f.close();
  await pool.end();
});

const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

async function drain(): Promise<void> {
  for (let i = 0; i < 1_000; i++) {
    const pending = Number(((await f.redis.xpending(f.layout.shards[0]!.outbox, LEDGER_GROUP)) as [number])[0]);
    if ((await f.redis.xlen(f.layout.shards[0]!.outbox)) === 0 && pending === 0) break;
    await writer.writeOnce();
  }
  for (let i = 0; i < 100 && (await callBucketsWaiting(f.redis, f.layout)) > 0; i++) await flushers[0]!.flushOnce();
  expect(await f.redis.xlen(f.layout.shards[0]!.outbox)).toBe(0);
  expect(await callBucketsWaiting(f.redis, f.layout)).toBe(0);
}

async function play(r: Run): Promise<void> {
  const accounts = await Promise.all(r.credits.map((c) => f.fundedAccount(c)));
  const ids = accounts.map((a) => a.accountId);
  // What was made, per account: calls per UTC day, the latest call's time, credits charged.
  const made = ids.map(() => ({ days: new Map<string, { calls: number; credits: number }>(), last: 0, credits: 0 }));
  const count = (i: number, at: number, credits: number) => {
    const m = made[i]!;
    const d = m.days.get(utcDay(at)) ?? { calls: 0, credits: 0 };
    d.calls++;
    d.credits += credits;
    m.days.set(utcDay(at), d);
    m.last = Math.max(m.last, at);
    m.credits += credits;
  };
  const total = (i: number) => [...made[i]!.days.values()].reduce((s, d) => s + d.calls, 0);
  let lastCall: { requestId: string; accountId: number } | undefined;
  let lastCharge: { transactionId: string; requestId: string; accountId: number; index: number } | undefined;
  const now = Date.now();

  for (const s of r.steps) {
    if (s.kind === 'charge' || s.kind === 'call') {
      // Yesterday (UTC) or today: a sequence crosses the day boundary.
      clock = s.day === 1 ? now : now - DAY;
      const a = accounts[s.account]!;
      const transactionId = randomUUID();
      // Its own request id, apart from the transaction (as under an Idempotency-Key).
      const chargeRequestId = randomUUID();
      let granted = 0;
      if (s.kind === 'charge') {
        const result = await meter.charge({
          transactionId,
          requestId: chargeRequestId,
          who: { accountId: a.accountId, keyId: a.keyId, tier: 'starter' },
          endpoint: '/property/address',
          records: s.wanted,
          fingerprint: transactionId,
        });
        granted = result.granted;
        if (granted > 0)
          lastCharge = { transactionId, requestId: chargeRequestId, accountId: a.accountId, index: s.account };
      }
      if (granted > 0) count(s.account, clock, granted);
      else {
        // Not charged (a call, or a 402): counted as a call, as the services' countCalls does.
        const requestId = randomUUID();
        await counter.recordCall({
          requestId,
          transactionId,
          accountId: a.accountId,
          keyId: a.keyId,
          endpoint: s.kind === 'call' ? ENDPOINTS[s.endpoint]! : '/property/address',
        });
        lastCall = { requestId, accountId: a.accountId };
        count(s.account, clock, 0);
      }
    } else if (s.kind === 'replay' && lastCall) {
      await counter.recordCall({ ...lastCall, transactionId: lastCall.requestId, keyId: 0, endpoint: '/usage' });
    } else if (s.kind === 'callOfCharge' && lastCharge) {
      const requestId = randomUUID();
      clock = now;
      await counter.recordCall({ ...lastCharge, requestId, keyId: 0, endpoint: '/property/address' });
      lastCall = { requestId, accountId: lastCharge.accountId };
      count(lastCharge.index, clock, 0);
    } else if (s.kind === 'chargedCallCounted' && lastCharge) {
      await counter.recordCall({ ...lastCharge, keyId: 0, endpoint: '/property/address' });
    } else if (s.kind === 'write') {
      await writer.writeOnce();
    } else if (s.kind === 'writerDies') {
      const reply = (await f.redis.xreadgroup(
        'GROUP',
        LEDGER_GROUP,
        'doomed',
        'COUNT',
        5,
        'STREAMS',
        f.layout.shards[0]!.outbox,
        '>',
      )) as [string, [string, string[]][]][] | null;
      const entries = reply?.[0]?.[1] ?? [];
      if (entries.length > 0)
        await applyUsageEvents(
          pool,
          entries.map(([id, fl]) => eventFromStream(id, fl)),
        );
    } else if (s.kind === 'redeliver') {
      const [first] = (await f.redis.xrange(f.layout.shards[0]!.outbox, '-', '+', 'COUNT', 1)) as [string, string[]][];
      if (first) await f.redis.xadd(f.layout.shards[0]!.outbox, '*', ...first[1]);
    } else if (s.kind === 'flush') {
      await flushers[0]!.flushOnce();
    } else if (s.kind === 'flushDies') {
      // A flusher of its own (the default lease) dies after this step; the next flush takes its hash over.
      const doomed = new CallFlusher({ pool, redis: f.redis, layout: f.layout, log: () => {}, consumer: 'doomed' });
      await doomed.flushOnce({ stopAfter: s.after });
    } else if (s.kind === 'flushTwice') {
      await Promise.all(flushers.map((fl) => fl.flushOnce()));
    }
    // Never counted twice, whatever is still on its way: PostgreSQL holds at most the calls made.
    for (const [i, id] of ids.entries()) {
      const u = await usageReport(pool, id);
      expect(u.calls.total, `account ${i} after ${JSON.stringify(s)}`).toBeLessThanOrEqual(total(i));
      expect(u.credits.used).toBeLessThanOrEqual(made[i]!.credits);
    }
  }

  await drain();
  const today = utcDay(Date.now());
  for (const [i, id] of ids.entries()) {
    const m = made[i]!;
    const u = await usageReport(pool, id);
    expect(
      {
        total: u.calls.total,
        today: u.calls.today,
        used: u.credits.used,
        days: u.daily_usage,
        last: u.calls.last_used,
      },
      `account ${i}`,
    ).toEqual({
      total: total(i),
      today: m.days.get(today)?.calls ?? 0,
      used: m.credits,
      days: [...m.days.entries()]
        .sort(([a], [b]) => b.localeCompare(a))
        .map(([d, v]) => ({ day: d, calls: v.calls, credits_used: v.credits })),
      last: m.last ? new Date(m.last).toISOString() : null,
    });
    expect(u.credits.balance).toBe(r.credits[i]! - m.credits);
  }
  // A call without a charge is never a usage event row.
  const { rows } = await pool.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM billing.usage_events WHERE account_id = ANY($1) AND credits = 0',
    [ids],
  );
  expect(rows[0]!.n).toBe(0);
}

describe('calls counted without a row per call', () => {
  it('/usage calls = calls made, credits used = charges, for any sequence of calls and faults', async () => {
    const examples: [Run][] = [
      // A flush cut after its commit, taken over; a writer dead after its commit; calls on both days.
      [
        {
          credits: [3, 0, 0],
          steps: [
            { kind: 'call', account: 0, endpoint: 0, day: 0 },
            { kind: 'call', account: 0, endpoint: 0, day: 1 },
            { kind: 'charge', account: 0, wanted: 2, day: 1 },
            { kind: 'flushDies', after: 'apply' },
            { kind: 'call', account: 0, endpoint: 1, day: 1 },
            { kind: 'writerDies' },
            { kind: 'flush' },
            { kind: 'redeliver' },
            { kind: 'replay' },
          ],
        },
      ],
    ];
    await fc.assert(
      fc.asyncProperty(run, (r) => play(r as Run)),
      { numRuns: 40, examples, endOnFailure: true },
    );
  }, 300_000);

  it('a flush held by a live flusher is left to it until its lease is over, then taken over and applied once', async () => {
    const a = await f.fundedAccount(0);
    clock = Date.now();
    for (let i = 0; i < 3; i++)
      await counter.recordCall({
        requestId: randomUUID(),
        transactionId: randomUUID(),
        accountId: a.accountId,
        keyId: 0,
        endpoint: '/usage',
      });
    const holder = new CallFlusher({
      pool,
      redis: f.redis,
      layout: f.layout,
      log: () => {},
      consumer: 'holder',
      leaseMs: 60_000,
    });
    const other = new CallFlusher({
      pool,
      redis: f.redis,
      layout: f.layout,
      log: () => {},
      consumer: 'other',
      leaseMs: 60_000,
    });
    await holder.flushOnce({ stopAfter: 'take' });
    expect(await other.flushOnce()).toBe(0); // held: left alone
    expect((await usageReport(pool, a.accountId)).calls.total).toBe(0);
    const late = new CallFlusher({
      pool,
      redis: f.redis,
      layout: f.layout,
      log: () => {},
      consumer: 'other',
      leaseMs: 0,
    });
    expect(await late.flushOnce()).toBe(3);
    expect(await holder.flushOnce()).toBe(0); // its flush is gone: nothing taken, nothing added
    expect((await usageReport(pool, a.accountId)).calls.total).toBe(3);
  });

  it('an applied flush sent again adds nothing; flush ids are pruned only when old and not in Redis', async () => {
    const a = await f.fundedAccount(0);
    const flush = {
      id: randomUUID(),
      bucket: 0,
      groups: [
        { account: a.accountId, day: Math.floor(Date.now() / DAY), endpoint: '/usage', calls: 5, lastAt: Date.now() },
      ],
    };
    await applyCallFlushes(pool, [flush]);
    await applyCallFlushes(pool, [flush]);
    expect((await usageReport(pool, a.accountId)).calls).toMatchObject({ total: 5, today: 5 });
    const old = randomUUID();
    const live = randomUUID();
    await pool.query(
      `INSERT INTO billing.call_flushes (id, applied_at) VALUES ($1, now() - interval '2 days'), ($2, now() - interval '2 days')`,
      [old, live],
    );
    await pruneCallFlushes(pool, [live]);
    const { rows } = await pool.query<{ id: string }>(
      'SELECT id FROM billing.call_flushes WHERE id = ANY($1::uuid[])',
      [[old, live, flush.id]],
    );
    expect(rows.map((r) => r.id).sort()).toEqual([live, flush.id].sort());
  });
});
