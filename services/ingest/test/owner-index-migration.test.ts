// Migrations 0018 and 0020 replace name indexes of records.owners on stores that may hold millions of owners, each in
// one transaction (0020 fills the owners' ZIPs first). Each builds the new index first and drops the old one last, so
// that owner searches read on while it works (an update or a build blocks writes only); a version of 0018 that
// dropped first held the table's exclusive lock through both builds (the attacker's review: owner searches blocked
// ~35 s at 10M owners). This runs each migration's own SQL in an open transaction, stopped before its drops, and has
// an owner search (and a write) of another connection, with a lock timeout, try the table meanwhile.
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

/** A migration's statements, in its order (comments dropped). */
function statements(file: string): string[] {
  const sql = readFileSync(join(RECORDS_MIGRATIONS_DIR, file), 'utf8');
  return sql
    .split('\n')
    .filter((l) => !l.startsWith('--'))
    .join('\n')
    .split(';')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

const indexes = async () =>
  (
    await pool.query<{ indexdef: string }>(
      "SELECT indexdef FROM pg_indexes WHERE schemaname = 'records' AND tablename = 'owners' ORDER BY indexname",
    )
  ).rows.map((r) => r.indexdef);

it.each(['0018_owner_indexes_partial.sql', '0020_owner_zips.sql'])(
  '%s builds its owner indexes before it drops the old ones: owner searches read on meanwhile',
  async (file) => {
    const all = statements(file);
    const before = await indexes();
    const firstDrop = all.findIndex((s) => /^DROP INDEX/i.test(s));
    // The builds (and the ZIPs' update) come first, and each of them is one.
    expect(firstDrop).toBeGreaterThan(0);
    expect(
      all
        .slice(0, firstDrop)
        .every((s) =>
          /^(CREATE INDEX|UPDATE records\.owners|LOCK TABLE records\.owners IN SHARE ROW EXCLUSIVE MODE$)/i.test(s),
        ),
    ).toBe(true);
    expect(all.slice(0, firstDrop).some((s) => /^CREATE INDEX/i.test(s))).toBe(true);
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
    expect(await indexes()).toEqual(before);
  },
);

it("0020 gives every owner its parcel's ZIP, as an import writes it, and changes nothing run again", async () => {
  const last = uniqueSurname('ZIP');
  const person = (firstName: string) => ({
    firstName,
    lastName: last,
    fullName: `${firstName} ${last}`,
    type: 'Individual' as const,
  });
  const ids = await insertProperties(pool, [
    makeProperty({ zip: '03784', owner1: person('ANN'), owner2: person('BOB') }),
    makeProperty({ zip: '', owner1: person('CY') }),
  ]);
  const zips = async () =>
    (
      await pool.query<{ property_id: string; seq: number; zip: string | null; parcel: string | null }>(
        `SELECT o.property_id, o.seq, o.zip, p.zip AS parcel FROM records.owners o
           JOIN records.properties p ON p.id = o.property_id WHERE o.property_id = ANY($1) ORDER BY 1, 2`,
        [ids],
      )
    ).rows.map((r) => [Number(r.property_id), r.seq, r.zip, r.parcel]);
  // As the import writes them: each owner beside its parcel's ZIP, or the same empty value.
  const written = await zips();
  expect(written).toEqual([
    [ids[0], 1, '03784', '03784'],
    [ids[0], 2, '03784', '03784'],
    [ids[1], 1, expect.anything(), expect.anything()],
  ]);
  expect(written[2]![2]).toBe(written[2]![3]);
  // A store written before 0019 had none: the migration's update fills them as the import does, and once only.
  await pool.query('UPDATE records.owners SET zip = NULL WHERE property_id = ANY($1)', [ids]);
  const update = statements('0020_owner_zips.sql').find((s) => /^UPDATE/i.test(s))!;
  expect((await pool.query(update)).rowCount).toBeGreaterThanOrEqual(3);
  expect(await zips()).toEqual(written);
  expect((await pool.query(update)).rowCount).toBe(0);
});

it('0020 locks writers out before it copies the ZIPs: no owner row is written without one meanwhile', async () => {
  const all = statements('0020_owner_zips.sql');
  const update = all.findIndex((s) => /^UPDATE/i.test(s));
  expect(update).toBeGreaterThan(0);
  const migration = await pool.connect();
  const other = await pool.connect();
  try {
    await migration.query('BEGIN');
    for (const s of all.slice(0, update + 1)) await migration.query(s);
    await other.query("SET lock_timeout = '300ms'");
    // An importer older than 0019 names no ZIP: its row waits for the migration's commit, not slips in without one.
    await expect(
      other.query(
        "INSERT INTO records.owners (property_id, seq, last_name_key, state, city_key) VALUES (-1, 1, 'X', 'CA', 'X')",
      ),
    ).rejects.toThrow(/lock timeout/);
    // Searches read on.
    const { rows } = await other.query('SELECT property_id FROM records.owners WHERE last_name_key = $1', [surname]);
    expect(rows).toHaveLength(1);
  } finally {
    await migration.query('ROLLBACK').catch(() => {});
    migration.release(true);
    other.release(true);
  }
});
