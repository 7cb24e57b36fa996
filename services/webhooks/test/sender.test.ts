// The sender against real sockets on loopback: where it refuses to connect (after resolving, and whatever the name
// resolves to later), what it does not follow (redirects), how long it waits (the deadline) and how much it reads.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Resolve, sendWebhook } from '../src/delivery/sender.js';

const local = { allowInsecureLocal: true };
const production = { allowInsecureLocal: false };
const base = { timeoutMs: 5_000, responseCapBytes: 65_536 };

let server: Server;
let port = 0;
const seen: { path: string; host?: string }[] = [];
let bytesSent = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push({ path: req.url ?? '', host: req.headers.host });
    req.resume();
    req.on('end', () => {
      if (req.url === '/redirect') {
        res.writeHead(302, { location: `http://127.0.0.1:${port}/target` });
        res.end();
      } else if (req.url === '/slow') {
        setTimeout(() => res.end('late'), 3_000).unref();
      } else if (req.url === '/trickle') {
        res.writeHead(200);
        const t = setInterval(() => res.write('x'), 100);
        res.on('close', () => clearInterval(t));
      } else if (req.url === '/huge') {
        res.writeHead(200);
        const chunk = Buffer.alloc(64 * 1024, 'y');
        const pump = () => {
          while (bytesSent < 50 * 1024 * 1024) {
            bytesSent += chunk.length;
            if (!res.write(chunk)) return void res.once('drain', pump);
          }
          res.end();
        };
        res.on('close', () => {});
        pump();
      } else res.end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

const post = (url: string, o: Partial<Parameters<typeof sendWebhook>[1]> = {}) =>
  sendWebhook({ url, headers: { 'webhook-id': 'evt_1' }, body: '{}' }, { ...base, policy: local, ...o });

describe('the SSRF-safe sender', () => {
  it('delivers to loopback only under the local setting', async () => {
    expect(await post(`http://127.0.0.1:${port}/ok`)).toMatchObject({ ok: true, status: 200 });
    const before = seen.length;
    const refused = await post(`http://127.0.0.1:${port}/ok`, { policy: production });
    expect(refused.ok).toBe(false);
    expect(refused.error).toMatch(/http: URLs are not delivered to/);
    const https = await post(`https://127.0.0.1:${port}/ok`, { policy: production });
    expect(https.error).toMatch(/private, loopback/);
    expect(seen.length).toBe(before);
  });

  it('refuses a name that resolves to a loopback or private address, after resolving it', async () => {
    const before = seen.length;
    // localhost resolves to 127.0.0.1 (and ::1) through the system resolver.
    const r = await post(`https://localhost:${port}/ok`, { policy: production });
    expect(r).toMatchObject({ ok: false });
    expect(r.error).toMatch(/localhost resolves to .*private, loopback/);
    const metadata: Resolve = async () => [{ address: '169.254.169.254', family: 4 }];
    // Refused without naming the address: the delivery log is the account's, and the resolver is inside our network
    // (a name of the cluster's, resolved through its search domains, would map our private addresses for anyone).
    const refusedMetadata = (await post('https://hooks.example.com/', { policy: production, resolve: metadata })).error;
    expect(refusedMetadata).toMatch(/hooks\.example\.com resolves to an address .*private, loopback/);
    expect(refusedMetadata).not.toMatch(/169\.254/);
    // One private answer among public ones is enough to refuse.
    const mixed: Resolve = async () => [
      { address: '93.184.216.34', family: 4 },
      { address: '10.0.0.7', family: 4 },
    ];
    const refusedMixed = (await post('https://hooks.example.com/', { policy: production, resolve: mixed })).error;
    expect(refusedMixed).toMatch(/private, loopback/);
    expect(refusedMixed).not.toMatch(/10\.0\.0\.7|93\.184/);
    const mapped: Resolve = async () => [{ address: '::ffff:127.0.0.1', family: 6 }];
    expect((await post('https://hooks.example.com/', { policy: production, resolve: mapped })).error).toMatch(
      /private, loopback/,
    );
    expect(seen.length).toBe(before);
  });

  it('connects to the address it checked, keeping the Host header (a rebinding answer later changes nothing)', async () => {
    let lookups = 0;
    // The first answer is checked and used; a resolver asked again would answer another address, but is not asked.
    const rebinding: Resolve = async () => {
      lookups++;
      return lookups === 1 ? [{ address: '127.0.0.1', family: 4 }] : [{ address: '10.0.0.1', family: 4 }];
    };
    const r = await post(`http://hooks.rebind.test:${port}/pinned`, { resolve: rebinding });
    expect(r).toMatchObject({ ok: true, status: 200 });
    expect(lookups).toBe(1);
    expect(seen.at(-1)).toEqual({ path: '/pinned', host: `hooks.rebind.test:${port}` });
  });

  it('sends plain http only to a loopback address, even under the local setting', async () => {
    const publicAnswer: Resolve = async () => [{ address: '93.184.216.34', family: 4 }];
    const r = await post('http://hooks.example.com/', { resolve: publicAnswer });
    expect(r).toMatchObject({ ok: false });
    expect(r.error).toBe('http:// is delivered only to a loopback address, not 93.184.216.34');
  });

  it('does not follow a redirect: a 3xx is a failure', async () => {
    const before = seen.length;
    const r = await post(`http://127.0.0.1:${port}/redirect`);
    expect(r).toMatchObject({ ok: false, status: 302 });
    expect(r.error).toMatch(/redirect: not followed/);
    expect(seen.slice(before).map((s) => s.path)).toEqual(['/redirect']);
  });

  it('gives up at the deadline, for a slow answer and for a body that never ends', async () => {
    const slow = await post(`http://127.0.0.1:${port}/slow`, { timeoutMs: 500 });
    expect(slow).toMatchObject({ ok: false });
    expect(slow.error).toBe('no answer within 0.5 s');
    expect(slow.latencyMs).toBeLessThan(2_500);
    const trickle = await post(`http://127.0.0.1:${port}/trickle`, { timeoutMs: 500 });
    expect(trickle.ok).toBe(false);
    expect(trickle.error).toBe('no answer within 0.5 s');
  });

  it('reads at most the cap of a huge answer, then drops the connection', async () => {
    const r = await post(`http://127.0.0.1:${port}/huge`, { responseCapBytes: 64 * 1024 });
    expect(r).toMatchObject({ ok: true, status: 200 });
    await new Promise((w) => setTimeout(w, 200));
    // The receiver could not push its 50 MB: the connection was dropped after the first chunks.
    expect(bytesSent).toBeLessThan(10 * 1024 * 1024);
  });

  it('says why a name cannot be resolved', async () => {
    const nxdomain: Resolve = async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' });
    };
    const r = await post('https://no-such-host.example.com/', { policy: production, resolve: nxdomain });
    expect(r.ok).toBe(false);
    expect(r.error).toBe('no-such-host.example.com could not be resolved (ENOTFOUND)');
  });
});
