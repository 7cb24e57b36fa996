// The address-key rekey after a normaliser change runs online and resumes: the real CLI (`ingest rekey`), killed
// with SIGKILL halfway, started again, goes on from its checkpoint (not from id 0) and leaves every key correct,
// while lookups by line key keep answering; the migration step no longer runs it, and an import of a source whose
// identities are not yet recomputed is refused meanwhile. A database of its own: the test lowers its stored version.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ADDRESS_KEYS_VERSION } from '@pra/core/address';
import { createPool, dropDatabase, ensureDatabase, type Pool, withDatabase } from '@pra/platform';
import { proxyUrl } from '@pra/platform/testing';
import { migrateRecords } from '../src/data/migrate.js';
import { loadGenerated } from '../src/generator/load-generated.js';
import { importCsv } from '../src/importer/import-csv.js';
import { loadMapping } from '../src/importer/mapping.js';
import { ingestArgs } from './cli-run.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const url = withDatabase(inject('databaseUrl'), `${new URL(inject('databaseUrl')).pathname.slice(1)}_rekey_online`);
const dir = mkdtempSync(join(tmpdir(), 'pra-rekey-'));
let pool: Pool;

beforeAll(async () => {
  await ensureDatabase(url);
  pool = createPool(url, 4);
  await migrateRecords(pool);
  await loadGenerated(pool, { seed: 31, count: 3_000, quiet: true });
});
afterAll(async () => {
  await pool.end();
  await dropDatabase(url);
  rmSync(dir, { recursive: true, force: true });
});

interface Run {
  child: ChildProcess;
  stderr: () => string;
  exited: Promise<number | null>;
}

/** `npm run ingest -- rekey` as a child process of its own (package.json's script, run with this node). */
function startRekey(env: Record<string, string> = {}): Run {
  const child = spawn(process.execPath, [...ingestArgs(root), 'rekey', '--batch', '25'], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: url, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr!.on('data', (d) => {
    err += d;
  });
  child.stdout!.on('data', () => {});
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, stderr: () => err, exited };
}

const checkpoint = async () =>
  (
    await pool.query<{ phase: string; last_id: number; records_done: number }>(
      'SELECT phase, last_id, records_done FROM records.rekey_checkpoint',
    )
  ).rows[0];

describe('rekey after a normaliser change', () => {
  it('resumes from its checkpoint after a SIGKILL, ends with every key correct, and lookups answer throughout', async () => {
    // An import source keyed by address (its identity is an address key too), imported with this normaliser.
    const mapping = join(dir, 'noapn.json');
    writeFileSync(
      mapping,
      JSON.stringify({
        name: 'rekey-online-noapn',
        kind: 'property',
        fields: {
          line1: { column: 'ADDRESS', format: 'upper', required: true },
          zip: { column: 'ZIP', format: 'zip5', required: true },
        },
      }),
    );
    const csv = join(dir, 'noapn.csv');
    writeFileSync(csv, 'ADDRESS,ZIP\n131 74 STREET,11209\n');
    expect(await importCsv(pool, loadMapping(mapping), csv)).toMatchObject({ added: 1 });
    // The keys this normaliser computes, then the store as an older one left it: a third of the rows keyed
    // otherwise, and the import's identity in the old spelling.
    const { rows: expected } = await pool.query<{ id: number; keys: string }>(
      `SELECT id, concat_ws('|', line_key, street_key, unit_key, loose_key, street_type) AS keys
         FROM records.properties ORDER BY id`,
    );
    const total = expected.length;
    const { rowCount: stale } = await pool.query(
      `UPDATE records.properties SET line_key = 'OLD ' || line_key, loose_key = '', street_type = ''
        WHERE id % 3 = 0`,
    );
    expect(stale).toBeGreaterThan(500);
    const { rowCount: identities } = await pool.query(
      "UPDATE records.import_state SET identity = 'addr:131 74 ST|11209|' WHERE source = 'import:rekey-online-noapn'",
    );
    expect(identities).toBe(1);
    await pool.query('UPDATE records.dataset_stats SET address_keys_version = $1', [ADDRESS_KEYS_VERSION - 1]);
    await pool.query('DELETE FROM records.changes');

    // The migration step does not recompute them any more (it would not finish at 150M rows under a Job deadline).
    await migrateRecords(pool);
    const { rows: still } = await pool.query(
      "SELECT count(*)::int AS n FROM records.properties WHERE line_key LIKE 'OLD %'",
    );
    expect(still[0].n).toBe(stale);

    // Lookups by line key, all the time the rekey runs: each must answer, and fast (no lock waits behind it).
    const probes = expected.filter((r) => r.id % 3 !== 0).slice(0, 50);
    let lookups = 0;
    let slowest = 0;
    let looking = true;
    const lookupLoop = (async () => {
      while (looking) {
        const p = probes[lookups % probes.length]!;
        const [line] = p.keys.split('|');
        const started = performance.now();
        const { rows } = await pool.query('SELECT id FROM records.properties WHERE line_key = $1', [line]);
        slowest = Math.max(slowest, performance.now() - started);
        expect(rows.map((r) => r.id)).toContain(p.id);
        lookups++;
        await new Promise((r) => setTimeout(r, 10));
      }
    })();

    // The first rekey reaches PostgreSQL through a proxy, stalled before the kill: no batch starts between the test's
    // look at the checkpoint and the kill, however fast or slow the machine (one whose COMMIT was already sent may
    // land: waited for below).
    const { proxy, url: proxied } = await proxyUrl(url);
    try {
      const first = startRekey({ REKEY_PAUSE_MS: '20', DATABASE_URL: proxied });
      let at: Awaited<ReturnType<typeof checkpoint>>;
      for (;;) {
        at = await checkpoint();
        if (at && at.records_done >= total * 0.3) break;
        if (first.child.exitCode !== null) throw new Error(`rekey ended before it was killed:\n${first.stderr()}`);
        await new Promise((r) => setTimeout(r, 20));
      }
      proxy.stall();
      first.child.kill('SIGKILL');
      expect(await first.exited).toBeNull();
      // Its backends gone (a COMMIT that reached PostgreSQL before the stall has landed, or never will).
      await expect
        .poll(
          async () =>
            (
              await pool.query<{ n: number }>(
                `SELECT count(*)::int AS n FROM pg_stat_activity
                  WHERE datname = current_database() AND application_name = 'ingest'`,
              )
            ).rows[0]!.n,
          { timeout: 30_000, interval: 50 },
        )
        .toBe(0);
      const killedAt = (await checkpoint())!;
      expect(killedAt.phase).toBe('records');
      expect(killedAt.last_id).toBeGreaterThan(0);
      expect(killedAt.records_done).toBeLessThan(total);
      // Batches committed before the kill stay done; the rest still holds the old keys.
      const { rows: split } = await pool.query<{ before: number; after: number }>(
        `SELECT count(*) FILTER (WHERE id <= $1)::int AS before, count(*) FILTER (WHERE id > $1)::int AS after
           FROM records.properties WHERE line_key LIKE 'OLD %'`,
        [killedAt.last_id],
      );
      expect(split[0]).toEqual({ before: 0, after: expect.any(Number) });
      expect(split[0]!.after).toBeGreaterThan(0);

      // Half-rekeyed: an import of the address-keyed source would miss its parcel, so it is refused, saying why.
      await expect(importCsv(pool, loadMapping(mapping), csv)).rejects.toThrow(/address keys are being recomputed/);

      const second = startRekey();
      expect(await second.exited, second.stderr()).toBe(0);
      const resumed = /resuming the rekey to v\d+ at phase records, after property id (\d+)/.exec(second.stderr());
      expect(resumed, second.stderr()).not.toBeNull();
      expect(Number(resumed![1])).toBe(killedAt.last_id);
      // Counted once: a run that started again from id 0 would have read more records than there are.
      expect(second.stderr()).toContain(
        `done, ${stale!.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} records changed keys`,
      );
    } finally {
      looking = false;
      await lookupLoop;
      await proxy.close();
    }
    expect(lookups).toBeGreaterThan(20);
    expect(slowest).toBeLessThan(1_000);

    const { rows: after } = await pool.query<{ id: number; keys: string }>(
      `SELECT id, concat_ws('|', line_key, street_key, unit_key, loose_key, street_type) AS keys
         FROM records.properties ORDER BY id`,
    );
    expect(after).toEqual(expected);
    const { rows: stats } = await pool.query('SELECT address_keys_version AS v FROM records.dataset_stats');
    expect(stats[0].v).toBe(ADDRESS_KEYS_VERSION);
    expect(await checkpoint()).toBeUndefined();
    // The identity moved, so the re-import finds its parcel; the changed keys reached the change feed.
    expect(await importCsv(pool, loadMapping(mapping), csv)).toMatchObject({ added: 0, unchanged: 1 });
    const { rows: fed } = await pool.query<{ n: number }>(
      "SELECT count(DISTINCT id)::int AS n FROM records.changes, unnest(property_ids) AS id WHERE origin = 'rekey'",
    );
    expect(fed[0]!.n).toBe(stale);
  }, 120_000);
});
