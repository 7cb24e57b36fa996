// No request stops a process. The whole system runs as npm start runs it (every service and the local gateway as
// real processes under the Supervisor, in production auth mode, on a database of their own), and each server gets
// 500+ malformed requests over raw sockets, plus slow clients. Afterwards every process is the one that started
// and answers; no response was a 5xx other than 503. Then a process is killed, and the Supervisor brings it back.
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createPool, dropDatabase, ensureDatabase, withDatabase } from '@pra/platform';
import { migrateBilling } from '@pra/account-billing/migrate';
import { migrateRecords } from '@pra/ingest/migrate';
import { migrateWebhooks } from '@pra/webhooks/migrate';
import { Supervisor } from '../src/supervisor.js';
import { freeSystemPorts } from './free-ports.js';
import { startSystem, waitForHealth, type SystemPorts } from '../src/system.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
let supervisor: Supervisor;
let ports: SystemPorts;
let databaseUrl: string;
const logged: string[] = [];

beforeAll(async () => {
  databaseUrl = withDatabase(inject('databaseUrl'), `pra_fuzz_${randomBytes(4).toString('hex')}`);
  await ensureDatabase(databaseUrl);
  const pool = createPool(databaseUrl, 2);
  await migrateRecords(pool);
  await migrateBilling(pool);
  await migrateWebhooks(pool);
  await pool.end();
  ports = await freeSystemPorts();
  supervisor = new Supervisor({
    cwd: root,
    nodeArgs: ['--import', 'tsx'],
    log: (l) => logged.push(l),
    stdout: 'ignore',
    backoff: { initialMs: 200, maxMs: 2_000, stableAfterMs: 60_000 },
  });
  await startSystem({
    placement: 'processes',
    supervisor,
    ports,
    firstInternalPort: 0,
    databaseUrl,
    redisUrl: inject('redisUrl'),
    redisPrefix: `${inject('redisPrefix')}fz${randomBytes(3).toString('hex')}:`,
    gatewayKey: randomBytes(32).toString('hex'),
    adminToken: randomBytes(24).toString('hex'),
    publicBaseUrl: '/api/v1',
    // Production auth (no development mode), impatient with slow clients, quiet.
    env: () => ({
      PRA_DEVELOPMENT: '0',
      HTTP_HEADERS_TIMEOUT_MS: '1000',
      HTTP_REQUEST_TIMEOUT_MS: '2000',
      LOG_LEVEL: 'silent',
    }),
    readyTimeoutMs: 90_000,
  });
}, 120_000);

afterAll(async () => {
  await supervisor?.stop();
  if (databaseUrl) await dropDatabase(databaseUrl);
});

/** Sends raw bytes; resolves with every status line answered, once the server closes or goes quiet. */
function exchange(
  port: number,
  bytes: Buffer,
  opts: { quietMs?: number; maxMs?: number } = {},
): Promise<{ statuses: number[]; text: string; closed: boolean }> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    let quiet: NodeJS.Timeout | undefined;
    const finish = (closed: boolean) => {
      clearTimeout(quiet);
      clearTimeout(max);
      socket.destroy();
      resolve({
        statuses: [...text.matchAll(/(?:^|\r?\n)HTTP\/1\.[01] (\d{3})/g)].map((m) => Number(m[1])),
        text,
        closed,
      });
    };
    const max = setTimeout(() => finish(false), opts.maxMs ?? 4_000);
    socket.on('data', (d) => {
      text += d.toString('latin1');
      clearTimeout(quiet);
      quiet = setTimeout(() => finish(false), opts.quietMs ?? 300);
    });
    socket.on('error', () => {});
    socket.on('close', () => finish(true));
    socket.write(bytes);
  });
}

const b = (s: string) => Buffer.from(s, 'latin1');
const H = 'Host: 127.0.0.1\r\n';

/** Malformed and hostile requests, each a function of a path. */
const TEMPLATES: ((path: string) => Buffer)[] = [
  (p) => b(`GET http://x:99999${p} HTTP/1.1\r\nHost: x\r\n\r\n`),
  (p) => b(`GET http://[::1${p} HTTP/1.1\r\n${H}\r\n`),
  (p) => b(`GET https://user:pw@host:0${p} HTTP/1.1\r\n${H}\r\n`),
  (p) => b(`GET ftp://x${p}?a=1 HTTP/1.1\r\n${H}\r\n`),
  (p) => b(`GET ${p}%ZZ%%/%E0%A4%A HTTP/1.1\r\n${H}\r\n`),
  (p) => b(`GET ${p}${p.includes('?') ? '&' : '?'}%E0%A4%A=%&%%=1&page=%FF&zip[]=1 HTTP/1.1\r\n${H}\r\n`),
  (p) => b(`GET ${p}\u0000 HTTP/1.1\r\n${H}\r\n`),
  (p) => b(`GET ${p} HTTP/1.1\r\n${H}X-A: a\u0000b\r\n\r\n`),
  (p) => b(`GET ${p} HTTP/9.9\r\n${H}\r\n`),
  (p) => b(`GET ${p}\r\n\r\n`),
  (p) => b(`${'A'.repeat(40)} ${p} HTTP/1.1\r\n${H}\r\n`),
  (p) => b(`get ${p} HTTP/1.1\r\n${H}\r\n`),
  (p) => b(`GET ${p} HTTP/1.1\r\n${H}X-Big: ${'a'.repeat(20_000)}\r\n\r\n`),
  (p) => b(`GET ${p} HTTP/1.1\r\n${H}${'X-R: 1\r\n'.repeat(150)}\r\n`),
  (p) => b(`GET ${p} HTTP/1.1\r\n${H}Authorization: Bearer a\r\nAuthorization: Bearer b\r\n\r\n`),
  (p) => b(`GET ${p} HTTP/1.1\r\n${H}${H}Host: other\r\n\r\n`),
  (p) => b(`GET ${p} HTTP/1.1\r\n\r\n`),
  (p) => b(`GET ${p} HTTP/1.1\r\n${H}Content-Length: -1\r\n\r\n`),
  (p) => b(`GET ${p} HTTP/1.1\r\n${H}Content-Length: abc\r\n\r\n`),
  (p) => b(`GET ${p} HTTP/1.1\r\n${H}Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n`),
  (p) => b(`POST ${p} HTTP/1.1\r\n${H}Transfer-Encoding: chunked\r\n\r\nzz\r\nnot a chunk\r\n`),
  (p) => b(`GET ${p} HTTP/1.1\r\n${H}NoColonHere\r\n\r\n`),
  (p) => b(`GET ${p} HTTP/1.1\r\n${H}Bad Header : x\r\n\r\n`),
  (p) => b(`GET ${p} HTTP/1.1\n${H.trim()}\n\n`),
  (p) => b(`GET ${p}${p.includes('?') ? '&' : '?'}q=${'x'.repeat(20_000)} HTTP/1.1\r\n${H}\r\n`),
  (p) => b(`GET ${p}\u00ff\u00fe HTTP/1.1\r\n${H}\r\n`),
  () => b(`OPTIONS * HTTP/1.1\r\n${H}\r\n`),
  () => b(`CONNECT 127.0.0.1:443 HTTP/1.1\r\n${H}\r\n`),
  (p) => b(`POST ${p} HTTP/1.1\r\n${H}Content-Length: 1024\r\n\r\n${'x'.repeat(1024)}`),
  (p) => b(`HEAD ${p} HTTP/1.1\r\n${H}Connection: close\r\n\r\n`),
  (p) => b(`DELETE ${p} HTTP/1.1\r\n${H}Connection: close\r\n\r\n`),
  (p) => b(`GET ${p} HTTP/1.1\r\n${H}Authorization: Bearer \u0001\u0002\r\n\r\n`),
  (p) => b(`GET ${p} HTTP/1.1\r\n${H}Authorization: Bearer pra_live_${'A'.repeat(5_000)}\r\nConnection: close\r\n\r\n`),
  (p) =>
    b(
      `GET ${p} HTTP/1.1\r\n${H}X-Request-Id: ../../etc\r\nX-Pra-Account-Id: 1\r\nX-Pra-Tier: enterprise\r\nX-Pra-Key-Id: 1\r\nX-Pra-Signature: t=9999999999,v1=${'0'.repeat(64)}\r\nConnection: close\r\n\r\n`,
    ),
  (p) =>
    b(
      `GET ${p} HTTP/1.1\r\n${H}X-Pra-Account-Id: 99999999999999999999999\r\nX-Pra-Tier: __proto__\r\nX-Pra-Signature: t=-1,v1=zz\r\nConnection: close\r\n\r\n`,
    ),
  (p) => b(`GET ${p} HTTP/1.1\r\n${H}traceparent: 00-zzzz-${'f'.repeat(100)}-01\r\nConnection: close\r\n\r\n`),
  (p) => b(`GET /api/v1/health HTTP/1.1\r\n${H}\r\nGARBAGE ${p} HTTP/1.1\r\n\r\n`),
  (p) => b(`GET ${p} HTTP/1.1\r\n${H}Expect: 100-continue\r\nConnection: close\r\n\r\n`),
  (p) => b(`GET ${p} HTTP/1.1\r\n${H}Connection: Upgrade\r\nUpgrade: websocket\r\n\r\n`),
  (p) => b(`GET ${p} HTTP/1.1\r\n${H}X-\u00e9\u00ff: 1\r\n\r\n`),
  (p) => b(`GET ${p}#fragment HTTP/1.1\r\n${H}Connection: close\r\n\r\n`),
  (p) => b(`GET //${p}//..//..//etc/passwd HTTP/1.1\r\n${H}Connection: close\r\n\r\n`),
  (p) => b(`GET ${p} HTTP/1.1\r\n${H}X-A: a\r\n folded\r\n\r\n`),
  (p) => b(`GET ${p} HTTP/1.0\r\n\r\n`),
  (p) => b(`\r\n\r\nGET ${p} HTTP/1.1\r\n${H}Connection: close\r\n\r\n`),
];

const PATHS = [
  '/',
  '/api/v1/health',
  '/api/v1/plans',
  '/openapi.yaml',
  '/api/v1/usage',
  '/api/v1/property/address?address=1%20Main%20St&zip=95814',
  '/api/v1/property/owner?lastName=%ZZ&page=99999999',
  '/api/v1/property/parcel?apn=%00',
  '/api/v1/sale/history?id=1%00',
  '/api/v1/property/autocomplete?q=123',
  '/admin/accounts/1',
  '/api/v1/property/detail?address=&address=&zip=1',
];

const requests = PATHS.flatMap((p) => TEMPLATES.map((t) => t(p)));

describe('malformed requests against every server', () => {
  it('has at least 500 requests for each server', () => {
    expect(requests.length).toBeGreaterThanOrEqual(500);
  });

  const servers = ['gateway', 'lookup', 'autocomplete', 'billing', 'plans', 'admin'] as const;
  it.each(servers)(
    '%s answers each with a 4xx (or a 503, or a closed socket), never another 5xx, and keeps serving',
    async (server) => {
      const port = ports[server];
      const bad: string[] = [];
      let answered = 0;
      for (let i = 0; i < requests.length; i += 32) {
        const batch = await Promise.all(requests.slice(i, i + 32).map((r) => exchange(port, r)));
        batch.forEach((out, j) => {
          answered += out.statuses.length;
          for (const s of out.statuses)
            if (s >= 500 && s !== 503)
              bad.push(`${s} for ${JSON.stringify(requests[i + j]!.toString('latin1').slice(0, 120))}`);
        });
      }
      expect(bad).toEqual([]);
      expect(answered).toBeGreaterThan(requests.length / 2); // most were answered, not just dropped
    },
    120_000,
  );

  it.each(servers)(
    '%s answers a client that stops sending its headers with 408 and closes the socket',
    async (server) => {
      const out = await exchange(ports[server], b(`GET /api/v1/health HTTP/1.1\r\n${H}X-Slow: `), {
        quietMs: 5_000,
        maxMs: 8_000,
      });
      expect(out.closed).toBe(true);
      expect(out.statuses).toEqual([408]);
      expect(out.text).toMatch(/"code":408,"reason":"request_timeout"/);
    },
  );

  it('afterwards every process is the one that started, and answers', async () => {
    for (const name of ['account-billing', 'lookup', 'autocomplete', 'plans', 'gateway']) {
      expect(supervisor.status(name), name).toMatchObject({ restarts: 0 });
    }
    expect(logged).toEqual([]);
    const url = (p: number, path: string) => `http://127.0.0.1:${p}${path}`;
    expect((await fetch(url(ports.gateway, '/api/v1/health'))).status).toBe(200);
    expect((await fetch(url(ports.lookup, '/api/v1/health'))).status).toBe(200);
    expect((await fetch(url(ports.plans, '/api/v1/plans'))).status).toBe(200);
    expect((await fetch(url(ports.billing, '/api/v1/usage'))).status).toBe(401);
    expect((await fetch(url(ports.autocomplete, '/api/v1/property/autocomplete?q=123'))).status).toBe(401);
    expect((await fetch(url(ports.admin, '/admin/accounts/1'))).status).toBe(401);
  });
});

describe('a process that dies', () => {
  it('is restarted by the Supervisor, which says which and why, and the system answers again', async () => {
    const before = supervisor.status('lookup').pid!;
    process.kill(before, 'SIGKILL');
    for (let i = 0; i < 100 && supervisor.status('lookup').restarts === 0; i++)
      await new Promise((r) => setTimeout(r, 100));
    await waitForHealth(`http://127.0.0.1:${ports.gateway}/api/v1/health`, [], 60_000);
    const after = supervisor.status('lookup');
    expect(after.restarts).toBe(1);
    expect(after.pid).not.toBe(before);
    expect(logged.join('\n')).toMatch(
      /lookup was killed by SIGKILL after [\d.]+ s.*; restarting it in 0\.2 s \(restart 1\)/,
    );
  }, 90_000);
});
