// The plugin's access phase through a fake PDK, with the real key cache and limiter on Redis.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type {} from '@pra/shared/testing';
import { createPool, IDENTITY_HEADERS, SIGNATURE_HEADER, verifyIdentitySignature, type Pool } from '@pra/shared/platform';
import { TIER_LIMITS } from '@pra/shared/tiers';
import { billingFixture, type BillingFixture } from '@pra/account-billing/testing';
import { setAccountLimits, setKeyStatus } from '@pra/account-billing/domain';
import { access, type AccessDeps } from '../src/access.js';
import { RateLimiter } from '../src/rate-limit.js';
import { FakeKong } from './fake-pdk.js';

const HMAC = 'test-hmac-key-0123456789abcdef0123456789';
const SECRET = 'marketplace-secret-0123';
let pool: Pool;
let f: BillingFixture;
let deps: AccessDeps;
let clock = Date.UTC(2026, 10, 22, 12, 0, 0);

beforeAll(async () => {
  pool = createPool(inject('databaseUrl'), 2);
  f = await billingFixture(pool, inject('redisUrl'), `${inject('redisPrefix')}acc${randomBytes(3).toString('hex')}:`);
  deps = { keys: f.keys, limiter: new RateLimiter(f.redis, f.layout.prefix), hmacKey: HMAC, marketplaceSecret: SECRET, now: () => clock };
});
afterAll(async () => {
  await f.close();
  await pool.end();
});

async function call(path: string, headers: Record<string, string> = {}) {
  const kong = new FakeKong(path, headers);
  await access(kong, deps);
  return kong;
}

describe('gateway access phase', () => {
  it('forwards an authenticated call with signed identity headers and a request id', async () => {
    const a = await f.fundedAccount(10, { tier: 'growth' });
    const kong = await call('/api/v1/property/address', { authorization: `Bearer ${a.key}` });
    expect(kong.exited).toBeNull();
    const id = { accountId: a.accountId, tier: 'growth' as const, keyId: a.keyId };
    expect(kong.upstream.get(IDENTITY_HEADERS.account)).toBe(String(a.accountId));
    expect(kong.upstream.get(IDENTITY_HEADERS.tier)).toBe('growth');
    const requestId = kong.upstream.get('x-request-id')!;
    expect(verifyIdentitySignature(id, requestId, kong.upstream.get(SIGNATURE_HEADER)!, HMAC)).toBe(true);
    expect(verifyIdentitySignature({ ...id, accountId: id.accountId + 1 }, requestId, kong.upstream.get(SIGNATURE_HEADER)!, HMAC)).toBe(false);
    expect(verifyIdentitySignature(id, requestId, kong.upstream.get(SIGNATURE_HEADER)!, 'another-key-another-key-another-key')).toBe(false);
  });

  it('strips identity headers a client sends, on every path', async () => {
    const spoof = { [IDENTITY_HEADERS.account]: '1', [IDENTITY_HEADERS.tier]: 'enterprise', [IDENTITY_HEADERS.key]: '1', [SIGNATURE_HEADER]: 't=1,v1=00' };
    const anonymous = await call('/api/v1/health', spoof);
    expect(anonymous.exited).toBeNull();
    for (const h of Object.keys(spoof)) expect(anonymous.upstream.has(h)).toBe(false);
    const refused = await call('/api/v1/property/owner', spoof);
    expect(refused.exited?.status).toBe(401);
  });

  it('401 for a missing or unknown key or a bad marketplace secret; 403 for a disabled key', async () => {
    expect((await call('/api/v1/usage')).exited).toMatchObject({ status: 401, body: { property: [], status: { code: 401 } } });
    expect((await call('/api/v1/usage', { authorization: 'Bearer pra_live_unknown' })).exited?.status).toBe(401);
    const a = await f.fundedAccount(1);
    expect((await call('/api/v1/usage', { 'x-marketplace-proxy-secret': 'wrong-secret-wrong', 'x-marketplace-key': a.key })).exited?.status).toBe(401);
    expect((await call('/api/v1/usage', { 'x-marketplace-proxy-secret': SECRET })).exited?.body.status.msg).toMatch(/X-Marketplace-Key/);
    const viaMarketplace = await call('/api/v1/usage', { 'x-marketplace-proxy-secret': SECRET, 'x-marketplace-key': a.key });
    expect(viaMarketplace.exited).toBeNull();
    expect(viaMarketplace.upstream.get(IDENTITY_HEADERS.account)).toBe(String(a.accountId));
    await setKeyStatus(f.deps, a.keyId, 'disabled');
    expect((await call('/api/v1/usage', { authorization: `Bearer ${a.key}` })).exited).toMatchObject({ status: 403, body: { status: { msg: 'API key disabled' } } });
  });

  it('429 past the tier limit, with Retry-After and RateLimit headers', async () => {
    const a = await f.fundedAccount(1, { tier: 'free' });
    const limit = TIER_LIMITS.free.ratePerMinute;
    for (let i = 0; i < limit; i++) expect((await call('/api/v1/usage', { authorization: `Bearer ${a.key}` })).exited).toBeNull();
    const refused = await call('/api/v1/usage', { authorization: `Bearer ${a.key}` });
    expect(refused.exited?.status).toBe(429);
    expect(refused.exited?.body.status.code).toBe(429);
    expect(refused.exited?.headers).toMatchObject({ 'ratelimit-limit': String(limit), 'ratelimit-remaining': '0' });
    expect(Number(refused.exited?.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    clock += 60_001;
    expect((await call('/api/v1/usage', { authorization: `Bearer ${a.key}` })).exited).toBeNull();
  });

  it('applies per-account limits over the tier limits', async () => {
    const a = await f.fundedAccount(1, { tier: 'enterprise' });
    await setAccountLimits(f.deps, a.accountId, { ratePerMinute: 2, dailyQuota: null });
    for (let i = 0; i < 2; i++) expect((await call('/api/v1/usage', { authorization: `Bearer ${a.key}` })).exited).toBeNull();
    const refused = await call('/api/v1/usage', { authorization: `Bearer ${a.key}` });
    expect(refused.exited).toMatchObject({ status: 429, headers: { 'ratelimit-limit': '2' } });
  });
});
