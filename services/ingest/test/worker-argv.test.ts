// An import worker's Node options: the process's own but for the TypeScript loader, which the worker's entry registers
// itself (inherited, it was registered twice, ~0.2 s of CPU a worker start).
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
