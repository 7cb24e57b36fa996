// Rotating an endpoint's secret (rotateWebhookSecret): while the replaced secret is valid, every delivery carries a
// signature of each (Standard Webhooks' space-separated list), so a receiver verifying with either accepts it, as the
// reference library does; rotated with no overlap (a secret that leaked), the old one verifies nothing more. Real
// PostgreSQL, Redis, engine and receiver.
import { Webhook as Verifier } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebhook, forgetExpiredSecrets, getWebhook, rotateWebhookSecret } from '../src/data/webhook-registry.js';
import type { DeliveryEngine } from '../src/delivery/engine.js';
import {
  createAccount,
  type OwnDatabase,
  ownDatabase,
  ownRedisPrefix,
  type Received,
  testEngine,
  testFixtures,
  waitFor,
} from './harness.js';

let db: OwnDatabase;
let engine: DeliveryEngine;
let account: number;
const { receiver, countyFile, close: closeFixtures } = testFixtures('whrot');

beforeAll(async () => {
  db = await ownDatabase('rotation');
  account = await createAccount(db.pool);
  engine = testEngine(db.pool, ownRedisPrefix('rotation'));
  await engine.start();
});
afterAll(async () => {
  await engine?.stop();
  await closeFixtures();
  await db?.drop();
});

/** Whether the reference library, holding `secret`, accepts the delivery. */
const verifies = (secret: string, r: Received) => {
  try {
    new Verifier(secret).verify(r.body, r.headers as Record<string, string>);
    return true;
  } catch {
    return false;
  }
};

describe('rotating a webhook secret', () => {
  it('signs with both secrets while the old one is valid, and with the new one alone after a rotation without overlap', async () => {
    const file = countyFile('95838');
    await file.import(db.pool, ['ANN LEE']);
    const r = await receiver();
    const { webhook, secret: first } = await createWebhook(db.pool, {
      accountId: account,
      url: r.url,
      events: ['property.updated'],
      filter: { zip: '95838' },
    });
    expect(webhook.previousSecretExpiresAt).toBeNull();

    const rotated = await rotateWebhookSecret(db.pool, account, webhook.id);
    expect(rotated).not.toBeNull();
    const second = rotated!.secret;
    expect(second).not.toBe(first);
    const expires = Date.parse(rotated!.webhook.previousSecretExpiresAt!);
    expect(expires - Date.now()).toBeGreaterThan(86_000_000);
    await file.import(db.pool, ['BOB RAY']);
    await waitFor('the delivery signed with both', () => r.received.length === 1);
    const both = r.received[0]!;
    expect(String(both.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verifies(first, both)).toBe(true);
    expect(verifies(second, both)).toBe(true);

    // Leaked: rotated with no overlap, the old secrets sign nothing more.
    const third = (await rotateWebhookSecret(db.pool, account, webhook.id, 0))!.secret;
    expect((await getWebhook(db.pool, account, webhook.id))!.previousSecretExpiresAt).toBeNull();
    await file.import(db.pool, ['CARLA DIAZ']);
    await waitFor('the delivery signed with the new secret', () => r.received.length === 2);
    const last = r.received[1]!;
    expect(String(last.headers['webhook-signature']).split(' ')).toHaveLength(1);
    expect(verifies(third, last)).toBe(true);
    expect(verifies(second, last)).toBe(false);
    expect(verifies(first, last)).toBe(false);
  });

  it('a keyed creation is not replayed with a secret a later rotation made; expired secrets are forgotten', async () => {
    const r = await receiver();
    const wanted = { accountId: account, url: r.url, events: ['property.updated' as const] };
    const keyed = { key: `rot-${Date.now()}`, fingerprint: 'same-body' };
    const first = await createWebhook(db.pool, wanted, keyed);
    expect((await createWebhook(db.pool, wanted, keyed)).repeated).toBe(true);
    const rotated = await rotateWebhookSecret(db.pool, account, first.webhook.id, 1);
    // The key's replay would have shown the new secret: it is forgotten with the rotation.
    const retry = await createWebhook(db.pool, wanted, keyed);
    expect(retry.repeated).toBe(false);
    expect(retry.secret).not.toBe(rotated!.secret);
    // Past the overlap, the replaced secret is removed from the store.
    await new Promise((w) => setTimeout(w, 1_100));
    expect(await forgetExpiredSecrets(db.pool)).toBeGreaterThanOrEqual(1);
    const { rows } = await db.pool.query('SELECT previous_secret FROM webhooks.endpoints WHERE id = $1', [
      first.webhook.id,
    ]);
    expect(rows).toEqual([{ previous_secret: null }]);
  });

  it("another account's webhook is not rotated, and a bad overlap is refused", async () => {
    const r = await receiver();
    const { webhook } = await createWebhook(db.pool, { accountId: account, url: r.url, events: ['property.updated'] });
    expect(await rotateWebhookSecret(db.pool, await createAccount(db.pool), webhook.id)).toBeNull();
    await expect(rotateWebhookSecret(db.pool, account, webhook.id, 86_401)).rejects.toThrow(/0 to 86400/);
    expect((await getWebhook(db.pool, account, webhook.id))!.previousSecretExpiresAt).toBeNull();
  });
});
