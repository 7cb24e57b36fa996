// `npm run ingest -- import --dry-run` as a user runs it, in a process of its own: it reads and checks a file and
// writes nothing, so it makes no database, applies no migration (docs/data.md: a newer importer's migration may lock
// a large store's tables for a while), and leaves a store at this schema as it found it. And --dry-run given to
// another command is refused, not ignored (`remove --dry-run` would remove).
import { afterAll, expect, inject, it } from 'vitest';
import { createPool, databaseExists, dropDatabase, ensureDatabase, migrate, withDatabase } from '@pra/platform';
import { readMigrations } from '@pra/platform/migrations';
import { RECORDS_MIGRATIONS_DIR } from '../src/data/migrate.js';
import { COUNTY_ROLLS } from '../src/importer/index.js';
import { freshStore, runIngest } from './cli-run.js';

const base = new URL(inject('databaseUrl')).pathname.slice(1);
const urls: string[] = [];
const dbUrl = (what: string) => {
  const url = withDatabase(inject('databaseUrl'), `${base}_dry_${what}`);
  urls.push(url);
  return url;
};
afterAll(async () => {
  for (const url of urls) await dropDatabase(url);
});

const { mapping, file } = COUNTY_ROLLS.philadelphia![0]!;
const dryRun = (url: string) => runIngest(url, 'import', '--dry-run', '--mapping', mapping, '--file', file);

/** Every table of the store with its rows, and the migrations applied: what a dry run must leave as it was. */
async function snapshot(url: string): Promise<Record<string, unknown>> {
  const pool = createPool(url, 1, 'dry-run-test');
  try {
    const tables = await pool.query<{ t: string }>(
      `SELECT format('%I.%I', schemaname, relname) AS t FROM pg_stat_user_tables ORDER BY 1`,
    );
    const out: Record<string, unknown> = {};
    for (const { t } of tables.rows) out[t] = (await pool.query(`SELECT * FROM ${t} ORDER BY 1`)).rows;
    return out;
  } finally {
    await pool.end();
  }
}

it('makes no database: it says so and what to run first', async () => {
  const url = dbUrl('none');
  await dropDatabase(url);
  const run = dryRun(url);
  expect(run.status, run.stderr).toBe(1);
  expect(run.stderr).toContain('does not exist; a dry run writes nothing, so it does not make one');
  expect(run.stderr).toContain('npm run ingest -- migrate');
  // The server was reached: no hint to check it.
  expect(run.stderr).not.toContain('Check that the PostgreSQL');
  expect(await databaseExists(url)).toBe(false);
}, 120_000);

it("applies no migration to a store at an older schema: it names what is missing, and the store's schema stays", async () => {
  const url = dbUrl('old');
  await ensureDatabase(url);
  const pool = createPool(url, 1, 'dry-run-test');
  try {
    // The store as the importer before the last two migrations left it.
    const all = readMigrations(RECORDS_MIGRATIONS_DIR);
    const missing = all.slice(-2);
    await migrate(pool, 'records', all.slice(0, -2));
    const before = await snapshot(url);
    const run = dryRun(url);
    expect(run.status, run.stderr).toBe(1);
    expect(run.stderr).toContain("the store's records schema lacks 2 migrations of this code");
    expect(run.stderr).toContain(missing.map((m) => `${String(m.version).padStart(4, '0')}_${m.name}`).join(', '));
    expect(run.stderr).toContain('a dry run writes nothing, so it does not migrate: run `npm run ingest -- migrate`');
    expect(run.stdout).not.toMatch(/rows read/);
    expect(await snapshot(url)).toEqual(before);
    const applied = await pool.query('SELECT max(version) AS v FROM public.schema_migrations WHERE stream = $1', [
      'records',
    ]);
    expect(applied.rows[0].v).toBe(missing[0]!.version - 1);
  } finally {
    await pool.end();
  }
}, 120_000);

it('reads and reports a real roll against a loaded store at this schema, and leaves every table as it was', async () => {
  const url = dbUrl('current');
  await freshStore(url);
  expect(runIngest(url, 'import', '--mapping', mapping, '--file', file).status).toBe(0);
  const before = await snapshot(url);
  const run = dryRun(url);
  expect(run.status, run.stderr).toBe(0);
  expect(run.stdout).toContain('import report of philadelphia-opa');
  // What an import would do: the store's state was read.
  expect(run.stdout).toMatch(
    /DRY RUN, nothing written: philadelphia-opa: 5,336 rows read .*0 new, 0 updated, 5,335 unchanged/,
  );
  expect(await snapshot(url)).toEqual(before);

  // Another command given --dry-run refuses before it does anything: `remove` would have removed the 5,335.
  const remove = runIngest(url, 'remove', '--source', 'import:philadelphia-opa', '--dry-run');
  expect(remove.status, remove.stderr).toBe(1);
  expect(remove.stderr).toContain('--dry-run is an option of import, not of remove: nothing was done');
  expect(await snapshot(url)).toEqual(before);
}, 180_000);
