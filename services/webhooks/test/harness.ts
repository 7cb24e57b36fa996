// What the webhook tests share: a database of their own (the dispatcher's cursor is one per database), accounts,
// imports that change records (the real importer, so the change feed is the real one), a programmable receiver on
// loopback, and a delivery engine wired as the worker process wires it.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inject } from 'vitest';
import { bullQueuePrefix, createPool, dropDatabase, ensureDatabase, type Pool, withDatabase } from '@pra/platform';
import type {} from '@pra/platform/testing';
import { migrateBilling } from '@pra/account-billing/migrate';
import { migrateRecords } from '@pra/ingest/migrate';
import { migrateWebhooks } from '../src/data/migrate.js';
import { DeliveryEngine, type EngineOptions } from '../src/delivery/engine.js';

import { CountyFile } from '@pra/ingest/testing/county-file';

export { CountyFile };

export interface OwnDatabase {
  url: string;
  pool: Pool;
  drop(): Promise<void>;
}

/** A database of the test file's own, migrated as npm start migrates (records, billing, webhooks). */
export async function ownDatabase(name: string): Promise<OwnDatabase> {
  const base = inject('databaseUrl');
  const url = withDatabase(base, `${new URL(base).pathname.slice(1)}_wh_${name}`);
  await ensureDatabase(url);
  const pool = createPool(url, 12, `test-webhooks-${name}`);
  await migrateRecords(pool);
  await migrateBilling(pool);
  await migrateWebhooks(pool);
  return {
    url,
    pool,
    async drop() {
      await pool.end();
      await dropDatabase(url);
    },
  };
}

let accounts = 0;
export async function createAccount(pool: Pool): Promise<number> {
  const { rows } = await pool.query<{ id: number }>(
    `INSERT INTO billing.accounts (email, name, tier) VALUES ($1, 'webhook test', 'pro') RETURNING id`,
    [`wh-${process.pid}-${Date.now()}-${++accounts}@example.com`],
  );
  return rows[0]!.id;
}

export interface Received {
  headers: IncomingMessage['headers'];
  body: string;
  at: number;
}

/** What the receiver does with a request: a status (and optional wait), or a behaviour of its own. */
export type Answer = number | { status: number; delayMs?: number; body?: string; headers?: Record<string, string> };

/** An HTTP receiver on loopback that records every request and answers as `answer` says (200 by default). */
export class Receiver {
  readonly received: Received[] = [];
  answer: (req: Received, n: number) => Answer | Promise<Answer> = () => 200;
  private readonly server = createServer((req, res) => this.handle(req, res));
  url = '';

  async start(): Promise<this> {
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', () => r()));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
    return this;
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const r: Received = { headers: req.headers, body: Buffer.concat(chunks).toString(), at: Date.now() };
      this.received.push(r);
      const a = await this.answer(r, this.received.length);
      const o = typeof a === 'number' ? { status: a } : a;
      if (o.delayMs) await new Promise((w) => setTimeout(w, o.delayMs));
      if (res.destroyed) return;
      res.writeHead(o.status, o.headers ?? {});
      res.end(o.body ?? '');
    });
  }

  /** The distinct webhook-ids received, in the order first received. */
  ids(): string[] {
    return [...new Set(this.received.map((r) => String(r.headers['webhook-id'])))];
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((r) => this.server.close(() => r()));
  }
}

let prefixes = 0;
/** A Redis key prefix of this test's own (under the run's, which the global teardown clears). */
export const ownRedisPrefix = (name: string) => `${inject('redisPrefix')}wh-${name}-${++prefixes}:`;

/** A delivery engine as the worker process makes it, with a test's settings: loopback allowed, quick rounds. */
export function testEngine(
  pool: Pool,
  redisPrefix: string,
  o: Partial<EngineOptions> & { redisUrl?: string } = {},
): DeliveryEngine {
  return new DeliveryEngine({
    pool,
    redisUrl: o.redisUrl ?? inject('redisUrl'),
    queuePrefix: bullQueuePrefix(redisPrefix, false),
    log: () => {},
    policy: { allowInsecureLocal: true },
    timeoutMs: 5_000,
    responseCapBytes: 65_536,
    concurrency: 16,
    retryScale: 1 / 3_600,
    dispatchEveryMs: 100,
    resyncEveryMs: 600_000,
    lockDurationMs: 30_000,
    ...o,
  });
}

/**
 * The receivers and county files a test file makes (`name`: its files' prefix), closed and removed together by
 * `close()` in its afterAll.
 */
export function testFixtures(name: string) {
  const receivers: Receiver[] = [];
  const files: CountyFile[] = [];
  let made = 0;
  return {
    async receiver(): Promise<Receiver> {
      const r = await new Receiver().start();
      receivers.push(r);
      return r;
    },
    countyFile(zip?: string): CountyFile {
      const f = new CountyFile(`${name}${Date.now().toString(36)}${++made}`, zip);
      files.push(f);
      return f;
    },
    async close(): Promise<void> {
      await Promise.all(receivers.map((r) => r.close()));
      for (const f of files) f.remove();
    },
  };
}

/** Waits until `check` returns a value other than undefined/false; fails with `what` after `timeoutMs`. */
export async function waitFor<T>(what: string, check: () => Promise<T> | T, timeoutMs = 20_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Events still owed to an endpoint. */
export async function owedCount(pool: Pool, webhookId: string): Promise<number> {
  const { rows } = await pool.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM webhooks.outbox WHERE webhook_id = $1',
    [webhookId],
  );
  return rows[0]!.n;
}

export async function deliveryRows(pool: Pool, webhookId: string) {
  const { rows } = await pool.query<{
    event_id: string;
    attempt: number;
    http_status: number | null;
    outcome: string;
    error: string | null;
    attempted_at: Date;
    next_attempt_at: Date | null;
    latency_ms: number;
  }>(
    `SELECT event_id, attempt, http_status, outcome, error, attempted_at, next_attempt_at, latency_ms FROM webhooks.deliveries
      WHERE webhook_id = $1 ORDER BY id`,
    [webhookId],
  );
  return rows;
}
