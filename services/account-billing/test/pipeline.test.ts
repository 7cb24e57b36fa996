// The usage pipeline against real Redis and PostgreSQL: every credit charged appears exactly once in the ledger,
// across a Redis wipe; reconciliation repairs drift and never mistakes in-flight charges for it. The ledger
// writer's own faults (redelivery, a writer dying mid-batch, PostgreSQL away): ledger-writer.test.ts.
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ApiError } from '@pra/core/errors';
import { createPool, type Pool } from '@pra/platform';
import type {} from '@pra/platform/testing'; // types inject('databaseUrl' | 'redisUrl' | 'redisPrefix')
import { billingFixture, type BillingFixture } from './billing-fixtures.js';
import { UsagePipeline } from '../src/workers/pipeline.js';
import { applyUsageEvents } from '../src/workers/apply-usage.js';
import { reconcile } from '../src/workers/reconcile.js';
import { reloadBalances } from '../src/data/balances.js';
import { usageReport } from '../src/domain/usage-report.js';
import { grantCredits } from '../src/domain/accounts.js';
import type { UsageEvent } from '../src/domain/usage-event.js';

let pool: Pool;
let f: BillingFixture;
let pipeline: UsagePipeline;
const logs: Record<string, unknown>[] = [];

beforeAll(async () => {
  pool = createPool(inject('databaseUrl'), 8);
  // Its own prefix: these tests wipe Redis state, which must not reach other test files of the run.
  const prefix = `${inject('redisPrefix')}pipe${randomBytes(3).toString('hex')}:`;
  f = await billingFixture(pool, inject('redisUrl'), prefix);
  pipeline = new UsagePipeline({
    pool,
    redisUrl: inject('redisUrl'),
    layout: f.layout,
    log: (o) => logs.push(o),
    watchdogEveryMs: 100,
    reconcileEveryMs: 3_600_000,
    expireEveryMs: 3_600_000,
  });
  await pipeline.start();
});
afterAll(async () => {
  await pipeline.stop();
  await f.close();
  await pool.end();
});

const charge = (accountId: number, wanted: number, transactionId = randomUUID()) =>
  f.meter.charge({
    transactionId,
    who: { accountId, keyId: 0, tier: 'starter' },
    endpoint: '/property/address',
    records: wanted,
    fingerprint: transactionId,
  });

async function ledger(accountId: number) {
  const { rows } = await pool.query(
    `SELECT (SELECT coalesce(-sum(amount), 0)::int FROM billing.ledger_entries WHERE account_id = $1 AND kind IN ('charge', 'refund')) AS charged,
            (SELECT count(*)::int FROM billing.usage_events WHERE account_id = $1) AS events,
            (SELECT coalesce(sum(remaining), 0)::int FROM billing.credit_grants WHERE account_id = $1) AS remaining`,
    [accountId],
  );
  return rows[0] as { charged: number; events: number; remaining: number };
}

describe('usage pipeline', () => {
  it('after 10,000 charges the ledger equals the credits charged, and /usage agrees', async () => {
    const a = await f.fundedAccount(15_000);
    let charged = 0;
    let calls = 0;
    for (let batch = 0; batch < 100; batch++) {
      const results = await Promise.all(
        Array.from({ length: 100 }, (_, i) => charge(a.accountId, 1 + ((batch + i) % 3))),
      );
      for (const r of results) {
        charged += r.granted;
        if (r.granted > 0) calls++;
      }
    }
    expect(charged).toBe(15_000); // 10,000 charges of 1-3 credits drain 15,000 exactly, never more
    // The spent grant has left Redis (memory is bounded by live grants).
    expect(await f.redis.hlen(f.layout.grants(a.accountId))).toBe(0);
    expect(await f.redis.zcard(f.layout.expiry(a.accountId))).toBe(0);
    await pipeline.drained(f.redis, 60_000);
    expect(await ledger(a.accountId)).toEqual({ charged, events: calls, remaining: 0 });
    const usage = await usageReport(pool, a.accountId);
    expect(usage.credits).toMatchObject({ balance: 0, purchased: 15_000, used: charged });
    expect(usage.calls.total).toBe(calls);
    expect(usage.calls.today).toBe(calls);
    expect(usage.daily_usage[0]).toMatchObject({ calls, credits_used: charged });
  }, 120_000);

  it('fails closed when Redis comes back empty, then recovers the right balance from PostgreSQL', async () => {
    const a = await f.fundedAccount(20);
    await charge(a.accountId, 7);
    await pipeline.drained(f.redis);
    // Stop the watchdog's reload for a moment by wiping and charging at once: the wipe removes every key.
    const keys = await f.redis.keys(`${f.layout.prefix}*`);
    await f.redis.del(...keys);
    const refused = await charge(a.accountId, 1).then(
      () => null,
      (e: unknown) => e,
    );
    if (refused !== null) {
      expect(refused).toBeInstanceOf(ApiError);
      expect((refused as ApiError).status).toBe(503);
    }
    for (let i = 0; i < 50 && !(await f.redis.exists(f.layout.shards[0]!.loaded)); i++)
      await new Promise((r) => setTimeout(r, 100));
    expect(await f.meter.balance(a.accountId)).toBe(13);
    // Reconciliation right after the reload must not count the pre-wipe charge again (the stream restarted).
    const report = await reconcile(pool, f.redis, f.layout);
    expect(report.drift.filter((d) => d.accountId === a.accountId)).toEqual([]);
    await f.redis.xadd(f.layout.shards[0]!.outbox, '*', 'probe', '1'); // a recreated stream with ids from 0-0 upwards
    await f.redis.xtrim(f.layout.shards[0]!.outbox, 'MAXLEN', 0);
    expect((await reconcile(pool, f.redis, f.layout)).drift.filter((d) => d.accountId === a.accountId)).toEqual([]);
    expect(await f.meter.balance(a.accountId)).toBe(13);
    const r = await charge(a.accountId, 20);
    expect(r.granted).toBe(13);
    await pipeline.drained(f.redis);
    expect(await ledger(a.accountId)).toMatchObject({ charged: 20, remaining: 0 });
    expect(logs.some((l) => l.msg === 'loaded from PostgreSQL into Redis' && Number(l.grants) > 0)).toBe(true);
  });

  it('refuses every charge while balances are not loaded (no marker), whatever the balance', async () => {
    const a = await f.fundedAccount(50);
    await pipeline.stop();
    try {
      await f.redis.del(f.layout.shards[0]!.loaded);
      await expect(charge(a.accountId, 1)).rejects.toMatchObject({ status: 503 });
      expect(
        await f.redis.hget(
          f.layout.grants(a.accountId),
          (await pool.query('SELECT id FROM billing.credit_grants WHERE account_id = $1', [a.accountId])).rows[0].id,
        ),
      ).toBe('50');
    } finally {
      pipeline = new UsagePipeline({
        pool,
        redisUrl: inject('redisUrl'),
        layout: f.layout,
        log: (o) => logs.push(o),
        watchdogEveryMs: 100,
        reconcileEveryMs: 3_600_000,
        expireEveryMs: 3_600_000,
      });
      await pipeline.start();
    }
    expect((await charge(a.accountId, 1)).granted).toBe(1);
  });
});

describe('reload after Redis comes back empty', () => {
  it('is done once, whatever the number of billing processes watching', async () => {
    const g = await billingFixture(
      pool,
      inject('redisUrl'),
      `${inject('redisPrefix')}reload${randomBytes(3).toString('hex')}:`,
    );
    const a = await g.fundedAccount(40);
    const reloads: Record<string, unknown>[] = [];
    const watchers = Array.from(
      { length: 4 },
      () =>
        new UsagePipeline({
          pool,
          redisUrl: inject('redisUrl'),
          layout: g.layout,
          log: (o) => reloads.push(o),
          watchdogEveryMs: 20,
          reconcileEveryMs: 3_600_000,
          expireEveryMs: 3_600_000,
        }),
    );
    try {
      await Promise.all(watchers.map((w) => w.start()));
      reloads.length = 0;
      const keys = await g.redis.keys(`${g.layout.prefix}*`);
      await g.redis.del(...keys);
      const reloaded = () => reloads.filter((l) => l.msg === 'loaded from PostgreSQL into Redis');
      for (let i = 0; i < 200 && reloaded().length === 0; i++) await new Promise((r) => setTimeout(r, 50));
      await new Promise((r) => setTimeout(r, 500)); // every watchdog has looked again by now
      expect(reloaded(), JSON.stringify(reloads)).toHaveLength(1);
      expect(await g.meter.balance(a.accountId)).toBe(40);
    } finally {
      await Promise.all(watchers.map((w) => w.stop()));
      await g.close();
    }
  }, 30_000);
});

describe('maintenance schedulers', () => {
  it('are made again when one is missing, even after an upsert that failed halfway', async () => {
    const q = pipeline.maintenanceQueue;
    const ids = async () => (await q.getJobSchedulers()).map((s) => s.key).sort();
    expect(await ids()).toEqual(['expire-credits', 'rebuild-key-cache', 'reconcile']);
    // A scheduler lost (its node wiped, or an upsert cut halfway), and the next upsert failing once.
    await q.removeJobScheduler('expire-credits');
    await q.removeJobScheduler('rebuild-key-cache');
    const upsert = q.upsertJobScheduler.bind(q);
    let failures = 0;
    q.upsertJobScheduler = ((...a: Parameters<typeof upsert>) => {
      if (a[0] === 'expire-credits' && failures++ === 0) return Promise.reject(new Error('CLUSTERDOWN (simulated)'));
      return upsert(...a);
    }) as typeof q.upsertJobScheduler;
    try {
      for (let i = 0; i < 100 && (await ids()).length < 3; i++) await new Promise((r) => setTimeout(r, 50));
      expect(failures).toBeGreaterThan(1); // it failed once, and was tried again
      expect(await ids()).toEqual(['expire-credits', 'rebuild-key-cache', 'reconcile']);
    } finally {
      q.upsertJobScheduler = upsert;
    }
  });
});

describe('the watchdog and a node that hangs', () => {
  it('reloads lost balances while the schedulers cannot be counted (their node does not answer)', async () => {
    const q = pipeline.maintenanceQueue;
    const count = q.getJobSchedulersCount.bind(q);
    q.getJobSchedulersCount = () => new Promise<number>(() => {}); // never answers
    try {
      const a = await f.fundedAccount(12);
      const before = logs.filter((l) => l.msg === 'loaded from PostgreSQL into Redis').length;
      await f.redis.del(f.layout.shards[0]!.loaded);
      for (
        let i = 0;
        i < 160 && logs.filter((l) => l.msg === 'loaded from PostgreSQL into Redis').length === before;
        i++
      )
        await new Promise((r) => setTimeout(r, 50));
      expect(await f.redis.exists(f.layout.shards[0]!.loaded)).toBe(1);
      expect(await f.meter.balance(a.accountId)).toBe(12);
    } finally {
      q.getJobSchedulersCount = count;
    }
  }, 20_000);
});

describe('batched writes', () => {
  it('write each event once when a batch repeats events or holds events already written', async () => {
    const a = await f.fundedAccount(100);
    const { rows } = await pool.query('SELECT id FROM billing.credit_grants WHERE account_id = $1', [a.accountId]);
    const grantId = Number(rows[0].id);
    const event = (credits: number): UsageEvent => ({
      txid: randomUUID(),
      account: a.accountId,
      key: a.keyId,
      endpoint: '/x',
      credits,
      at: Date.now(),
      consumed: [{ grantId, credits }],
      streamId: `${Date.now()}-0`,
    });
    const [e1, e2, e3] = [event(1), event(2), event(3)];
    expect(await applyUsageEvents(pool, [e1])).toBe(1);
    expect(await applyUsageEvents(pool, [e1, e2, e2, e3, e3])).toBe(2); // e2 and e3, once each
    expect(await ledger(a.accountId)).toEqual({ charged: 6, events: 3, remaining: 94 });
    const { rows: daily } = await pool.query(
      'SELECT calls, credits_used FROM billing.daily_usage WHERE account_id = $1',
      [a.accountId],
    );
    expect(daily).toEqual([{ calls: 3, credits_used: 6 }]);
  });
  it("refuse a batch that names a grant that is not there, or another account's (in place of foreign keys)", async () => {
    const a = await f.fundedAccount(10);
    const b = await f.fundedAccount(10);
    const { rows } = await pool.query('SELECT id FROM billing.credit_grants WHERE account_id = $1', [b.accountId]);
    const event = (grantId: number): UsageEvent => ({
      txid: randomUUID(),
      account: a.accountId,
      key: a.keyId,
      endpoint: '/x',
      credits: 1,
      at: Date.now(),
      consumed: [{ grantId, credits: 1 }],
      streamId: `${Date.now()}-0`,
    });
    await expect(applyUsageEvents(pool, [event(Number(rows[0].id))])).rejects.toThrow(/usage batch refused/);
    await expect(applyUsageEvents(pool, [event(2 ** 40)])).rejects.toThrow(/usage batch refused/);
    expect(await ledger(a.accountId)).toEqual({ charged: 0, events: 0, remaining: 10 });
    expect(await ledger(b.accountId)).toEqual({ charged: 0, events: 0, remaining: 10 });
    await expect(pool.query('DELETE FROM billing.credit_grants WHERE id = $1', [rows[0].id])).rejects.toThrow(
      /never deleted/,
    );
  });
});

describe('reconcile', () => {
  it('finds no drift while charges are in flight, repairs real drift, and a second run finds none', async () => {
    const a = await f.fundedAccount(5_000);
    const traffic = (async () => {
      for (let i = 0; i < 40; i++) await Promise.all(Array.from({ length: 20 }, () => charge(a.accountId, 1)));
    })();
    const reports = [];
    for (let i = 0; i < 5; i++) reports.push(await reconcile(pool, f.redis, f.layout));
    await traffic;
    for (const r of reports) expect(r.drift.filter((d) => d.accountId === a.accountId)).toEqual([]);
    await pipeline.drained(f.redis);
    const { rows } = await pool.query('SELECT id FROM billing.credit_grants WHERE account_id = $1', [a.accountId]);
    await f.redis.hincrby(f.layout.grants(a.accountId), String(rows[0].id), 37); // drift: 37 credits too many
    const repaired = await reconcile(pool, f.redis, f.layout);
    expect(repaired.drift.filter((d) => d.accountId === a.accountId)).toEqual([
      { accountId: a.accountId, grantId: Number(rows[0].id), redis: 4237, expected: 4200 },
    ]);
    expect(await f.meter.balance(a.accountId)).toBe(4200);
    const again = await reconcile(pool, f.redis, f.layout);
    expect(again.drift.filter((d) => d.accountId === a.accountId)).toEqual([]);
  }, 60_000);

  it('never adds a repair computed before Redis was emptied on top of the reload that followed', async () => {
    const g = await billingFixture(
      pool,
      inject('redisUrl'),
      `${inject('redisPrefix')}rcw${randomBytes(3).toString('hex')}:`,
    );
    try {
      const a = await g.fundedAccount(40);
      const { rows } = await pool.query('SELECT id FROM billing.credit_grants WHERE account_id = $1', [a.accountId]);
      await g.redis.hincrby(g.layout.grants(a.accountId), String(rows[0].id), -10); // drift: the snapshot reads 30
      // Between reconcile's Redis snapshot and its repair (it opens its PostgreSQL transaction in between), Redis is
      // emptied and reloaded from PostgreSQL: 40 again.
      const wipedBetween = {
        query: pool.query.bind(pool),
        connect: async () => {
          const keys = await g.redis.keys(`${g.layout.prefix}*`);
          await g.redis.del(...keys);
          await reloadBalances(pool, g.redis, g.layout);
          return pool.connect();
        },
      } as unknown as Pool;
      await reconcile(wipedBetween, g.redis, g.layout);
      expect(await g.meter.balance(a.accountId)).toBe(40); // not 50: the +10 repair was for the Redis before the wipe
    } finally {
      await g.close();
    }
  });
});

describe('expiry', () => {
  it('skips expired grants when charging and writes the rest off in the ledger', async () => {
    const a = await f.fundedAccount(0);
    await grantCredits(f.deps, a.accountId, { amount: 30, validDays: 1 }, new Date(Date.now() - 2 * 86_400_000));
    await grantCredits(f.deps, a.accountId, { amount: 5, validDays: 30 });
    const r = await charge(a.accountId, 10);
    expect(r).toMatchObject({ granted: 5, remaining: 0 });
    await pipeline.drained(f.redis);
    await pipeline.maintenance('expire-credits', f.redis);
    const { rows } = await pool.query(
      `SELECT kind, sum(amount)::int AS total FROM billing.ledger_entries WHERE account_id = $1 GROUP BY kind ORDER BY kind`,
      [a.accountId],
    );
    expect(rows).toEqual([
      { kind: 'charge', total: -5 },
      { kind: 'expire', total: -30 },
      { kind: 'grant', total: 35 },
    ]);
    expect((await usageReport(pool, a.accountId)).credits).toMatchObject({
      balance: 0,
      purchased: 35,
      used: 5,
      expires: null,
    });
  });

  it('writes a grant off only after every charge taken before its expiry is in the ledger (no credit counted twice)', async () => {
    const g = await billingFixture(
      pool,
      inject('redisUrl'),
      `${inject('redisPrefix')}exp${randomBytes(3).toString('hex')}:`,
    );
    // Maintenance only: this prefix's charges stay in its outbox until a writer is started below.
    const p = new UsagePipeline({
      pool,
      redisUrl: inject('redisUrl'),
      layout: g.layout,
      log: () => {},
      roles: { ledgerWriter: false, maintenance: true },
      reconcileEveryMs: 3_600_000,
      expireEveryMs: 3_600_000,
      expiryGraceSeconds: 0,
    });
    await p.start();
    try {
      const a = await g.fundedAccount(0);
      // A grant that expires 5 s from now: time enough for the charge below on a loaded machine, then waited out.
      const expires = Date.now() + 5_000;
      await grantCredits(g.deps, a.accountId, { amount: 30, validDays: 1 }, new Date(expires - 86_400_000));
      const tx = randomUUID();
      expect(
        (
          await g.meter.charge({
            transactionId: tx,
            who: { accountId: a.accountId, keyId: 0, tier: 'starter' },
            endpoint: '/x',
            records: 5,
            fingerprint: tx,
          })
        ).granted,
      ).toBe(5);
      await new Promise((r) => setTimeout(r, expires - Date.now() + 500)); // expired; its charge still in the outbox
      expect(await p.maintenance('expire-credits', g.redis)).toEqual({ expired: 0 });
      const writer = new UsagePipeline({
        pool,
        redisUrl: inject('redisUrl'),
        layout: g.layout,
        log: () => {},
        roles: { ledgerWriter: true, maintenance: false },
      });
      await writer.start();
      await writer.drained(g.redis);
      await writer.stop();
      expect(await p.maintenance('expire-credits', g.redis)).toEqual({ expired: 1 });
      const { rows } = await pool.query(
        `SELECT kind, sum(amount)::int AS total FROM billing.ledger_entries WHERE account_id = $1 GROUP BY kind ORDER BY kind`,
        [a.accountId],
      );
      expect(rows).toEqual([
        { kind: 'charge', total: -5 },
        { kind: 'expire', total: -25 },
        { kind: 'grant', total: 30 },
      ]);
    } finally {
      await p.stop();
      await g.close();
    }
  });
});
