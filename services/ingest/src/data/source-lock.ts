// One writer per source at a time: an import and a remove of one source (or two imports of it) would otherwise
// interleave, an import taking parcels for new that a remove is deleting, or a remove missing rows an import is
// committing. The lock is a session advisory lock on its own connection, held while `work` runs; a second writer
// waits for it, and is told that it waits. Once it holds the lock, a writer that reads the source's import state
// (an import) is refused while a rekey may have left that state half recomputed (rekey-gate.ts).
//
// The lock lives as long as its connection. If that connection is lost (the server restarted, the backend was
// terminated), the server has let the lock go and another writer may take it: the work checks the lock before each
// of its writes (SourceLock.check) and stops there, and the lock's end reports the loss. Without a listener, the
// lost connection's error would also end the whole process (an idle pg client emits it as an event).
import type { Pool } from '@pra/platform/db';
import { refuseImportWhileRekeying } from './rekey-gate.js';

/** The source's lock, as the work holding it sees it. */
export interface SourceLock {
  /** Throws once the lock's connection is lost: no write may follow, another writer may hold the source. */
  check(): void;
}

export async function withSourceLock<T>(
  pool: Pool,
  source: string,
  work: (lock: SourceLock) => Promise<T>,
  onWait: (message: string) => void = () => {},
  /** duringRekey: the work does not read import-state identities (a removal), so a pending rekey does not matter. */
  { duringRekey = false }: { duringRekey?: boolean } = {},
): Promise<T> {
  const lock = await pool.connect();
  let lost: Error | null = null;
  const onError = (err: Error) => {
    lost ??= new Error(
      `the connection holding the lock of ${source} was lost (${err.message}), so its writes stopped there; ` +
        'run the command again (an import or remove of the same file is safe to repeat)',
    );
  };
  lock.on('error', onError);
  const held: SourceLock = {
    check: () => {
      if (lost) throw lost;
    },
  };
  try {
    const { rows } = await lock.query<{ got: boolean }>('SELECT pg_try_advisory_lock(hashtext($1)) AS got', [source]);
    if (!rows[0]?.got) {
      onWait(`another import or remove of ${source} is running: waiting for it to finish`);
      await lock.query('SELECT pg_advisory_lock(hashtext($1))', [source]);
    }
    let result: T;
    try {
      if (!duringRekey) await refuseImportWhileRekeying(lock, source);
      result = await work(held);
    } finally {
      await lock.query('SELECT pg_advisory_unlock(hashtext($1))', [source]).catch(() => {});
    }
    // Lost after the work's last check: what it wrote last may have overlapped another writer.
    held.check();
    return result;
  } finally {
    lock.off('error', onError);
    // A lost connection is not given back to the pool: release(err) closes it.
    lock.release(lost ?? undefined);
  }
}
