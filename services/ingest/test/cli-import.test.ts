// `npm run ingest -- import` as a user runs it: package.json's `ingest` script (its Node options included) in a
// process of its own, into a database of its own. It loads a real roll, prints the import report and a summary
// with the import's time and rate, which bench:import reads (cli-run.ts).
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, inject, it } from 'vitest';
import { withDatabase } from '@pra/platform';
import { cliFirstLoad, ingestArgs } from './cli-run.js';
import { COUNTY_ROLLS } from '../src/importer/index.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));

it("package.json's ingest scripts (the root's and the package's) start node with V8's heap sized for an import", () => {
  for (const dir of [root, join(root, 'services/ingest')]) {
    expect(ingestArgs(dir)).toContain('--min-semi-space-size=64');
    expect(ingestArgs(dir)).toContain('--initial-heap-size=256');
  }
});

it('the CLI loads what it runs: not the OpenTelemetry SDK, express, ioredis or BullMQ', () => {
  // The services' whole platform (@pra/platform's index) took the CLI 0.73 s to load, every command; the database's
  // and the migrations' modules alone take 0.26 s. The CommonJS modules loaded, listed as the process exits.
  const listLoaded =
    'data:text/javascript,import{createRequire}from"node:module";const r=createRequire("/");' +
    'process.on("exit",()=>process.stderr.write("LOADED "+JSON.stringify(Object.keys(r.cache))+"\\n"))';
  const mapping = join(root, 'services/ingest/mappings/philadelphia-opa.json');
  const run = spawnSync(process.execPath, ['--import', listLoaded, ...ingestArgs(root), 'validate-mapping', mapping], {
    cwd: root,
    encoding: 'utf8',
  });
  expect(run.status, run.stderr).toBe(0);
  const line = run.stderr.split('\n').find((l) => l.startsWith('LOADED '));
  const loaded = JSON.parse(line!.slice('LOADED '.length)) as string[];
  // pg is what it runs on: the list is the CLI's, not an empty one.
  expect(loaded.some((f) => f.includes('/node_modules/pg/'))).toBe(true);
  const heavy = /\/node_modules\/(@opentelemetry\/(sdk-|exporter-|auto-)|express\/|ioredis\/|bullmq\/|pino\/)/;
  expect(loaded.filter((f) => heavy.test(f))).toEqual([]);
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
