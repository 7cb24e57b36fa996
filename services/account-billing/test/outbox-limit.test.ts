// A long PostgreSQL outage under load (issue 22 point 5): the ledger writer's connection is cut through a TCP proxy
// while charges keep coming. The outbox stops at its high-water mark: every charge past it is refused with a 503
// and Retry-After, before Redis could fill; calls without a charge are still counted (a counter, not an outbox
// entry: nothing grows); reconcile reads the full outbox in chunks and refunds nothing; once PostgreSQL is back every
// accepted charge is written once, the calls are flushed once, /usage agrees, and charges are accepted again.
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ApiError } from '@pra/core/errors';
import { createPool, createRedis, type Pool } from '@pra/platform';
import { billingFixture, poolThroughProxy, type BillingFixture } from './billing-fixtures.js';
import { RedisCreditMeter } from '../src/client/credit-meter.js';
import { RedisCallCounter } from '../src/client/call-counter.js';
import { LedgerWriter } from '../src/workers/ledger-writer.js';
import { CallFlusher, callBucketsWaiting } from '../src/workers/call-flusher.js';
import { reconcile } from '../src/workers/reconcile.js';
import { usageReport } from '../src/domain/usage-report.js';

const LIMIT = 400;
let pool: Pool;
let f: BillingFixture;

beforeAll(async () => {
  pool = createPool(inject('databaseUrl'), 4);
  f = await billingFixture(pool, inject('redisUrl'), `${inject('redisPrefix')}ol${randomBytes(3).toString('hex')}:`);
});
afterAll(async () => {
  await f.close();
  await pool.end();
});

describe('the usage outbox under a long PostgreSQL outage', () => {
  it('stops at its high-water mark with 503 + Retry-After, reconciles in chunks, loses nothing, recovers', async () => {
    const meter = new RedisCreditMeter(f.redis, f.layout.prefix, { outboxLimit: LIMIT });
    const calls = new RedisCallCounter(f.redis, f.layout.prefix);
    const a = await f.fundedAccount(10_000);
    const { pool: cutOff, proxy } = await poolThroughProxy(inject('databaseUrl'), 'outbox-limit-cut');
    proxy.cut();
    const writer = new LedgerWriter({
      pool: cutOff,
      redis: createRedis(inject('redisUrl'), 'worker'),
      layout: f.layout,
      log: () => {},
    });
    writer.start();
    const flusher = new CallFlusher({
      pool: cutOff,
      redis: createRedis(inject('redisUrl'), 'worker'),
      layout: f.layout,
      log: () => {},
      everyMs: 50,
    });
    flusher.start();
    let credits = 0;
    let accepted = 0;
    const refusals: ApiError[] = [];
    const charge = () => {
      const tx = randomUUID();
      return meter
        .charge({
          transactionId: tx,
          who: { accountId: a.accountId, keyId: 0, tier: 'starter' },
          endpoint: '/property/address',
          records: 1 + (accepted % 2),
          fingerprint: tx,
        })
        .then(
          (r) => {
            credits += r.granted;
            accepted++;
          },
          (err) => {
            if (!(err instanceof ApiError)) throw err;
            refusals.push(err);
          },
        );
    };
    try {
      // Load: 50 at a time, well past the mark.
      for (let round = 0; round < 12; round++) await Promise.all(Array.from({ length: 50 }, charge));
      expect(accepted).toBe(LIMIT);
      expect(refusals).toHaveLength(600 - LIMIT);
      for (const e of refusals) {
        expect(e.status).toBe(503);
        expect(e.headers['retry-after']).toBe('30');
        expect(e.message).toMatch(/not charged/);
      }
      // The pre-check refuses too (before any store read); a call without a charge is still counted.
      await expect(
        meter.precheck({
          who: { accountId: a.accountId, keyId: 0, tier: 'starter' },
          transactionId: randomUUID(),
          fingerprint: 'x',
        }),
      ).rejects.toMatchObject({ status: 503 });
      for (let i = 0; i < 3; i++)
        await calls.recordCall({
          requestId: randomUUID(),
          transactionId: randomUUID(),
          accountId: a.accountId,
          keyId: 0,
          endpoint: '/usage',
        });
      // Memory: the outbox holds exactly the mark, a few hundred bytes an entry.
      expect(await f.redis.xlen(f.layout.shards[0]!.outbox)).toBe(LIMIT);
      const bytes = Number(await f.redis.memory('USAGE', f.layout.shards[0]!.outbox));
      console.log(
        `[outbox at its mark] ${LIMIT} entries, ${bytes} bytes (${(bytes / LIMIT).toFixed(0)} B an entry); ${refusals.length} refused`,
      );
      expect(bytes / LIMIT).toBeLessThan(1_000);
      // Reconcile reads the outbox 37 entries at a time: every waiting charge counts, nothing is refunded.
      const report = await reconcile(pool, f.redis, f.layout, 37);
      expect(report.drift.filter((d) => d.accountId === a.accountId)).toEqual([]);
      expect(await meter.balance(a.accountId)).toBe(10_000 - credits);

      proxy.restore();
      const waiting = async () =>
        (await f.redis.xlen(f.layout.shards[0]!.outbox)) + (await callBucketsWaiting(f.redis, f.layout));
      for (let i = 0; i < 600 && (await waiting()) > 0; i++) await new Promise((r) => setTimeout(r, 50));
      expect(await waiting()).toBe(0);
      const usage = await usageReport(pool, a.accountId);
      expect(usage.credits).toMatchObject({ used: credits, balance: 10_000 - credits });
      expect(usage.calls.total).toBe(accepted + 3);
      // Accepted again once the ledger has caught up.
      const before = accepted;
      await charge();
      expect(accepted).toBe(before + 1);
    } finally {
      await writer.stop();
      await flusher.stop();
      await cutOff.end().catch(() => {});
      await proxy.close();
    }
  }, 90_000);
});
