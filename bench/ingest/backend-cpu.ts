// The CPU time of a database's PostgreSQL backends, read from /proc: what an import costs the server, beside what it
// costs node.
import type { Pool } from '@pra/platform';
import { processCpuSeconds } from '@pra/platform/bench';

/** CPU milliseconds of each PostgreSQL backend of this database, from /proc (empty when the server is elsewhere). */
export async function backendCpu(pool: Pool): Promise<Map<number, number>> {
  const { rows } = await pool.query<{ pid: number }>(
    'SELECT pid FROM pg_stat_activity WHERE datname = current_database()',
  );
  const out = new Map<number, number>();
  for (const { pid } of rows) {
    const seconds = processCpuSeconds(pid); // undefined: not on this host, or gone
    if (seconds !== undefined) out.set(pid, seconds * 1000);
  }
  return out;
}

/** The backends' CPU milliseconds since `before` (backendCpu's reading then). */
export async function backendCpuSince(pool: Pool, before: Map<number, number>): Promise<number> {
  let ms = 0;
  for (const [pid, now] of await backendCpu(pool)) ms += now - (before.get(pid) ?? 0);
  return ms;
}
