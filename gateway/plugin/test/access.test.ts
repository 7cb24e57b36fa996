// The plugin's access phase through a fake PDK, with the real key cache and limiter on Redis.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type {} from '@pra/platform/testing';
import { createRedis, createPool, type Pool } from '@pra/platform';
import { IDENTITY_HEADERS, SIGNATURE_HEADER, verifyIdentitySignature } from '@pra/core/auth';
import { KeyCache, keyCacheLoadedKey } from '@pra/account-billing/client';
import { TIER_LIMITS } from '@pra/core/tiers';
import { billingFixture, type BillingFixture } from '@pra/account-billing/testing';
import { issueKey, setAccountLimits, setKeyStatus } from '@pra/account-billing/domain';
import { httpKeyResolver, keyCacheKey } from '@pra/account-billing/key-cache';
import { KeyLookupService } from '@pra/account-billing/app';
import { hashApiKey } from '@pra/core/auth';
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
  deps = {
    keys: f.keys,
    limiter: new RateLimiter(f.redis, f.layout.prefix),
    hmacKey: HMAC,
    marketplaceSecret: SECRET,
    now: () => clock,
  };
});
afterAll(async () => {
  await f.close();
  await pool.end();
});

async function call(
  path: string,
  headers: Record<string, string> = {},
  method = 'GET',
  with_ = deps,
  body: string | null = null,
) {
  const kong = new FakeKong(path, headers, method, body);
  await access(kong, with_);
  return kong;
}

describe('gateway access phase', () => {
  it('forwards an authenticated call with signed identity headers and a request id', async () => {
    const a = await f.fundedAccount(10, { tier: 'growth' });
    const url = '/api/v1/property/address?zip=95838&address=3526%20HIGH%20ST';
    const kong = await call(url, { authorization: `Bearer ${a.key}` });
    expect(kong.exited).toBeNull();
    const id = { accountId: a.accountId, tier: 'growth' as const, keyId: a.keyId };
    expect(kong.upstream.get(IDENTITY_HEADERS.account)).toBe(String(a.accountId));
    expect(kong.upstream.get(IDENTITY_HEADERS.tier)).toBe('growth');
    const requestId = kong.upstream.get('x-request-id')!;
    const signature = kong.upstream.get(SIGNATURE_HEADER)!;
    const target = { method: 'GET', url };
    expect(verifyIdentitySignature(id, requestId, target, signature, HMAC)).toBe(true);
    // The same request spelled otherwise (parameters in another order, + for a space) is the same request.
    expect(
      verifyIdentitySignature(
        id,
        requestId,
        { method: 'GET', url: '/api/v1/property/address?address=3526+HIGH+ST&zip=95838' },
        signature,
        HMAC,
      ),
    ).toBe(true);
    // Anything else is not: another identity, key, request id, path, query or method, or an old signature.
    expect(verifyIdentitySignature({ ...id, accountId: id.accountId + 1 }, requestId, target, signature, HMAC)).toBe(
      false,
    );
    expect(verifyIdentitySignature(id, requestId, target, signature, 'another-key-another-key-another-key')).toBe(
      false,
    );
    expect(verifyIdentitySignature(id, crypto.randomUUID(), target, signature, HMAC)).toBe(false);
    expect(
      verifyIdentitySignature(
        id,
        requestId,
        { method: 'GET', url: '/api/v1/property/detail?zip=95838&address=3526%20HIGH%20ST' },
        signature,
        HMAC,
      ),
    ).toBe(false);
    expect(
      verifyIdentitySignature(
        id,
        requestId,
        { method: 'GET', url: '/api/v1/property/address?zip=95838&address=3527%20HIGH%20ST' },
        signature,
        HMAC,
      ),
    ).toBe(false);
    expect(verifyIdentitySignature(id, requestId, { method: 'HEAD', url }, signature, HMAC)).toBe(false);
    expect(verifyIdentitySignature(id, requestId, target, signature, HMAC, Math.floor(Date.now() / 1000) + 31)).toBe(
      false,
    );
    // Every admitted call says where the caller stands (RateLimit-*), not only a refused one.
    expect(Object.fromEntries(kong.response_headers)).toMatchObject({
      'ratelimit-limit': '120',
      'ratelimit-remaining': '119',
    });
    expect(Number(kong.response_headers.get('ratelimit-reset'))).toBeGreaterThanOrEqual(0);
  });

  it('answers HEAD on a metered path 405 with Allow: GET, without looking at the key or counting the call', async () => {
    const a = await f.fundedAccount(1, { tier: 'free' });
    for (const path of ['/api/v1/property/address?zip=95838&address=1', '/api/v1/sale/history?id=1', '/api/v1/usage']) {
      const head = await call(path, { authorization: `Bearer ${a.key}` }, 'HEAD');
      expect(head.exited).toMatchObject({
        status: 405,
        headers: { allow: 'GET' },
        body: { property: [], status: { code: 405, reason: 'method_not_allowed' } },
      });
    }
    const get = await call('/api/v1/sale/history?id=1', { authorization: `Bearer ${a.key}` });
    expect(get.response_headers.get('ratelimit-remaining')).toBe(String(TIER_LIMITS.free.ratePerMinute - 1));
    expect((await call('/api/v1/health', {}, 'HEAD')).exited).toBeNull(); // public paths may answer HEAD
  });

  it('never answers 401 for our own outage: a cold key cache or an unreachable Redis is a 503 with Retry-After', async () => {
    const a = await f.fundedAccount(1);
    // Redis lost the key cache (emptied): the marker is gone and so is the key's entry.
    const prefix = `${f.layout.prefix}cold:`;
    const cold = { ...deps, keys: new KeyCache(f.redis, prefix, { ttlMs: 0 }) };
    const refused = await call('/api/v1/usage', { authorization: `Bearer ${a.key}` }, 'GET', cold);
    expect(refused.exited).toMatchObject({ status: 503, body: { status: { code: 503, reason: 'unavailable' } } });
    expect(Number(refused.exited?.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    // Once rebuilt (the marker set), an unknown key is a 401 again.
    await f.redis.set(keyCacheLoadedKey(prefix), 'now');
    expect(
      (await call('/api/v1/usage', { authorization: 'Bearer pra_live_unknown' }, 'GET', cold)).exited?.status,
    ).toBe(401);
    // Redis unreachable: nothing answers on this port.
    const down = createRedis('redis://127.0.0.1:1', 'producer');
    down.on('error', () => {});
    try {
      const unreachable = { ...deps, keys: new KeyCache(down, prefix, { ttlMs: 0 }) };
      const out = await call('/api/v1/usage', { authorization: `Bearer ${a.key}` }, 'GET', unreachable);
      expect(out.exited).toMatchObject({ status: 503, body: { status: { code: 503, reason: 'unavailable' } } });
      expect(out.exited?.headers['retry-after']).toBeDefined();
    } finally {
      down.disconnect();
    }
  });

  it('strips identity headers a client sends, on every path', async () => {
    const spoof = {
      [IDENTITY_HEADERS.account]: '1',
      [IDENTITY_HEADERS.tier]: 'enterprise',
      [IDENTITY_HEADERS.key]: '1',
      [SIGNATURE_HEADER]: 't=1,v1=00',
    };
    const anonymous = await call('/api/v1/health', spoof);
    expect(anonymous.exited).toBeNull();
    for (const h of Object.keys(spoof)) expect(anonymous.upstream.has(h)).toBe(false);
    const refused = await call('/api/v1/property/owner', spoof);
    expect(refused.exited?.status).toBe(401);
  });

  it('401 for a missing or unknown key or a bad marketplace secret; 403 for a disabled key', async () => {
    expect((await call('/api/v1/usage')).exited).toMatchObject({
      status: 401,
      body: { property: [], status: { code: 401, reason: 'unauthorized' } },
    });
    expect((await call('/api/v1/usage', { authorization: 'Bearer pra_live_unknown' })).exited).toMatchObject({
      status: 401,
      body: { status: { reason: 'unauthorized' } },
    });
    const a = await f.fundedAccount(1);
    expect(
      (await call('/api/v1/usage', { 'x-marketplace-proxy-secret': 'wrong-secret-wrong', 'x-marketplace-key': a.key }))
        .exited?.status,
    ).toBe(401);
    expect((await call('/api/v1/usage', { 'x-marketplace-proxy-secret': SECRET })).exited?.body.status.msg).toMatch(
      /X-Marketplace-Key/,
    );
    const m = await issueKey(f.deps, a.accountId, 'marketplace');
    const viaMarketplace = await call('/api/v1/usage', {
      'x-marketplace-proxy-secret': SECRET,
      'x-marketplace-key': m.key,
    });
    expect(viaMarketplace.exited).toBeNull();
    expect(viaMarketplace.upstream.get(IDENTITY_HEADERS.account)).toBe(String(a.accountId));
    expect(viaMarketplace.upstream.get(IDENTITY_HEADERS.key)).toBe(String(m.keyId));
    await setKeyStatus(f.deps, a.keyId, 'disabled');
    expect((await call('/api/v1/usage', { authorization: `Bearer ${a.key}` })).exited).toMatchObject({
      status: 403,
      body: { status: { msg: 'API key disabled', reason: 'forbidden' } },
    });
    // Nothing brings a disabled key back but enabling it: not a key-cache rebuild that read the database before.
    await setKeyStatus(f.deps, a.keyId, 'active');
    expect((await call('/api/v1/usage', { authorization: `Bearer ${a.key}` })).exited).toBeNull();
  });

  it("enforces a key's kind: a marketplace key only through the marketplace, a standard key only as Bearer (403)", async () => {
    const a = await f.fundedAccount(1);
    const m = await issueKey(f.deps, a.accountId, 'marketplace');
    const asBearer = await call('/api/v1/usage', { authorization: `Bearer ${m.key}` });
    expect(asBearer.exited).toMatchObject({
      status: 403,
      body: { property: [], status: { code: 403, reason: 'forbidden' } },
    });
    expect(asBearer.exited?.body.status.msg).toMatch(/marketplace key: it is accepted only through the marketplace/);
    expect(asBearer.upstream.has(IDENTITY_HEADERS.account)).toBe(false);
    const standardViaMarketplace = await call('/api/v1/usage', {
      'x-marketplace-proxy-secret': SECRET,
      'x-marketplace-key': a.key,
    });
    expect(standardViaMarketplace.exited).toMatchObject({
      status: 403,
      body: { status: { code: 403, reason: 'forbidden' } },
    });
    expect(standardViaMarketplace.exited?.body.status.msg).toMatch(
      /not a marketplace key: X-Marketplace-Key takes marketplace keys only; send it as Authorization: Bearer/,
    );
    // Each, presented its own way, is served.
    expect((await call('/api/v1/usage', { authorization: `Bearer ${a.key}` })).exited).toBeNull();
    expect(
      (await call('/api/v1/usage', { 'x-marketplace-proxy-secret': SECRET, 'x-marketplace-key': m.key })).exited,
    ).toBeNull();
    // An entry written before kinds were cached (no kind, same version), as a deploy finds the cache: the gateway
    // asks account-billing, which rewrites it with its kind, and the marketplace key is served as one.
    const entryKey = keyCacheKey(f.layout.prefix, hashApiKey(m.key));
    const { kind: _kind, ...legacy } = JSON.parse((await f.redis.get(entryKey))!);
    await f.redis.set(entryKey, JSON.stringify(legacy));
    const lookups = new KeyLookupService({ pool, redis: f.redis, prefix: f.layout.prefix });
    const gateway = {
      ...deps,
      keys: new KeyCache(f.redis, f.layout.prefix, { ttlMs: 0, resolver: (h) => lookups.lookup(h) }),
    };
    const upgraded = await call(
      '/api/v1/usage',
      { 'x-marketplace-proxy-secret': SECRET, 'x-marketplace-key': m.key },
      'GET',
      gateway,
    );
    expect(upgraded.exited).toBeNull();
    expect(upgraded.upstream.get(IDENTITY_HEADERS.key)).toBe(String(m.keyId));
    expect(JSON.parse((await f.redis.get(entryKey))!)).toMatchObject({ kind: 'marketplace', v: legacy.v });
    expect((await call('/api/v1/usage', { authorization: `Bearer ${m.key}` }, 'GET', gateway)).exited?.status).toBe(
      403,
    );
    // Without a key lookup configured, such an entry still counts as a standard key (a rebuild rewrites it).
    await f.redis.set(entryKey, JSON.stringify(legacy));
    expect((await call('/api/v1/usage', { authorization: `Bearer ${m.key}` })).exited).toBeNull();
  });

  it('a key missing from the cache is looked up through account-billing; unreachable, it is a 503, never a 401', async () => {
    const a = await f.fundedAccount(1);
    await f.redis.del(keyCacheKey(f.layout.prefix, hashApiKey(a.key)));
    const lookups = new KeyLookupService({ pool, redis: f.redis, prefix: f.layout.prefix });
    const restoring = {
      ...deps,
      keys: new KeyCache(f.redis, f.layout.prefix, { ttlMs: 0, resolver: (h) => lookups.lookup(h) }),
    };
    const served = await call('/api/v1/usage', { authorization: `Bearer ${a.key}` }, 'GET', restoring);
    expect(served.exited).toBeNull();
    expect(served.upstream.get(IDENTITY_HEADERS.account)).toBe(String(a.accountId));
    expect(await f.redis.exists(keyCacheKey(f.layout.prefix, hashApiKey(a.key)))).toBe(1);
    await f.redis.del(keyCacheKey(f.layout.prefix, hashApiKey(a.key)));
    const cut = {
      ...deps,
      keys: new KeyCache(f.redis, f.layout.prefix, {
        ttlMs: 0,
        resolver: httpKeyResolver('http://127.0.0.1:9', HMAC, { warn: () => {} }),
      }),
    };
    const refused = await call('/api/v1/usage', { authorization: `Bearer ${a.key}` }, 'GET', cut);
    expect(refused.exited).toMatchObject({ status: 503, body: { status: { code: 503, reason: 'unavailable' } } });
    expect(Number(refused.exited?.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  });

  it('429 past the tier limit, with Retry-After and RateLimit headers', async () => {
    const a = await f.fundedAccount(1, { tier: 'free' });
    const limit = TIER_LIMITS.free.ratePerMinute;
    const history = '/api/v1/sale/history?id=1';
    for (let i = 0; i < limit; i++)
      expect((await call(history, { authorization: `Bearer ${a.key}` })).exited).toBeNull();
    const refused = await call(history, { authorization: `Bearer ${a.key}` });
    expect(refused.exited?.status).toBe(429);
    expect(refused.exited?.body.status.code).toBe(429);
    expect(refused.exited?.body.status.reason).toBe('rate_limited');
    expect(refused.exited?.headers).toMatchObject({ 'ratelimit-limit': String(limit), 'ratelimit-remaining': '0' });
    expect(Number(refused.exited?.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    // The owner can still read its usage, past the limit: /usage is neither refused nor counted.
    expect((await call('/api/v1/usage', { authorization: `Bearer ${a.key}` })).exited).toBeNull();
    clock += 60_001;
    expect((await call(history, { authorization: `Bearer ${a.key}` })).exited).toBeNull();
  });

  it('a conditional request (If-None-Match, issue 38) is admitted, limited and counted like any; its header reaches the service', async () => {
    const a = await f.fundedAccount(1, { tier: 'free' });
    await setAccountLimits(f.deps, a.accountId, { ratePerMinute: 2, dailyQuota: 3 });
    const history = '/api/v1/sale/history?id=1';
    const held = { authorization: `Bearer ${a.key}`, 'if-none-match': 'W/"tag-one", "tag-two"' };
    const first = await call(history, held);
    expect(first.exited).toBeNull();
    // Never cleared nor replaced: the lookup decides the 304 (a free answer, but a call: it took a slot).
    expect(first.upstream.get('if-none-match')).toBe('W/"tag-one", "tag-two"');
    expect(first.response_headers.get('ratelimit-remaining')).toBe('1');
    expect((await call(history, held)).exited).toBeNull();
    // The minute is spent by the two conditional calls: a third is refused like any other.
    expect((await call(history, held)).exited).toMatchObject({
      status: 429,
      body: { status: { reason: 'rate_limited' } },
    });
    clock += 60_001;
    expect((await call(history, { authorization: `Bearer ${a.key}` })).exited).toBeNull();
    // And they counted toward the day: three calls made of a quota of 3.
    clock += 60_001;
    expect((await call(history, held)).exited).toMatchObject({
      status: 429,
      body: { status: { reason: 'quota_exceeded' } },
    });
  });

  it('/usage answers its owner at the daily quota and past the rate, still 401 for no key and 403 when disabled', async () => {
    const a = await f.fundedAccount(1, { tier: 'free' });
    await setAccountLimits(f.deps, a.accountId, { ratePerMinute: 2, dailyQuota: 2 });
    const history = '/api/v1/sale/history?id=1';
    for (let i = 0; i < 2; i++) expect((await call(history, { authorization: `Bearer ${a.key}` })).exited).toBeNull();
    expect((await call(history, { authorization: `Bearer ${a.key}` })).exited?.body.status.msg).toMatch(/quota/);
    for (let i = 0; i < 5; i++)
      expect((await call('/api/v1/usage', { authorization: `Bearer ${a.key}` })).exited).toBeNull();
    // The calls to /usage took nothing: a new minute admits exactly nothing more (the quota of 2 is spent by 2).
    clock += 60_001;
    expect((await call(history, { authorization: `Bearer ${a.key}` })).exited?.status).toBe(429);
    expect((await call('/api/v1/usage')).exited?.status).toBe(401);
    expect((await call('/api/v1/usage', { authorization: 'Bearer pra_live_unknown' })).exited?.status).toBe(401);
    await setKeyStatus(f.deps, a.keyId, 'disabled');
    expect((await call('/api/v1/usage', { authorization: `Bearer ${a.key}` })).exited?.status).toBe(403);
  });

  it('counts a batch by its entries (1 call per 10) in the window and the quota, preview or not', async () => {
    const a = await f.fundedAccount(1, { tier: 'starter' });
    await setAccountLimits(f.deps, a.accountId, { ratePerMinute: 60, dailyQuota: 1000 });
    const entries = (n: number) =>
      JSON.stringify({ requests: Array.from({ length: n }, () => ({ address: '1 A St' })) });
    const kong = (query: string, body: string) =>
      call(`/api/v1/property/batch${query}`, { authorization: `Bearer ${a.key}` }, 'POST', deps, body);
    // A full batch (100 entries) takes 10 of the starter's 60: six in a minute, previews alike; the seventh waits.
    for (let i = 0; i < 3; i++) expect((await kong('?preview=true', entries(100))).exited).toBeNull();
    const fourth = await kong('', entries(100));
    expect(fourth.exited).toBeNull();
    expect(fourth.calls).toContain('kong.request.get_raw_body');
    expect(fourth.response_headers.get('ratelimit-remaining')).toBe('20');
    expect((await kong('', entries(91))).exited).toBeNull(); // 10
    expect((await kong('', entries(5))).exited).toBeNull(); // 1
    expect((await kong('', entries(100))).exited?.status).toBe(429); // 9 left, 10 asked
    expect((await kong('', entries(90))).exited).toBeNull(); // 9
    // A body that is not a batch counts 1 (the service answers it 400).
    clock += 60_001;
    expect((await kong('', 'not json')).response_headers.get('ratelimit-remaining')).toBe('59');
  });

  it('admits a batch heavier than the whole minute or day once that window is empty: never a lock-out', async () => {
    const a = await f.fundedAccount(1, { tier: 'enterprise' });
    const body = JSON.stringify({ requests: Array.from({ length: 100 }, () => ({ address: '1 A St' })) });
    const batch = () => call('/api/v1/property/batch', { authorization: `Bearer ${a.key}` }, 'POST', deps, body);
    // 5 a minute: a full batch (10 calls) counts as the whole minute, admitted when the minute is empty.
    await setAccountLimits(f.deps, a.accountId, { ratePerMinute: 5, dailyQuota: null });
    clock += 60_001;
    const first = await batch();
    expect(first.exited).toBeNull();
    expect(first.response_headers.get('ratelimit-remaining')).toBe('0');
    expect((await batch()).exited?.body.status.reason).toBe('rate_limited');
    // A quota of 3 a day: a full batch counts as the whole day, admitted on a day with nothing used.
    await setAccountLimits(f.deps, a.accountId, { ratePerMinute: 100, dailyQuota: 3 });
    clock = (Math.floor(clock / 86_400_000) + 1) * 86_400_000 + 1_000;
    expect((await batch()).exited).toBeNull();
    expect((await batch()).exited?.body.status.reason).toBe('quota_exceeded');
  });

  it('applies per-account limits over the tier limits', async () => {
    const a = await f.fundedAccount(1, { tier: 'enterprise' });
    await setAccountLimits(f.deps, a.accountId, { ratePerMinute: 2, dailyQuota: null });
    for (let i = 0; i < 2; i++)
      expect((await call('/api/v1/sale/history?id=1', { authorization: `Bearer ${a.key}` })).exited).toBeNull();
    const refused = await call('/api/v1/sale/history?id=1', { authorization: `Bearer ${a.key}` });
    expect(refused.exited).toMatchObject({
      status: 429,
      headers: { 'ratelimit-limit': '2' },
      body: { status: { reason: 'rate_limited', msg: 'Rate limit of 2 requests per minute exceeded' } },
    });
  });

  it('429 quota_exceeded past the daily quota: a client tells it from the minute limit by the reason', async () => {
    const a = await f.fundedAccount(1, { tier: 'enterprise' });
    await setAccountLimits(f.deps, a.accountId, { ratePerMinute: 100, dailyQuota: 2 });
    for (let i = 0; i < 2; i++)
      expect((await call('/api/v1/sale/history?id=1', { authorization: `Bearer ${a.key}` })).exited).toBeNull();
    const refused = await call('/api/v1/sale/history?id=1', { authorization: `Bearer ${a.key}` });
    expect(refused.exited).toMatchObject({
      status: 429,
      body: { status: { code: 429, reason: 'quota_exceeded', msg: 'Daily quota of 2 calls exceeded' } },
    });
  });

  it('takes the webhooks by their templated paths and methods: DELETE and POST signed as sent, limited like calls', async () => {
    const a = await f.fundedAccount(0, { tier: 'enterprise' });
    await setAccountLimits(f.deps, a.accountId, { ratePerMinute: 4, dailyQuota: null });
    const auth = { authorization: `Bearer ${a.key}` };
    const id = { accountId: a.accountId, tier: 'enterprise' as const, keyId: a.keyId };
    const path = '/api/v1/webhooks/wh_0123456789abcdef01234567';
    const deleted = await call(path, auth, 'DELETE');
    expect(deleted.exited).toBeNull();
    const signature = deleted.upstream.get(SIGNATURE_HEADER)!;
    const requestId = deleted.upstream.get('x-request-id')!;
    expect(verifyIdentitySignature(id, requestId, { method: 'DELETE', url: path }, signature, HMAC)).toBe(true);
    // The signature binds the method and the id: not another webhook, not a GET of it.
    expect(verifyIdentitySignature(id, requestId, { method: 'GET', url: path }, signature, HMAC)).toBe(false);
    expect(
      verifyIdentitySignature(id, requestId, { method: 'DELETE', url: `${path.slice(0, -1)}8` }, signature, HMAC),
    ).toBe(false);
    // A creation's body is not weighed: it counts 1, whatever it holds (a batch's entries count by ten).
    const create = await call(
      '/api/v1/webhooks',
      auth,
      'POST',
      deps,
      JSON.stringify({ requests: Array.from({ length: 100 }, () => ({})) }),
    );
    expect(create.exited).toBeNull();
    expect(create.calls).not.toContain('kong.request.get_raw_body');
    expect(create.response_headers.get('ratelimit-remaining')).toBe('2');
    expect((await call(`${path}/test`, auth, 'POST')).exited).toBeNull();
    expect((await call(`${path}/deliveries?pagesize=5`, auth)).exited).toBeNull();
    // Free, but calls: the fifth in the minute is refused as any other.
    expect((await call('/api/v1/webhooks', auth)).exited?.body.status.reason).toBe('rate_limited');
  });

  it('answers a method a webhook path does not take 405 naming those it takes, and a path no endpoint has 404, before the key', async () => {
    const hook = '/api/v1/webhooks/wh_0123456789abcdef01234567';
    for (const [method, path, allow] of [
      ['PUT', '/api/v1/webhooks', 'GET, POST'],
      ['DELETE', '/api/v1/webhooks', 'GET, POST'],
      ['HEAD', '/api/v1/webhooks', 'GET, POST'],
      ['GET', hook, 'DELETE'],
      ['POST', `${hook}/deliveries`, 'GET'],
      ['DELETE', `${hook}/test`, 'POST'],
      ['POST', '/api/v1/property/address', 'GET'],
      ['GET', '/api/v1/property/batch', 'POST'],
    ] as const) {
      const kong = await call(path, {}, method);
      expect(kong.exited, `${method} ${path}`).toMatchObject({
        status: 405,
        headers: { allow },
        body: {
          status: {
            reason: 'method_not_allowed',
            msg: `Method ${method} not allowed here: use ${allow.replace(', ', ' or ')}`,
          },
        },
      });
      expect(kong.calls).not.toContain('kong.request.get_headers');
    }
    // Kong's route is the prefix /api/v1/webhooks: what no endpoint has below it is a 404, not a call.
    for (const path of [`${hook}/x`, '/api/v1/webhooks/', '/api/v1/webhooksx', `${hook}/test/again`]) {
      const kong = await call(path, {}, 'GET');
      expect(kong.exited, path).toMatchObject({ status: 404, body: { status: { reason: 'no_such_endpoint' } } });
      expect(kong.calls, path).toEqual(['kong.request.get_path', 'kong.response.exit']);
    }
  });
});
