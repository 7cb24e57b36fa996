// /usage counts every authenticated call the gateway admitted, whatever its status and whether it was charged
// (type-ahead, repeats, conflicts, free previews and calls refused by their max_credits included; /usage itself is
// outside the limits and counted by neither), and agrees with the daily quota the gateway counts; credits_used stays
// per credit. Through the local gateway, with the real usage pipeline writing the ledger.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createPool, type Pool } from '@pra/platform';
import { billingFixture, type BillingFixture } from '@pra/account-billing/testing';
import { setAccountLimits, setKeyStatus } from '@pra/account-billing/domain';
import { UsagePipeline } from '@pra/account-billing/pipeline';
import { migrateSearch } from '@pra/autocomplete/migrate';
import { insertProperties, makeProperty, uniqueStreet } from '@pra/ingest/testing';
import { UsageResponse } from '@pra/core/contracts';
import { startSystem, type RunningSystem } from '../src/system.js';

let pool: Pool;
let f: BillingFixture;
let pipeline: UsagePipeline;
let system: RunningSystem;
let address: string;

beforeAll(async () => {
  pool = createPool(inject('databaseUrl'), 4);
  await migrateSearch(pool);
  f = await billingFixture(pool, inject('redisUrl'), `${inject('redisPrefix')}use${randomBytes(3).toString('hex')}:`);
  pipeline = new UsagePipeline({
    pool,
    redisUrl: inject('redisUrl'),
    layout: f.layout,
    log: () => {},
    reconcileEveryMs: 3_600_000,
    expireEveryMs: 3_600_000,
  });
  await pipeline.start();
  system = await startSystem({
    placement: 'in-process',
    pool,
    billing: f,
    gatewayKey: randomBytes(16).toString('hex'),
  });
  const s = uniqueStreet();
  await insertProperties(pool, [
    makeProperty({ line1: `5 ${s} ST`, line2: 'APT 1', zip: '95814' }),
    makeProperty({ line1: `5 ${s} ST`, line2: 'APT 2', zip: '95814' }),
  ]);
  address = `address=${encodeURIComponent(`5 ${s} ST`)}&zip=95814`;
}, 60_000);
afterAll(async () => {
  await system?.stop();
  await pipeline?.stop();
  await f?.close();
  await pool?.end();
});

const get = (key: string, path: string) =>
  fetch(`${system.gatewayUrl}/api/v1${path}`, { headers: { authorization: `Bearer ${key}` } });

/** The account's row of today in PostgreSQL, once the pipeline has written `calls` calls. */
async function today(accountId: number, calls: number) {
  for (let i = 0; i < 100; i++) {
    // Charged calls are in daily_usage, the others in call_counts (billing migration 0005).
    const { rows } = await pool.query(
      `SELECT sum(calls)::int AS calls, sum(credits_used)::int AS credits_used FROM (
         SELECT calls, credits_used FROM billing.daily_usage WHERE account_id = $1 AND day = (now() AT TIME ZONE 'UTC')::date
         UNION ALL
         SELECT calls, 0 FROM billing.call_counts WHERE account_id = $1 AND day = (now() AT TIME ZONE 'UTC')::date) t`,
      [accountId],
    );
    if (rows[0] && rows[0].calls >= calls) return rows[0] as { calls: number; credits_used: number };
    await new Promise((r) => setTimeout(r, 100));
  }
  const { rows } = await pool.query(
    'SELECT day, calls, credits_used FROM billing.daily_usage WHERE account_id = $1 UNION ALL SELECT day, calls, 0 FROM billing.call_counts WHERE account_id = $1',
    [accountId],
  );
  throw new Error(`the pipeline did not write ${calls} calls of account ${accountId}: ${JSON.stringify(rows)}`);
}

/** What the gateway's daily quota has counted for the account today. */
async function quotaCount(accountId: number): Promise<number> {
  const v = await f.redis.get(`${f.layout.prefix}quota:${accountId}`);
  return Number(v?.split(':')[1] ?? 0);
}

describe('/usage counts every authenticated call', () => {
  it('charged or not, any status, type-ahead included, /usage not; calls.today agrees with the daily quota', async () => {
    const a = await f.fundedAccount(10, { tier: 'growth' });
    const statuses = [];
    for (const path of [
      `/property/address?${address}`, // 200, 2 credits
      `/property/address?${address}`, // 200, 2 credits
      '/property/owner?lastName=Qqzzxyw', // 404, uncharged
      '/property/address?address=1%20Main%20St', // 400 (no zip or city), uncharged
      '/property/autocomplete?q=5%20main&zip=95814', // type-ahead, never charged
      '/usage', // 200
      `/property/address?${address}&preview=true`, // a free preview: 200, uncharged
      `/property/address?${address}&max_credits=1`, // 2 records past the cap: 402, uncharged
    ]) {
      statuses.push((await get(a.key, path)).status);
    }
    expect(statuses).toEqual([200, 200, 404, 400, 200, 200, 200, 402]);
    // /usage is outside the limits: neither the quota nor /usage counts it (7 calls, not 8).
    expect(await today(a.accountId, 7)).toEqual({ calls: 7, credits_used: 4 });

    const res = await get(a.key, '/usage');
    expect(res.headers.get('ratelimit-limit')).toBeNull();
    const usage = UsageResponse.parse(await res.json());
    expect(usage.calls.today).toBe(7);
    expect(usage.calls.total).toBe(7);
    expect(usage.calls.last_used).not.toBeNull();
    expect(usage.daily_usage[0]).toMatchObject({ calls: 7, credits_used: 4 });
    expect(usage.credits).toMatchObject({ used: 4, balance: 6 });
    expect(await quotaCount(a.accountId)).toBe(7);
  });

  it('/usage answers its owner at the daily quota (never 429), still 401 without a key and 403 for a disabled one', async () => {
    const a = await f.fundedAccount(10, { tier: 'growth' });
    await setAccountLimits(f.deps, a.accountId, { ratePerMinute: 2, dailyQuota: 2 });
    for (let i = 0; i < 2; i++) expect((await get(a.key, '/property/owner?lastName=Qqzzxyw')).status).toBe(404);
    expect((await get(a.key, '/property/owner?lastName=Qqzzxyw')).status).toBe(429);
    for (let i = 0; i < 5; i++) expect((await get(a.key, '/usage')).status).toBe(200);
    expect(await quotaCount(a.accountId)).toBe(2);
    expect((await fetch(`${system.gatewayUrl}/api/v1/usage`)).status).toBe(401);
    await setKeyStatus(f.deps, a.keyId, 'disabled');
    expect((await get(a.key, '/usage')).status).toBe(403);
  });

  it('a 402 counts as a call and uses no credit; a call refused at the edge (401) counts nowhere', async () => {
    const broke = await f.fundedAccount(0, { tier: 'growth' });
    expect((await get(broke.key, `/property/address?${address}`)).status).toBe(402);
    expect((await get(`${broke.key}x`, `/property/address?${address}`)).status).toBe(401);
    expect(await today(broke.accountId, 1)).toEqual({ calls: 1, credits_used: 0 });
    expect(await quotaCount(broke.accountId)).toBe(1);
    const { rows } = await pool.query('SELECT count(*)::int AS n FROM billing.ledger_entries WHERE account_id = $1', [
      broke.accountId,
    ]);
    expect(rows[0].n).toBe(0);
  });

  it('a request repeated under its Idempotency-Key is charged once, and each call counted, as the quota counts it', async () => {
    const a = await f.fundedAccount(10, { tier: 'growth' });
    const key = `k-${randomBytes(8).toString('hex')}`;
    const send = (path: string) =>
      fetch(`${system.gatewayUrl}/api/v1${path}`, {
        headers: { authorization: `Bearer ${a.key}`, 'idempotency-key': key },
      });
    // The review's 19 calls under one key: the charge and 10 repeats, 5 conflicts (another request: 400), 3 previews,
    // then 1 unkeyed.
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await send(`/property/address?${address}`)).status);
    for (let i = 0; i < 5; i++) statuses.push((await send(`/property/address?${address}&pagesize=${i + 1}`)).status);
    for (let i = 0; i < 3; i++) statuses.push((await send(`/property/address?${address}&preview=true`)).status);
    statuses.push((await get(a.key, `/property/address?${address}`)).status);
    expect(statuses).toEqual([...Array(11).fill(200), ...Array(5).fill(400), ...Array(3).fill(200), 200]);
    expect(await today(a.accountId, 20)).toEqual({ calls: 20, credits_used: 4 });
    expect(await quotaCount(a.accountId)).toBe(20);
    const usage = UsageResponse.parse(await (await get(a.key, '/usage')).json());
    expect(usage.calls).toMatchObject({ today: 20, total: 20 });
    expect(usage.credits.used).toBe(4);
  });

  it('a batch counts by its entries, preview or not, in the quota and in /usage alike (1 call per 10)', async () => {
    const a = await f.fundedAccount(100, { tier: 'growth' });
    const [line, zip] = [decodeURIComponent(address.split('&')[0]!.slice('address='.length)), '95814'];
    const batch = (n: number, query = '') =>
      fetch(`${system.gatewayUrl}/api/v1/property/batch${query}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${a.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ requests: Array.from({ length: n }, () => ({ address: line, zip })) }),
      });
    expect((await batch(100, '?preview=true')).status).toBe(200); // 10, free
    expect((await batch(25)).status).toBe(200); // 3, charged 50 credits (2 records each)
    expect((await batch(1, '?max_credits=1')).status).toBe(402); // 1, refused
    expect(await today(a.accountId, 14)).toEqual({ calls: 14, credits_used: 50 });
    expect(await quotaCount(a.accountId)).toBe(14);
  });
});
