// `npm run ingest -- import` as a user runs it: package.json's `ingest` script (its Node options included) in a
// process of its own, into a database of its own. It loads a real roll, prints the import report and a summary
// with the import's time and rate, which bench:import reads (cli-run.ts).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, inject, it } from 'vitest';
import { withDatabase } from '@pra/platform';
import { cliFirstLoad, ingestArgs, ingestOptions, runIngest } from './cli-run.js';
import { COUNTY_ROLLS } from '../src/importer/index.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));

it("package.json's ingest scripts (the root's and the package's) start node with V8's heap sized for an import", () => {
  for (const dir of [root, join(root, 'services/ingest')])
    expect(ingestOptions(dir)).toEqual(['--min-semi-space-size=64', '--initial-heap-size=256']);
});

/**
 * The packages of the CommonJS modules a CLI command loaded, listed as its process exits (`preload`: a module to
 * import first). Node's module cache holds the CommonJS modules, whoever imported them; not the ES modules (our own
 * .ts among them), which is why the control run below must see the heavy packages too: were one of them to ship as
 * ES modules only, this list would miss it, and the control would say so.
 */
function packagesLoaded(preload: string[] = []): Set<string> {
  const list = join(mkdtempSync(join(tmpdir(), 'pra-loaded-')), 'loaded.json');
  // Written as the process exits, synchronously (a write to a pipe then may be cut short). The module cache is one for
  // the process: createRequire's base path does not matter.
  const listLoaded = `data:text/javascript,${encodeURIComponent(
    'import { createRequire } from "node:module"; import { writeFileSync } from "node:fs";' +
      'const cache = createRequire("/").cache;' +
      `process.on("exit", () => writeFileSync(${JSON.stringify(list)}, JSON.stringify(Object.keys(cache))));`,
  )}`;
  const mapping = join(root, 'services/ingest/mappings/philadelphia-opa.json');
  const [node, ...rest] = [process.execPath, ...ingestArgs(root)];
  // validate-mapping: a command that needs no database. The CLI's static imports are the same for every command.
  const args = ['--import', listLoaded, ...preload, ...rest, 'validate-mapping', mapping];
  try {
    const run = spawnSync(node!, args, { cwd: root, encoding: 'utf8', timeout: 60_000 });
    expect(run.status, run.stderr).toBe(0);
    const packages = (JSON.parse(readFileSync(list, 'utf8')) as string[]).map(
      (f) => /\/node_modules\/((@[^/]+\/)?[^/]+)\//.exec(f)?.[1] ?? '(own)',
    );
    return new Set(packages);
  } finally {
    rmSync(dirname(list), { recursive: true, force: true });
  }
}

/** What the services' platform loads and the CLI does not need: OpenTelemetry's SDK and exporters, express, ioredis. */
const HEAVY = /^(@opentelemetry\/(sdk-|exporter-)|express$|ioredis$|bullmq|pino$)/;

it("the CLI loads what it runs: pg, not the services' platform (OpenTelemetry's SDK, express, ioredis)", () => {
  // @pra/platform's index took the CLI 0.73 s to load, every command; its database and migrations alone, 0.26 s.
  const loaded = packagesLoaded();
  expect(loaded.has('pg')).toBe(true);
  expect([...loaded].filter((p) => HEAVY.test(p))).toEqual([]);
  // The control: with the platform's index loaded first, the list shows what the CLI no longer loads.
  const index = join(root, 'shared/platform/src/index.ts');
  const withIndex = [...packagesLoaded(['--import', 'tsx', '--import', index])].filter((p) => HEAVY.test(p));
  expect(withIndex).toEqual(expect.arrayContaining(['@opentelemetry/sdk-node', 'express', 'ioredis']));
}, 120_000);

it("node's options can stand in for the ingest script's, its loader and script kept (bench:cli-options)", () => {
  const own = ingestArgs(root);
  expect(own).toEqual([...ingestOptions(root), '--import', 'tsx', 'services/ingest/src/cli.ts']);
  const script = own.slice(ingestOptions(root).length);
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

it('refuses a --workers that is not a whole number from 0 to 16, naming it, before reaching the database', () => {
  const { mapping, file } = COUNTY_ROLLS.philadelphia![0]!;
  // A database no one listens for: the refusal must come first.
  const nowhere = 'postgres://postgres@127.0.0.1:1/none';
  for (const workers of ['-1', 'two', '1.5', '17', '']) {
    const run = runIngest(nowhere, 'import', '--mapping', mapping, '--file', file, `--workers=${workers}`);
    expect(run.status, run.stderr).toBe(1);
    expect(run.stderr).toContain(
      `--workers must be a whole number from 0 (none: all in this thread) to 16, not '${workers}'`,
    );
    expect(run.stdout).not.toMatch(/rows read/);
  }
  // An option of import only: another command refuses it rather than ignore it.
  const generate = runIngest(nowhere, 'generate', '--count', '5', '--workers', '2');
  expect(generate.status, generate.stderr).toBe(1);
  expect(generate.stderr).toContain('--workers is an option of import, not of generate');
}, 120_000);

it('drops no database but one made for it', async () => {
  const { mapping, file } = COUNTY_ROLLS.philadelphia![0]!;
  for (const name of ['records_cli_prod', 'property_records', 'bench_1_cli'])
    await expect(cliFirstLoad(root, withDatabase(inject('databaseUrl'), name), mapping, file)).rejects.toThrow(
      /a database of its own/,
    );
});

it('loads a real roll and prints how long the import took and its rate', async () => {
  const { mapping, file } = COUNTY_ROLLS.philadelphia![0]!;
  const url = withDatabase(inject('databaseUrl'), `${new URL(inject('databaseUrl')).pathname.slice(1)}_cli_import`);
  const load = await cliFirstLoad(root, url, mapping, file);
  expect(load.rows).toBe(5_336);
  expect(load.rowsPerSecond).toBeGreaterThan(0);
  expect(load.processSeconds).toBeGreaterThan(load.rows / load.rowsPerSecond);
}, 120_000);
