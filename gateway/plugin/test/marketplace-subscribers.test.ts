// Marketplace subscribers at the gateway (issue 27, part 5): behind the proxy secret, X-Marketplace-User and
// X-Marketplace-Subscription resolve to the subscriber's account (provisioned by account-billing on the first call),
// through the fake PDK and through the real kong-js-pluginserver. Real PostgreSQL, Redis and account-billing app.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createPool, type Pool } from '@pra/platform';
import { startApp, type RunningApp } from '@pra/platform/testing';
import {
  IDENTITY_HEADERS,
  MARKETPLACE_PLAN_NAMES,
  SIGNATURE_HEADER,
  subscriberKeyHash,
  verifyIdentitySignature,
} from '@pra/core/auth';
import { TIER_LIMITS } from '@pra/core/tiers';
import { billingFixture, type BillingFixture } from '@pra/account-billing/testing';
import { issueKey } from '@pra/account-billing/domain';
import { httpKeyResolver, KeyCache } from '@pra/account-billing/client';
import { createBillingApp, KeyLookupService } from '@pra/account-billing/app';
import { access, type AccessDeps } from '../src/access.js';
import { RateLimiter } from '../src/rate-limit.js';
import { FakeKong } from './fake-pdk.js';
import { ADMITTED_PDK_CALLS, accessEvent, startPluginServer, type PluginServer } from './pluginserver-harness.js';

const HMAC = `hmac-${randomBytes(16).toString('hex')}`;
const SECRET = `mkt-${randomBytes(12).toString('hex')}`;
const PATH = '/api/v1/property/owner?lastName=SMITH';
let pool: Pool;
let f: BillingFixture;
let billing: RunningApp;
let deps: AccessDeps;

beforeAll(async () => {
  pool = createPool(inject('databaseUrl'), 4);
  f = await billingFixture(pool, inject('redisUrl'), `${inject('redisPrefix')}gms${randomBytes(3).toString('hex')}:`);
  billing = await startApp(
    createBillingApp({
      pool,
      auth: { gatewayKey: HMAC },
      keyLookup: new KeyLookupService({ pool, redis: f.redis, prefix: f.layout.prefix }),
    }),
  );
  deps = {
    keys: new KeyCache(f.redis, f.layout.prefix, { ttlMs: 0, resolver: httpKeyResolver(billing.url, HMAC) }),
    limiter: new RateLimiter(f.redis, f.layout.prefix),
    hmacKey: HMAC,
    marketplaceSecret: SECRET,
  };
});
afterAll(async () => {
  await billing?.close();
  await f.close();
  await pool.end();
});

async function call(headers: Record<string, string>, target = PATH) {
  const kong = new FakeKong(target, headers);
  await access(kong, deps);
  return kong;
}
const newUser = () => `user-${randomBytes(5).toString('hex')}`;
const subscriber = (user: string, plan = 'starter', secret = SECRET) => ({
  'x-marketplace-proxy-secret': secret,
  'x-marketplace-user': user,
  'x-marketplace-subscription': plan,
});
const accountsOf = async (user: string) =>
  Number(
    (
      await pool.query<{ n: string }>(
        'SELECT count(*) AS n FROM billing.marketplace_subscriptions WHERE marketplace_user = $1',
        [user],
      )
    ).rows[0]!.n,
  );

describe('the access phase with the subscriber headers (fake PDK)', () => {
  it("the first call provisions the plan's account; the call is forwarded as it, signed, on the plan's limits", async () => {
    const user = newUser();
    const kong = await call(subscriber(user, 'growth'));
    expect(kong.exited).toBeNull();
    expect(kong.calls).toEqual(ADMITTED_PDK_CALLS);
    const accountId = Number(kong.upstream.get(IDENTITY_HEADERS.account));
    const keyId = Number(kong.upstream.get(IDENTITY_HEADERS.key));
    expect(kong.upstream.get(IDENTITY_HEADERS.tier)).toBe('growth');
    const id = { accountId, tier: 'growth' as const, keyId };
    const signature = kong.upstream.get(SIGNATURE_HEADER)!;
    expect(
      verifyIdentitySignature(id, kong.upstream.get('x-request-id')!, { method: 'GET', url: PATH }, signature, HMAC),
    ).toBe(true);
    expect(kong.response_headers.get('ratelimit-limit')).toBe(String(TIER_LIMITS.growth.ratePerMinute));
    // The next call is the same account (from the cache: the same six PDK calls), and still one subscription.
    const again = await call(subscriber(user, 'GROWTH'));
    expect(again.upstream.get(IDENTITY_HEADERS.account)).toBe(String(accountId));
    expect(again.calls).toEqual(ADMITTED_PDK_CALLS);
    expect(await accountsOf(user)).toBe(1);
  });

  it('concurrent first calls through one gateway: one account', async () => {
    const user = newUser();
    const calls = await Promise.all(Array.from({ length: 10 }, () => call(subscriber(user, 'pro'))));
    expect(new Set(calls.map((k) => k.upstream.get(IDENTITY_HEADERS.account))).size).toBe(1);
    expect(await accountsOf(user)).toBe(1);
  });

  it('401 without a valid secret, whatever the subscriber headers say; nothing is provisioned', async () => {
    const user = newUser();
    for (const headers of <Record<string, string>[]>[
      subscriber(user, 'pro', 'wrong-secret-wrong-secret'),
      { 'x-marketplace-user': user, 'x-marketplace-subscription': 'pro' },
      { 'x-marketplace-user': user },
    ]) {
      const kong = await call(headers);
      expect(kong.exited?.status).toBe(401);
      expect(kong.exited?.body.status.msg).toBe('Invalid marketplace proxy secret');
      expect(kong.upstream.has(IDENTITY_HEADERS.account)).toBe(false);
    }
    expect(await accountsOf(user)).toBe(0);
  });

  it('a missing or unknown plan is a 401 naming the header and the plans accepted; nothing is provisioned', async () => {
    const user = newUser();
    const accepted = MARKETPLACE_PLAN_NAMES.join(', ');
    const missing = await call({ 'x-marketplace-proxy-secret': SECRET, 'x-marketplace-user': user });
    expect(missing.exited?.status).toBe(401);
    expect(missing.exited?.body.status.msg).toBe(
      `Missing X-Marketplace-Subscription: the subscriber's plan, one of ${accepted}`,
    );
    for (const plan of ['ultra', 'enterprise', 'basic']) {
      const kong = await call(subscriber(user, plan));
      expect(kong.exited?.status).toBe(401);
      expect(kong.exited?.body.status.msg).toBe(
        `Unknown plan '${plan}' in X-Marketplace-Subscription: the marketplace's plans are ${accepted}`,
      );
    }
    for (const plan of ['pro plan', 'x'.repeat(33), 'pro;drop']) {
      const kong = await call(subscriber(user, plan));
      expect(kong.exited?.status).toBe(401);
      expect(kong.exited?.body.status.msg).toMatch(/^Invalid X-Marketplace-Subscription: .*free, starter/);
    }
    expect(await accountsOf(user)).toBe(0);
  });

  it('a user header out of its limits (length, characters) is a 401 naming it', async () => {
    for (const user of ['x'.repeat(129), 'two words', 'a/b', 'é', '-leading', 'semi;colon']) {
      const kong = await call(subscriber(user));
      expect(kong.exited?.status, user).toBe(401);
      expect(kong.exited?.body.status.msg).toMatch(/^Invalid X-Marketplace-User: 1 to 128 characters/);
    }
    // At the limits: 128 characters, every character allowed.
    const longest = `A${'b'.repeat(120)}.-_@:+9`;
    expect(longest).toHaveLength(128);
    expect((await call(subscriber(longest))).exited).toBeNull();
  });

  it('a key of ours wins over the subscriber headers: Bearer, and X-Marketplace-Key, behind the secret', async () => {
    const a = await f.fundedAccount(5, { tier: 'scale' });
    const user = newUser();
    const viaBearer = await call({ ...subscriber(user), authorization: `Bearer ${a.key}` });
    expect(viaBearer.upstream.get(IDENTITY_HEADERS.account)).toBe(String(a.accountId));
    expect(viaBearer.upstream.get(IDENTITY_HEADERS.tier)).toBe('scale');
    const m = await issueKey(f.deps, a.accountId, 'marketplace');
    const viaKey = await call({ ...subscriber(user), 'x-marketplace-key': m.key });
    expect(viaKey.upstream.get(IDENTITY_HEADERS.account)).toBe(String(a.accountId));
    expect(await accountsOf(user)).toBe(0);
  });

  it('no derived subscriber hash can be presented as a key (its text holds line feeds; its kind is enforced)', async () => {
    const user = newUser();
    await call(subscriber(user, 'free'));
    const asBearer = await call({ authorization: `Bearer ${subscriberKeyHash({ user, plan: 'free' })}` });
    expect(asBearer.exited?.status).toBe(401);
  });
});

describe('the subscriber headers through the real kong-js-pluginserver', () => {
  let server: PluginServer;
  let instanceId: number;
  beforeAll(async () => {
    server = await startPluginServer({
      REDIS_URL: inject('redisUrl'),
      REDIS_PREFIX: f.layout.prefix,
      GATEWAY_HMAC_KEY: HMAC,
      MARKETPLACE_PROXY_SECRET: SECRET,
      KEY_LOOKUP_URL: billing.url,
    });
    instanceId = (await server.rpc('plugin.StartInstance', { Name: 'pra-gateway', Config: '{}' })).Id;
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  });

  // The plugin server's first request ever: it waits for the process's Redis connection (it was a 503 half the time).
  it('provisions on the first call and forwards it with the identity of the plan, six PDK calls', async () => {
    const user = newUser();
    const out = await accessEvent(server, instanceId, PATH, subscriber(user, 'scale'));
    expect(out.exit, JSON.stringify(out.exit)).toBeUndefined();
    expect(out.calls).toEqual(ADMITTED_PDK_CALLS);
    expect(out.upstream.get(IDENTITY_HEADERS.tier)).toBe('scale');
    expect(out.upstream.get(SIGNATURE_HEADER)).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    const again = await accessEvent(server, instanceId, PATH, subscriber(user, 'scale'));
    expect(again.upstream.get(IDENTITY_HEADERS.account)).toBe(out.upstream.get(IDENTITY_HEADERS.account));
    expect(await accountsOf(user)).toBe(1);
  });

  it('an unknown plan and a wrong secret are exits with a 401 ErrorResponse, nothing provisioned', async () => {
    const user = newUser();
    const unknown = await accessEvent(server, instanceId, PATH, subscriber(user, 'mega'));
    expect(unknown.exit?.status).toBe(401);
    expect(unknown.exit?.body).toMatchObject({ property: [], status: { code: 401, reason: 'unauthorized' } });
    expect(unknown.exit?.body.status.msg).toMatch(/Unknown plan 'mega'/);
    const wrong = await accessEvent(server, instanceId, PATH, subscriber(user, 'pro', 'not-the-secret-at-all'));
    expect(wrong.exit?.status).toBe(401);
    expect(await accountsOf(user)).toBe(0);
  });
});
