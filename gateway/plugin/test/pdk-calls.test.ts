// How many PDK calls the access phase makes, by outcome: under Kong each one is a round trip between nginx and the
// pluginserver over a Unix socket, the main cost of the plugin (npm run bench:plugin measures it). A call added to
// the path fails here. Real key cache and limiter on Redis, real keys in PostgreSQL.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type {} from '@pra/platform/testing';
import { createPool, type Pool } from '@pra/platform';
import { IDENTITY_HEADERS, SIGNATURE_HEADER } from '@pra/core/auth';
import { billingFixture, type BillingFixture } from '@pra/account-billing/testing';
import { setAccountLimits, setKeyStatus } from '@pra/account-billing/domain';
import { access, type AccessDeps } from '../src/access.js';
import { RateLimiter } from '../src/rate-limit.js';
import { FakeKong } from './fake-pdk.js';
import { ADMITTED_PDK_CALLS } from './pluginserver-harness.js';

let pool: Pool;
let f: BillingFixture;
let deps: AccessDeps;

beforeAll(async () => {
  pool = createPool(inject('databaseUrl'), 2);
  f = await billingFixture(pool, inject('redisUrl'), `${inject('redisPrefix')}pdk${randomBytes(3).toString('hex')}:`);
  deps = {
    keys: f.keys,
    limiter: new RateLimiter(f.redis, f.layout.prefix),
    hmacKey: 'test-hmac-key-0123456789abcdef0123456789',
  };
});
afterAll(async () => {
  await f.close();
  await pool.end();
});

async function call(target: string, headers: Record<string, string> = {}, method = 'GET') {
  const kong = new FakeKong(target, headers, method);
  await access(kong, deps);
  return kong;
}

const REFUSED = ['kong.request.get_path', 'kong.request.get_method', 'kong.request.get_headers', 'kong.response.exit'];
const SPOOFED = {
  [IDENTITY_HEADERS.account]: '1',
  [IDENTITY_HEADERS.tier]: 'enterprise',
  [IDENTITY_HEADERS.key]: '1',
  [SIGNATURE_HEADER]: 't=1,v1=00',
};

describe('PDK calls per request', () => {
  it('admitted (200): six, each header read or set in one call; the identity a client sent is replaced', async () => {
    const a = await f.fundedAccount(1, { tier: 'pro' });
    const kong = await call('/api/v1/property/owner?lastName=X', {
      authorization: `Bearer ${a.key}`,
      'idempotency-key': 'k-1',
      ...SPOOFED,
    });
    expect(kong.exited).toBeNull();
    expect(kong.calls).toEqual(ADMITTED_PDK_CALLS);
    expect(kong.calls.length).toBeLessThanOrEqual(6);
    expect(kong.upstream.get(IDENTITY_HEADERS.account)).toBe(String(a.accountId));
    expect(kong.upstream.get(IDENTITY_HEADERS.tier)).toBe('pro');
    expect(kong.upstream.get(IDENTITY_HEADERS.key)).toBe(String(a.keyId));
    expect(kong.upstream.get(SIGNATURE_HEADER)).not.toBe(SPOOFED[SIGNATURE_HEADER]);
    expect([...kong.response_headers.keys()].sort()).toEqual([
      'ratelimit-limit',
      'ratelimit-remaining',
      'ratelimit-reset',
    ]);
  });

  it('401 for a missing or unknown key, 403 for a disabled key, 429 past the limit: four, the last the exit', async () => {
    expect((await call('/api/v1/usage')).calls).toEqual(REFUSED);
    const unknown = await call('/api/v1/usage', { authorization: 'Bearer pra_live_unknown' });
    expect(unknown.exited?.status).toBe(401);
    expect(unknown.calls).toEqual(REFUSED);

    const disabled = await f.fundedAccount(1);
    await setKeyStatus(f.deps, disabled.keyId, 'disabled');
    const forbidden = await call('/api/v1/usage', { authorization: `Bearer ${disabled.key}` });
    expect(forbidden.exited?.status).toBe(403);
    expect(forbidden.calls).toEqual(REFUSED);

    const limited = await f.fundedAccount(1);
    await setAccountLimits(f.deps, limited.accountId, { ratePerMinute: 1, dailyQuota: null });
    const history = '/api/v1/sale/history?id=1';
    expect((await call(history, { authorization: `Bearer ${limited.key}` })).exited).toBeNull();
    const refused = await call(history, { authorization: `Bearer ${limited.key}` });
    expect(refused.exited?.status).toBe(429);
    expect(refused.calls).toEqual(REFUSED);
  });

  it('/usage, outside the limits: five (no RateLimit headers to set), never refused for the rate', async () => {
    const limited = await f.fundedAccount(1);
    await setAccountLimits(f.deps, limited.accountId, { ratePerMinute: 1, dailyQuota: 1 });
    for (let i = 0; i < 3; i++) {
      const usage = await call('/api/v1/usage', { authorization: `Bearer ${limited.key}` });
      expect(usage.exited).toBeNull();
      expect(usage.calls).toEqual(ADMITTED_PDK_CALLS.filter((c) => c !== 'kong.response.set_headers'));
      expect(usage.response_headers.size).toBe(0);
    }
  });

  it('405 for HEAD on a metered path: three; a public path clears the identity headers and sets the request id', async () => {
    const head = await call('/api/v1/usage', {}, 'HEAD');
    expect(head.exited?.status).toBe(405);
    expect(head.calls).toEqual(['kong.request.get_path', 'kong.request.get_method', 'kong.response.exit']);
    const health = await call('/api/v1/health', SPOOFED);
    expect(health.exited).toBeNull();
    expect(health.calls).toEqual([
      'kong.request.get_path',
      ...Object.keys(SPOOFED).map(() => 'kong.service.request.clear_header'),
      'kong.service.request.set_headers',
    ]);
    for (const h of Object.keys(SPOOFED)) expect(health.upstream.has(h)).toBe(false);
    expect(health.upstream.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});
