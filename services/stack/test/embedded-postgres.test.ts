// The embedded default on a machine without PostgreSQL: the server from npm starts (as root too), takes the
// records migrations, restarts on the same data, and stops; a data folder of another major version is refused.
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createPool } from '@pra/platform';
import { freePort } from '@pra/platform/testing';
import { migrateRecords } from '@pra/ingest/migrate';
import { closedAncestor, embeddedBinariesDir, embeddedMajor, startEmbeddedPostgres } from '../src/infrastructure.js';

/** As root the server runs as `postgres`: in a checkout that user cannot enter, only the refusal can be tested. */
const blockedBy = process.getuid?.() === 0 ? closedAncestor(embeddedBinariesDir()!) : null;

describe('embedded PostgreSQL', () => {
  it.runIf(blockedBy !== null)('refuses at once, naming the folder the postgres user cannot enter', async () => {
    console.info(
      `[embedded-postgres] running as root in a checkout under ${blockedBy} (no o+x): testing the refusal, not a start`,
    );
    const parent = mkdtempSync(join(tmpdir(), 'pra-epg-'));
    chmodSync(parent, 0o755);
    const started = performance.now();
    const error = await startEmbeddedPostgres(() => {}, join(parent, 'data'), await freePort()).then(
      () => null,
      (e: Error) => e,
    );
    expect(error?.message).toContain(`cannot enter ${blockedBy}`);
    expect(error?.message).toContain(`chmod o+x ${blockedBy}`);
    expect(performance.now() - started).toBeLessThan(10_000); // refused, not hung
  });

  it.runIf(blockedBy === null)(
    'starts, migrates, keeps its data across a restart, and stops',
    async () => {
      // mkdtemp makes a 0700 directory; as root the server runs as `postgres`, which must be able to enter it.
      const parent = mkdtempSync(join(tmpdir(), 'pra-epg-'));
      chmodSync(parent, 0o755);
      const dir = join(parent, 'data');
      const port = await freePort();
      const lines: string[] = [];
      const first = await startEmbeddedPostgres((l) => lines.push(l), dir, port);
      let pool = createPool(first.url, 2);
      try {
        // The server is the major the log names (the binaries' package version).
        const { rows: version } = await pool.query<{ server_version: string }>('SHOW server_version');
        expect(version[0]!.server_version.split('.')[0]).toBe(embeddedMajor());
        await migrateRecords(pool);
        await pool.query('UPDATE records.dataset_stats SET property_count = 42');
      } finally {
        await pool.end();
        await first.stop!();
      }
      expect(lines.join('\n')).toContain(`initialising an embedded PostgreSQL ${embeddedMajor()} in ${dir}`);
      const second = await startEmbeddedPostgres(() => {}, dir, port);
      pool = createPool(second.url, 2);
      try {
        const { rows } = await pool.query('SELECT property_count FROM records.dataset_stats');
        expect(rows[0].property_count).toBe(42);
      } finally {
        await pool.end();
        await second.stop!();
      }
    },
    120_000,
  );

  it('refuses a data folder of another PostgreSQL major at once, naming both', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pra-epg-old-'));
    writeFileSync(join(dir, 'PG_VERSION'), '17\n');
    const major = embeddedMajor()!;
    expect(major).not.toBe('17');
    const error = await startEmbeddedPostgres(() => {}, dir, await freePort()).then(
      () => null,
      (e: Error) => e,
    );
    expect(error?.message).toContain(
      `holds a PostgreSQL 17 cluster, which the embedded PostgreSQL ${major} cannot open`,
    );
  });
});
