// Migration 0018 replaces the two name indexes of records.owners on stores that may hold millions of owners, in one
// transaction. It builds the new indexes first and drops the old ones last, so that owner searches read on while it
// builds (a build blocks writes only); a version that dropped first held the table's exclusive lock through both
// builds (the attacker's review: owner searches blocked ~35 s at 10M owners). This runs the migration's own SQL in an
// open transaction, stopped before its drops, and has an owner search (and a write) of another connection, with a
// lock timeout, try the table meanwhile.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { createPool, dropDatabase, ensureDatabase, type Pool, withDatabase } from '@pra/platform';
import type {} from '@pra/platform/testing';
import { migrateRecords, RECORDS_MIGRATIONS_DIR } from '../src/data/migrate.js';
import { insertProperties, makeProperty, uniqueSurname } from './make-property.js';

const url = withDatabase(inject('databaseUrl'), `pra_owner_index_migration_${randomBytes(4).toString('hex')}`);
let pool: Pool;
const surname = uniqueSurname('IDX');

beforeAll(async () => {
  await ensureDatabase(url);
  pool = createPool(url, 4, 'owner-index-migration');
  await migrateRecords(pool);
  await insertProperties(pool, [
    makeProperty({ owner1: { firstName: 'ANN', lastName: surname, fullName: `ANN ${surname}`, type: 'Individual' } }),
  ]);
});
afterAll(async () => {
  await pool.end();
  await dropDatabase(url);
});

/** The migration's statements, in its order (comments dropped). */
function statements(): string[] {
  const sql = readFileSync(join(RECORDS_MIGRATIONS_DIR, '0018_owner_indexes_partial.sql'), 'utf8');
  return sql
    .split('\n')
    .filter((l) => !l.startsWith('--'))
    .join('\n')
    .split(';')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

it('builds the partial owner indexes before it drops the whole ones: owner searches read on meanwhile', async () => {
  const all = statements();
  const firstDrop = all.findIndex((s) => /^DROP INDEX/i.test(s));
  // The builds come first, and each of them is one.
  expect(firstDrop).toBeGreaterThan(0);
  expect(all.slice(0, firstDrop).every((s) => /^CREATE INDEX/i.test(s))).toBe(true);
  // Built again here under the names the migration gives them (the store already has its result): the same locks.
  const migration = await pool.connect();
  const other = await pool.connect();
  try {
    await migration.query('BEGIN');
    await migration.query("SET LOCAL lock_timeout = '5s'");
    for (const s of all.slice(0, firstDrop)) await migration.query(s);
    // The build's transaction is still open: a search of the owners by name reads them without waiting.
    await other.query("SET lock_timeout = '300ms'");
    const { rows } = await other.query(
      'SELECT property_id FROM records.owners WHERE last_name_key = $1 AND state = $2',
      [surname, 'CA'],
    );
    expect(rows).toHaveLength(1);
    // A write waits for it (what the migration's comment says imports do).
    await expect(other.query('DELETE FROM records.owners WHERE last_name_key = $1', [surname])).rejects.toThrow(
      /lock timeout/,
    );
    // Its drops then take the table's exclusive lock, held to its commit: from there a search waits.
    await migration.query(all[firstDrop]!);
    await expect(
      other.query('SELECT property_id FROM records.owners WHERE last_name_key = $1', [surname]),
    ).rejects.toThrow(/lock timeout/);
  } finally {
    await migration.query('ROLLBACK').catch(() => {});
    migration.release(true);
    other.release(true);
  }
  // Nothing of it stayed: the store's own indexes serve as before.
  const { rows } = await pool.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM pg_indexes WHERE schemaname = 'records' AND indexname LIKE 'owners_name%_partial'",
  );
  expect(rows[0]!.n).toBe(0);
});
