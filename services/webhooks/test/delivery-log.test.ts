// The delivery log is kept for its retention period: the worker's sweep deletes older attempts (every endpoint's),
// keeps newer ones, and what the API pages through is what is kept.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DELIVERY_LOG_RETENTION_DAYS, listDeliveries, pruneDeliveries } from '../src/data/delivery-log.js';
import { createWebhook } from '../src/data/webhook-registry.js';
import { createAccount, type OwnDatabase, ownDatabase } from './harness.js';

let db: OwnDatabase;
beforeAll(async () => {
  db = await ownDatabase('deliverylog');
});
afterAll(async () => {
  await db?.drop();
});

const DAY = 86_400_000;

describe('delivery log retention', () => {
  it('deletes attempts older than the retention period and keeps the rest', async () => {
    const account = await createAccount(db.pool);
    const { webhook } = await createWebhook(db.pool, {
      accountId: account,
      url: 'https://hooks.example.com/in',
      events: ['property.updated'],
      filter: { zip: '95814' },
    });
    const now = new Date();
    const ages = [DELIVERY_LOG_RETENTION_DAYS + 5, DELIVERY_LOG_RETENTION_DAYS + 1, DELIVERY_LOG_RETENTION_DAYS - 1, 0];
    for (const [i, days] of ages.entries())
      await db.pool.query(
        `INSERT INTO webhooks.deliveries (webhook_id, event_id, event_type, attempt, attempted_at, http_status,
                                          latency_ms, outcome)
         VALUES ($1, $2, 'property.updated', 1, $3, 200, 5, 'delivered')`,
        [webhook.id, `evt_${i}`, new Date(now.getTime() - days * DAY)],
      );
    expect(await pruneDeliveries(db.pool, now)).toBe(2);
    const kept = await listDeliveries(db.pool, account, webhook.id, { limit: 100 });
    expect(kept!.map((d) => d.eventId).sort()).toEqual(['evt_2', 'evt_3']);
    expect(await pruneDeliveries(db.pool, now)).toBe(0);
  });
});
