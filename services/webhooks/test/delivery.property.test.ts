// For any sequence of imports that change owners, receiver failures, slow answers and duplicate enqueues: every
// change event is delivered (acknowledged) exactly once and sent at least once, a record's events reach the receiver
// in feed order (a retry of event N always before event N+1), and what was delivered equals the change feed, event
// for event and byte for byte of its data.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readChangeFeed, readChangeEvents } from '@pra/ingest/change-events';
import { createWebhook, deleteWebhook } from '../src/data/webhook-registry.js';
import { changeNotice } from '../src/domain/webhook.js';
import type { DeliveryEngine } from '../src/delivery/engine.js';
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

const RECORDS = 3;

type Command =
  | { kind: 'change'; record: number; owner: string }
  | { kind: 'fail'; count: number }
  | { kind: 'slow'; ms: number }
  | { kind: 'duplicate' };

const command: fc.Arbitrary<Command> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('change' as const),
      record: fc.integer({ min: 0, max: RECORDS - 1 }),
      owner: fc.constantFrom('ANN LEE', 'BOB RAY', 'CARLA DIAZ', 'DAN OKE'),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('fail' as const), count: fc.integer({ min: 1, max: 3 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('slow' as const), ms: fc.integer({ min: 50, max: 300 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('duplicate' as const) }) },
);

let db: OwnDatabase;
let engine: DeliveryEngine;
let account: number;
const receiver = new Receiver();

beforeAll(async () => {
  db = await ownDatabase('property');
  account = await createAccount(db.pool);
  engine = testEngine(db.pool, ownRedisPrefix('property'));
  await engine.start();
  await receiver.start();
});
afterAll(async () => {
  await engine?.stop();
  await receiver.close();
  await db?.drop();
});

let runs = 0;

describe('delivery, for any sequence of changes, failures and acknowledgements', () => {
  it('delivers every event at least once, acknowledges it once, in order per record, equal to the feed', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(command, { minLength: 1, maxLength: 7 }), async (commands) => {
        const file = new CountyFile(`whp${Date.now().toString(36)}${++runs}`);
        try {
          const owners = Array.from({ length: RECORDS }, () => 'ANN LEE');
          await file.import(db.pool, owners);
          receiver.received.length = 0;
          let failing = 0;
          let slowMs = 0;
          receiver.answer = () => {
            if (failing > 0) {
              failing--;
              return 500;
            }
            const delayMs = slowMs;
            slowMs = 0;
            return { status: 200, delayMs };
          };
          const { webhook } = await createWebhook(db.pool, {
            accountId: account,
            url: receiver.url,
            events: ['property.updated'],
          });
          const start = (await readChangeFeed(db.pool, { after: '0', limit: 0 })).next;
          for (const c of commands) {
            if (c.kind === 'change') {
              owners[c.record] = c.owner;
              await file.import(db.pool, owners);
            } else if (c.kind === 'fail') failing += c.count;
            else if (c.kind === 'slow') slowMs = c.ms;
            else await engine.resync();
          }
          const feed = (await readChangeEvents(db.pool, { after: start, limit: 10_000 })).filter(
            (e) => e.source === file.source,
          );
          await waitFor(
            'every event acknowledged',
            async () => {
              await engine.dispatchRound();
              const delivered = (await deliveryRows(db.pool, webhook.id)).filter((x) => x.outcome === 'delivered');
              return delivered.length >= feed.length && (await owedCount(db.pool, webhook.id)) === 0;
            },
            30_000,
          );
          const rows = await deliveryRows(db.pool, webhook.id);
          const delivered = rows.filter((x) => x.outcome === 'delivered').map((x) => x.event_id);
          // Acknowledged once each, and exactly the feed's events.
          expect(delivered.slice().sort()).toEqual(feed.map((e) => `evt_${e.position}`).sort());
          expect(rows.every((x) => x.outcome !== 'dead_letter')).toBe(true);
          // What arrived is the feed: each body's data is its event.
          const byId = new Map(feed.map((e) => [`evt_${e.position}`, e]));
          for (const r of receiver.received) {
            const id = String(r.headers['webhook-id']);
            expect(byId.has(id), id).toBe(true);
            expect(JSON.parse(r.body).data).toEqual(changeNotice(byId.get(id)!));
          }
          expect(new Set(receiver.ids())).toEqual(new Set(byId.keys()));
          // In order per record: every request about a record (retries included) names a position at or after the
          // one before it.
          const positions = new Map<number, number[]>();
          for (const r of receiver.received) {
            const data = JSON.parse(r.body).data as { propertyId: number; id: string };
            positions.set(data.propertyId, [...(positions.get(data.propertyId) ?? []), Number(data.id)]);
          }
          for (const [id, ps] of positions) expect(ps, `record ${id}`).toEqual([...ps].sort((a, b) => a - b));
          await deleteWebhook(db.pool, account, webhook.id);
        } finally {
          file.remove();
        }
      }),
      { numRuns: 8 },
    );
  }, 300_000);
});
