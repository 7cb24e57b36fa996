// pendingMigrations against the real PostgreSQL: what a store lacks, read without writing (a dry run's check).
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { createPool, databaseExists, dropDatabase, ensureDatabase, withDatabase } from './db.js';
import { type Migration, migrate, pendingMigrations } from './migrations.js';

const url = withDatabase(inject('databaseUrl'), `pra_migrations_${randomBytes(4).toString('hex')}`);
const stream = 'pending_test';
const migration = (version: number, sql: string): Migration => ({
  version,
  name: `step_${version}`,
  sql,
  checksum: `sum-${sql}`,
});
const all = [
  migration(1, 'CREATE TABLE one (id int)'),
  migration(2, 'CREATE TABLE two (id int)'),
  migration(3, 'CREATE TABLE three (id int)'),
];

beforeAll(async () => {
  expect(await databaseExists(url)).toBe(false);
  await ensureDatabase(url);
  expect(await databaseExists(url)).toBe(true);
});
afterAll(async () => {
  await dropDatabase(url);
  expect(await databaseExists(url)).toBe(false);
});

it('lists what a store lacks, in order, and makes nothing (no migrations table)', async () => {
  const pool = createPool(url, 2, 'migrations-test');
  const table = async () =>
    (await pool.query<{ t: string | null }>(`SELECT to_regclass('public.schema_migrations')::text AS t`)).rows[0]!.t;
  try {
    expect((await pendingMigrations(pool, stream, all)).map((m) => m.version)).toEqual([1, 2, 3]);
    expect(await table()).toBeNull();
    await migrate(pool, stream, all.slice(0, 2));
    expect((await pendingMigrations(pool, stream, all)).map((m) => m.version)).toEqual([3]);
    // Another stream's migrations are not this one's.
    expect((await pendingMigrations(pool, 'other', all)).map((m) => m.version)).toEqual([1, 2, 3]);
    // A file changed after it was applied is refused, as migrate refuses it.
    const changed = [all[0]!, migration(2, 'CREATE TABLE two (id bigint)'), all[2]!];
    await expect(pendingMigrations(pool, stream, changed)).rejects.toThrow(/pending_test\/2_step_2 was changed/);
    await expect(migrate(pool, stream, changed)).rejects.toThrow(/pending_test\/2_step_2 was changed/);
    await migrate(pool, stream, all);
    expect(await pendingMigrations(pool, stream, all)).toEqual([]);
  } finally {
    await pool.end();
  }
});
