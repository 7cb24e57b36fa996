// Issue 38, end to end as npm start runs it: every process under the Supervisor (the webhook delivery worker among
// them, with the local setting npm start gives it), on a database of this test's own. A re-import that changes an
// owner reaches a receiver on loopback (within the test's waits; bench:webhooks measures how soon), signed (verified
// with the reference method, the npm `standardwebhooks` package), once per change; the same event is in GET /changes
// through the gateway, and the webhook's data is that event.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createPool, dropDatabase, ensureDatabase, type Pool, withDatabase } from '@pra/platform';
import { importCsv, loadMapping } from '@pra/ingest/import';
import { createWebhook } from '@pra/webhooks/registry';
import { ensureDemoAccount } from '../src/demo-account.js';
import { migrateAll } from '../src/migrate-all.js';
import { Supervisor } from '../src/supervisor.js';
import { startSystem, type RunningSystem } from '../src/system.js';
import { freeSystemPorts } from './free-ports.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const prefix = `${inject('redisPrefix')}wh${randomBytes(3).toString('hex')}:`;
const dir = mkdtempSync(join(tmpdir(), 'pra-webhooks-e2e-'));
const street = `WEBHOOK${randomBytes(3).toString('hex').toUpperCase()}`;
let databaseUrl: string;
let pool: Pool;
let supervisor: Supervisor;
let system: RunningSystem;
let apiKey: string;
let accountId: number;
let receiver: Server;
let receiverUrl: string;
const received: { headers: IncomingHttpHeaders; body: string; at: number }[] = [];
let files = 0;

/** The county file with these owners (one record each), imported through the real importer. */
async function importOwners(owners: string[]) {
  const mapping = join(dir, 'mapping.json');
  writeFileSync(
    mapping,
    JSON.stringify({
      kind: 'property',
      name: street.toLowerCase(),
      fields: {
        apn: { template: '{BOOK}-{PAGE:03}', required: true },
        line1: { column: 'SITUS', format: 'upper', required: true },
        zip: { column: 'ZIP', format: 'zip5', required: true },
        ownerName: { column: 'OWNER', order: 'first-last' },
      },
    }),
  );
  const file = join(dir, `f${++files}.csv`);
  writeFileSync(
    file,
    ['BOOK,PAGE,SITUS,ZIP,OWNER', ...owners.map((o, i) => `1,${i + 1},${i + 1} ${street} ST,95814,${o}`)].join('\n'),
  );
  return importCsv(pool, loadMapping(mapping), file);
}

beforeAll(async () => {
  databaseUrl = withDatabase(inject('databaseUrl'), `pra_webhooks_e2e_${randomBytes(4).toString('hex')}`);
  await ensureDatabase(databaseUrl);
  pool = createPool(databaseUrl, 4);
  await migrateAll(pool, () => {});
  await importOwners(['ANN LEE', 'BOB RAY']);
  ({ apiKey } = await ensureDemoAccount(pool, inject('redisUrl'), prefix, join(dir, 'demo-api-key'), () => {}));
  accountId = (await pool.query<{ id: number }>(`SELECT id FROM billing.accounts WHERE email = 'demo@example.com'`))
    .rows[0]!.id;
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => {
      body += c.toString();
    });
    req.on('end', () => {
      received.push({ headers: req.headers, body, at: Date.now() });
      res.end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', () => r()));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  supervisor = new Supervisor({ cwd: root, nodeArgs: ['--import', 'tsx'], log: () => {}, stdout: 'ignore' });
  system = await startSystem({
    placement: 'processes',
    supervisor,
    ports: await freeSystemPorts(),
    firstInternalPort: 0,
    databaseUrl,
    redisUrl: inject('redisUrl'),
    redisPrefix: prefix,
    gatewayKey: randomBytes(32).toString('hex'),
    adminToken: randomBytes(24).toString('hex'),
    publicBaseUrl: '/api/v1',
    env: () => ({ LOG_LEVEL: 'silent' }),
    readyTimeoutMs: 120_000,
  });
}, 180_000);

afterAll(async () => {
  await supervisor?.stop();
  receiver?.closeAllConnections();
  await new Promise((r) => receiver?.close(r));
  await pool?.end();
  if (databaseUrl) await dropDatabase(databaseUrl);
  rmSync(dir, { recursive: true, force: true });
});

const changes = async (query: string) => {
  const res = await fetch(`${system.gatewayUrl}/api/v1/changes${query}`, {
    headers: { authorization: `Bearer ${apiKey}` },
  });
  expect(res.status).toBe(200);
  return (await res.json()) as { changes: { id: string }[]; status: { cursor: string } };
};

async function until(what: string, check: () => boolean, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('webhooks, as npm start runs them', () => {
  it('a re-import that changes an owner reaches the receiver signed, once, as /changes has it', async () => {
    const { secret } = await createWebhook(pool, { accountId, url: receiverUrl, events: ['property.updated'] });
    const start = (await changes('')).status.cursor;

    const committed = Date.now();
    await importOwners(['ANN LEE', 'CARLA DIAZ']);
    // Within seconds (the worker's first start compiles it through tsx: the first change waits for that too).
    await until('the delivery', () => received.length >= 1, 60_000);
    const first = received[0]!;
    const payload = new Webhook(secret).verify(first.body, first.headers as Record<string, string>) as {
      type: string;
      data: Record<string, unknown>;
    };
    expect(payload.type).toBe('property.updated');
    const feed = await changes(`?since=${start}`);
    expect(feed.changes).toHaveLength(1);
    // The delivery names the event /changes sells (same id, record, parts, time, place); the old and new owner
    // names are only in the paid feed.
    const { owner, sale, assessment, ...notice } = feed.changes[0]! as Record<string, unknown>;
    expect(owner).toBeDefined();
    expect(payload.data).toEqual(notice);
    expect(first.body).not.toContain('CARLA DIAZ');
    expect(first.headers['webhook-id']).toBe(`evt_${feed.changes[0]!.id}`);

    // Once per change: a second change is a second event, and nothing is sent twice.
    const second = Date.now();
    await importOwners(['DAN OKE', 'CARLA DIAZ']);
    // Its wait bounds how late it may come; how soon it comes is bench:webhooks' to measure, not a test's to time.
    await until('the second delivery', () => received.length >= 2, 30_000);
    expect(received[1]!.at).toBeGreaterThanOrEqual(second);
    await new Promise((r) => setTimeout(r, 2_000));
    expect(received).toHaveLength(2);
    expect(new Set(received.map((r) => r.headers['webhook-id'])).size).toBe(2);
    expect(committed).toBeLessThan(received[0]!.at);
    const both = await changes(`?since=${start}`);
    expect(both.changes.map((c) => `evt_${c.id}`)).toEqual(received.map((r) => r.headers['webhook-id']));
  }, 180_000);
});
