// Every wait on PostgreSQL has a limit: a store that is slow, stalled, gone or overloaded is a 503 ErrorResponse
// with Retry-After, within its timeout, and never a hang or a charge. The lookup runs on port 0 with a request pool
// that reaches PostgreSQL through a TCP proxy this test stalls and cuts (the machine's server is never touched).
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ErrorResponse } from '@pra/core/contracts';
import { createPool, type Pool } from '@pra/platform';
import { proxyUrl, startApp, type RunningApp, type TcpProxy } from '@pra/platform/testing';
import { billingFixture, type BillingFixture } from '@pra/account-billing/testing';
import { insertProperties, makeProperty, uniqueStreet } from '@pra/ingest/testing';
import { createLookupApp } from '../src/app.js';

// Short enough for the faults to end quickly, long enough that a lookup on a PostgreSQL busy with other test files is
// not mistaken for one (300 ms and 500 ms were: a loaded VM may take that long for a healthy statement).
const LIMITS = { connectTimeoutMs: 3_000, statementTimeoutMs: 2_000, idleInTransactionTimeoutMs: 3_000, maxWaiting: 4 };
let pool: Pool;
let proxied: Pool;
let proxy: TcpProxy;
let f: BillingFixture;
let app: RunningApp;
let auth: Record<string, string>;
let accountId: number;
let path: string;

beforeAll(async () => {
  const url = new URL(inject('databaseUrl'));
  pool = createPool(url.toString(), 2);
  const through = await proxyUrl(url.toString());
  proxy = through.proxy;
  proxied = createPool(through.url, 2, 'lookup-faults', LIMITS);
  f = await billingFixture(pool, inject('redisUrl'), `${inject('redisPrefix')}sf:`);
  const a = await f.fundedAccount(100);
  auth = { authorization: `Bearer ${a.key}` };
  accountId = a.accountId;
  app = await startApp(
    createLookupApp({ pool: proxied, meter: f.meter, calls: f.calls, auth: { development: true, keys: f.keys } }),
  );
  const street = uniqueStreet();
  await insertProperties(pool, [makeProperty({ line1: `12 ${street} ST`, zip: '95814' })]);
  path = `/api/v1/property/address?address=12%20${street}%20ST&zip=95814`;
});
afterAll(async () => {
  await app.close();
  await proxy.close();
  await proxied.end().catch(() => {});
  await f.close();
  await pool.end();
});

/** A GET that must be answered: a request still open after 10 s has hung, and the test fails on the abort. */
const call = async () => {
  const res = await fetch(app.url + path, { headers: auth, signal: AbortSignal.timeout(10_000) });
  return { status: res.status, headers: res.headers, body: JSON.parse(await res.text()) };
};

async function expectUnavailable() {
  const res = await call();
  expect(res.status).toBe(503);
  expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  const body = ErrorResponse.parse(res.body);
  expect(body.status.code).toBe(503);
  expect(body.status.msg).toMatch(/not charged/);
}

describe('PostgreSQL faults', () => {
  it('answers normally through the proxy', async () => {
    expect((await call()).status).toBe(200);
  });

  it('a query slower than the statement timeout (a lock held) is a 503 with Retry-After', async () => {
    const locker = await pool.connect();
    try {
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE records.tract_profiles IN ACCESS EXCLUSIVE MODE');
      await expectUnavailable();
    } finally {
      await locker.query('ROLLBACK');
      locker.release();
    }
    expect((await call()).status).toBe(200);
  });

  it('a store that stops answering (stalled connections) is a 503, and a full wait queue refuses at once', async () => {
    proxy.stall();
    try {
      // 2 connections stall, 4 wait for them, the rest are refused as the queue is full: every one is answered.
      const all = await Promise.all(Array.from({ length: 10 }, () => call()));
      for (const r of all) {
        expect(r.status).toBe(503);
        expect(r.headers.get('retry-after')).toMatch(/^\d+$/);
      }
      expect(all.some((r) => /busy or unreachable/.test(r.body.status.msg))).toBe(true);
    } finally {
      proxy.restore();
    }
    expect((await call()).status).toBe(200);
  });

  it('an unreachable store is a 503 with Retry-After, and the service recovers when it is back', async () => {
    proxy.cut();
    try {
      await expectUnavailable();
      await expectUnavailable();
    } finally {
      proxy.restore();
    }
    expect((await call()).status).toBe(200);
    expect(await f.meter.balance(accountId)).toBe(100 - 4); // the four 200s only
  });

  it('a batch whose store stalls mid-way is one 503 within one lookup deadline, nothing charged; then answered', async () => {
    const address = decodeURIComponent(new URL(app.url + path).searchParams.get('address')!);
    const body = JSON.stringify({
      requests: Array.from({ length: 40 }, (_, i) => ({ id: String(i), address, zip: '95814' })),
    });
    const post = () =>
      fetch(`${app.url}/api/v1/property/batch`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body,
        signal: AbortSignal.timeout(10_000),
      });
    const before = await f.meter.balance(accountId);
    proxy.stall();
    let stalled: Response;
    try {
      stalled = await post();
    } finally {
      proxy.restore();
    }
    expect(stalled.status).toBe(503);
    expect(((await stalled.json()) as any).status.msg).toMatch(/not charged/);
    expect(await f.meter.balance(accountId)).toBe(before);
    // The stalled statements end at their statement timeout: then the batch is answered.
    let answered = await post();
    for (let i = 0; i < 20 && answered.status === 503; i++) {
      await new Promise((r) => setTimeout(r, 200));
      answered = await post();
    }
    expect(answered.status).toBe(200);
    expect(((await answered.json()) as any).status.records_returned).toBe(40);
  });
});
