// What the local gateway tells a client whose request a service failed to answer. "Not charged" only when no byte
// of the request reached a service (the connection was refused); once the request was sent, the service may have
// charged before it died or stalled, and the 503 says so (a client told "not charged" would retry without a key and
// pay twice). The gateway retries, as Kong does with `proxy_next_upstream error`, only connections that never
// opened. Real upstreams of the test's own: a port nobody listens on, a server that drops the connection after
// reading the request, a process that dies on its first request, a server that never answers.
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { ErrorResponse } from '@pra/core/contracts';
import { createPool, type Pool } from '@pra/platform';
import { freePort } from '@pra/platform/testing';
import { startProcess } from '@pra/platform/bench';
import { captureLogs, logTo } from '@pra/platform/telemetry';
import { RateLimiter } from '@pra/gateway-plugin';
import { billingFixture, type BillingFixture } from '@pra/account-billing/testing';
import { createGateway, upstreamFailureMessage } from '../src/gateway.js';
import { loadRoutes, type Route } from '../src/routes.js';

const DYING = fileURLToPath(new URL('./dying-upstream.mjs', import.meta.url));
const OWNER = `SECRETNAME${randomBytes(4).toString('hex').toUpperCase()}`;
const PATH = `/api/v1/property/owner?lastName=${OWNER}&state=CA`;
const NOT_CHARGED = 'Service lookup unavailable; the request was not charged. Retry shortly.';
const MAY_HAVE_BEEN_CHARGED =
  'Service lookup failed after the request reached it: the request may have been charged. ' +
  'Retrying it with the same Idempotency-Key is never charged twice (without one, a retry is a new request).';

let pool: Pool;
let f: BillingFixture;
let key: string;
const closers: (() => unknown)[] = [];
const logLines: string[] = [];

beforeAll(async () => {
  closers.push(captureLogs((line) => logLines.push(line)));
  pool = createPool(inject('databaseUrl'), 2);
  f = await billingFixture(pool, inject('redisUrl'), `${inject('redisPrefix')}uf${randomBytes(3).toString('hex')}:`);
  key = (await f.fundedAccount(10, { tier: 'growth' })).key;
});
afterAll(async () => {
  for (const close of closers.reverse()) await close();
  await f?.close();
  await pool?.end();
});

/** A local gateway whose lookup routes go to `upstream`, with kong.yml's timeouts and retries unless overridden. */
async function gatewayTo(upstream: string, override: Partial<Route> = {}): Promise<string> {
  const routes = loadRoutes({ lookup: upstream }).map((r) => (r.service === 'lookup' ? { ...r, ...override } : r));
  const plugin = { keys: f.keys, limiter: new RateLimiter(f.redis, f.layout.prefix), hmacKey: 'h'.repeat(32) };
  const gateway = createGateway({ routes, plugin, log: logTo() });
  await new Promise<void>((r) => gateway.listen(0, '127.0.0.1', () => r()));
  closers.push(() => new Promise((r) => gateway.close(r)));
  return `http://127.0.0.1:${(gateway.address() as AddressInfo).port}`;
}

async function upstreamServer(handler: Parameters<typeof createServer>[1]): Promise<{ url: string; server: Server }> {
  const server = createServer(handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  closers.push(() => {
    server.closeAllConnections();
    return new Promise((r) => server.close(r));
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

async function call(gateway: string) {
  const res = await fetch(gateway + PATH, { headers: { authorization: `Bearer ${key}` } });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text };
}

/** The 503 ErrorResponse, whole: status, Retry-After, code, message, and the request id it carries. */
function expect503(r: Awaited<ReturnType<typeof call>>, msg: string): void {
  expect(r.status).toBe(503);
  expect(r.headers.get('retry-after')).toBe('1');
  const body = ErrorResponse.parse(JSON.parse(r.text));
  expect(body).toEqual({
    property: [],
    status: { code: 503, reason: 'unavailable', msg, total: 0, transactionID: r.headers.get('x-request-id') },
  });
}

describe('an upstream that failed: the 503 tells the truth about the money', () => {
  it('a refused connection (no byte reached the service): 503 "not charged", after the retries kong.yml allows', async () => {
    const gateway = await gatewayTo(`http://127.0.0.1:${await freePort()}`);
    const refusals: unknown[] = [];
    const count = (m: unknown) => refusals.push(m);
    subscribe('undici:client:connectError', count);
    try {
      expect503(await call(gateway), NOT_CHARGED);
    } finally {
      unsubscribe('undici:client:connectError', count);
    }
    expect(refusals).toHaveLength(1 + loadRoutes().find((r) => r.service === 'lookup')!.retries);
  });

  it('a service that reads the request and drops the connection: 503 "may have been charged", sent once', async () => {
    let received = 0;
    const { url } = await upstreamServer((req) => {
      received++;
      req.socket.destroy();
    });
    expect503(await call(await gatewayTo(url)), MAY_HAVE_BEEN_CHARGED);
    expect(received).toBe(1); // never retried: a second run could charge again
  });

  it('a service process that dies on the request before answering: 503 "may have been charged"', async () => {
    const dying = await startProcess(DYING, {});
    closers.push(() => dying.stop());
    const gateway = await gatewayTo(`http://127.0.0.1:${dying.port}`);
    expect503(await call(gateway), MAY_HAVE_BEEN_CHARGED);
    expect(await dying.exited()).toBe(1); // it did die of the request
  });

  it('a service that does not answer within read_timeout: 503 "may have been charged"', async () => {
    let received = 0;
    const { url } = await upstreamServer(() => {
      received++; // and never answers
    });
    expect503(await call(await gatewayTo(url, { readTimeoutMs: 300 })), MAY_HAVE_BEEN_CHARGED);
    expect(received).toBe(1);
  });

  it('a connection refused once, then accepted: the retry reaches the service (nothing had been sent)', async () => {
    const port = await freePort();
    const gateway = await gatewayTo(`http://127.0.0.1:${port}`);
    let received = 0;
    const server = createServer((_req, res) => {
      received++;
      res.writeHead(204).end();
    });
    closers.push(() => new Promise((r) => server.close(r)));
    // The service comes up right after the gateway's first attempt is refused.
    const start = () => {
      unsubscribe('undici:client:connectError', start);
      server.listen(port, '127.0.0.1');
    };
    subscribe('undici:client:connectError', start);
    const r = await call(gateway);
    expect(r.status).toBe(204);
    expect(received).toBe(1);
  });

  it('logs each failure with whether the request reached the service, and never the query string', async () => {
    // Two failures of its own: a refused connection (nothing reached the service), then a dropped one (it did).
    const refused = await gatewayTo(`http://127.0.0.1:${await freePort()}`);
    const { url } = await upstreamServer((req) => req.socket.destroy());
    const dropped = await gatewayTo(url);
    logLines.length = 0;
    const answers = [await call(refused), await call(dropped)];
    expect(answers.map((r) => r.status)).toEqual([503, 503]);
    const failures = logLines.filter((l) => l.includes('"msg":"upstream unavailable"')).map((l) => JSON.parse(l));
    expect(failures.map((l) => [l.service, l.reached])).toEqual([
      ['lookup', false],
      ['lookup', true],
    ]);
    // Each request's line, written when its answer finished.
    await vi.waitFor(
      () => {
        const requests = logLines.filter((l) => l.includes('"msg":"request"')).map((l) => JSON.parse(l));
        expect(requests.map((l) => [l.upstream, l.status])).toEqual([
          ['lookup', 503],
          ['lookup', 503],
        ]);
      },
      { timeout: 10_000, interval: 20 },
    );
    expect(logLines.join('')).not.toContain(OWNER);
  });

  it('the two messages differ exactly where the money does', () => {
    expect(upstreamFailureMessage('lookup', false)).toBe(NOT_CHARGED);
    expect(upstreamFailureMessage('lookup', true)).toBe(MAY_HAVE_BEEN_CHARGED);
    expect(upstreamFailureMessage('lookup', true)).not.toMatch(/not charged/);
  });
});
