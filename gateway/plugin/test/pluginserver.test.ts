// The real kong-js-pluginserver (kong-pdk 0.6.0) driven over its Unix socket with msgpack RPC, the way Kong 3.9
// does it: plugin info, instance start, an access event, PDK call round trips (Step), response.exit. It loads the
// plugin bundle the Kong image ships. It also proves the kong-pdk patch: an event that ended (in `ret`, or in
// kong.response.exit, which Kong never steps again) is forgotten by the server instead of kept forever.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import { decodeMultiStream, encode } from '@msgpack/msgpack';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type {} from '@pra/platform/testing';
import { createPool, type Pool } from '@pra/platform';
import { IDENTITY_HEADERS, SIGNATURE_HEADER } from '@pra/core/auth';
import { billingFixture, type BillingFixture } from '@pra/account-billing/testing';
import { bundlePlugin } from '../src/bundle.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const HMAC = `hmac-${randomBytes(16).toString('hex')}`;
let bundleInputs: string[] = [];
let server: ChildProcess;
let socket: Socket;
let pool: Pool;
let f: BillingFixture;
let nextId = 0;
const pending = new Map<number, { resolve: (v: any) => void; reject: (e: Error) => void }>();

function rpc(method: string, ...args: unknown[]): Promise<any> {
  const id = nextId++;
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject });
    socket.write(encode([0, id, method, args]));
  });
}

beforeAll(async () => {
  pool = createPool(inject('databaseUrl'), 2);
  const prefix = `${inject('redisPrefix')}ps${randomBytes(3).toString('hex')}:`;
  f = await billingFixture(pool, inject('redisUrl'), prefix);
  const dir = mkdtempSync(join(tmpdir(), 'pra-plugins-'));
  bundleInputs = (await bundlePlugin(dir)).inputs;
  const kongPrefix = mkdtempSync(join(tmpdir(), 'pra-kong-'));
  server = spawn(
    process.execPath,
    [
      join(root, 'node_modules/kong-pdk/bin/kong-js-pluginserver'),
      '--plugins-directory',
      dir,
      '--kong-prefix',
      kongPrefix,
      '--sock-name',
      'js.sock',
    ],
    {
      env: { ...process.env, REDIS_URL: inject('redisUrl'), REDIS_PREFIX: prefix, GATEWAY_HMAC_KEY: HMAC },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  const sock = join(kongPrefix, 'js.sock');
  for (let i = 0; i < 100 && !existsSync(sock); i++) await new Promise((r) => setTimeout(r, 100));
  socket = connect(sock);
  await new Promise<void>((r) => socket.once('connect', () => r()));
  void (async () => {
    for await (const msg of decodeMultiStream(socket) as AsyncIterable<[number, number, string | null, unknown]>) {
      const [, id, error, result] = msg;
      const p = pending.get(id);
      pending.delete(id);
      if (error) p?.reject(new Error(error));
      else p?.resolve(result);
    }
  })().catch(() => {}); // the socket closes at teardown
}, 60_000);

afterAll(async () => {
  socket?.destroy();
  server?.kill();
  await f.close();
  await pool.end();
});

interface Outcome {
  eventId: number;
  exit?: { status: number; body: any; headers: Record<string, string> };
  upstream: Map<string, string | null>;
  /** Headers the plugin set on the client's response. */
  response: Map<string, string>;
}

/** Plays Kong's side of one access phase: answers each PDK call from the request, until `ret` or an exit. */
async function accessEvent(
  instanceId: number,
  target: string,
  headers: Record<string, string>,
  method = 'GET',
): Promise<Outcome> {
  const [path, query = ''] = target.split('?') as [string, string?];
  const upstream = new Map<string, string | null>();
  const response = new Map<string, string>();
  let reply = await rpc('plugin.HandleEvent', { InstanceId: instanceId, EventName: 'access' });
  for (;;) {
    const { Data, EventId } = reply;
    if (Data === 'ret') return { eventId: EventId, upstream, response };
    const { Method, Args } = Data as { Method: string; Args: any[] };
    let value: unknown = null;
    switch (Method) {
      case 'kong.request.get_header':
        value = headers[String(Args[0]).toLowerCase()] ?? null;
        break;
      case 'kong.request.get_path':
        value = path;
        break;
      case 'kong.request.get_method':
        value = method;
        break;
      case 'kong.request.get_raw_query':
        value = query;
        break;
      case 'kong.response.set_header':
        response.set(Args[0], Args[1]);
        break;
      case 'kong.service.request.set_header':
        upstream.set(Args[0], Args[1]);
        break;
      case 'kong.service.request.clear_header':
        upstream.set(Args[0], null);
        break;
      case 'kong.response.exit':
        // Kong ends the request here and never steps this event again.
        return {
          eventId: EventId,
          upstream,
          response,
          exit: { status: Args[0], body: JSON.parse(Args[1]), headers: Args[2] },
        };
      default:
        throw new Error(`unexpected PDK call ${Method}`);
    }
    reply = await rpc('plugin.Step', { Data: value, EventId });
  }
}

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
    expect(out.exit?.body).toMatchObject({ property: [], status: { code: 401 } });
    expect(out.upstream.get(IDENTITY_HEADERS.account)).toBeNull(); // cleared
  });

  it('forwards an authenticated request with signed identity headers, the event ending in ret', async () => {
    const a = await f.fundedAccount(5, { tier: 'pro' });
    const out = await accessEvent(instanceId, '/api/v1/property/owner', { authorization: `Bearer ${a.key}` });
    expect(out.exit).toBeUndefined();
    expect(out.upstream.get(IDENTITY_HEADERS.account)).toBe(String(a.accountId));
    expect(out.upstream.get(IDENTITY_HEADERS.tier)).toBe('pro');
    expect(out.upstream.get(SIGNATURE_HEADER)).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(out.response.get('ratelimit-limit')).toBe('200');
    expect(Number(out.response.get('ratelimit-remaining'))).toBe(199);
  });

  it('refuses HEAD on a metered path with 405 before looking at the key', async () => {
    const out = await accessEvent(instanceId, '/api/v1/property/owner?lastName=X', {}, 'HEAD');
    expect(out.exit).toMatchObject({ status: 405, headers: { allow: 'GET' }, body: { status: { code: 405 } } });
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
    expect(bundleInputs.some((f) => f.includes('node_modules/ioredis/'))).toBe(true);
    const heavy = bundleInputs.filter((f) =>
      /node_modules\/(express|pg|pg-pool|body-parser|@opentelemetry\/sdk-node)\//.test(f),
    );
    expect(heavy).toEqual([]);
  });
});
