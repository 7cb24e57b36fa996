// Vitest global setup: one PostgreSQL database per test run (created, migrated, loaded with a small fixed data set,
// dropped at the end), so runs on one machine never collide. Tests read its URL with inject('databaseUrl').
import { randomBytes } from 'node:crypto';
import { startApp } from '@pra/platform/testing';
import { createPlansApp } from '@pra/plans/app';
import type { TestProject } from 'vitest/node';
import { createPool, createRedis, dropDatabase, ensureDatabase, withDatabase } from '@pra/platform';
import { DEFAULT_DATABASE_URL, DEFAULT_REDIS_URL } from '@pra/core/config';
import { migrateRecords } from '@pra/ingest/migrate';
import { loadSampleDataset } from '@pra/ingest/load';
import { migrateBilling } from '@pra/account-billing/migrate';
import { migrateWebhooks } from '@pra/webhooks/migrate';

export const FIXTURE = { seed: 7, count: 3_000 } as const;

export default async function setup(project: TestProject) {
  const base = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL;
  const url = withDatabase(base, `pra_test_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`);
  await ensureDatabase(url);
  // The records schema and the sample are loaded exactly as npm start loads them.
  const pool = createPool(url, 4, 'test-setup');
  try {
    await migrateRecords(pool);
    await migrateBilling(pool);
    await migrateWebhooks(pool);
    await loadSampleDataset(pool, { count: FIXTURE.count, seed: FIXTURE.seed, quiet: true });
  } finally {
    await pool.end();
  }
  const redisUrl = process.env.REDIS_URL ?? DEFAULT_REDIS_URL;
  const redisPrefix = `pra_test_${randomBytes(4).toString('hex')}:`;
  project.provide('databaseUrl', url);
  project.provide('redisUrl', redisUrl);
  project.provide('redisPrefix', redisPrefix);
  // The document every response of the suite is checked against: fetched from the plans service, as clients get it.
  const plans = await startApp(
    createPlansApp({ purchaseUrl: 'https://example.com/pricing', publicBaseUrl: '/api/v1' }),
  );
  try {
    const res = await fetch(`${plans.url}/openapi.yaml`);
    if (res.status !== 200) throw new Error(`/openapi.yaml answered ${res.status}`);
    project.provide('servedOpenApi', await res.text());
  } finally {
    await plans.close();
  }
  return async () => {
    if (process.env.KEEP_TEST_DATABASE) return;
    await dropDatabase(url);
    const redis = createRedis(redisUrl, 'worker');
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${redisPrefix}*`, 'COUNT', 1000);
      if (keys.length > 0) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
    await redis.quit();
  };
}
