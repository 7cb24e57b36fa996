// The public /usage endpoint and the internal admin API, started on port 0.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ErrorResponse, UsageResponse } from '@pra/core/contracts';
import { createPool, type Pool } from '@pra/platform';
import { startApp, type RunningApp } from '@pra/platform/testing';
import { createAdminApp } from '../src/admin-app.js';
import { createBillingApp } from '../src/app.js';
import { billingFixture, type BillingFixture } from './billing-fixtures.js';

const TOKEN = 'test-admin-token-0123456789abcdef';
let pool: Pool;
let f: BillingFixture;
let admin: RunningApp;
let api: RunningApp;

beforeAll(async () => {
  pool = createPool(inject('databaseUrl'), 4);
  f = await billingFixture(pool, inject('redisUrl'), inject('redisPrefix'));
  admin = await startApp(createAdminApp(f.deps, TOKEN));
  api = await startApp(createBillingApp({ pool, auth: { development: true, keys: f.keys } }));
});
afterAll(async () => {
  await admin.close();
  await api.close();
  await f.close();
  await pool.end();
});

const post = (path: string, body: unknown, token = TOKEN) =>
  fetch(admin.url + path, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));

describe('admin API', () => {
  it('refuses without the admin token', async () => {
    expect(
      await post('/admin/accounts', { email: 'x@y.z', name: 'X', tier: 'free' }, 'wrong-token-wrong-token-wrong'),
    ).toMatchObject({ status: 401, body: { status: { code: 401, reason: 'unauthorized' } } });
    const unsigned = await fetch(`${admin.url}/admin/accounts/1`);
    expect(unsigned.status).toBe(401);
    expect(ErrorResponse.parse(await unsigned.json()).status.reason).toBe('unauthorized');
  });

  it('creates an account, issues a key shown once, grants a plan, and lists keys by prefix only', async () => {
    const email = `admin-${Date.now()}@example.com`;
    const created = await post('/admin/accounts', { email, name: 'Acme Data', tier: 'growth' });
    expect(created.status).toBe(201);
    const id = created.body.id;
    expect(await post('/admin/accounts', { email, name: 'Again', tier: 'growth' })).toMatchObject({
      status: 400,
      body: { status: { reason: 'already_exists' } },
    });
    const invalid = await post('/admin/accounts', { email: 'bad', name: 'X', tier: 'platinum' });
    expect(invalid.body.status.msg).toMatch(/tier/);
    expect(invalid.body.status.reason).toBe('invalid_body');
    const notJson = await fetch(`${admin.url}/admin/accounts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: '{"email":',
    });
    expect(notJson.status).toBe(400);
    expect(ErrorResponse.parse(await notJson.json()).status.reason).toBe('malformed_request');
    const get = (path: string) =>
      fetch(admin.url + path, { headers: { authorization: `Bearer ${TOKEN}` } }).then(async (r) => ({
        status: r.status,
        body: ErrorResponse.parse(await r.json()),
      }));
    expect(await get('/admin/accounts/999999999')).toMatchObject({
      status: 404,
      body: { status: { reason: 'not_found' } },
    });
    expect(await get('/admin/accounts/1/keys/abc')).toMatchObject({
      status: 404,
      body: { status: { reason: 'no_such_endpoint' } },
    });
    const key = await post(`/admin/accounts/${id}/keys`, {});
    expect(key.status).toBe(201);
    expect(key.body.key).toMatch(/^pra_live_/);
    const grant = await post(`/admin/accounts/${id}/grants`, { plan: 'growth' });
    expect(grant.body).toMatchObject({ amount: 25_000 });
    expect(await post(`/admin/accounts/${id}/grants`, {})).toMatchObject({
      status: 400,
      body: { status: { reason: 'invalid_body' } },
    });
    const shown = await fetch(`${admin.url}/admin/accounts/${id}`, {
      headers: { authorization: `Bearer ${TOKEN}` },
    }).then((r) => r.json() as Promise<any>);
    expect(shown.keys).toHaveLength(1);
    expect(shown.keys[0].prefix).toBe(key.body.prefix);
    expect(JSON.stringify(shown)).not.toContain(key.body.key);
    const { rows } = await pool.query('SELECT key_hash FROM billing.api_keys WHERE account_id = $1', [id]);
    expect(rows[0].key_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(rows[0].key_hash).not.toContain(key.body.key);

    const usage = await api.get('/api/v1/usage', { authorization: `Bearer ${key.body.key}` });
    expect(usage.status).toBe(200);
    const u = UsageResponse.parse(usage.body);
    expect(u.account).toEqual({ email, name: 'Acme Data', tier: 'growth' });
    expect(u.credits).toMatchObject({ balance: 25_000, purchased: 25_000, used: 0 });
    expect(u.calls).toEqual({ today: 0, total: 0, last_used: null });
    expect(new Date(u.credits.expires!).getTime()).toBeGreaterThan(Date.now() + 29 * 86_400_000);

    expect((await post(`/admin/keys/${key.body.keyId}/disable`, {})).status).toBe(200);
    const disabled = await api.get('/api/v1/usage', { authorization: `Bearer ${key.body.key}` });
    expect(disabled.status).toBe(403);
    expect(ErrorResponse.parse(disabled.body).status.reason).toBe('forbidden');
  });

  it('/usage, outside the limits, costs the store one report at a time per account however many are sent', async () => {
    // Free of the rate limit and the quota, /usage must bound its own cost: concurrent calls of one account share
    // the report being read.
    let queries = 0;
    let running = 0;
    let mostAtOnce = 0;
    const reads = {
      query: (async (...args: Parameters<Pool['query']>) => {
        queries++;
        mostAtOnce = Math.max(mostAtOnce, ++running);
        try {
          return await pool.query(...args);
        } finally {
          running--;
        }
      }) as Pool['query'],
    };
    const counted = await startApp(createBillingApp({ pool, reads, auth: { development: true, keys: f.keys } }));
    try {
      const a = await f.fundedAccount(5);
      const answers = await Promise.all(
        Array.from({ length: 40 }, () =>
          fetch(`${counted.url}/api/v1/usage`, { headers: { authorization: `Bearer ${a.key}` } }).then(async (r) => ({
            status: r.status,
            body: UsageResponse.parse(await r.json()),
          })),
        ),
      );
      for (const r of answers) expect(r).toMatchObject({ status: 200, body: { credits: { balance: 5 } } });
      // One report of the account read at a time (its three queries one after the other: the account, its days,
      // its webhooks), and fewer than one a call.
      expect(mostAtOnce).toBe(1);
      expect(queries).toBeLessThan(3 * 40);
      // A call after the reports were answered reads afresh (nothing stale is kept).
      const before = queries;
      expect((await counted.get('/api/v1/usage', { authorization: `Bearer ${a.key}` })).status).toBe(200);
      expect(queries).toBe(before + 3);
    } finally {
      await counted.close();
    }
  });

  it('/usage answers 401 without a key', async () => {
    const res = await api.get('/api/v1/usage');
    expect(res.status).toBe(401);
    expect(ErrorResponse.parse(res.body).status.code).toBe(401);
    expect(ErrorResponse.parse(res.body).status.reason).toBe('unauthorized');
  });
});
