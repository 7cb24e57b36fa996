// An import's worker thread loads only what it runs. A large import starts two, and each loaded 224 modules (the API
// contracts, zod, the YAML parser) in ~0.38 s of CPU before its first row; without them, 36 modules in ~0.09 s
// (issue 36's sixth pass, docs/benchmarks.md). Philadelphia x20's first load spent ~5 us a row on them.
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';

describe('an import worker thread', () => {
  it('loads its modules without zod, the YAML parser or the API contracts', async () => {
    const work = new URL('../src/importer/import-work.ts', import.meta.url).href;
    // As import-worker.mjs starts one (tsx registered in the thread), then the module the worker runs
    // (import-worker.ts itself needs the thread's workerData, which this thread has not).
    const worker = new Worker(
      `const { parentPort } = require('node:worker_threads');
       import('tsx/esm/api').then(async ({ register }) => {
         const loaded = [];
         register({ onImport: (url) => loaded.push(url) });
         await import(${JSON.stringify(work)});
         parentPort.postMessage(loaded);
       });`,
      { eval: true },
    );
    try {
      const loaded = await new Promise<string[]>((resolve, reject) => {
        worker.once('message', resolve);
        worker.once('error', reject);
      });
      expect(loaded.some((u) => u.endsWith('/importer/import-work.ts'))).toBe(true);
      expect(
        loaded.filter((u) => /\/node_modules\/(zod|yaml|@asteasolutions)\/|\/contracts\/index\.ts$/.test(u)),
      ).toEqual([]);
    } finally {
      await worker.terminate();
    }
  });
});
