// The delivery engine against real PostgreSQL, Redis and an HTTP receiver on loopback: a re-import's change reaches
// the receiver signed (verified with the reference method) and equal to the change feed; failures are retried on the
// schedule and logged; an acknowledged event is never sent again; a record's events arrive in order through a
// re-import during delivery. Dead letters and disabling: dead-letter.test.ts.
import { Webhook as Verifier } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readChangeEvents } from '@pra/ingest/change-events';
import { changeNotice } from '../src/domain/webhook.js';
import { listDeliveries } from '../src/data/delivery-log.js';
import { createWebhook, deleteWebhook, enqueueTestDelivery, listWebhooks } from '../src/data/webhook-registry.js';
import type { DeliveryEngine } from '../src/delivery/engine.js';
import { nominalWaitMs } from '../src/domain/retry-schedule.js';
import {
  createAccount,
  deliveryRows,
  type OwnDatabase,
  ownDatabase,
  ownRedisPrefix,
  owedCount,
  testEngine,
  testFixtures,
  waitFor,
} from './harness.js';

let db: OwnDatabase;
let engine: DeliveryEngine;
const { receiver, countyFile, close: closeFixtures } = testFixtures('whd');
let account: number;

beforeAll(async () => {
  db = await ownDatabase('delivery');
  account = await createAccount(db.pool);
  engine = testEngine(db.pool, ownRedisPrefix('delivery'));
  await engine.start();
});
afterAll(async () => {
  await engine?.stop();
  await closeFixtures();
  await db?.drop();
});

/** The feed's events of these ids (what a delivery names). */
async function readChangeEventsByIdsOf(...ids: string[]) {
  const all = await readChangeEvents(db.pool, { after: '0', limit: 10_000 });
  return ids.map((id) => all.find((e) => e.id === id));
}

describe('delivering change events', () => {
  it('a re-import that changes an owner reaches the receiver once, signed, equal to the change feed', async () => {
    const file = countyFile('95815');
    await file.import(db.pool, ['ANN LEE', 'BOB RAY']);
    const r = await receiver();
    const { webhook, secret } = await createWebhook(db.pool, {
      accountId: account,
      url: r.url,
      events: ['property.updated'],
      filter: { zip: '95815' },
    });
    expect(secret).toMatch(/^whsec_/);
    await file.import(db.pool, ['ANN LEE', 'CARLA DIAZ']);
    await waitFor('the delivery', () => r.received.length >= 1 && owedCount(db.pool, webhook.id).then((n) => n === 0));
    expect(r.received).toHaveLength(1);
    const got = r.received[0]!;
    // The reference method: npm standardwebhooks' Webhook.verify.
    const payload = new Verifier(secret).verify(got.body, got.headers as Record<string, string>) as {
      type: string;
      data: { id: string; parts: string[] };
    };
    expect(payload.type).toBe('property.updated');
    const feed = (await readChangeEvents(db.pool, { after: '0', limit: 1_000 })).filter(
      (e) => e.source === file.source,
    );
    expect(feed).toHaveLength(1);
    // The /changes event's id, record, parts, time and place; not its old and new values, which the feed charges for.
    expect(payload.data).toEqual(changeNotice(feed[0]!));
    expect(payload.data).toMatchObject({ id: feed[0]!.id, propertyId: feed[0]!.propertyId });
    expect(got.body).not.toContain('CARLA DIAZ');
    expect(got.body).not.toContain('BOB RAY');
    expect(payload.data).not.toHaveProperty('owner');
    expect(payload.data.parts).toContain('owner');
    expect(got.headers['webhook-id']).toBe(`evt_${feed[0]!.position}`);
    const log = await listDeliveries(db.pool, account, webhook.id, { limit: 10 });
    expect(log).toMatchObject([
      { eventId: `evt_${feed[0]!.position}`, attempt: 1, httpStatus: 200, outcome: 'delivered' },
    ]);
    expect((await listWebhooks(db.pool, account)).find((w) => w.id === webhook.id)).toMatchObject({
      status: 'active',
      pendingEvents: 0,
      consecutiveFailures: 0,
    });
  });

  it('sends only what the endpoint subscribed to and its filter matches, and nothing from before it existed', async () => {
    const file = countyFile('95816');
    await file.import(db.pool, ['A ONE', 'B TWO']);
    await file.import(db.pool, ['A ONE', 'B THREE']); // before the endpoint: not its
    const r = await receiver();
    const other = await receiver();
    const { webhook } = await createWebhook(db.pool, {
      accountId: account,
      url: r.url,
      events: ['property.updated'],
      filter: { zip: '95816' },
    });
    const { webhook: elsewhere } = await createWebhook(db.pool, {
      accountId: account,
      url: other.url,
      events: ['property.updated'],
      filter: { zip: '10001' },
    });
    const { webhook: removedOnly } = await createWebhook(db.pool, {
      accountId: account,
      url: other.url,
      events: ['property.removed'],
    });
    await file.import(db.pool, ['A FOUR', 'B THREE']);
    await waitFor('the delivery', () => r.received.length >= 1);
    await engine.dispatchRound();
    expect(r.received).toHaveLength(1);
    // The delivery names the event; its values are the feed's.
    const [sent] = await readChangeEventsByIdsOf(JSON.parse(r.received[0]!.body).data.id);
    expect(sent!.detail.owner?.new).toEqual(['A FOUR']);
    expect(other.received).toHaveLength(0);
    expect(await owedCount(db.pool, elsewhere.id)).toBe(0);
    expect(await owedCount(db.pool, removedOnly.id)).toBe(0);
    await deleteWebhook(db.pool, account, webhook.id);
    await deleteWebhook(db.pool, account, elsewhere.id);
    await deleteWebhook(db.pool, account, removedOnly.id);
  });

  it('answering 500 then 200: retried on the schedule, acknowledged once, both attempts logged', async () => {
    const file = countyFile('95817');
    await file.import(db.pool, ['C ONE']);
    const r = await receiver();
    r.answer = (_req, n) => (n === 1 ? 500 : 200);
    const { webhook } = await createWebhook(db.pool, {
      accountId: account,
      url: r.url,
      events: ['property.updated'],
      filter: { zip: '95817' },
    });
    await file.import(db.pool, ['C TWO']);
    await waitFor('the retry', () => owedCount(db.pool, webhook.id).then((n) => n === 0 && r.received.length >= 2));
    expect(r.ids()).toHaveLength(1);
    expect(r.received).toHaveLength(2);
    // Each attempt signed afresh, the same message: the same webhook-id and body.
    expect(r.received[1]!.body).toBe(r.received[0]!.body);
    const rows = await deliveryRows(db.pool, webhook.id);
    expect(rows.map((x) => [x.attempt, x.http_status, x.outcome])).toEqual([
      [1, 500, 'failed'],
      [2, 200, 'delivered'],
    ]);
    // The wait logged is the schedule's first (15 s, jittered, compressed by the test's scale of 1/3600).
    const waited = rows[0]!.next_attempt_at!.getTime() - rows[0]!.attempted_at.getTime() - rows[0]!.latency_ms;
    expect(waited).toBeGreaterThanOrEqual(Math.floor((nominalWaitMs(1) * 0.75) / 3_600) - 1);
    expect(waited).toBeLessThanOrEqual(Math.ceil((nominalWaitMs(1) * 1.25) / 3_600) + 1);
  });

  it('a receiver down for an hour (of the schedule, compressed): delivered once it is back, never before', async () => {
    const file = countyFile('95818');
    await file.import(db.pool, ['D ONE']);
    const r = await receiver();
    const scale = 1 / 3_600; // the test engine's: an hour of the schedule is a second here
    let firstAt = 0;
    r.answer = (req) => {
      firstAt ||= req.at;
      return (req.at - firstAt) / scale < 3_600_000 ? 503 : 200;
    };
    const { webhook } = await createWebhook(db.pool, {
      accountId: account,
      url: r.url,
      events: ['property.updated'],
      filter: { zip: '95818' },
    });
    await file.import(db.pool, ['D TWO']);
    await waitFor(
      'the delivery after the outage',
      async () => (await deliveryRows(db.pool, webhook.id)).some((x) => x.outcome === 'delivered'),
      30_000,
    );
    const rows = await deliveryRows(db.pool, webhook.id);
    const last = rows.at(-1)!;
    expect(last.outcome).toBe('delivered');
    expect(rows.filter((x) => x.outcome === 'delivered')).toHaveLength(1);
    const failed = rows.slice(0, -1);
    expect(failed.every((x) => x.outcome === 'failed' && x.http_status === 503)).toBe(true);
    // Attempt k comes at least 0.75 x 15 s x (2^(k-1) - 1) into the schedule: the 10th is past the hour whatever
    // the jitter, so at most 9 failed; each wait logged is the schedule's (jittered, compressed by the scale).
    expect(failed.length).toBeGreaterThanOrEqual(1);
    expect(failed.length).toBeLessThanOrEqual(9);
    failed.forEach((x, i) => {
      // next attempt = sent + the attempt's own time + the wait (whole milliseconds).
      const wait = x.next_attempt_at!.getTime() - x.attempted_at.getTime() - x.latency_ms;
      expect(wait).toBeGreaterThanOrEqual(Math.floor(nominalWaitMs(i + 1) * 0.75 * scale) - 1);
      expect(wait).toBeLessThanOrEqual(Math.ceil(nominalWaitMs(i + 1) * 1.25 * scale) + 1);
    });
    // Delivered at the first attempt an hour (of the schedule) after the first one, not before.
    const times = r.received.map((x) => (x.at - firstAt) / scale);
    expect(times.at(-1)!).toBeGreaterThanOrEqual(3_600_000);
    expect(times.slice(0, -1).every((t) => t < 3_600_000)).toBe(true);
    expect(r.ids()).toHaveLength(1);
  });

  it('an acknowledged event is never sent again, whatever is queued twice; a test event goes the same way', async () => {
    const file = countyFile('95820');
    await file.import(db.pool, ['G ONE']);
    const r = await receiver();
    const { webhook, secret } = await createWebhook(db.pool, {
      accountId: account,
      url: r.url,
      events: ['property.updated'],
      filter: { zip: '95820' },
    });
    await file.import(db.pool, ['G TWO']);
    await waitFor('the delivery', () => owedCount(db.pool, webhook.id).then((n) => n === 0 && r.received.length === 1));
    const id = String(r.received[0]!.headers['webhook-id']);
    // The same job queued again (a duplicate from a pump racing a worker, a resync): nothing is sent.
    await engine.queue.add('deliver', { webhookId: webhook.id, eventId: id }, { jobId: `${webhook.id}.${id}` });
    await engine.resync();
    await engine.pump();
    await new Promise((w) => setTimeout(w, 500));
    expect(r.received).toHaveLength(1);

    const test = await enqueueTestDelivery(db.pool, account, webhook.id);
    expect(test?.eventId).toMatch(/^evt_test_/);
    await waitFor('the test event', () => r.received.length === 2);
    const payload = new Verifier(secret).verify(r.received[1]!.body, r.received[1]!.headers as Record<string, string>);
    expect(payload).toMatchObject({ type: 'webhook.test', data: { webhookId: webhook.id, eventId: test!.eventId } });
    expect(await enqueueTestDelivery(db.pool, account + 1_000_000, webhook.id)).toBeNull();
  });

  it('a deleted endpoint is sent nothing it was still owed', async () => {
    const file = countyFile('95821');
    await file.import(db.pool, ['H ONE']);
    const r = await receiver();
    r.answer = () => 503;
    const { webhook } = await createWebhook(db.pool, {
      accountId: account,
      url: r.url,
      events: ['property.updated'],
      filter: { zip: '95821' },
    });
    await file.import(db.pool, ['H TWO']);
    await waitFor('a first failed attempt', () => r.received.length >= 1);
    expect(await deleteWebhook(db.pool, account, webhook.id)).toBe(true);
    const seen = r.received.length;
    r.answer = () => 200;
    await new Promise((w) => setTimeout(w, 1_500));
    // At most the attempt that was on the wire when the delete committed.
    expect(r.received.length).toBeLessThanOrEqual(seen + 1);
    expect(await listDeliveries(db.pool, account, webhook.id, { limit: 10 })).toBeNull();
  });

  it("a re-import during delivery: each of the record's events once, in order", async () => {
    const file = countyFile('95822');
    await file.import(db.pool, ['K ONE', 'L ONE']);
    const r = await receiver();
    r.answer = () => ({ status: 200, delayMs: 300 });
    const { webhook } = await createWebhook(db.pool, {
      accountId: account,
      url: r.url,
      events: ['property.updated'],
      filter: { zip: '95822' },
    });
    await file.import(db.pool, ['K TWO', 'L ONE']);
    await waitFor('the first event on the wire', () => r.received.length >= 1);
    await file.import(db.pool, ['K THREE', 'L TWO']);
    await file.import(db.pool, ['K FOUR', 'L TWO']);
    await waitFor('every delivery', () =>
      owedCount(db.pool, webhook.id).then((n) => n === 0 && r.received.length >= 4),
    );
    expect(r.ids()).toHaveLength(4);
    expect(r.received).toHaveLength(4);
    const feed = (await readChangeEvents(db.pool, { after: '0', limit: 1_000 })).filter(
      (e) => e.source === file.source,
    );
    // In the order received, the owners the delivered events stand for (a delivery names its feed event).
    const byId = new Map(feed.map((e) => [e.id, e]));
    const k = r.received
      .map((x) => byId.get((JSON.parse(x.body).data as { id: string }).id)!.detail.owner?.new[0] ?? '')
      .filter((name) => name.startsWith('K'));
    expect(k).toEqual(['K TWO', 'K THREE', 'K FOUR']);
    expect(new Set(r.ids())).toEqual(new Set(feed.map((e) => `evt_${e.position}`)));
  });
});
