// A process stopping (a deploy's SIGTERM) while Redis does not answer must not drop the reversal of a call it
// answered 503: the lookup's shutdown settles its pending reversals before it closes Redis (a 503 never costs).
// Against a Redis server of the test's own, paused with CLIENT PAUSE.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createPool, createRedis, type Pool, type RedisClient, redisReady } from '@pra/platform';
import { startRedisServer, type OwnRedis } from '@pra/platform/testing';
import { ApiError } from '@pra/core/errors';
import { RedisCreditMeter } from '../src/client/credit-meter.js';
import { billingFixture, type BillingFixture } from './billing-fixtures.js';

let pool: Pool;
let own: OwnRedis;
let admin: RedisClient;
let f: BillingFixture;

beforeAll(async () => {
  pool = createPool(inject('databaseUrl'), 2);
  own = await startRedisServer();
  admin = createRedis(own.url, 'worker');
  f = await billingFixture(pool, own.url, `rs${randomBytes(3).toString('hex')}:`);
}, 30_000);
afterAll(async () => {
  await f.close();
  admin.disconnect();
  await own.stop();
  await pool.end();
});

/** Until the meter knows Redis's clock (its first TIME answered), so that its charges carry a deadline. */
async function waitForClock(meter: RedisCreditMeter) {
  for (let i = 0; i < 100 && !meter.knowsRedisClock(); i++) await new Promise((r) => setTimeout(r, 20));
  expect(meter.knowsRedisClock()).toBe(true);
}

describe('settling reversals before a process stops', () => {
  it('waits for the reversal of a charge answered 503 until Redis answers, and gives the credits back', async () => {
    const a = await f.fundedAccount(10);
    const meter = new RedisCreditMeter(f.redis, f.layout.prefix, { resolveWithinMs: 300 });
    await admin.call('CLIENT', 'PAUSE', '4000', 'ALL');
    const id = randomBytes(8).toString('hex');
    const answer = await meter
      .charge({
        who: { accountId: a.accountId, tier: 'growth', keyId: a.keyId },
        transactionId: id,
        endpoint: '/property/address',
        fingerprint: `/property/address?x=${id}`,
        records: 3,
      })
      .catch((err: unknown) => err);
    expect(answer).toBeInstanceOf(ApiError);
    expect((answer as ApiError).status).toBe(503);
    expect(meter.pendingReversals()).toBe(1);
    // What the shutdown does before closing Redis: nothing left pending once Redis answers again.
    expect(await meter.settleReversals(15_000)).toBe(0);
    expect(await meter.balance(a.accountId)).toBe(10);
  }, 30_000);

  it('a process that dies while Redis is stalled costs nothing: its charge, run after the call gave up, is refused', async () => {
    const a = await f.fundedAccount(10);
    // The meter's own connection, to be cut as a killed process's would be, its reversal never sent.
    const conn = createRedis(own.url, 'producer');
    conn.on('error', () => {});
    await redisReady(conn);
    const meter = new RedisCreditMeter(conn, f.layout.prefix, { resolveWithinMs: 300 });
    await waitForClock(meter);
    const thaw = own.freeze();
    try {
      const id = randomBytes(8).toString('hex');
      const answer = await meter
        .charge({
          who: { accountId: a.accountId, tier: 'growth', keyId: a.keyId },
          transactionId: id,
          endpoint: '/property/address',
          fingerprint: `/property/address?x=${id}`,
          records: 3,
        })
        .catch((err: unknown) => err);
      expect((answer as ApiError).status).toBe(503);
      conn.disconnect();
    } finally {
      thaw();
    }
    // The charge sent into the stalled Redis is in its socket and runs now, after its deadline: refused.
    const stream = f.layout.shard(a.accountId).outbox;
    await new Promise((r) => setTimeout(r, 500));
    expect(await f.meter.balance(a.accountId)).toBe(10);
    const events = (await admin.xrange(stream, '-', '+')) as [string, string[]][];
    expect(events.filter(([, fields]) => fields[fields.indexOf('account') + 1] === String(a.accountId))).toEqual([]);
  }, 30_000);

  it('gives up after its bound, saying how many are left', async () => {
    const a = await f.fundedAccount(10);
    const meter = new RedisCreditMeter(f.redis, f.layout.prefix, { resolveWithinMs: 300 });
    await admin.call('CLIENT', 'PAUSE', '5000', 'ALL');
    const id = randomBytes(8).toString('hex');
    await meter
      .charge({
        who: { accountId: a.accountId, tier: 'growth', keyId: a.keyId },
        transactionId: id,
        endpoint: '/property/address',
        fingerprint: `/property/address?x=${id}`,
        records: 3,
      })
      .catch(() => undefined);
    expect(await meter.settleReversals(100)).toBe(1);
    expect(await meter.settleReversals(15_000)).toBe(0);
  }, 30_000);
});
