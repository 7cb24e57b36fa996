// An import worker's Node options: the process's own but for the TypeScript loader, which the worker's entry registers
// itself (inherited, it was registered twice, ~0.2 s of CPU a worker start).
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { workerExecArgv } from '../src/importer/worker-argv.js';

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
