// A source's lock is a session lock on a connection of its own. When that connection is lost (the backend terminated,
// the server restarted), the server lets the lock go: found by a review, the lost connection's error event, with no
// listener, ended the whole process; and a second review found a write begun on another connection before the loss
// committing after another writer had taken the lock. The writes now go on the lock's connection: the one in flight
// dies with it, none follows, the import says what happened, the process lives on, and the same import run again
// finishes the job.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createPool, type Pool } from '@pra/platform';
import type {} from '@pra/platform/testing';
import { importCsv } from '../src/importer/import-csv.js';
import { removeSource } from '../src/data/remove-source.js';
import { withSourceLock } from '../src/data/source-lock.js';
import { advisoryLockHolder } from './advisory-lock-holder.js';
import { holdRecordCount, twelveParcelRoll } from './held-write-roll.js';
import { useTempFiles } from './temp-files.js';

let pool: Pool;
beforeAll(() => {
  pool = createPool(inject('databaseUrl'), 8);
});
afterAll(async () => {
  await pool.end();
});
const files = useTempFiles('pra-lock-lost');

describe('a source lock whose connection is lost', () => {
  it('stops the import before its next write, the process alive, and the import run again finishes', async () => {
    const { file, mapping, source } = twelveParcelRoll(files, 'lost', 'L');
    // The record count's row held: no batch's write commits before the lock's connection is cut (batch 0's, if begun,
    // waits at its last statement, on that connection).
    const held = await holdRecordCount(pool);
    try {
      const first = importCsv(pool, mapping, file, { workers: 0, batchSize: 4 });
      first.catch(() => {});
      let holder: number | null = null;
      const deadline = Date.now() + 10_000;
      while (holder === null && Date.now() < deadline) {
        holder = await advisoryLockHolder(pool, source);
        if (holder === null) await new Promise((r) => setTimeout(r, 20));
      }
      expect(holder).not.toBeNull();
      await pool.query('SELECT pg_terminate_backend($1)', [holder]);
      // The lock is the server's to give again at once; the client hears of its connection's end within moments.
      for (let i = 0; i < 100 && (await advisoryLockHolder(pool, source)) !== null; i++)
        await new Promise((r) => setTimeout(r, 20));
      expect(await advisoryLockHolder(pool, source)).toBeNull();
      await new Promise((r) => setTimeout(r, 200));
      await held.query('COMMIT');
      await expect(first).rejects.toThrow(/the connection holding the lock of import:lost.* was lost/);
      // Nothing: batch 0's write, if it had begun, was on the lost connection and rolled back with it; none followed.
      const count = async () =>
        (
          await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM records.properties WHERE source = $1', [
            source,
          ])
        ).rows[0]!.n;
      expect(await count()).toBe(0);
      // The same import again: all of it added.
      expect(await importCsv(pool, mapping, file, { workers: 0, batchSize: 4 })).toMatchObject({
        added: 12,
        unchanged: 0,
        updated: 0,
        skipped: 0,
      });
      expect(await count()).toBe(12);
      // A remove takes a lock of its own, and works as before.
      expect(await removeSource(pool, source)).toBe(12);
    } finally {
      await held.query('ROLLBACK').catch(() => {});
      held.release();
    }
  }, 60_000);

  it('cut during a statement on it: the work is told its lock was lost, not the raw error of that statement', async () => {
    // The server fails the statement in flight before the client hears the connection close: the loss is told by
    // the error (FATAL), not by which came first (found by review).
    const work = withSourceLock(pool, `import:lost-mid-statement-${Date.now()}`, async (lock) => {
      await lock.client.query('SELECT pg_sleep(30)');
    });
    work.catch(() => {});
    let holder: number | null = null;
    for (let i = 0; i < 200 && holder === null; i++) {
      const { rows } = await pool.query<{ pid: number }>(
        "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND query = 'SELECT pg_sleep(30)' AND state = 'active'",
      );
      holder = rows[0]?.pid ?? null;
      if (holder === null) await new Promise((r) => setTimeout(r, 10));
    }
    expect(holder).not.toBeNull();
    await pool.query('SELECT pg_terminate_backend($1)', [holder]);
    await expect(work).rejects.toThrow(/the connection holding the lock of import:lost-mid-statement-\d+ was lost/);
  }, 30_000);
});
