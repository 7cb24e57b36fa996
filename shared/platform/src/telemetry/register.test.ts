// The `--import` entry that starts OpenTelemetry: in the process's main thread, not in its worker threads, which
// inherit the process's `--import`s (the ingest CLI's import and generate workers, under the image's entry point).
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const register = fileURLToPath(new URL('./register.ts', import.meta.url));
// What @opentelemetry/api holds globally once an SDK registered its providers (its global's key, version 1).
const registered = `Object.keys(globalThis[Symbol.for('opentelemetry.js.api.1')] ?? {}).filter((k) => k !== 'version')`;
const probe = `
import { Worker } from 'node:worker_threads';
// The worker's code is an ES module too (it inherits --input-type=module, as it does the --import).
const worker = new Worker(${JSON.stringify(`import { parentPort } from 'node:worker_threads'; parentPort.postMessage(${registered});`)}, { eval: true });
const inWorker = await new Promise((resolve, reject) => { worker.once('message', resolve); worker.once('error', reject); });
console.log(JSON.stringify({ main: ${registered}, worker: inWorker }));
process.exit(0);
`;

it('starts the SDK in the main thread and not in a worker thread that inherits the --import', () => {
  const out = execFileSync(
    process.execPath,
    ['--import', 'tsx', '--import', register, '--input-type=module', '-e', probe],
    { encoding: 'utf8', env: { ...process.env, OTEL_TRACES_EXPORTER: 'none', OTEL_METRICS_EXPORTER: 'none' } },
  );
  const { main, worker } = JSON.parse(out.trim().split('\n').pop()!) as { main: string[]; worker: string[] };
  expect(main).toContain('metrics');
  expect(worker).toEqual([]);
}, 60_000);
