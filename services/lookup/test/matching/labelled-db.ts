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

/** One class's figures: queries, found, wrong, and the misses to print. */
export interface ClassTally {
  n: number;
  found: number;
  wrong: number;
  missed: string[];
}

/** Prints the figures by class (with up to 8 misses per class and 20 wrong answers) and gives the totals. */
export function reportFigures(title: string, tally: ReadonlyMap<string, ClassTally>, wrongs: readonly string[]) {
  const all = [...tally.values()].reduce(
    (a, t) => ({ n: a.n + t.n, found: a.found + t.found, wrong: a.wrong + t.wrong }),
    { n: 0, found: 0, wrong: 0 },
  );
  const width = Math.max(...[...tally.keys()].map((k) => k.length)) + 2;
  console.log(
    [
      `${title}: ${all.found}/${all.n} found (${((100 * all.found) / all.n).toFixed(2)}%), ${all.wrong} wrong`,
      ...[...tally].map(
        ([cls, t]) =>
          `  ${cls.padEnd(width)} ${String(t.found).padStart(5)}/${String(t.n).padEnd(5)} found  ${t.wrong} wrong`,
      ),
      ...[...tally.values()].flatMap((t) => t.missed.slice(0, 8).map((m) => `  missed: ${m}`)),
      ...wrongs.slice(0, 20).map((w) => `  WRONG: ${w}`),
    ].join('\n'),
  );
  return all;
}
