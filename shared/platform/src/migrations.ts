// Versioned SQL migrations: files NNNN_name.sql in a folder, applied in order, each in its own transaction,
// recorded with a checksum in public.schema_migrations. A changed applied file is refused; concurrent runners
// serialise on an advisory lock, so several services may migrate at start without racing.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type pg from 'pg';

export interface Migration {
  version: number;
  name: string;
  sql: string;
  checksum: string;
}

export function readMigrations(dir: string): Migration[] {
  const files = readdirSync(dir)
    .filter((f) => /^\d{4}_[\w-]+\.sql$/.test(f))
    .sort();
  return files.map((file) => {
    const sql = readFileSync(join(dir, file), 'utf8');
    return {
      version: Number(file.slice(0, 4)),
      name: file.slice(5, -4),
      sql,
      checksum: createHash('sha256').update(sql).digest('hex'),
    };
  });
}

const LOCK_ID = 7_340_021; // arbitrary, fixed: the advisory lock all migration runners take

export async function migrate(
  pool: pg.Pool,
  stream: string,
  migrations: Migration[],
  log: (line: string) => void = () => {},
): Promise<{ applied: string[] }> {
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [LOCK_ID]);
    await client.query(`CREATE TABLE IF NOT EXISTS public.schema_migrations (
      stream text NOT NULL, version integer NOT NULL, name text NOT NULL, checksum text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now(), PRIMARY KEY (stream, version))`);
    const done = await appliedMigrations(client, stream, migrations);
    const applied: string[] = [];
    for (const m of migrations) {
      if (done.has(m.version)) continue;
      await client.query('BEGIN');
      try {
        await client.query(m.sql);
        await client.query(
          'INSERT INTO public.schema_migrations (stream, version, name, checksum) VALUES ($1, $2, $3, $4)',
          [stream, m.version, m.name, m.checksum],
        );
        await client.query('COMMIT');
      } catch (err) {
        await client.query('ROLLBACK');
        throw new Error(`Migration ${stream}/${m.version}_${m.name} failed: ${(err as Error).message}`);
      }
      applied.push(`${m.version}_${m.name}`);
      log(`migrated ${stream} ${m.version}_${m.name}`);
    }
    return { applied };
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [LOCK_ID]).catch(() => {});
    client.release();
  }
}

/**
 * The versions of `stream` the database has applied (its migrations table must exist), checked against the files:
 * an applied file changed since is refused.
 */
async function appliedMigrations(
  client: pg.Pool | pg.PoolClient,
  stream: string,
  migrations: readonly Migration[],
): Promise<Set<number>> {
  const { rows } = await client.query<{ version: number; checksum: string }>(
    'SELECT version, checksum FROM public.schema_migrations WHERE stream = $1',
    [stream],
  );
  const done = new Map(rows.map((r) => [r.version, r.checksum]));
  for (const m of migrations) {
    const checksum = done.get(m.version);
    if (checksum !== undefined && checksum !== m.checksum)
      throw new Error(
        `Migration ${stream}/${m.version}_${m.name} was changed after it was applied. ` +
          'Add a new migration instead of editing an applied one.',
      );
  }
  return new Set(done.keys());
}

/**
 * The migrations of `stream` the database has not applied, in order, read without writing anything (no migrations
 * table is made, no lock taken): for a command that must not change the schema, such as an import's dry run.
 */
export async function pendingMigrations(
  pool: pg.Pool,
  stream: string,
  migrations: readonly Migration[],
): Promise<Migration[]> {
  const table = await pool.query<{ found: boolean }>(
    `SELECT to_regclass('public.schema_migrations') IS NOT NULL AS found`,
  );
  if (!table.rows[0]?.found) return [...migrations];
  const done = await appliedMigrations(pool, stream, migrations);
  return migrations.filter((m) => !done.has(m.version));
}
