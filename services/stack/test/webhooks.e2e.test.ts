// Webhooks (issue 38) through the local gateway (kong.yml's routes, the pra-gateway plugin) with the typed client:
// a webhook created, its test event delivered by the delivery engine to a receiver on loopback and signed with the
// secret shown at creation, its attempt in the delivery log, deleted; another account's is a 404; DELETE and POST on
// the templated paths reach account-billing, other methods are 405 naming those a path takes. A database of the
// file's own: the delivery engine's dispatcher follows one change feed per database.
import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createPool, dropDatabase, ensureDatabase, type Pool, withDatabase } from '@pra/platform';
import { billingFixture, type BillingFixture } from '@pra/account-billing/testing';
import { migrateBilling } from '@pra/account-billing/migrate';
import { migrateRecords } from '@pra/ingest/migrate';
import { migrateWebhooks } from '@pra/webhooks/migrate';
import { DeliveryEngine } from '@pra/webhooks/engine';
import {
  createPropertyRecordsClient,
  createWebhook,
  deleteWebhook,
  enableWebhook,
  rotateWebhookSecret,
  listWebhooks,
  PropertyRecordsError,
  testWebhook,
  webhookDeliveries,
} from '@pra/client';
import { startSystem, type RunningSystem } from '../src/system.js';

const databaseUrl = withDatabase(inject('databaseUrl'), `${new URL(inject('databaseUrl')).pathname.slice(1)}_whapi`);
let pool: Pool;
let f: BillingFixture;
let system: RunningSystem;
let engine: DeliveryEngine;
let receiver: Server;
let receiverUrl: string;
let baseUrl: string;
const received: { headers: IncomingHttpHeaders; body: string }[] = [];

beforeAll(async () => {
  await ensureDatabase(databaseUrl);
  pool = createPool(databaseUrl, 8, 'webhooks-e2e');
  await migrateRecords(pool);
  await migrateBilling(pool);
  await migrateWebhooks(pool);
  const prefix = `${inject('redisPrefix')}whe${randomBytes(3).toString('hex')}:`;
  f = await billingFixture(pool, inject('redisUrl'), prefix);
  system = await startSystem({
    placement: 'in-process',
    pool,
    billing: f,
    gatewayKey: randomBytes(16).toString('hex'),
    only: ['account-billing'],
  });
  baseUrl = `${system.gatewayUrl}/api/v1`;
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString() });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', () => r()));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  engine = new DeliveryEngine({
    pool,
    redisUrl: inject('redisUrl'),
    queuePrefix: `${prefix}webhooks`,
    log: () => {},
    policy: { allowInsecureLocal: true },
    timeoutMs: 5_000,
    responseCapBytes: 65_536,
    concurrency: 4,
    retryScale: 1 / 3_600,
    dispatchEveryMs: 100,
    resyncEveryMs: 600_000,
    lockDurationMs: 30_000,
  });
  await engine.start();
}, 120_000);

afterAll(async () => {
  await engine?.stop();
  await system?.stop();
  receiver?.closeAllConnections();
  await new Promise((r) => receiver?.close(r));
  await f?.close();
  await pool?.end();
  await dropDatabase(databaseUrl);
});

async function waitFor<T>(what: string, check: () => Promise<T | undefined>, ms = 20_000): Promise<T> {
  for (const until = Date.now() + ms; ; ) {
    const v = await check();
    if (v !== undefined) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The Standard Webhooks signature of a delivery, computed here from the secret as the account received it. */
function expectedSignature(secret: string, headers: IncomingHttpHeaders, body: string): string {
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  const signed = `${headers['webhook-id']}.${headers['webhook-timestamp']}.${body}`;
  return `v1,${createHmac('sha256', key).update(signed).digest('base64')}`;
}

describe('webhooks through the gateway, with the typed client', () => {
  it("creates one, delivers its signed test event, logs the attempt, and deletes it; never another account's", async () => {
    const a = await f.fundedAccount(3, { tier: 'growth' });
    const b = await f.fundedAccount(0, { tier: 'growth' });
    const api = createPropertyRecordsClient({ baseUrl, apiKey: a.key });
    const other = createPropertyRecordsClient({ baseUrl, apiKey: b.key });

    const webhook = await createWebhook(api, {
      url: receiverUrl,
      events: ['property.changed'],
      filter: { zip: '95814' },
    });
    expect(webhook.secret).toMatch(/^whsec_/);
    const listed = await listWebhooks(api);
    expect(listed.webhooks.map((w) => w.id)).toEqual([webhook.id]);
    expect(JSON.stringify(listed)).not.toContain(webhook.secret);
    expect((await listWebhooks(other)).webhooks).toEqual([]);

    const { eventId } = await testWebhook(api, webhook.id);
    const delivery = await waitFor('the test event', async () =>
      received.find((r) => r.headers['webhook-id'] === eventId),
    );
    expect(JSON.parse(delivery.body)).toMatchObject({ type: 'webhook.test', data: { eventId, webhookId: webhook.id } });
    expect(String(delivery.headers['webhook-signature']).split(' ')).toContain(
      expectedSignature(webhook.secret, delivery.headers, delivery.body),
    );
    const attempts = await waitFor('the logged attempt', async () => {
      const page = await webhookDeliveries(api, webhook.id, { pagesize: 10 });
      return page.deliveries.find((d) => d.eventId === eventId);
    });
    expect(attempts).toMatchObject({
      event: 'webhook.test',
      attempt: 1,
      status: 204,
      outcome: 'delivered',
      error: null,
    });

    // Another account cannot see, test or delete it: the 404 of an id that does not exist.
    for (const call of [
      () => webhookDeliveries(other, webhook.id),
      () => testWebhook(other, webhook.id),
      () => deleteWebhook(other, webhook.id),
    ]) {
      const refused = await call().catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(PropertyRecordsError);
      expect(refused).toMatchObject({ status: 404, reason: 'not_found' });
    }
    // Disabled by the engine after repeated failures (as services/webhooks' own tests drive it), enabled again.
    await pool.query(
      `UPDATE webhooks.endpoints SET status = 'disabled', disabled_reason = 'failing', disabled_at = now() WHERE id = $1`,
      [webhook.id],
    );
    expect((await listWebhooks(api)).webhooks[0]).toMatchObject({ status: 'disabled', disabledReason: 'failing' });
    expect(await enableWebhook(api, webhook.id)).toMatchObject({
      id: webhook.id,
      status: 'active',
      disabledReason: null,
    });
    await expect(enableWebhook(other, webhook.id)).rejects.toMatchObject({ status: 404, reason: 'not_found' });

    await deleteWebhook(api, webhook.id);
    expect((await listWebhooks(api)).webhooks).toEqual([]);
    await expect(deleteWebhook(api, webhook.id)).rejects.toMatchObject({ status: 404, reason: 'not_found' });
    // Free: nothing was charged.
    expect(await f.meter.balance(a.accountId)).toBe(3);
  });

  it('a keyed creation retried, and a secret rotated, through the gateway', async () => {
    const a = await f.fundedAccount(0, { tier: 'growth' });
    const api = createPropertyRecordsClient({ baseUrl, apiKey: a.key });
    const body = { url: receiverUrl, events: ['property.updated'] as const, filter: { zip: '95816' } };
    const first = await createWebhook(api, { ...body, events: [...body.events] }, { idempotencyKey: 'e2e-create' });
    const retry = await createWebhook(api, { ...body, events: [...body.events] }, { idempotencyKey: 'e2e-create' });
    expect(retry).toEqual(first);
    expect((await listWebhooks(api)).webhooks).toHaveLength(1);
    const rotated = await rotateWebhookSecret(api, first.id, 60);
    expect(rotated.secret).not.toBe(first.secret);
    expect(Date.parse(rotated.previousSecretExpiresAt!) - Date.now()).toBeLessThanOrEqual(60_000);
    const { eventId } = await testWebhook(api, first.id);
    const delivery = await waitFor('the test event', async () =>
      received.find((r) => r.headers['webhook-id'] === eventId),
    );
    const signatures = String(delivery.headers['webhook-signature']).split(' ');
    expect(signatures).toContain(expectedSignature(first.secret, delivery.headers, delivery.body));
    expect(signatures).toContain(expectedSignature(rotated.secret, delivery.headers, delivery.body));
    await deleteWebhook(api, first.id);
  });

  it('refuses a body it cannot take with a typed 400 naming the field', async () => {
    const a = await f.fundedAccount(0);
    const api = createPropertyRecordsClient({ baseUrl, apiKey: a.key });
    const refused = await createWebhook(api, {
      url: receiverUrl,
      events: ['property.updated'],
      filter: { zip: '95814', ownerId: 3 },
    }).catch((e: unknown) => e);
    expect(refused).toMatchObject({ status: 400, reason: 'invalid_body' });
    expect((refused as Error).message).toMatch(/'filter': must give only one of/);
  });

  it("takes a body of 1,000 property ids past the gateway's global 16 KB, and refuses one past 32 KB with a 413", async () => {
    const a = await f.fundedAccount(0);
    const api = createPropertyRecordsClient({ baseUrl, apiKey: a.key });
    const ids = Array.from({ length: 1_000 }, (_, i) => 900_000_000_000_000 + i);
    // The longest ids with a long URL: a body a client may well send, more than 16 KB.
    const body = { url: `${receiverUrl}/${'p'.repeat(1_000)}`, events: ['property.updated' as const], filter: { ids } };
    expect(JSON.stringify(body).length).toBeGreaterThan(16 * 1024);
    expect((await createWebhook(api, body)).filter.ids).toHaveLength(1_000);
    const tooBig = await fetch(`${baseUrl}/webhooks`, {
      method: 'POST',
      headers: { authorization: `Bearer ${a.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ ...body, pad: 'x'.repeat(33 * 1024) }),
    });
    expect(tooBig.status).toBe(413);
    expect(((await tooBig.json()) as { status: { reason: string } }).status.reason).toBe('payload_too_large');
  });

  it('routes DELETE and POST on the templated paths, limits them as calls, and answers other methods 405', async () => {
    const a = await f.fundedAccount(0, { tier: 'growth' });
    const auth = { authorization: `Bearer ${a.key}` };
    const hook = `${baseUrl}/webhooks/wh_${'0'.repeat(24)}`;
    const deleted = await fetch(hook, { method: 'DELETE', headers: auth });
    expect(deleted.status).toBe(404);
    expect(deleted.headers.get('ratelimit-limit')).toBe('120');
    expect((await fetch(`${hook}/test`, { method: 'POST', headers: auth })).status).toBe(404);
    for (const [method, url, allow] of [
      ['PUT', `${baseUrl}/webhooks`, 'GET, POST'],
      ['DELETE', `${baseUrl}/webhooks`, 'GET, POST'],
      ['GET', hook, 'DELETE'],
      ['POST', `${hook}/deliveries`, 'GET'],
    ] as const) {
      const res = await fetch(url, { method, headers: auth });
      expect(res.status, `${method} ${url}`).toBe(405);
      expect(res.headers.get('allow'), `${method} ${url}`).toBe(allow);
    }
    expect((await fetch(`${baseUrl}/webhooks`, { method: 'HEAD', headers: auth })).status).toBe(405);
    expect((await fetch(`${hook}/nothing`, { headers: auth })).status).toBe(404);
    expect((await fetch(`${baseUrl}/webhooks`)).status).toBe(401);
    expect((await fetch(hook, { method: 'DELETE' })).status).toBe(401);
  });
});
