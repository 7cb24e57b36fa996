// `npm run ingest -- remove --source` as a user runs it: a source not written as one (`philadelphia-opa` for
// `import:philadelphia-opa`) is refused before the database, and a removal that finds nothing says which sources the
// store has, so a misnamed source does not pass for a done removal. And the CLI's hint to check the server comes
// with a failure to reach it, and only then.
import { afterAll, expect, inject, it } from 'vitest';
import { createPool, dropDatabase, withDatabase } from '@pra/platform';
import { COUNTY_ROLLS } from '../src/importer/index.js';
import { freshStore, runIngest } from './cli-run.js';

const url = withDatabase(inject('databaseUrl'), `${new URL(inject('databaseUrl')).pathname.slice(1)}_cli_remove`);
afterAll(() => dropDatabase(url));
const HINT = 'Check that the PostgreSQL named above is reachable';

it('refuses a source not written as import:<mapping> or synthetic:<seed>, and names the one meant', () => {
  const nowhere = 'postgres://postgres@127.0.0.1:1/none';
  const run = runIngest(nowhere, 'remove', '--source', 'philadelphia-opa');
  expect(run.status, run.stderr).toBe(1);
  expect(run.stderr).toContain(
    "--source is import:<mapping name> or synthetic:<seed>, not 'philadelphia-opa' (for the records a mapping named " +
      'philadelphia-opa imported: --source import:philadelphia-opa)',
  );
  expect(run.stderr).not.toContain(HINT);
  const spaced = runIngest(nowhere, 'remove', '--source', 'import: philadelphia-opa');
  expect(spaced.status, spaced.stderr).toBe(1);
  expect(spaced.stderr).toContain("not 'import: philadelphia-opa'");
  // No source at all, and a command that is not one: refused before the database as well.
  expect(runIngest(nowhere, 'remove').stderr).toContain('remove needs --source SOURCE');
  const typo = runIngest(nowhere, 'improt');
  expect(typo.status).toBe(2);
  expect(typo.stderr).toMatch(/^usage: npm run ingest -- </);
}, 120_000);

it('says to check the server when it cannot reach it or log in, by address, host name or login', () => {
  for (const unreachable of [
    'postgres://postgres@127.0.0.1:1/none',
    'postgres://postgres@no-such-host.invalid:5432/none',
    // A role the server does not have (trust auth lets any role in that it has).
    'postgres://pra_no_such_role_cli@127.0.0.1:5432/postgres',
    // Not a URL at all: the driver's words for it name no connection, but the store was never reached.
    'postgres://postgres@127.0.0.1:notaport/x',
  ]) {
    const run = runIngest(unreachable, 'remove', '--source', 'import:x');
    expect(run.status, run.stderr).toBe(1);
    expect(run.stderr, unreachable).toContain(HINT);
  }
}, 120_000);

it('removes what a source wrote; a source with nothing says so and lists the sources the store has', async () => {
  await freshStore(url);
  const pool = createPool(url, 1, 'cli-remove-test');
  const count = async () => Number((await pool.query('SELECT count(*) FROM records.properties')).rows[0].count);
  try {
    const { mapping, file } = COUNTY_ROLLS.philadelphia![0]!;
    expect(runIngest(url, 'import', '--mapping', mapping, '--file', file).status).toBe(0);
    expect(await count()).toBe(5_335);

    const typo = runIngest(url, 'remove', '--source', 'import:philadelphia');
    expect(typo.status, typo.stderr).toBe(0);
    expect(typo.stdout).toContain('removed 0 records of import:philadelphia');
    expect(typo.stderr).toContain(
      'no record is of import:philadelphia. Sources imported into this store: import:philadelphia-opa',
    );
    expect(await count()).toBe(5_335);

    const done = runIngest(url, 'remove', '--source', 'import:philadelphia-opa');
    expect(done.status, done.stderr).toBe(0);
    expect(done.stdout).toContain('removed 5,335 records of import:philadelphia-opa');
    expect(done.stderr).not.toContain('no record is of');
    expect(await count()).toBe(0);
    // Again: nothing left, and no source either.
    const again = runIngest(url, 'remove', '--source', 'import:philadelphia-opa');
    expect(again.status, again.stderr).toBe(0);
    expect(again.stderr).toContain('Sources imported into this store: none');
  } finally {
    await pool.end();
  }
}, 180_000);
