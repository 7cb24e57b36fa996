// What the webhook benches share: a database of their own, migrated as npm start migrates it (migrateAll), and the
// delivery worker run as npm start runs it (services/webhooks/src/worker.ts, its own process).
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import {
  bullQueuePrefix,
  createPool,
  createRedis,
  dropDatabase,
  ensureDatabase,
  type Pool,
  withDatabase,
} from '@pra/platform';
import { DELIVERY_QUEUE } from '@pra/webhooks/engine';
import { DEFAULT_DATABASE_URL, DEFAULT_REDIS_URL } from '@pra/core/config';
import { migrateAll } from '../../services/stack/src/migrate-all.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
/** The worker's default WEBHOOK_CONCURRENCY, which the benches run it with. */
export const WORKER_CONCURRENCY = 50;

/** A fresh database named after `name`, migrated; `drop()` ends its pool and removes it. */
export async function benchDatabase(name: string): Promise<{ url: string; pool: Pool; drop(): Promise<void> }> {
  const base = process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL;
  const url = withDatabase(base, `pra_bench_${name}_${Date.now().toString(36)}`);
  await ensureDatabase(url);
  const pool = createPool(url, 8, `bench-${name}`);
  await migrateAll(pool, () => {});
  return {
    url,
    pool,
    async drop() {
      await pool.end();
      await dropDatabase(url);
    },
  };
}

/**
 * The delivery worker on `dbUrl` with its own Redis prefix, loopback receivers allowed, `env` over the defaults.
 * Resolves once it has started: its engine has set the queue's marker in Redis (engine.ts, at start), so its
 * compile and start-up are not in the figures that follow.
 */
export async function startBenchWorker(dbUrl: string, prefix: string, env: Record<string, string> = {}) {
  const redisUrl = process.env.REDIS_URL ?? DEFAULT_REDIS_URL;
  const worker = spawn(process.execPath, ['--import', 'tsx', 'services/webhooks/src/worker.ts'], {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_URL: dbUrl,
      REDIS_URL: redisUrl,
      REDIS_PREFIX: prefix,
      WEBHOOKS_ALLOW_INSECURE_LOCAL: '1',
      WEBHOOK_CONCURRENCY: String(WORKER_CONCURRENCY),
      INTERNAL_PORT: '0',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const redis = createRedis(redisUrl, 'worker');
  try {
    const marker = `${bullQueuePrefix(prefix, false)}:${DELIVERY_QUEUE}:outbox-synced`;
    for (const until = Date.now() + 120_000; !(await redis.exists(marker)); ) {
      if (worker.exitCode !== null) throw new Error(`the webhook worker exited (${worker.exitCode}) before it started`);
      if (Date.now() > until) throw new Error('the webhook worker did not start within 2 minutes');
      await new Promise((r) => setTimeout(r, 100));
    }
  } finally {
    redis.disconnect();
  }
  return worker;
}
