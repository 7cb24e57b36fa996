// An import worker's Node options: the process's own but for the TypeScript loader, which the worker's entry registers
// itself (inherited, it was registered twice, ~0.2 s of CPU a worker start).
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { refusedFlags, splitNodeArgs, workerExecArgv } from '../src/importer/worker-argv.js';
import { ingestOptions } from './cli-run.js';

it('drops the tsx loader in each form node and the tsx CLI pass it', () => {
  expect(
    workerExecArgv([
      '--require',
      '/app/node_modules/tsx/dist/preflight.cjs',
      '--import',
      'file:///app/node_modules/tsx/dist/loader.mjs',
    ]),
  ).toEqual([]);
  expect(workerExecArgv(['--import', 'tsx', '--max-old-space-size=4096'])).toEqual(['--max-old-space-size=4096']);
  expect(workerExecArgv(['--import=tsx', '--enable-source-maps'])).toEqual(['--enable-source-maps']);
  expect(workerExecArgv(['--import', 'tsx/esm', '--loader=tsx'])).toEqual([]);
  expect(workerExecArgv(['-r', 'C:\\app\\node_modules\\tsx\\dist\\preflight.cjs'])).toEqual([]);
});

it("splits node's arguments into its options, in their order, and the script with its own arguments", () => {
  const split = (args: string[]) => {
    const { options, script } = splitNodeArgs(args);
    return { options: options.map((o) => `${o.loader ? 'L' : 'O'} ${o.args.join(' ')}`), script };
  };
  expect(split(['--a=1', '--import', 'tsx', 'cli.ts', 'import', '--file', 'x'])).toEqual({
    options: ['O --a=1', 'L --import tsx'],
    script: ['cli.ts', 'import', '--file', 'x'],
  });
  expect(split(['--import=tsx', '-r', './p.cjs', '--env-file', '.env', 'main.js'])).toEqual({
    options: ['L --import=tsx', 'L -r ./p.cjs', 'O --env-file .env'],
    script: ['main.js'],
  });
  expect(split(['--expose-gc', '--', '-not-an-option.js'])).toEqual({
    options: ['O --expose-gc'],
    script: ['-not-an-option.js'],
  });
  expect(split(['--expose-gc'])).toEqual({ options: ['O --expose-gc'], script: [] });
  // process.execArgv has no script: -e's code, or the value of an option not known to take one, stays an option.
  const execArgv = splitNodeArgs(['--unknown', 'v', '-e', 'code', '--import', 'tsx'], { execArgv: true });
  expect(execArgv.script).toEqual([]);
  expect(execArgv.options.map((o) => o.args.join(' '))).toEqual(['--unknown', 'v', '-e code', '--import tsx']);
});

it('keeps every other option, including other preloaded modules and paths that merely contain "tsx"', () => {
  const kept = [
    '--import',
    './otel.mjs',
    '--require',
    '/app/tsxutils/setup.cjs',
    '--cpu-prof',
    '--import=@opentelemetry/auto',
    '--max-semi-space-size=32',
  ];
  expect(workerExecArgv(kept)).toEqual(kept);
});

it('removes exactly the tsx loader, its value with it, whatever surrounds it', () => {
  const flag = fc.constantFrom('--cpu-prof', '--enable-source-maps', '--max-old-space-size=512', '--trace-warnings');
  // Options that take their value as the next argument, whatever it reads like: `tsx`, `--import`, a path.
  const value = fc.constantFrom('tsx', '--import', '-r', 'x', '/x/node_modules/tsx/dist/loader.mjs', '=tsx');
  const withValue = fc.tuple(fc.constantFrom('--title', '-e', '--conditions', '--env-file', '--input-type'), value);
  const tsx = fc.constantFrom<string[]>(
    ['--import', 'tsx'],
    ['--import=tsx'],
    ['--loader=tsx'],
    ['-r', '/x/node_modules/tsx/dist/preflight.cjs'],
    ['--require', '/x/node_modules/tsx/dist/preflight.cjs'],
    ['--import', 'file:///x/node_modules/tsx/dist/loader.mjs'],
  );
  const otherLoader = fc.constantFrom<string[]>(['--import', './otel.mjs'], ['--require=./p.cjs'], ['-r', 'tsxish']);
  type Part = { args: string[]; tsx: boolean };
  const part = fc.oneof(
    flag.map((f): Part => ({ args: [f], tsx: false })),
    withValue.map(([f, v]): Part => ({ args: [f, v], tsx: false })),
    otherLoader.map((args): Part => ({ args, tsx: false })),
    tsx.map((args): Part => ({ args, tsx: true })),
  );
  fc.assert(
    fc.property(fc.array(part, { maxLength: 8 }), (parts) => {
      const expected = parts.filter((p) => !p.tsx).flatMap((p) => p.args);
      expect(workerExecArgv(parts.flatMap((p) => p.args))).toEqual(expected);
    }),
  );
});

// A worker refuses some options given to it explicitly that it inherits without a word (V8's): an import of a large
// file in a process run with them must still start its workers (then with the process's own options, loader and all).
const importCsv = fileURLToPath(new URL('../src/importer/import-csv.ts', import.meta.url));
const startWorker = `
const { workerExecutor } = await import(${JSON.stringify(importCsv)});
const setup = { mapping: { name: 'x', kind: 'property', delimiter: ',', fields: {} }, header: [], source: 'import:x',
  now: new Date().toISOString(), mapped: [] };
try { const e = workerExecutor(setup); await e.close(); console.log('STARTED'); }
catch (err) { console.log('FAILED', err.code, err.message); }
`;
for (const flags of [[], ['--max-old-space-size=4096'], ['--stack-size=2000'], ['--expose-gc']]) {
  it(`starts an import worker in a process run with ${flags.join(' ') || 'the loader alone'}`, () => {
    const out = execFileSync(
      process.execPath,
      [...flags, '--import', 'tsx', '--input-type=module', '-e', startWorker],
      {
        encoding: 'utf8',
        cwd: fileURLToPath(new URL('..', import.meta.url)),
      },
    );
    expect(out.trim()).toBe('STARTED');
  }, 30_000);
}

it('reads the options a worker refused from its error, and nothing from a message of another form', () => {
  const given = ['--min-semi-space-size=64', '--enable-source-maps', '--stack-size=2000'];
  expect(
    refusedFlags('Initiated Worker with invalid execArgv flags: --min-semi-space-size=64, --stack-size=2000', given),
  ).toEqual(['--min-semi-space-size=64', '--stack-size=2000']);
  expect(refusedFlags('Initiated Worker with invalid execArgv flags: --expose-gc', given)).toBeNull();
  expect(refusedFlags('invalid execArgv', given)).toBeNull();
  expect(refusedFlags('Initiated Worker with invalid execArgv flags: ', given)).toBeNull();
});

// The import CLI runs with V8's heap options (package.json's `ingest`: a young generation of 64 MB a semi-space, an
// initial heap of 256 MB): a worker refuses them given explicitly, yet must start without the loader inherited, and
// with the process's young generation.
const workerArgv = fileURLToPath(new URL('../src/importer/worker-argv.ts', import.meta.url));
const probe = `
import { parentPort } from 'node:worker_threads';
import v8 from 'node:v8';
parentPort.postMessage({ execArgv: process.execArgv,
  newSpace: v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size });
`;
const startProbes = `
const { loaderWorker } = await import(${JSON.stringify(workerArgv)});
const url = new URL('data:text/javascript,' + encodeURIComponent(${JSON.stringify(probe)}));
for (let i = 0; i < 2; i++) {
  const w = loaderWorker(url);
  const m = await new Promise((resolve, reject) => { w.once('message', resolve); w.once('error', reject); });
  console.log(JSON.stringify(m));
  await w.terminate();
}
`;
const root = fileURLToPath(new URL('../../../', import.meta.url));
const scriptOptions = ingestOptions(root);
it(`starts workers without the loader in a process run with ${scriptOptions.join(' ')}, each with its young generation`, () => {
  expect(scriptOptions).toContain('--min-semi-space-size=64');
  const out = execFileSync(
    process.execPath,
    [...scriptOptions, '--enable-source-maps', '--import', 'tsx', '--input-type=module', '-e', startProbes],
    { encoding: 'utf8', cwd: fileURLToPath(new URL('..', import.meta.url)) },
  );
  const started = out
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { execArgv: string[]; newSpace: number });
  expect(started).toHaveLength(2);
  for (const w of started) {
    expect(w.execArgv).toContain('--enable-source-maps'); // what a worker takes is still given to it
    expect(w.execArgv.join(' ')).not.toMatch(/tsx|semi-space|heap-size/);
    expect(w.newSpace).toBeGreaterThanOrEqual(64 * 1024 * 1024);
  }
}, 30_000);

it.each([
  ['--title', 'pra-title-probe'],
  ['--report-dir', tmpdir()],
])(
  'leaves out an option a worker refuses with its value (%s x), not only its flag, and keeps the others',
  (flag, value) => {
    const out = execFileSync(
      process.execPath,
      [flag, value, '--enable-source-maps', '--import', 'tsx', '--input-type=module', '-e', startProbes],
      { encoding: 'utf8', cwd: fileURLToPath(new URL('..', import.meta.url)) },
    );
    for (const line of out.trim().split('\n')) {
      const { execArgv } = JSON.parse(line) as { execArgv: string[] };
      // Its value left alone would end the worker's options there: --enable-source-maps would be lost with it.
      expect(execArgv[0]).toBe('--enable-source-maps');
      expect(execArgv).not.toContain(flag);
      expect(execArgv).not.toContain(value);
      expect(execArgv.join(' ')).not.toMatch(/tsx/);
    }
  },
  30_000,
);
