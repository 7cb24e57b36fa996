// End to end through the local gateway: kong.yml routes, the pra-gateway plugin, the real services in gateway
// mode (they accept only identity the gateway signed), this run's PostgreSQL and Redis.
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ErrorResponse, PropertyResponse } from '@pra/shared/contracts';
import { createPool, IDENTITY_HEADERS, type Pool } from '@pra/shared/platform';
import { startApp, type RunningApp } from '@pra/shared/testing';
import { billingFixture, type BillingFixture } from '@pra/account-billing/testing';
import { setKeyStatus } from '@pra/account-billing/domain';
import { createBillingApp } from '@pra/account-billing/app';
import { createLookupApp } from '@pra/lookup/app';
import { insertProperties, makeProperty, uniqueStreet } from '@pra/ingest/testing';
import { RateLimiter } from '@pra/gateway-plugin';
import { createGateway } from '../src/gateway.js';
import { loadRoutes } from '../src/routes.js';

const HMAC = `hmac-${randomBytes(16).toString('hex')}`;
let pool: Pool;
let f: BillingFixture;
let lookup: RunningApp;
let usage: RunningApp;
let gateway: Server;
let base: string;
let path: string;

beforeAll(async () => {
  pool = createPool(inject('databaseUrl'), 4);
  f = await billingFixture(pool, inject('redisUrl'), `${inject('redisPrefix')}gwe${randomBytes(3).toString('hex')}:`);
  lookup = await startApp(createLookupApp({ pool, charger: f.charger, keys: f.keys, gatewayKey: HMAC }));
  usage = await startApp(createBillingApp({ pool, keys: f.keys, gatewayKey: HMAC }));
  const routes = loadRoutes({ lookup: lookup.url, 'account-billing': usage.url, autocomplete: 'http://127.0.0.1:9', plans: 'http://127.0.0.1:9' });
  gateway = createGateway({ routes, plugin: { keys: f.keys, limiter: new RateLimiter(f.redis, f.layout.prefix), hmacKey: HMAC } });
  await new Promise<void>((r) => gateway.listen(0, '127.0.0.1', () => r()));
  base = `http://127.0.0.1:${(gateway.address() as AddressInfo).port}`;
  const s = uniqueStreet();
  await insertProperties(pool, [makeProperty({ line1: `5 ${s} ST`, line2: 'APT 1', zip: '95814' }), makeProperty({ line1: `5 ${s} ST`, line2: 'APT 2', zip: '95814' })]);
  path = `/api/v1/property/address?address=${encodeURIComponent(`5 ${s} ST`)}&zip=95814`;
});
afterAll(async () => {
  await new Promise((r) => gateway.close(r));
  await lookup.close();
  await usage.close();
  await f.close();
  await pool.end();
});

const get = async (url: string, headers: Record<string, string> = {}) => {
  const res = await fetch(url, { headers });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text.startsWith('{') ? JSON.parse(text) : text };
};
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

describe('through the local gateway', () => {
  it('200: a lookup is authenticated, charged, and its X-Request-Id is the transactionID', async () => {
    const a = await f.fundedAccount(10, { tier: 'growth' });
    const res = await get(base + path, bearer(a.key));
    expect(res.status).toBe(200);
    const body = PropertyResponse.parse(res.body);
    expect(body.status).toMatchObject({ records_returned: 2, credits_remaining: 8 });
    expect(res.headers.get('x-request-id')).toBe(body.status.transactionID);
    expect(res.headers.get('ratelimit-limit')).toBeNull(); // rate headers go with refusals only
  });

  it.each([
    [400, '/api/v1/property/address?address=1%20Main%20St', 'growth', 10],
    [404, '/api/v1/property/owner?lastName=Qqzzxyw', 'growth', 10],
    [402, '', 'growth', 0],
  ] as const)('%i with the ErrorResponse body, through the gateway', async (status, url, tier, credits) => {
    const a = await f.fundedAccount(credits, { tier });
    const res = await get(base + (url || path), bearer(a.key));
    expect(res.status).toBe(status);
    expect(ErrorResponse.parse(res.body).status.code).toBe(status);
    expect(res.headers.get('x-request-id')).toBeTruthy();
  });

  it('401 without a key, 403 with a disabled key, 429 past the tier limit', async () => {
    expect((await get(base + path)).status).toBe(401);
    const disabled = await f.fundedAccount(5);
    await setKeyStatus(f.deps, disabled.keyId, 'disabled');
    expect((await get(base + path, bearer(disabled.key))).status).toBe(403);
    const free = await f.fundedAccount(1_000, { tier: 'free' });
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await get(`${base}/api/v1/usage`, bearer(free.key))).status);
    expect(statuses.slice(0, 10).every((s) => s === 200)).toBe(true);
    const refused = await get(`${base}/api/v1/usage`, bearer(free.key));
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(refused.headers.get('ratelimit-limit')).toBe('10');
    expect(ErrorResponse.parse(refused.body).status.code).toBe(429);
  });

  it('ignores identity headers a client sends: the call is charged to the key, not to the named account', async () => {
    const payer = await f.fundedAccount(10);
    const victim = await f.fundedAccount(10);
    const res = await get(base + path, { ...bearer(payer.key), [IDENTITY_HEADERS.account]: String(victim.accountId), [IDENTITY_HEADERS.tier]: 'enterprise' });
    expect(res.status).toBe(200);
    expect(await f.charger.balance(payer.accountId)).toBe(8);
    expect(await f.charger.balance(victim.accountId)).toBe(10);
  });

  it('services refuse calls that bypass the gateway, with a key or with forged identity headers', async () => {
    const a = await f.fundedAccount(10);
    expect((await get(lookup.url + path, bearer(a.key))).status).toBe(401);
    const forged = await get(lookup.url + path, { [IDENTITY_HEADERS.account]: String(a.accountId), [IDENTITY_HEADERS.tier]: 'starter', [IDENTITY_HEADERS.key]: '1', 'x-pra-signature': 't=1,v1=' + '0'.repeat(64), 'x-request-id': crypto.randomUUID() });
    expect(forged.status).toBe(401);
    expect(forged.body.status.msg).toMatch(/through the gateway/);
    expect(await f.charger.balance(a.accountId)).toBe(10);
  });

  it('public paths need no key; unknown paths and other methods get an ErrorResponse', async () => {
    expect((await get(`${base}/api/v1/health`)).status).toBe(200);
    expect((await get(`${base}/api/v1/nothing-here`)).status).toBe(404);
    const post = await fetch(`${base}/api/v1/health`, { method: 'POST' });
    expect(post.status).toBe(405);
  });
});
