// The CPU time of a database's PostgreSQL backends, read from /proc: what an import costs the server, beside what it
// costs node. Only a server on this machine, outside a container, can be read so.
import type { Pool } from '@pra/platform/db';
import { processCpuSeconds, processName } from '@pra/platform/proc-cpu';

/** CPU milliseconds of each PostgreSQL backend of this database, from /proc (empty when the server is elsewhere). */
export async function backendCpu(pool: Pool): Promise<Map<number, number>> {
  const { rows } = await pool.query<{ pid: number }>(
    'SELECT pid FROM pg_stat_activity WHERE datname = current_database()',
  );
  const out = new Map<number, number>();
  for (const { pid } of rows) {
    // Only a process of this machine named postgres: a server in a container gives pids of its own namespace.
    const seconds = processName(pid) === 'postgres' ? processCpuSeconds(pid) : undefined; // undefined: not here, or gone
    if (seconds !== undefined) out.set(pid, seconds * 1000);
  }
  return out;
}

/**
 * The backends' CPU milliseconds since `before` (backendCpu's reading then); null when none could be read (the server
 * is elsewhere): not measured, which is not 0. A backend that ended meanwhile is not counted.
 */
export async function backendCpuSince(pool: Pool, before: Map<number, number>): Promise<number | null> {
  const after = await backendCpu(pool);
  if (after.size === 0 && before.size === 0) return null;
  let ms = 0;
  for (const [pid, now] of after) ms += now - (before.get(pid) ?? 0);
  return ms;
}
