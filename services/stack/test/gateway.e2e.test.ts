// End to end through the local gateway: kong.yml routes, the pra-gateway plugin, the real services in gateway
// mode (they accept only identity the gateway signed), this run's PostgreSQL and Redis.
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ErrorResponse, PropertyResponse } from '@pra/core/contracts';
import { createPool, type Pool } from '@pra/platform';
import { IDENTITY_HEADERS, hashApiKey } from '@pra/core/auth';
import { keyCacheKey, keyCacheLoadedKey } from '@pra/account-billing/client';
import { rebuildKeyCache } from '@pra/account-billing/key-cache-writer';
import { billingFixture, type BillingFixture } from '@pra/account-billing/testing';
import { issueKey, setKeyStatus } from '@pra/account-billing/domain';
import { insertProperties, makeProperty, uniqueStreet } from '@pra/ingest/testing';
import { startSystem, type RunningSystem } from '../src/system.js';

const HMAC = `hmac-${randomBytes(16).toString('hex')}`;
const MARKETPLACE = `mkt-${randomBytes(16).toString('hex')}`;
let pool: Pool;
let f: BillingFixture;
let system: RunningSystem;
let lookupUrl: string;
const taps: Server[] = [];
let base: string;
let path: string;
/** What the gateway sent upstream last, as an attacker on the path between it and a service would capture it. */
let captured: { url: string; headers: IncomingHttpHeaders } | undefined;

/** A tap in front of a service: records the request, passes it on. */
async function tapInFront(to: string): Promise<string> {
  const tap = createServer((req, res) => {
    captured = { url: req.url!, headers: { ...req.headers } };
    const headers = Object.fromEntries(
      Object.entries(req.headers).filter(([k]) => !['host', 'connection'].includes(k)),
    ) as Record<string, string>;
    void fetch(to + req.url, { method: req.method, headers }).then(async (r) => {
      res.writeHead(r.status, Object.fromEntries(r.headers));
      res.end(Buffer.from(await r.arrayBuffer()));
    });
  });
  await new Promise<void>((r) => tap.listen(0, '127.0.0.1', () => r()));
  taps.push(tap);
  return `http://127.0.0.1:${(tap.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  pool = createPool(inject('databaseUrl'), 4);
  f = await billingFixture(pool, inject('redisUrl'), `${inject('redisPrefix')}gwe${randomBytes(3).toString('hex')}:`);
  system = await startSystem({
    placement: 'in-process',
    pool,
    billing: f,
    gatewayKey: HMAC,
    marketplaceSecret: MARKETPLACE,
    only: ['lookup', 'account-billing'],
    interpose: (_service, url) => tapInFront(url),
  });
  lookupUrl = system.urls.lookup!;
  base = system.gatewayUrl;
  const s = uniqueStreet();
  await insertProperties(pool, [
    makeProperty({ line1: `5 ${s} ST`, line2: 'APT 1', zip: '95814' }),
    makeProperty({ line1: `5 ${s} ST`, line2: 'APT 2', zip: '95814' }),
  ]);
  path = `/api/v1/property/address?address=${encodeURIComponent(`5 ${s} ST`)}&zip=95814`;
});
afterAll(async () => {
  await system?.stop();
  await Promise.all(taps.map((t) => new Promise((r) => t.close(r))));
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
    // Every metered response says where the caller stands, not only a refusal.
    expect(res.headers.get('ratelimit-limit')).toBe('120');
    expect(res.headers.get('ratelimit-remaining')).toBe('119');
    expect(Number(res.headers.get('ratelimit-reset'))).toBeGreaterThanOrEqual(0);
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
    // A rate-limited call (an unknown property: an uncharged 404); /usage is exempt from the limits (issue 35).
    const limited = `${base}/api/v1/sale/history?id=999999999`;
    for (let i = 0; i < 11; i++) statuses.push((await get(limited, bearer(free.key))).status);
    expect(statuses.slice(0, 10).every((s) => s === 404)).toBe(true);
    const refused = await get(limited, bearer(free.key));
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(refused.headers.get('ratelimit-limit')).toBe('10');
    expect(ErrorResponse.parse(refused.body).status.code).toBe(429);
    // The owner still reads its usage past the limit.
    expect((await get(`${base}/api/v1/usage`, bearer(free.key))).status).toBe(200);
  });

  it('ignores identity headers a client sends: the call is charged to the key, not to the named account', async () => {
    const payer = await f.fundedAccount(10);
    const victim = await f.fundedAccount(10);
    const res = await get(base + path, {
      ...bearer(payer.key),
      [IDENTITY_HEADERS.account]: String(victim.accountId),
      [IDENTITY_HEADERS.tier]: 'enterprise',
    });
    expect(res.status).toBe(200);
    expect(await f.meter.balance(payer.accountId)).toBe(8);
    expect(await f.meter.balance(victim.accountId)).toBe(10);
  });

  it('services refuse calls that bypass the gateway, with a key or with forged identity headers', async () => {
    const a = await f.fundedAccount(10);
    expect((await get(lookupUrl + path, bearer(a.key))).status).toBe(401);
    const forged = await get(lookupUrl + path, {
      [IDENTITY_HEADERS.account]: String(a.accountId),
      [IDENTITY_HEADERS.tier]: 'starter',
      [IDENTITY_HEADERS.key]: '1',
      'x-pra-signature': `t=1,v1=${'0'.repeat(64)}`,
      'x-request-id': crypto.randomUUID(),
    });
    expect(forged.status).toBe(401);
    expect(forged.body.status.msg).toMatch(/through the gateway/);
    expect(await f.meter.balance(a.accountId)).toBe(10);
  });

  it('public paths need no key; unknown paths and other methods get an ErrorResponse', async () => {
    expect((await get(`${base}/api/v1/health`)).status).toBe(200);
    expect((await get(`${base}/api/v1/nothing-here`)).status).toBe(404);
    const post = await fetch(`${base}/api/v1/health`, { method: 'POST' });
    expect(post.status).toBe(405);
  });

  it('HEAD on a metered path is 405 with Allow: GET and charges nothing', async () => {
    const a = await f.fundedAccount(10);
    const head = await fetch(base + path, { method: 'HEAD', headers: bearer(a.key) });
    expect(head.status).toBe(405);
    expect(head.headers.get('allow')).toBe('GET');
    expect(await f.meter.balance(a.accountId)).toBe(10);
    expect((await fetch(`${base}/api/v1/health`, { method: 'HEAD' })).status).toBe(200); // public paths answer HEAD
  });
});

describe('marketplace calls (SPEC 5): the proxy secret and the customer key', () => {
  const marketplace = (key: string, secret = MARKETPLACE) => ({
    'x-marketplace-proxy-secret': secret,
    'x-marketplace-key': key,
  });

  it('a marketplace customer is served and charged like a Bearer caller', async () => {
    const a = await f.fundedAccount(10, { tier: 'growth' });
    const m = await issueKey(f.deps, a.accountId, 'marketplace');
    const res = await get(base + path, marketplace(m.key));
    expect(res.status).toBe(200);
    expect(PropertyResponse.parse(res.body).status).toMatchObject({ records_returned: 2, credits_remaining: 8 });
    expect(await f.meter.balance(a.accountId)).toBe(8); // charged to the account of the key
    expect((await get(`${base}/api/v1/usage`, marketplace(m.key))).status).toBe(200);
  });

  it('a key is accepted only the way its kind allows (403 otherwise), and the refusal is not charged', async () => {
    const a = await f.fundedAccount(10, { tier: 'growth' });
    const m = await issueKey(f.deps, a.accountId, 'marketplace');
    const asBearer = await get(base + path, bearer(m.key));
    expect(asBearer.status).toBe(403);
    expect(ErrorResponse.parse(asBearer.body).status.msg).toMatch(/marketplace key: it is accepted only through/);
    const standard = await get(base + path, marketplace(a.key));
    expect(standard.status).toBe(403);
    expect(ErrorResponse.parse(standard.body).status.msg).toMatch(/not a marketplace key/);
    expect(await f.meter.balance(a.accountId)).toBe(10);
  });

  it('a wrong secret is a 401 (even with a valid key), an unknown key a 401, a disabled key a 403; none is charged', async () => {
    const a = await f.fundedAccount(10, { tier: 'growth' });
    const wrong = await get(base + path, marketplace(a.key, `${MARKETPLACE}x`));
    expect(wrong.status).toBe(401);
    expect(ErrorResponse.parse(wrong.body).status.msg).toBe('Invalid marketplace proxy secret');
    const unknown = await get(base + path, marketplace(`pra_live_${randomBytes(16).toString('hex')}`));
    expect(unknown.status).toBe(401);
    expect(ErrorResponse.parse(unknown.body).status.msg).toBe('Invalid API key');
    const disabled = await f.fundedAccount(10, { tier: 'growth' });
    await setKeyStatus(f.deps, disabled.keyId, 'disabled');
    const off = await get(base + path, marketplace(disabled.key));
    expect(off.status).toBe(403);
    expect(ErrorResponse.parse(off.body).status.msg).toBe('API key disabled');
    expect(await f.meter.balance(a.accountId)).toBe(10);
    expect(await f.meter.balance(disabled.accountId)).toBe(10);
  });
});

describe('identity bound to the request', () => {
  const replay = (url: string, headers: IncomingHttpHeaders) => {
    const sent = Object.fromEntries(
      Object.entries(headers).filter(([k]) => !['host', 'connection'].includes(k)),
    ) as Record<string, string>;
    return get(lookupUrl + url, sent);
  };

  it('headers captured from a free call cannot be replayed as a lookup, billed to their owner', async () => {
    const a = await f.fundedAccount(10);
    expect((await get(`${base}/api/v1/usage`, bearer(a.key))).status).toBe(200);
    const stolen = captured!;
    expect(stolen.url).toBe('/api/v1/usage');
    const res = await replay(path, stolen.headers);
    expect(res.status).toBe(401);
    expect(ErrorResponse.parse(res.body).status.code).toBe(401);
    expect(await f.meter.balance(a.accountId)).toBe(10);
  });

  it('a signed lookup replayed with another path or query is refused; replayed as it was, it is charged once and answered alike', async () => {
    const a = await f.fundedAccount(10);
    const first = await get(base + path, bearer(a.key));
    expect(first.status).toBe(200);
    expect(await f.meter.balance(a.accountId)).toBe(8);
    const stolen = captured!;
    for (const other of [
      path.replace('/property/address', '/property/detail'),
      `${path}&pagesize=1`,
      path.replace('zip=95814', 'zip=95815'),
    ]) {
      expect((await replay(other, stolen.headers)).status, other).toBe(401);
    }
    const again = await replay(stolen.url, stolen.headers);
    expect(again.status).toBe(200);
    expect(again.body.status).toMatchObject({
      transactionID: first.body.status.transactionID,
      records_returned: 2,
      credits_remaining: 8,
    });
    expect(again.body.property).toEqual(first.body.property);
    expect(await f.meter.balance(a.accountId)).toBe(8);
  });

  it('a signature older than its window is refused', async () => {
    const a = await f.fundedAccount(10);
    await get(base + path, bearer(a.key));
    const stolen = captured!;
    const old = String(stolen.headers['x-pra-signature']).replace(/^t=(\d+)/, (_, t) => `t=${Number(t) - 31}`);
    expect((await replay(stolen.url, { ...stolen.headers, 'x-pra-signature': old })).status).toBe(401);
  });
});

describe('Idempotency-Key', () => {
  it('the same key sent 20 times at once is charged once, and every answer is the first one', async () => {
    const a = await f.fundedAccount(10);
    const headers = { ...bearer(a.key), 'idempotency-key': `order-${randomBytes(6).toString('hex')}` };
    const all = await Promise.all(Array.from({ length: 20 }, () => get(base + path, headers)));
    for (const r of all) {
      expect(r.status).toBe(200);
      expect(r.body.status).toMatchObject({
        records_returned: 2,
        credits_remaining: 8,
        transactionID: all[0]!.body.status.transactionID,
      });
      expect(r.headers.get('x-request-id')).toBe(all[0]!.body.status.transactionID);
    }
    expect(await f.meter.balance(a.accountId)).toBe(8);
    // A retry later is answered alike, and still charged nothing.
    expect((await get(base + path, headers)).body.status).toMatchObject({
      transactionID: all[0]!.body.status.transactionID,
      records_returned: 2,
    });
    expect(await f.meter.balance(a.accountId)).toBe(8);
  });

  it('the same key on another request is a 400 naming the conflict; a malformed key is a 400', async () => {
    const a = await f.fundedAccount(10);
    const key = { 'idempotency-key': `k-${randomBytes(6).toString('hex')}` };
    expect((await get(base + path, { ...bearer(a.key), ...key })).status).toBe(200);
    const other = await get(`${base + path}&pagesize=1`, { ...bearer(a.key), ...key });
    expect(other.status).toBe(400);
    expect(ErrorResponse.parse(other.body).status.msg).toMatch(/Idempotency-Key .*different request/);
    const bad = await get(base + path, { ...bearer(a.key), 'idempotency-key': 'x'.repeat(300) });
    expect(bad.status).toBe(400);
    expect(bad.body.status.msg).toMatch(/'Idempotency-Key'/);
    expect(await f.meter.balance(a.accountId)).toBe(8);
  });

  it('is signed with the request: a captured request replayed with another key is refused', async () => {
    const a = await f.fundedAccount(10);
    await get(base + path, { ...bearer(a.key), 'idempotency-key': 'first' });
    const stolen = captured!;
    const sent = Object.fromEntries(
      Object.entries(stolen.headers).filter(([k]) => !['host', 'connection'].includes(k)),
    ) as Record<string, string>;
    expect((await get(lookupUrl + stolen.url, { ...sent, 'idempotency-key': 'second' })).status).toBe(401);
    expect((await get(lookupUrl + stolen.url, sent)).status).toBe(200); // as it was: answered, not charged again
    expect(await f.meter.balance(a.accountId)).toBe(8);
  });
});

describe('a lost key-cache entry is not a verdict', () => {
  it('keys whose entries were deleted (with the loaded marker) are served, looked up through account-billing, and restored', async () => {
    const a = await f.fundedAccount(10);
    const b = await f.fundedAccount(10);
    const prefix = f.layout.prefix;
    const entries = await f.redis.keys(`${prefix}key:*`);
    expect(entries.length).toBeGreaterThanOrEqual(2);
    const before = await f.redis.get(keyCacheKey(prefix, hashApiKey(a.key)));
    // An operator's DEL of every entry (the marker too: as a Redis that lost its data).
    await f.redis.del(...entries, keyCacheLoadedKey(prefix));
    try {
      const res = await get(base + path, bearer(a.key));
      expect(res.status).toBe(200);
      expect(await f.meter.balance(a.accountId)).toBe(8);
      expect(await f.redis.get(keyCacheKey(prefix, hashApiKey(a.key)))).toBe(before); // restored, same version
      // With the marker back (a cache thought whole), a lost entry is still looked up, not refused.
      await f.redis.set(keyCacheLoadedKey(prefix), 'test');
      expect((await get(`${base}/api/v1/usage`, bearer(b.key))).status).toBe(200);
      expect(await f.redis.exists(keyCacheKey(prefix, hashApiKey(b.key)))).toBe(1);
      // A key the database does not know is a 401, as before.
      expect((await get(base + path, bearer('pra_live_not-a-key'))).status).toBe(401);
    } finally {
      await rebuildKeyCache(pool, f.redis, f.layout.prefix);
    }
  });

  it('a marketplace key whose entry was written before kinds (no kind) is served behind the marketplace secret', async () => {
    const a = await f.fundedAccount(10);
    const m = await issueKey(f.deps, a.accountId, 'marketplace');
    const entryKey = keyCacheKey(f.layout.prefix, hashApiKey(m.key));
    // As a deploy finds an entry the previous version wrote: the same version, no kind.
    const { kind: _kind, ...old } = JSON.parse((await f.redis.get(entryKey))!);
    await f.redis.set(entryKey, JSON.stringify(old));
    const res = await get(base + path, { 'x-marketplace-proxy-secret': MARKETPLACE, 'x-marketplace-key': m.key });
    expect(res.status).toBe(200);
    expect(await f.meter.balance(a.accountId)).toBe(8);
    expect(JSON.parse((await f.redis.get(entryKey))!)).toMatchObject({ kind: 'marketplace', v: old.v }); // rewritten
  });
});
