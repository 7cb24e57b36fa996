// One writer per source at a time: an import and a remove of one source (or two imports of it) would otherwise
// interleave, an import taking parcels for new that a remove is deleting, or a remove missing rows an import is
// committing. The lock is a session advisory lock on its own connection, held while `work` runs; a second writer
// waits for it, and is told that it waits. Once it holds the lock, a writer that reads the source's import state
// (an import) is refused while a rekey may have left that state half recomputed (rekey-gate.ts).
import type { Pool } from '@pra/platform/db';
import { refuseImportWhileRekeying } from './rekey-gate.js';

export async function withSourceLock<T>(
  pool: Pool,
  source: string,
  work: () => Promise<T>,
  onWait: (message: string) => void = () => {},
  /** duringRekey: the work does not read import-state identities (a removal), so a pending rekey does not matter. */
  { duringRekey = false }: { duringRekey?: boolean } = {},
): Promise<T> {
  const lock = await pool.connect();
  try {
    const { rows } = await lock.query<{ got: boolean }>('SELECT pg_try_advisory_lock(hashtext($1)) AS got', [source]);
    if (!rows[0]?.got) {
      onWait(`another import or remove of ${source} is running: waiting for it to finish`);
      await lock.query('SELECT pg_advisory_lock(hashtext($1))', [source]);
    }
    try {
      if (!duringRekey) await refuseImportWhileRekeying(lock, source);
      return await work();
    } finally {
      await lock.query('SELECT pg_advisory_unlock(hashtext($1))', [source]).catch(() => {});
    }
  } finally {
    lock.release();
  }
}
