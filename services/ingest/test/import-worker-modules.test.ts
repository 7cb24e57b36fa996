// An import's worker thread loads only what it runs: each large import starts two, and the API contracts, zod and the
// YAML parser cost ~0.3 s of CPU a thread to load (a tenth of a second's work of a 100,000-row roll), for nothing.
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';

describe('an import worker thread', () => {
  it('loads its modules without zod, the YAML parser or the API contracts', async () => {
    const work = new URL('../src/importer/import-work.ts', import.meta.url).href;
    // As import-worker.mjs starts one: tsx registered in the thread, then the worker's module.
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
