// `npm run ingest -- import` as a user runs it: package.json's `ingest` script (its Node options included) in a
// process of its own, into a database of its own. It loads a real roll, prints the import report and a summary
// with the import's time and rate, which bench:import reads (cli-run.ts).
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, inject, it } from 'vitest';
import { withDatabase } from '@pra/platform';
import { cliFirstLoad, ingestArgs } from './cli-run.js';
import { COUNTY_ROLLS } from '../src/importer/index.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));

it("package.json's ingest scripts (the root's and the package's) start node with --min-semi-space-size=64", () => {
  expect(ingestArgs(root)).toContain('--min-semi-space-size=64');
  expect(ingestArgs(join(root, 'services/ingest'))).toContain('--min-semi-space-size=64');
});

it("node's options can stand in for the ingest script's, its loader and script kept (bench:cli-options)", () => {
  const own = ingestArgs(root);
  const script = own.slice(own.indexOf('--import'));
  expect(ingestArgs(root, [])).toEqual(script);
  expect(ingestArgs(root, ['--max-semi-space-size=32', '--stack-size=2000'])).toEqual([
    '--max-semi-space-size=32',
    '--stack-size=2000',
    ...script,
  ]);
  expect(script.slice(0, 3)).toEqual(['--import', 'tsx', 'services/ingest/src/cli.ts']);
  expect(ingestArgs(join(root, 'services/ingest'), ['--expose-gc'])).toEqual([
    '--expose-gc',
    '--import',
    'tsx',
    'src/cli.ts',
  ]);
});

it('loads a real roll and prints how long the import took and its rate', async () => {
  const { mapping, file } = COUNTY_ROLLS.philadelphia![0]!;
  const url = withDatabase(inject('databaseUrl'), `${new URL(inject('databaseUrl')).pathname.slice(1)}_cli_import`);
  const load = await cliFirstLoad(root, url, mapping, file);
  expect(load.rows).toBe(5_336);
  expect(load.rowsPerSecond).toBeGreaterThan(0);
  expect(load.processSeconds).toBeGreaterThan(load.rows / load.rowsPerSecond);
}, 120_000);
