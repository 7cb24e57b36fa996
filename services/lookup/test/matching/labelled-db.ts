// What the labelled address sets share: their CSV rows, and a records database of the test's own (migrated, dropped
// after), into which the test imports its county files with the real importer.
import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, inject } from 'vitest';
import { createPool, dropDatabase, ensureDatabase, withDatabase, type Pool } from '@pra/platform';
import type {} from '@pra/platform/testing';
import { migrateRecords } from '@pra/ingest/migrate';

/** One labelled query: a class, what it must find, the place, the address as written. */
export interface Labelled {
  class: string;
  expect: string;
  zip: string;
  city: string;
  state: string;
  address: string;
}

export const readLabelled = (file: string | URL) => parse(readFileSync(file), { columns: true }) as Labelled[];

/** A migrated records database named `<prefix>_<random>` for this test file; `pool()` once beforeAll has run. */
export function useRecordsDatabase(prefix: string): { pool(): Pool } {
  let url: string | undefined;
  let pool: Pool | undefined;
  beforeAll(async () => {
    url = withDatabase(inject('databaseUrl'), `${prefix}_${randomBytes(4).toString('hex')}`);
    await ensureDatabase(url);
    pool = createPool(url, 4);
    await migrateRecords(pool);
  }, 60_000);
  afterAll(async () => {
    await pool?.end();
    if (url) await dropDatabase(url);
  });
  return { pool: () => pool! };
}
