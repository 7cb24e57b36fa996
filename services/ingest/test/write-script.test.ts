// A first load's batch is written as one script (write-script.ts): BEGIN, its statements and COPYs (binary and text,
// their data sent right behind the Query), COMMIT, in one round trip. For generated scripts, some with a step that
// fails (a key given twice, in a COPY of either format or an INSERT; a statement the server cannot run), the table
// holds every row of a script that succeeded and none of one that failed, the error is the server's, and the same
// connection runs the next script (no transaction left open or failed, no COPY data of the failed script read as
// anything). And a connection cut while a script waits on the server rejects it at once, without a hang: the script
// is then committed whole or not at all.
import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createPool, type Pool, type PoolClient } from '@pra/platform';
import { proxyUrl } from '@pra/platform/testing';
import { BinaryCopyWriter } from '../src/data/copy-binary.js';
import { runScript, type ScriptStep } from '../src/data/write-script.js';
import { buildCopyChunks } from '../src/data/copy-rows.js';
import { reserveIds, writeBatch } from '../src/data/loader.js';
import { resolveRecordOwners } from '../src/data/owner-registry.js';
import { parcelRefOf, registerParcels } from '../src/data/parcels.js';
import { makeProperty } from './make-property.js';

let pool: Pool;
const table = `write_script_${randomBytes(4).toString('hex')}`;
beforeAll(async () => {
  pool = createPool(inject('databaseUrl'), 3);
  await pool.query(`CREATE TABLE ${table} (k bigint PRIMARY KEY, v text NOT NULL)`);
});
afterAll(async () => {
  await pool.query(`DROP TABLE IF EXISTS ${table}`);
  await pool.end();
});

type Row = [number, string];
type Step =
  | { kind: 'insert'; row: Row }
  | { kind: 'text' | 'binary'; rows: Row[] }
  | { kind: 'empty-copy' }
  | { kind: 'bad-statement' };

const copyText = (rows: Row[]) => rows.map(([k, v]) => `${k}\t${v}\n`).join('');
function copyBinary(rows: Row[]): Uint8Array {
  const w = new BinaryCopyWriter();
  for (const [k, v] of rows) {
    w.row(2);
    w.int8(k);
    w.text(v);
  }
  return w.finish();
}

function toScriptStep(s: Step): ScriptStep {
  if (s.kind === 'insert') return `INSERT INTO ${table} VALUES (${s.row[0]}, '${s.row[1]}')`;
  if (s.kind === 'text') return { copy: `COPY ${table} (k, v) FROM STDIN`, data: copyText(s.rows) };
  if (s.kind === 'binary') return { copy: `COPY ${table} (k, v) FROM STDIN (FORMAT binary)`, data: copyBinary(s.rows) };
  if (s.kind === 'empty-copy') return { copy: `COPY ${table} (k, v) FROM STDIN`, data: '' };
  return 'SELECT * FROM a_table_that_is_not_there';
}
const toScript = (steps: Step[]) => steps.map(toScriptStep);

/** The rows a script adds, or null when a step of it fails (a key the table or the script already has). */
function expectedRows(before: ReadonlyMap<number, string>, steps: Step[]): Map<number, string> | null {
  const rows = new Map(before);
  for (const s of steps) {
    if (s.kind === 'bad-statement') return null;
    const adds = s.kind === 'insert' ? [s.row] : s.kind === 'empty-copy' ? [] : s.rows;
    for (const [k, v] of adds) {
      if (rows.has(k)) return null;
      rows.set(k, v);
    }
  }
  return rows;
}

const tableRows = async () =>
  new Map(
    (await pool.query<{ k: number; v: string }>(`SELECT k, v FROM ${table} ORDER BY k`)).rows.map((r) => [r.k, r.v]),
  );

const row = fc.tuple(fc.integer({ min: 0, max: 60 }), fc.stringMatching(/^[a-z ]{0,12}$/)) as fc.Arbitrary<Row>;
const step: fc.Arbitrary<Step> = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant('insert' as const), row }), weight: 3 },
  { arbitrary: fc.record({ kind: fc.constant('text' as const), rows: fc.array(row, { maxLength: 6 }) }), weight: 3 },
  { arbitrary: fc.record({ kind: fc.constant('binary' as const), rows: fc.array(row, { maxLength: 6 }) }), weight: 3 },
  { arbitrary: fc.constant({ kind: 'empty-copy' as const }), weight: 1 },
  { arbitrary: fc.constant({ kind: 'bad-statement' as const }), weight: 1 },
);

describe('a write as one script', () => {
  it('commits every step of a script that succeeds and none of one that fails; the connection goes on', async () => {
    const client: PoolClient = await pool.connect();
    let failed = 0;
    let committed = 0;
    try {
      await fc.assert(
        fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 8 }), async (steps) => {
          await pool.query(`TRUNCATE ${table}`);
          // Some rows before the script, whose keys a step may give again.
          await pool.query(`INSERT INTO ${table} VALUES (1000, 'before'), (5, 'before')`);
          const before = await tableRows();
          const want = expectedRows(before, steps);
          const run = runScript(client, toScript(steps));
          if (want === null) {
            await expect(run).rejects.toMatchObject({ code: expect.stringMatching(/^(23505|42P01)$/) });
            failed++;
          } else {
            await run;
            committed++;
          }
          expect(await tableRows()).toEqual(want ?? before);
          // The same connection: out of any transaction (a row it adds is seen by another at once), and its next
          // script is read from its own Query, not from a failed one's COPY data.
          await runScript(client, [`INSERT INTO ${table} VALUES (2000, 'after')`]);
          expect((await pool.query(`SELECT v FROM ${table} WHERE k = 2000`)).rows).toEqual([{ v: 'after' }]);
        }),
        { numRuns: 60 },
      );
    } finally {
      client.release();
    }
    // Both ways were tried.
    expect(failed).toBeGreaterThan(5);
    expect(committed).toBeGreaterThan(5);
  });

  it('rejects at once when its connection is cut while it waits on the server; the script is then all or nothing', async () => {
    await pool.query(`TRUNCATE ${table}`);
    await pool.query(`INSERT INTO ${table} VALUES (1, 'held')`);
    const { proxy, url } = await proxyUrl(inject('databaseUrl'));
    const name = `write-script-cut-${randomBytes(3).toString('hex')}`;
    const cutClient = new pg.Client({ connectionString: url, application_name: name });
    cutClient.on('error', () => {});
    await cutClient.connect();
    // Another transaction holds row 1: the script's UPDATE of it waits, after its COPY has been read.
    const holder = await pool.connect();
    try {
      await holder.query('BEGIN');
      await holder.query(`UPDATE ${table} SET v = 'holder' WHERE k = 1`);
      const script = runScript(cutClient as unknown as PoolClient, [
        {
          copy: `COPY ${table} (k, v) FROM STDIN`,
          data: copyText([
            [2, 'script'],
            [3, 'script'],
          ]),
        },
        `UPDATE ${table} SET v = 'script' WHERE k = 1`,
      ]);
      script.catch(() => {});
      // Wait until the server is at the UPDATE (waiting for the lock), then cut.
      for (let i = 0; i < 200; i++) {
        const { rows } = await pool.query<{ waiting: boolean }>(
          "SELECT wait_event_type = 'Lock' AS waiting FROM pg_stat_activity WHERE application_name = $1",
          [name],
        );
        if (rows[0]?.waiting) break;
        await new Promise((r) => setTimeout(r, 10));
      }
      proxy.cut();
      const outcome = await Promise.race([
        script.then(
          () => 'resolved',
          () => 'rejected',
        ),
        new Promise((r) => setTimeout(() => r('hung'), 5_000)),
      ]);
      expect(outcome).toBe('rejected');
    } finally {
      await holder.query('COMMIT');
      holder.release();
      await cutClient.end().catch(() => {});
      await proxy.close();
    }
    // The server had the whole script: once the lock is let go it may commit it, or have given it up with the
    // connection. Either way, all of it or none of it.
    for (let i = 0; i < 500; i++) {
      const { rows } = await pool.query('SELECT 1 FROM pg_stat_activity WHERE application_name = $1', [name]);
      if (rows.length === 0) break;
      await new Promise((r) => setTimeout(r, 10));
    }
    const rows = await tableRows();
    expect([
      new Map([[1, 'holder']]),
      new Map([
        [1, 'script'],
        [2, 'script'],
        [3, 'script'],
      ]),
    ]).toContainEqual(rows);
  });

  it('writes a batch of added records in one round trip on its connection, one with change events in a few', async () => {
    // Each client.query call is one round trip (a simple Query, or a statement's parse, bind and execute).
    const client: PoolClient = await pool.connect();
    const calls: string[] = [];
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
      calls.push(typeof args[0] === 'string' ? args[0].split('\n')[0]! : 'script');
      return query(...args);
    };
    try {
      const source = `write-script-${randomBytes(3).toString('hex')}`;
      const items = [makeProperty({ line1: '1 ROUND TRIP WAY' }), makeProperty({ line1: '2 ROUND TRIP WAY' })];
      const first = await reserveIds(pool, items.length);
      const parcelIds = await registerParcels(pool, items.map(parcelRefOf));
      const ownerIds = await resolveRecordOwners(pool, first, items);
      const chunks = buildCopyChunks(first, items, parcelIds, source, ownerIds);
      await writeBatch(client, chunks, items.length, { ownerIds: ownerIds.flat() });
      expect(calls).toEqual(['script']);
      const stored = await pool.query('SELECT count(*)::int AS n FROM records.properties WHERE id = ANY($1)', [
        [first, first + 1],
      ]);
      expect(stored.rows[0].n).toBe(2);
    } finally {
      client.release();
    }
  });
});
