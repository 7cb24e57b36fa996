// One receiver cannot hold every delivery slot (src/delivery/endpoint-slots.ts): with a backlog owed to a receiver
// that never answers, a healthy endpoint's events are delivered at once, not after the dead one's timeouts; the dead
// one never has more attempts in flight than its share; a delivery waiting for a slot is not an attempt, and nothing
// owed is lost. Real PostgreSQL, Redis, engine and loopback receivers.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebhook } from '../src/data/webhook-registry.js';
import type { DeliveryEngine } from '../src/delivery/engine.js';
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

const SHARE = 4;
/** Events owed to the receiver that never answers. */
const DEAD_EVENTS = 60;
let db: OwnDatabase;
let engine: DeliveryEngine;
let account: number;
const { receiver, countyFile, close: closeFixtures } = testFixtures('whfair');

/** A receiver that reads each request and never answers: what it counts is requests open at once, and in all. */
function deadReceiver() {
  const stats = { open: 0, maxOpen: 0, total: 0 };
  const server: Server = createServer((req) => {
    stats.total++;
    stats.open++;
    stats.maxOpen = Math.max(stats.maxOpen, stats.open);
    req.resume();
    req.socket.once('close', () => stats.open--);
  });
  return {
    stats,
    async start() {
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
    },
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((r) => server.close(() => r()));
    },
  };
}
const dead = deadReceiver();

beforeAll(async () => {
  db = await ownDatabase('fairness');
  account = await createAccount(db.pool);
  engine = testEngine(db.pool, ownRedisPrefix('fair'), {
    concurrency: 8,
    endpointConcurrency: SHARE,
    timeoutMs: 1_000,
  });
  await engine.start();
});
afterAll(async () => {
  await engine?.stop();
  await dead.close();
  await closeFixtures();
  await db?.drop();
});

describe('one endpoint cannot hold every delivery slot', () => {
  it("a receiver that never answers holds at most its share; a healthy endpoint's events go at once", async () => {
    const owners = (v: number, n: number) => Array.from({ length: n }, (_, i) => `P${i} V${v}`);
    const deadFile = countyFile('95831');
    await deadFile.import(db.pool, owners(0, DEAD_EVENTS));
    const deadHook = (
      await createWebhook(db.pool, {
        accountId: account,
        url: await dead.start(),
        events: ['property.updated'],
        filter: { zip: '95831' },
      })
    ).webhook;
    const healthyFile = countyFile('95833');
    await healthyFile.import(db.pool, owners(0, 10));
    const ok = await receiver();
    const healthyHook = (
      await createWebhook(db.pool, {
        accountId: account,
        url: ok.url,
        events: ['property.updated'],
        filter: { zip: '95833' },
      })
    ).webhook;

    // Events owed to the dead receiver, queued first; its attempts are under way.
    await deadFile.import(db.pool, owners(1, DEAD_EVENTS));
    await waitFor('the first attempts to the dead receiver', () => dead.stats.total > 0);
    await healthyFile.import(db.pool, owners(1, 10));
    await waitFor('every healthy delivery', () => ok.ids().length === 10);
    // Without the shares, the 8 slots went to the dead deliveries first, 1 s each, before any healthy one (measured:
    // 60 or more attempts by then); with them, a handful.
    expect(dead.stats.total).toBeLessThan(30);
    await waitFor('the healthy deliveries logged', () => owedCount(db.pool, healthyHook.id).then((n) => n === 0));

    // A while longer: the dead receiver never has more than its share open, and is now down to one slot.
    await waitFor('more attempts to the dead receiver', () => dead.stats.total >= SHARE + 2, 30_000);
    expect(dead.stats.maxOpen).toBeLessThanOrEqual(SHARE);
    expect(engine.slots.inspect(deadHook.id).failing).toBe(true);
    // Failing, it has one slot: once the attempts made before it failed are over, never two requests open at once.
    await waitFor('one attempt open at most', () => dead.stats.open <= 1, 30_000);
    dead.stats.maxOpen = dead.stats.open;
    const seen = dead.stats.total;
    await waitFor('six attempts more', () => dead.stats.total >= seen + 6, 90_000);
    expect(dead.stats.maxOpen).toBeLessThanOrEqual(1);
    // Waiting for a slot is not an attempt: each logged attempt is a request the receiver got; nothing owed is lost.
    const attempts = await deliveryRows(db.pool, deadHook.id);
    expect(attempts.length).toBeLessThanOrEqual(dead.stats.total);
    expect(attempts.every((a) => a.outcome === 'failed')).toBe(true);
    expect(await owedCount(db.pool, deadHook.id)).toBe(DEAD_EVENTS);
  }, 150_000);
});
