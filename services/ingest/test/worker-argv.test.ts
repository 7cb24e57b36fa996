// An import worker's Node options: the process's own but for the TypeScript loader, which the worker's entry registers
// itself (inherited, it was registered twice, ~0.2 s of CPU a worker start).
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { refusedFlags, workerExecArgv } from '../src/importer/worker-argv.js';

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

it('removes exactly the loader flags and their values, whatever surrounds them', () => {
  const other = fc.constantFrom('--cpu-prof', '--enable-source-maps', '--max-old-space-size=512', '--trace-warnings');
  const loader = fc.constantFrom<string[]>(
    ['--import', 'tsx'],
    ['--import=tsx'],
    ['--require', '/x/node_modules/tsx/dist/preflight.cjs'],
    ['--import', 'file:///x/node_modules/tsx/dist/loader.mjs'],
  );
  fc.assert(
    fc.property(
      fc.array(
        fc.oneof(
          other.map((o) => [o]),
          loader,
        ),
        { maxLength: 8 },
      ),
      (parts) => {
        const argv = parts.flat();
        const expected = parts.filter((p) => p.length === 1 && !p[0]!.includes('tsx')).flat();
        expect(workerExecArgv(argv)).toEqual(expected);
      },
    ),
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

// The import CLI runs with a young generation of 64 MB a semi-space (package.json's `ingest`): a worker refuses that
// option given explicitly, yet must start without the loader inherited, and with the process's young generation.
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
it('starts workers without the loader in a process run with --min-semi-space-size=64, each with its young generation', () => {
  const out = execFileSync(
    process.execPath,
    ['--min-semi-space-size=64', '--enable-source-maps', '--import', 'tsx', '--input-type=module', '-e', startProbes],
    { encoding: 'utf8', cwd: fileURLToPath(new URL('..', import.meta.url)) },
  );
  const started = out
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { execArgv: string[]; newSpace: number });
  expect(started).toHaveLength(2);
  for (const w of started) {
    expect(w.execArgv).toContain('--enable-source-maps'); // what a worker takes is still given to it
    expect(w.execArgv.join(' ')).not.toMatch(/tsx|semi-space/);
    expect(w.newSpace).toBeGreaterThanOrEqual(64 * 1024 * 1024);
  }
}, 30_000);
