// An import that fails holds its source's lock until every batch write it started has committed or failed: a second
// import of the source, waiting on the lock, must not start while the first one's batch is still being written (it
// would read none of that batch's state, which a first load does not even look for, and fail on its rows). Found by
// an attacker's read: the import returned as soon as a batch's build failed, the write before it still open.
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { createPool, type Pool } from '@pra/platform';
import type {} from '@pra/platform/testing';
import { importCsv } from '../src/importer/import-csv.js';
import { ImportWork } from '../src/importer/import-work.js';
import { holdRecordCount, twelveParcelRoll } from './held-write-roll.js';
import { useTempFiles } from './temp-files.js';

let pool: Pool;
beforeAll(() => {
  pool = createPool(inject('databaseUrl'), 8);
});
afterAll(async () => {
  await pool.end();
});
const files = useTempFiles('pra-failure-lock');

describe('a failed import', () => {
  it('keeps its source locked until the batch it was writing has committed', async () => {
    const { file, mapping, source } = twelveParcelRoll(files, 'lock', 'A');
    // The record count's row held: batch 0's write waits at its last statement, its rows copied, uncommitted.
    const held = await holdRecordCount(pool);
    const build = ImportWork.prototype.build;
    let failedBuild = false;
    const spy = vi.spyOn(ImportWork.prototype, 'build').mockImplementation(function (this: ImportWork, req) {
      if (req.batch === 1) {
        failedBuild = true;
        throw new Error('the worker died building batch 1');
      }
      return build.call(this, req);
    });
    try {
      let firstSettled = false;
      const first = importCsv(pool, mapping, file, { workers: 0, batchSize: 4 }).finally(() => {
        firstSettled = true;
      });
      first.catch(() => {});
      await vi.waitFor(() => expect(failedBuild).toBe(true), { timeout: 10_000 });
      spy.mockRestore();
      // The second import finds the source locked (the first is still writing batch 0), and waits.
      let waited = false;
      const second = importCsv(pool, mapping, file, { workers: 0, batchSize: 4, onWait: () => (waited = true) });
      await vi.waitFor(() => expect(waited).toBe(true), { timeout: 10_000 });
      expect(firstSettled).toBe(false);
      await held.query('COMMIT');
      await expect(first).rejects.toThrow(/batch 1/);
      // Then in: batch 0's parcels are the first import's, the others its own.
      expect(await second).toMatchObject({ added: 8, unchanged: 4, updated: 0, skipped: 0 });
      const { rows } = await pool.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM records.properties WHERE source = $1',
        [source],
      );
      expect(rows[0]!.n).toBe(12);
    } finally {
      spy.mockRestore();
      await held.query('ROLLBACK').catch(() => {});
      held.release();
    }
  }, 60_000);
});
