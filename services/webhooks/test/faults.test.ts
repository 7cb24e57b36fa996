// Faults made to happen to real processes: the worker process SIGKILLed mid-delivery (the event is delivered after
// a restart, under the same webhook-id, so the receiver can tell the repeat), two worker processes (each event
// acknowledged once), and a Redis of the test's own killed while deliveries wait in it: restarted from its AOF,
// nothing is lost; restarted empty, the outbox in PostgreSQL queues everything again.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedis } from '@pra/platform';
import { freePort } from '@pra/platform/testing';
import { createWebhook } from '../src/data/webhook-registry.js';
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
let account: number;
const { receiver, countyFile, close: closeFixtures } = testFixtures('whf');
const children = new Set<ChildProcess>();

beforeAll(async () => {
  db = await ownDatabase('faults');
  account = await createAccount(db.pool);
});
afterAll(async () => {
  for (const c of children) c.kill('SIGKILL');
  await closeFixtures();
  await db?.drop();
});

/** The worker process as the stack runs it (src/worker.ts), on this test's database and Redis prefix. */
function startWorker(redisPrefix: string, env: Record<string, string> = {}): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'services/webhooks/src/worker.ts'], {
    env: {
      ...process.env,
      DATABASE_URL: db.url,
      REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
      REDIS_PREFIX: redisPrefix,
      WEBHOOKS_ALLOW_INSECURE_LOCAL: '1',
      WEBHOOK_DISPATCH_EVERY_MS: '100',
      WEBHOOK_RETRY_SCALE: String(1 / 3_600),
      // A killed worker's job is run again by the next one after this (renewed every half of it while alive).
      WEBHOOK_LOCK_MS: '2000',
      INTERNAL_PORT: '0',
      LOG_LEVEL: 'silent',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  child.stderr!.resume();
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

const exited = (c: ChildProcess) =>
  new Promise<void>((r) => (c.exitCode !== null || c.signalCode !== null ? r() : c.once('exit', () => r())));

describe('faults', () => {
  it('a worker SIGKILLed mid-delivery: delivered after a restart, under the same webhook-id', async () => {
    const prefix = ownRedisPrefix('kill');
    const file = countyFile('95830');
    await file.import(db.pool, ['M ONE']);
    const r = await receiver();
    let onFirst: () => void = () => {};
    const first = new Promise<void>((resolve) => (onFirst = resolve));
    // The first request is held until the worker is dead, then answered 200 into a closed socket.
    r.answer = (_req, n) => {
      if (n === 1) {
        onFirst();
        return { status: 200, delayMs: 1_500 };
      }
      return 200;
    };
    const { webhook } = await createWebhook(db.pool, {
      accountId: account,
      url: r.url,
      events: ['property.updated'],
      filter: { zip: '95830' },
    });
    const worker = startWorker(prefix);
    await file.import(db.pool, ['M TWO']);
    await first;
    worker.kill('SIGKILL');
    await exited(worker);
    expect(await owedCount(db.pool, webhook.id)).toBe(1);
    const restarted = startWorker(prefix);
    // Each start compiles the worker through tsx: on a busy machine that alone takes seconds.
    await waitFor('the delivery after the restart', () => owedCount(db.pool, webhook.id).then((n) => n === 0), 90_000);
    expect(r.received.length).toBeGreaterThanOrEqual(2);
    expect(new Set(r.received.map((x) => x.headers['webhook-id'])).size).toBe(1);
    expect(new Set(r.received.map((x) => x.body)).size).toBe(1);
    expect((await deliveryRows(db.pool, webhook.id)).filter((x) => x.outcome === 'delivered')).toHaveLength(1);
    restarted.kill('SIGTERM');
    await exited(restarted);
  }, 120_000);

  it('two worker processes: every event acknowledged once', async () => {
    const prefix = ownRedisPrefix('two');
    const file = countyFile('95831');
    const owners = (v: number) => Array.from({ length: 20 }, (_, i) => `N${i} V${v}`);
    await file.import(db.pool, owners(0));
    const r = await receiver();
    r.answer = () => ({ status: 200, delayMs: 20 });
    const { webhook } = await createWebhook(db.pool, {
      accountId: account,
      url: r.url,
      events: ['property.updated'],
      filter: { zip: '95831' },
    });
    const a = startWorker(prefix);
    const b = startWorker(prefix);
    for (let v = 1; v <= 3; v++) await file.import(db.pool, owners(v));
    await waitFor(
      'every delivery',
      async () => (await deliveryRows(db.pool, webhook.id)).filter((x) => x.outcome === 'delivered').length === 60,
      90_000,
    );
    expect(r.received).toHaveLength(60);
    expect(r.ids()).toHaveLength(60);
    a.kill('SIGTERM');
    b.kill('SIGTERM');
    await Promise.all([exited(a), exited(b)]);
  }, 120_000);

  it('Redis killed while deliveries wait in it: from its AOF nothing is lost; empty, the outbox queues them again', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pra-webhooks-redis-'));
    const port = await freePort();
    const url = `redis://127.0.0.1:${port}`;
    let redis: ChildProcess | undefined;
    const startRedis = async () => {
      redis = spawn(
        'redis-server',
        ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--appendonly', 'yes', '--save', ''],
        { stdio: 'ignore' },
      );
      children.add(redis);
      const probe = createRedis(url, 'worker');
      probe.on('error', () => {});
      try {
        await waitFor(
          'redis',
          () =>
            probe.ping().then(
              () => true,
              () => false,
            ),
          10_000,
        );
      } finally {
        probe.disconnect();
      }
    };
    const killRedis = async () => {
      redis!.kill('SIGKILL');
      await exited(redis!);
    };
    await startRedis();
    const prefix = ownRedisPrefix('aof');
    // A job whose attempt was cut by the kill stays active in the AOF until its lock runs out, then is run again
    // (BullMQ's stalled-job check): a short lock keeps that within the test's wait.
    const engine = testEngine(db.pool, prefix, { redisUrl: url, retryScale: 1 / 360, lockDurationMs: 2_000 });
    const retriesWaiting = () =>
      waitFor('every retry waiting in Redis', async () => {
        const c = await engine.queue.getJobCounts('active', 'delayed');
        return c.active === 0 && c.delayed === 5;
      });
    try {
      await engine.start();
      const file = countyFile('95832');
      const owners = (v: number) => Array.from({ length: 5 }, (_, i) => `P${i} V${v}`);
      await file.import(db.pool, owners(0));
      const r = await receiver();
      r.answer = () => 503;
      const { webhook } = await createWebhook(db.pool, {
        accountId: account,
        url: r.url,
        events: ['property.updated'],
        filter: { zip: '95832' },
      });
      await file.import(db.pool, owners(1));
      // Every event has failed once: its retry waits as a delayed job in Redis.
      await waitFor('first attempts', () => r.ids().length === 5);
      await retriesWaiting();
      await killRedis();
      await startRedis();
      r.answer = () => 200;
      await waitFor(
        'every delivery after the AOF restart',
        () => owedCount(db.pool, webhook.id).then((n) => n === 0),
        30_000,
      );
      expect((await deliveryRows(db.pool, webhook.id)).filter((x) => x.outcome === 'delivered')).toHaveLength(5);

      // Now a Redis that comes back with nothing: the marker is gone, the outbox queues every event again.
      r.answer = () => 503;
      await file.import(db.pool, owners(2));
      await waitFor('first attempts', () => r.ids().length === 10);
      await killRedis();
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(dir);
      await startRedis();
      r.answer = () => 200;
      await waitFor(
        'every delivery after an empty restart',
        () => owedCount(db.pool, webhook.id).then((n) => n === 0),
        30_000,
      );
      const delivered = (await deliveryRows(db.pool, webhook.id)).filter((x) => x.outcome === 'delivered');
      expect(delivered).toHaveLength(10);
      expect(new Set(delivered.map((x) => x.event_id)).size).toBe(10);
    } finally {
      await engine.stop();
      if (redis) await killRedis().catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
