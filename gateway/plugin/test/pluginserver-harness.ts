// Kong's side of the real kong-js-pluginserver (kong-pdk 0.6.0), driven over its Unix socket with msgpack RPC the way
// Kong 3.9 does it: plugin info, instance start, an access event, one Step round trip per PDK call, response.exit.
// The plugin-server tests and `npm run bench:plugin` both use it; it records every PDK call an event made.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { decodeMultiStream, encode } from '@msgpack/msgpack';
import { bundlePlugin } from '../src/bundle.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));

interface Connection {
  call(id: number, method: string, args: unknown[]): Promise<any>;
}

export interface PluginServer {
  /** The pluginserver's process id (its CPU is read from /proc/<pid>/stat). */
  pid: number;
  /** The files the plugin bundle holds. */
  bundleInputs: string[];
  rpc(method: string, ...args: unknown[]): Promise<any>;
  close(): Promise<void>;
}

/** Bundles the plugin as the Kong image ships it and starts kong-js-pluginserver on it with `env`. */
export async function startPluginServer(env: Record<string, string>): Promise<PluginServer> {
  const dir = mkdtempSync(join(tmpdir(), 'pra-plugins-'));
  const bundleInputs = (await bundlePlugin(dir)).inputs;
  const kongPrefix = mkdtempSync(join(tmpdir(), 'pra-kong-'));
  const server: ChildProcess = spawn(
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
    { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  const sock = join(kongPrefix, 'js.sock');
  for (let i = 0; i < 100 && !existsSync(sock); i++) await new Promise((r) => setTimeout(r, 100));
  // The pluginserver reads one message per socket read, so a connection carries one call at a time, as Kong's
  // connection pool does: concurrent calls each take an idle connection or open another.
  const idle: Connection[] = [];
  const all: Socket[] = [];
  const open = async (): Promise<Connection> => {
    const socket = connect(sock);
    all.push(socket);
    await new Promise<void>((r, reject) => {
      socket.once('connect', () => r());
      socket.once('error', reject);
    });
    let waiting: { resolve: (v: any) => void; reject: (e: Error) => void } | undefined;
    void (async () => {
      for await (const msg of decodeMultiStream(socket) as AsyncIterable<[number, number, string | null, unknown]>) {
        const [, , error, result] = msg;
        const w = waiting;
        waiting = undefined;
        if (error) w?.reject(new Error(error));
        else w?.resolve(result);
      }
    })().catch(() => {}); // the socket closes at teardown
    socket.once('close', () => waiting?.reject(new Error('the pluginserver closed the connection')));
    return {
      call: (id, method, args) =>
        new Promise((resolve, reject) => {
          waiting = { resolve, reject };
          socket.write(encode([0, id, method, args]));
        }),
    };
  };
  let nextId = 0;
  return {
    pid: server.pid!,
    bundleInputs,
    rpc: async (method, ...args) => {
      const c = idle.pop() ?? (await open());
      try {
        return await c.call(nextId++, method, args);
      } finally {
        idle.push(c);
      }
    },
    close: async () => {
      for (const socket of all) socket.destroy();
      const ended = new Promise((r) => server.once('exit', r));
      server.kill();
      await ended;
      rmSync(dir, { recursive: true, force: true });
      rmSync(kongPrefix, { recursive: true, force: true });
    },
  };
}

export interface Outcome {
  eventId: number;
  exit?: { status: number; body: any; headers: Record<string, string> };
  /** Headers set (a value) or cleared (null) on the request to the service. */
  upstream: Map<string, string | null>;
  /** Headers the plugin set on the client's response. */
  response: Map<string, string>;
  /** Every PDK call of the event, in order (one Step round trip over the socket each, the exit included). */
  calls: string[];
}

/** Plays Kong's side of one access phase: answers each PDK call from the request, until `ret` or an exit. */
export async function accessEvent(
  server: Pick<PluginServer, 'rpc'>,
  instanceId: number,
  target: string,
  headers: Record<string, string>,
  method = 'GET',
): Promise<Outcome> {
  const [path, query = ''] = target.split('?') as [string, string?];
  const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  const upstream = new Map<string, string | null>();
  const response = new Map<string, string>();
  const calls: string[] = [];
  let reply = await server.rpc('plugin.HandleEvent', { InstanceId: instanceId, EventName: 'access' });
  for (;;) {
    const { Data, EventId } = reply;
    if (Data === 'ret') return { eventId: EventId, upstream, response, calls };
    const { Method, Args } = Data as { Method: string; Args: any[] };
    calls.push(Method);
    let value: unknown = null;
    switch (Method) {
      case 'kong.request.get_header':
        value = lower[String(Args[0]).toLowerCase()] ?? null;
        break;
      case 'kong.request.get_headers':
        // Kong answers a table of lower-cased names (a repeated header as an array of its values).
        value = lower;
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
      case 'kong.response.set_headers':
        for (const [k, v] of Object.entries(Args[0] as Record<string, string>)) response.set(k, v);
        break;
      case 'kong.service.request.set_header':
        upstream.set(Args[0], Args[1]);
        break;
      case 'kong.service.request.set_headers':
        for (const [k, v] of Object.entries(Args[0] as Record<string, string>)) upstream.set(k, v);
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
          calls,
          exit: { status: Args[0], body: JSON.parse(Args[1]), headers: Args[2] },
        };
      default:
        throw new Error(`unexpected PDK call ${Method}`);
    }
    reply = await server.rpc('plugin.Step', { Data: value, EventId });
  }
}

/** The PDK calls of an admitted request, in order: six round trips to Kong, each header table read or set in one. */
export const ADMITTED_PDK_CALLS = [
  'kong.request.get_path',
  'kong.request.get_method',
  'kong.request.get_headers',
  'kong.response.set_headers',
  'kong.request.get_raw_query',
  'kong.service.request.set_headers',
];
