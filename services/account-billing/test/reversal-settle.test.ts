// A process stopping (a deploy's SIGTERM) while Redis does not answer must not drop the reversal of a call it
// answered 503: the lookup's shutdown settles its pending reversals before it closes Redis (a 503 never costs).
// Against a Redis server of the test's own, paused with CLIENT PAUSE.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { createPool, createRedis, type Pool, type RedisClient, redisReady } from '@pra/platform';
import { startRedisServer, type OwnRedis } from '@pra/platform/testing';
import { ApiError } from '@pra/core/errors';
import { RedisCreditMeter } from '../src/client/credit-meter.js';
import { CHARGE_SCRIPT } from '../src/data/charge-script.js';
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

/** Until the meter knows Redis's clock (its first TIME answered), so that the account's charges carry a deadline. */
async function waitForClock(meter: RedisCreditMeter, accountId: number) {
  for (let i = 0; i < 200 && !meter.knowsRedisClock(accountId); i++) await new Promise((r) => setTimeout(r, 20));
  expect(meter.knowsRedisClock(accountId)).toBe(true);
}

/** One charge of 3 records for the account, under a new transaction id: its answer, or what it threw. */
function chargeThree(meter: RedisCreditMeter, a: { accountId: number; keyId: number }): Promise<unknown> {
  const id = randomBytes(8).toString('hex');
  return meter
    .charge({
      who: { accountId: a.accountId, tier: 'growth', keyId: a.keyId },
      transactionId: id,
      endpoint: '/property/address',
      fingerprint: `/property/address?x=${id}`,
      records: 3,
    })
    .catch((err: unknown) => err);
}

/** Scripts Redis has run (EVAL and EVALSHA calls, from INFO commandstats). */
async function scriptsRun(): Promise<number> {
  const info = await admin.info('commandstats');
  return [...info.matchAll(/^cmdstat_(?:eval|evalsha):calls=(\d+)/gm)].reduce((n, m) => n + Number(m[1]), 0);
}

describe('settling reversals before a process stops', () => {
  // Deadlines off: the charge runs when Redis resumes and only the reversal undoes it (the path a charge whose answer
  // was lost before its deadline still takes).
  it('waits for the reversal of a charge answered 503 until Redis answers, and gives the credits back', async () => {
    const a = await f.fundedAccount(10);
    const meter = new RedisCreditMeter(f.redis, f.layout.prefix, { resolveWithinMs: 300, deadlines: false });
    await admin.call('CLIENT', 'PAUSE', '4000', 'ALL');
    const answer = await chargeThree(meter, a);
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
    await waitForClock(meter, a.accountId);
    // The charge script in Redis's cache, so that the EVALSHA sent into the stall runs (not a NOSCRIPT).
    await admin.script('LOAD', CHARGE_SCRIPT);
    const connId = Number(await conn.client('ID'));
    const scriptsBefore = await scriptsRun();
    const thaw = own.freeze();
    try {
      const answer = await chargeThree(meter, a);
      expect((answer as ApiError).status).toBe(503);
      conn.disconnect();
    } finally {
      thaw();
    }
    // The charge sent into the stalled Redis is in its socket and runs now, after its deadline: refused. Redis has
    // read all the connection sent once it has dropped the connection.
    for (let i = 0; i < 200 && (await admin.call('CLIENT', 'LIST', 'ID', String(connId))) !== ''; i++)
      await new Promise((r) => setTimeout(r, 25));
    expect(await admin.call('CLIENT', 'LIST', 'ID', String(connId))).toBe('');
    expect(await scriptsRun()).toBeGreaterThan(scriptsBefore); // it ran
    const stream = f.layout.shard(a.accountId).outbox;
    expect(await f.meter.balance(a.accountId)).toBe(10);
    const events = (await admin.xrange(stream, '-', '+')) as [string, string[]][];
    expect(events.filter(([, fields]) => fields[fields.indexOf('account') + 1] === String(a.accountId))).toEqual([]);
  }, 30_000);

  it("a step of this host's wall clock moves no deadline: charges go on (the deadline is kept on a monotonic clock)", async () => {
    const a = await f.fundedAccount(10);
    const meter = new RedisCreditMeter(f.redis, f.layout.prefix);
    await waitForClock(meter, a.accountId);
    const real = Date.now;
    for (const step of [-3_600_000, 3_600_000]) {
      const spy = vi.spyOn(Date, 'now').mockImplementation(() => real() + step);
      try {
        expect(await chargeThree(meter, a)).toMatchObject({ granted: 3, repeated: false });
      } finally {
        spy.mockRestore();
      }
    }
    expect(await meter.balance(a.accountId)).toBe(4);
  }, 30_000);

  it('gives up after its bound, saying how many are left', async () => {
    const a = await f.fundedAccount(10);
    const meter = new RedisCreditMeter(f.redis, f.layout.prefix, { resolveWithinMs: 300, deadlines: false });
    await admin.call('CLIENT', 'PAUSE', '5000', 'ALL');
    await chargeThree(meter, a);
    expect(await meter.settleReversals(100)).toBe(1);
    expect(await meter.settleReversals(15_000)).toBe(0);
  }, 30_000);
});
