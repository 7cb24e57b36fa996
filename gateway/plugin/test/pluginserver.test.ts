// The real kong-js-pluginserver (kong-pdk 0.6.0) driven over its Unix socket with msgpack RPC, the way Kong 3.9
// does it (./pluginserver-harness.ts): plugin info, instance start, an access event, PDK call round trips (Step),
// response.exit. It loads the plugin bundle the Kong image ships. It also proves the kong-pdk patch: an event that
// ended (in `ret`, or in kong.response.exit, which Kong never steps again) is forgotten by the server instead of kept
// forever.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type {} from '@pra/platform/testing';
import { createPool, type Pool } from '@pra/platform';
import { IDENTITY_HEADERS, SIGNATURE_HEADER } from '@pra/core/auth';
import { billingFixture, type BillingFixture } from '@pra/account-billing/testing';
import {
  ADMITTED_PDK_CALLS,
  accessEvent as playAccess,
  startPluginServer,
  type PluginServer,
} from './pluginserver-harness.js';

const HMAC = `hmac-${randomBytes(16).toString('hex')}`;
let server: PluginServer;
let pool: Pool;
let f: BillingFixture;

const rpc = (method: string, ...args: unknown[]) => server.rpc(method, ...args);
const accessEvent = (instanceId: number, target: string, headers: Record<string, string>, method = 'GET') =>
  playAccess(server, instanceId, target, headers, method);

beforeAll(async () => {
  pool = createPool(inject('databaseUrl'), 2);
  const prefix = `${inject('redisPrefix')}ps${randomBytes(3).toString('hex')}:`;
  f = await billingFixture(pool, inject('redisUrl'), prefix);
  server = await startPluginServer({ REDIS_URL: inject('redisUrl'), REDIS_PREFIX: prefix, GATEWAY_HMAC_KEY: HMAC });
}, 60_000);

afterAll(async () => {
  await server?.close();
  await f.close();
  await pool.end();
});

describe('kong-js-pluginserver over its socket', () => {
  let instanceId: number;

  it('reports the plugin and starts an instance', async () => {
    const info = await rpc('plugin.GetPluginInfo', 'pra-gateway');
    expect(info).toMatchObject({ Name: 'pra-gateway', Version: '2.0.0', Priority: 1010, Phases: ['access'] });
    const started = await rpc('plugin.StartInstance', { Name: 'pra-gateway', Config: '{}' });
    instanceId = started.Id;
    expect(started.Name).toBe('pra-gateway');
  });

  it('answers a request without a key with kong.response.exit 401 and an ErrorResponse', async () => {
    const out = await accessEvent(instanceId, '/api/v1/property/owner', {});
    expect(out.exit?.status).toBe(401);
    expect(out.exit?.body).toMatchObject({ property: [], status: { code: 401, reason: 'unauthorized' } });
    // Refused before any header was set: the request never reaches a service.
    expect(out.calls).toEqual([
      'kong.request.get_path',
      'kong.request.get_method',
      'kong.request.get_headers',
      'kong.response.exit',
    ]);
    expect(out.upstream.size).toBe(0);
  });

  it('forwards an authenticated request with signed identity headers, the event ending in ret', async () => {
    const a = await f.fundedAccount(5, { tier: 'pro' });
    const out = await accessEvent(instanceId, '/api/v1/property/owner', {
      authorization: `Bearer ${a.key}`,
      [IDENTITY_HEADERS.account]: '1',
    });
    expect(out.exit).toBeUndefined();
    // Six round trips to Kong, each header table in one call (kong.service.request.set_headers, response.set_headers).
    expect(out.calls).toEqual(ADMITTED_PDK_CALLS);
    expect(out.upstream.get(IDENTITY_HEADERS.account)).toBe(String(a.accountId));
    expect(out.upstream.get(IDENTITY_HEADERS.tier)).toBe('pro');
    expect(out.upstream.get(SIGNATURE_HEADER)).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(out.response.get('ratelimit-limit')).toBe('200');
    expect(Number(out.response.get('ratelimit-remaining'))).toBe(199);
  });

  it('forwards a conditional request (If-None-Match) as any other: counted, its header left for the service', async () => {
    const a = await f.fundedAccount(5, { tier: 'pro' });
    const headers = { authorization: `Bearer ${a.key}`, 'if-none-match': '"Kq3x9TbYwZ1mVnLr0aJ2cE"' };
    const out = await accessEvent(instanceId, '/api/v1/sale/history?id=1', headers);
    expect(out.exit).toBeUndefined();
    expect(out.calls).toEqual(ADMITTED_PDK_CALLS);
    // Kong forwards the client's headers but those the plugin sets or clears: If-None-Match is neither.
    expect(out.upstream.has('if-none-match')).toBe(false);
    expect(Number(out.response.get('ratelimit-remaining'))).toBe(199);
    const again = await accessEvent(instanceId, '/api/v1/sale/history?id=1', headers);
    expect(Number(again.response.get('ratelimit-remaining'))).toBe(198);
  });

  it('refuses HEAD on a metered path with 405 before looking at the key', async () => {
    const out = await accessEvent(instanceId, '/api/v1/property/owner?lastName=X', {}, 'HEAD');
    expect(out.exit).toMatchObject({
      status: 405,
      headers: { allow: 'GET' },
      body: { status: { code: 405, reason: 'method_not_allowed' } },
    });
  });

  it("forwards DELETE and POST on the webhooks' templated paths, and refuses a method a path does not take", async () => {
    const a = await f.fundedAccount(0, { tier: 'pro' });
    const hook = '/api/v1/webhooks/wh_0123456789abcdef01234567';
    for (const [method, path] of [
      ['DELETE', hook],
      ['POST', `${hook}/test`],
      ['GET', `${hook}/deliveries`],
      ['POST', '/api/v1/webhooks'],
    ] as const) {
      const out = await accessEvent(instanceId, path, { authorization: `Bearer ${a.key}` }, method);
      expect(out.exit, `${method} ${path}`).toBeUndefined();
      expect(out.calls, `${method} ${path}`).toEqual(ADMITTED_PDK_CALLS);
      expect(out.upstream.get(IDENTITY_HEADERS.account)).toBe(String(a.accountId));
    }
    const wrong = await accessEvent(instanceId, hook, { authorization: `Bearer ${a.key}` }, 'GET');
    expect(wrong.exit).toMatchObject({ status: 405, headers: { allow: 'DELETE' } });
    const below = await accessEvent(instanceId, `${hook}/nothing`, {}, 'GET');
    expect(below.exit).toMatchObject({ status: 404, body: { status: { reason: 'no_such_endpoint' } } });
  });

  it('forgets events once they end, including those that end in kong.response.exit (patched kong-pdk)', async () => {
    const exited = await accessEvent(instanceId, '/api/v1/usage', {});
    expect(exited.exit?.status).toBe(401);
    // Unpatched kong-pdk 0.6.0 keeps this event forever: a Step for it would still be answered.
    await expect(rpc('plugin.Step', { Data: null, EventId: exited.eventId })).rejects.toThrow(/event id \d+ not found/);
    const a = await f.fundedAccount(1);
    const finished = await accessEvent(instanceId, '/api/v1/usage', { authorization: `Bearer ${a.key}` });
    await expect(rpc('plugin.Step', { Data: null, EventId: finished.eventId })).rejects.toThrow(
      /event id \d+ not found/,
    );
  });

  it("bundles only what the plugin uses: its pure code and ioredis, never express or pg (the services' I/O)", () => {
    expect(server.bundleInputs.some((f) => f.includes('node_modules/ioredis/'))).toBe(true);
    const heavy = server.bundleInputs.filter((f) =>
      /node_modules\/(express|pg|pg-pool|body-parser|@opentelemetry\/sdk-node)\//.test(f),
    );
    expect(heavy).toEqual([]);
  });
});
