// `npm run ingest -- remove --source` as a user runs it: a source not written as one (`philadelphia-opa` for
// `import:philadelphia-opa`) is refused before the database, and a removal that finds nothing says which sources the
// store has, so a misnamed source does not pass for a done removal.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, inject, it } from 'vitest';
import { createPool, dropDatabase, ensureDatabase, withDatabase } from '@pra/platform';
import { migrateRecords } from '../src/data/migrate.js';
import { COUNTY_ROLLS } from '../src/importer/index.js';
import { ingestArgs } from './cli-run.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const url = withDatabase(inject('databaseUrl'), `${new URL(inject('databaseUrl')).pathname.slice(1)}_cli_remove`);
afterAll(() => dropDatabase(url));

const ingest = (databaseUrl: string, ...args: string[]) =>
  spawnSync(process.execPath, [...ingestArgs(root), ...args], {
    cwd: root,
    encoding: 'utf8',
    timeout: 120_000,
    env: { ...process.env, DATABASE_URL: databaseUrl },
  });

it('refuses a source not written as import:<mapping> or synthetic:<seed>, and names the one meant', () => {
  const nowhere = 'postgres://postgres@127.0.0.1:1/none';
  const run = ingest(nowhere, 'remove', '--source', 'philadelphia-opa');
  expect(run.status, run.stderr).toBe(1);
  expect(run.stderr).toContain(
    "--source is import:<mapping name> or synthetic:<seed>, not 'philadelphia-opa' (for the records a mapping named " +
      'philadelphia-opa imported: --source import:philadelphia-opa)',
  );
  expect(run.stderr).not.toContain('Check that the PostgreSQL');
  const spaced = ingest(nowhere, 'remove', '--source', 'import: philadelphia-opa');
  expect(spaced.status, spaced.stderr).toBe(1);
  expect(spaced.stderr).toContain("not 'import: philadelphia-opa'");
}, 120_000);

it('removes what a source wrote; a source with nothing says so and lists the sources the store has', async () => {
  await dropDatabase(url);
  await ensureDatabase(url);
  const pool = createPool(url, 1, 'cli-remove-test');
  const count = async () => Number((await pool.query('SELECT count(*) FROM records.properties')).rows[0].count);
  try {
    await migrateRecords(pool);
    const { mapping, file } = COUNTY_ROLLS.philadelphia![0]!;
    expect(ingest(url, 'import', '--mapping', mapping, '--file', file).status).toBe(0);
    expect(await count()).toBe(5_335);

    const typo = ingest(url, 'remove', '--source', 'import:philadelphia');
    expect(typo.status, typo.stderr).toBe(0);
    expect(typo.stdout).toContain('removed 0 records of import:philadelphia');
    expect(typo.stderr).toContain(
      'no record is of import:philadelphia. Sources imported into this store: import:philadelphia-opa',
    );
    expect(await count()).toBe(5_335);

    const done = ingest(url, 'remove', '--source', 'import:philadelphia-opa');
    expect(done.status, done.stderr).toBe(0);
    expect(done.stdout).toContain('removed 5,335 records of import:philadelphia-opa');
    expect(done.stderr).not.toContain('no record is of');
    expect(await count()).toBe(0);
    // Again: nothing left, and no source either.
    const again = ingest(url, 'remove', '--source', 'import:philadelphia-opa');
    expect(again.status, again.stderr).toBe(0);
    expect(again.stderr).toContain('Sources imported into this store: none');
  } finally {
    await pool.end();
  }
}, 180_000);
