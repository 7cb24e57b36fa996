// Vitest global setup: one PostgreSQL database per test run (created, migrated, loaded with a small fixed data set,
// dropped at the end), so runs on one machine never collide. Tests read its URL with inject('databaseUrl').
import { randomBytes } from 'node:crypto';
import type {} from 'vitest';
import type { TestProject } from 'vitest/node';
import { createPool, DEFAULT_DATABASE_URL, dropDatabase, ensureDatabase, withDatabase } from '@pra/shared/platform';
import { migrateRecords } from '../src/data/migrate.js';
import { loadSampleDataset } from '../src/load-sample.js';

declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string;
  }
}

export const FIXTURE = { seed: 7, count: 3_000 } as const;

export default async function setup(project: TestProject) {
  const base = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL;
  const url = withDatabase(base, `pra_test_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`);
  await ensureDatabase(url);
  // The records schema and the sample are loaded exactly as npm start loads them.
  const pool = createPool(url, 4, 'test-setup');
  try {
    await migrateRecords(pool);
    await loadSampleDataset(pool, { count: FIXTURE.count, seed: FIXTURE.seed, quiet: true });
  } finally {
    await pool.end();
  }
  project.provide('databaseUrl', url);
  return async () => {
    if (!process.env.KEEP_TEST_DATABASE) await dropDatabase(url);
  };
}
