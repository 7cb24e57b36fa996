// The backend holding a session advisory lock taken as pg_advisory_lock(hashtext(<key>)) (a source's lock, a
// rekey's), from pg_locks: exact, and only once the lock is held (pg_stat_activity's text would also match the query
// that looks for it).
import type { Pool } from '@pra/platform';

export async function advisoryLockHolder(pool: Pool, key: string): Promise<number | null> {
  const { rows } = await pool.query<{ pid: number }>(
    `SELECT l.pid FROM pg_locks l, (SELECT hashtext($1)::bigint AS k) h
      WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1
        AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
        AND l.classid::bigint = ((h.k >> 32) & 4294967295) AND l.objid::bigint = (h.k & 4294967295)`,
    [key],
  );
  return rows[0]?.pid ?? null;
}
