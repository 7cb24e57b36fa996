// The webhook gauges (src/delivery/backlog-gauges.ts) on a database of the test's own: a dispatcher that never ran
// shows its idle time from the oldest event it has not matched (so the stall alert can fire on a fresh install), and
// one that has matched everything shows no lag; parked rows of a disabled endpoint are not owed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebhook } from '../src/data/webhook-registry.js';
import { readWebhookBacklog } from '../src/delivery/backlog-gauges.js';
import { dispatchChanges } from '../src/delivery/dispatcher.js';
import { createAccount, type OwnDatabase, ownDatabase, testFixtures } from './harness.js';

let db: OwnDatabase;
const { countyFile, close: closeFixtures } = testFixtures('whgauge');

beforeAll(async () => {
  db = await ownDatabase('gauges');
});
afterAll(async () => {
  await closeFixtures();
  await db?.drop();
});

describe('webhook backlog gauges', () => {
  it('a cursor that never moved is idle since its oldest unmatched event; matched, no lag; parked rows not owed', async () => {
    const account = await createAccount(db.pool);
    const file = countyFile('95835');
    await file.import(db.pool, ['ANN LEE']);
    const { webhook } = await createWebhook(db.pool, {
      accountId: account,
      url: 'http://127.0.0.1:9/hook',
      events: ['property.updated'],
    });
    await file.import(db.pool, ['BOB RAY']);
    // The events are an hour old and no dispatcher has ever run.
    await db.pool.query(`UPDATE records.change_events SET changed_at = now() - interval '1 hour'`);
    const before = await readWebhookBacklog(db.pool);
    expect(before['pra.webhooks.dispatch.lag']).toBeGreaterThan(0);
    expect(before['pra.webhooks.dispatch.idle']).toBeGreaterThan(3_500);

    await dispatchChanges(db.pool, 500);
    const after = await readWebhookBacklog(db.pool);
    expect(after['pra.webhooks.dispatch.lag']).toBe(0);
    expect(after['pra.webhooks.dispatch.idle']).toBeLessThan(60);
    expect(after['pra.webhooks.owed']).toBe(1);

    await db.pool.query(`UPDATE webhooks.endpoints SET status = 'disabled' WHERE id = $1`, [webhook.id]);
    const parked = await readWebhookBacklog(db.pool);
    expect(parked['pra.webhooks.owed']).toBe(0);
    expect(parked['pra.webhooks.disabled']).toBe(1);
  });
});
