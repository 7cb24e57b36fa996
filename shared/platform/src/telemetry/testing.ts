// For tests that read the spans a run made, or what of OpenTelemetry a process's threads loaded.
export { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';

/**
 * A script for `node --import <telemetry register> --input-type=module -e <script>` that starts a worker thread (which
 * inherits the --import) and prints, as the last line of its output, what each thread has of OpenTelemetry:
 * `{ main: ThreadTelemetry, worker: ThreadTelemetry }`.
 */
export function telemetryThreadsProbe(): string {
  // What a thread has: the providers an SDK registered with @opentelemetry/api (its global's key, version 1), and how
  // many of OpenTelemetry's CommonJS modules it loaded (a thread's own module cache; not its ES modules, nor code
  // bundled into the entry: test/build.test.ts reads a bundle's static imports for those).
  const inThread = `({
    registered: Object.keys(globalThis[Symbol.for('opentelemetry.js.api.1')] ?? {}).filter((k) => k !== 'version'),
    modules: Object.keys(createRequire(process.cwd() + '/').cache).filter((k) => k.includes('@opentelemetry')).length,
  })`;
  const worker = `import { createRequire } from 'node:module'; import { parentPort } from 'node:worker_threads';
    parentPort.postMessage(${inThread});`;
  return `import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
// The worker's code is an ES module too (it inherits --input-type=module, as it does the --import).
const worker = new Worker(${JSON.stringify(worker)}, { eval: true });
const inWorker = await new Promise((resolve, reject) => { worker.once('message', resolve); worker.once('error', reject); });
console.log(JSON.stringify({ main: ${inThread}, worker: inWorker }));
process.exit(0);
`;
}

/** What a thread has of OpenTelemetry (telemetryThreadsProbe). */
export interface ThreadTelemetry {
  registered: string[];
  modules: number;
}
