// A whole retry schedule of failures (16 attempts, 30+ h, compressed here to well under a second): the event is
// dead-lettered (logged, no longer owed), the endpoint disabled with the reason shown in its listing and in what
// /usage can tell the account; a disabled endpoint is owed nothing new, and once re-enabled gets what comes next.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readChangeEvents } from '@pra/ingest/change-events';
import { installMetricsReader } from '@pra/platform/testing';
import { enableWebhook, createWebhook, listWebhooks, webhookNotices } from '../src/data/webhook-registry.js';
import type { DeliveryEngine } from '../src/delivery/engine.js';
import { MAX_ATTEMPTS } from '../src/domain/retry-schedule.js';
import {
  CountyFile,
  createAccount,
  deliveryRows,
  type OwnDatabase,
  ownDatabase,
  ownRedisPrefix,
  owedCount,
  Receiver,
  testEngine,
  waitFor,
} from './harness.js';

let db: OwnDatabase;
let engine: DeliveryEngine;
// Before the engine starts: its gauges register with this reader (what /metrics would show).
const metric = installMetricsReader();
let r: Receiver;
const file = new CountyFile(`whdl${Date.now().toString(36)}`, '95819');

beforeAll(async () => {
  db = await ownDatabase('deadletter');
  // 40 h of schedule in about 0.7 s.
  engine = testEngine(db.pool, ownRedisPrefix('dead'), { retryScale: 1 / 200_000 });
  await engine.start();
  r = await new Receiver().start();
});
afterAll(async () => {
  await engine?.stop();
  await r?.close();
  file.remove();
  await db?.drop();
});

describe('dead letter and disabling', () => {
  it('dead-letters after the last attempt, disables the endpoint, tells the account, and re-enables', async () => {
    const account = await createAccount(db.pool);
    await file.import(db.pool, ['E ONE', 'F ONE']);
    r.answer = () => 500;
    const { webhook } = await createWebhook(db.pool, {
      accountId: account,
      url: r.url,
      events: ['property.updated'],
      filter: { zip: '95819' },
    });
    await file.import(db.pool, ['E TWO', 'F ONE']);
    await waitFor('the dead letter', async () =>
      (await deliveryRows(db.pool, webhook.id)).some((x) => x.outcome === 'dead_letter'),
    );
    const rows = await deliveryRows(db.pool, webhook.id);
    expect(rows).toHaveLength(MAX_ATTEMPTS);
    expect(rows.map((x) => x.attempt)).toEqual(Array.from({ length: MAX_ATTEMPTS }, (_, i) => i + 1));
    expect(rows.slice(0, -1).every((x) => x.outcome === 'failed' && x.http_status === 500)).toBe(true);
    expect(rows.at(-1)!.outcome).toBe('dead_letter');
    expect(r.ids()).toHaveLength(1);
    expect(await owedCount(db.pool, webhook.id)).toBe(0);
    const listed = (await listWebhooks(db.pool, account)).find((w) => w.id === webhook.id)!;
    expect(listed.status).toBe('disabled');
    expect(listed.disabledReason).toMatch(/16 failed attempts in a row.*answered 500/);
    // What /metrics shows: one endpoint disabled, nothing owed, the feed matched up to its end.
    await engine.dispatchRound();
    expect(await metric('pra.webhooks.disabled')).toBe(1);
    expect(await metric('pra.webhooks.owed')).toBe(0);
    expect(await metric('pra.webhooks.dispatch.lag')).toBe(0);
    expect(await webhookNotices(db.pool, account)).toMatchObject({
      active: 0,
      disabled: [{ id: webhook.id, reason: listed.disabledReason }],
    });

    // Disabled: owed nothing new.
    await file.import(db.pool, ['E THREE', 'F ONE']);
    await engine.dispatchRound();
    expect(await owedCount(db.pool, webhook.id)).toBe(0);
    // Re-enabled: the next change reaches it.
    r.answer = () => 200;
    expect(await enableWebhook(db.pool, account, webhook.id)).toBe(true);
    expect((await listWebhooks(db.pool, account))[0]).toMatchObject({ status: 'active', consecutiveFailures: 0 });
    await file.import(db.pool, ['E THREE', 'F TWO']);
    await waitFor('the delivery after re-enabling', async () => {
      const feed = await readChangeEvents(db.pool, { after: '0', limit: 10_000 });
      const ids = new Set(feed.filter((e) => e.detail.owner?.new[0] === 'F TWO').map((e) => e.id));
      return r.received.some((x) => ids.has(JSON.parse(x.body).data.id));
    });
  });
});
