// One writer per source at a time: an import and a remove of one source (or two imports of it) would otherwise
// interleave, an import taking parcels for new that a remove is deleting, or a remove missing rows an import is
// committing. The lock is a session advisory lock on its own connection, held while `work` runs; a second writer
// waits for it, and is told that it waits. Once it holds the lock, a writer that reads the source's import state
// (an import) is refused while a rekey may have left that state half recomputed (rekey-gate.ts).
//
// The lock lives as long as its connection's session, so the source's writes (its records, import state, change
// events, the record count, the mapping's load) go on that connection (SourceLock.client): such a write can commit
// only while its session, and with it the lock, is alive. The registries every source shares (parcel ids, owners,
// the id block) are written through the pool: they take locks of their own and are safe to repeat. Were the writes on
// other connections, one begun before the lock's connection was lost could still commit after another writer had
// taken the lock (a review showed it). A lost connection fails the write in flight (the server rolls it back), the
// work stops with a message that says what happened and what to do, and the process lives on: pg emits the lost
// connection's error as an event, which is listened to here (and by createPool for every client).
import { type Pool, type PoolClient, sessionConnection } from '@pra/platform/db';
import { refuseImportWhileRekeying } from './rekey-gate.js';

/** The source's lock, as the work holding it sees it. */
export interface SourceLock {
  /**
   * The connection holding the lock: the source's writes go on it, one after another (never two at a time), and the
   * work settles every statement it started on it before it returns (the unlock follows on the same connection).
   */
  client: PoolClient;
}

/** An error that ends the session (and so the lock): the server's FATAL or PANIC, a connection exception, a shutdown. */
function endsSession(err: unknown): boolean {
  const e = err as { severity?: unknown; code?: unknown; message?: unknown } | null;
  if (!e || typeof e !== 'object') return false;
  if (e.severity === 'FATAL' || e.severity === 'PANIC') return true;
  if (typeof e.code === 'string' && /^(08|57P0)/.test(e.code)) return true;
  return typeof e.message === 'string' && /Connection terminated|not queryable/i.test(e.message);
}

export async function withSourceLock<T>(
  pool: Pool,
  source: string,
  work: (lock: SourceLock) => Promise<T>,
  onWait: (message: string) => void = () => {},
  /** duringRekey: the work does not read import-state identities (a removal), so a pending rekey does not matter. */
  { duringRekey = false }: { duringRekey?: boolean } = {},
): Promise<T> {
  const session = await sessionConnection(pool);
  const { client } = session;
  /** What the work is told when the lock's connection is lost; `cause`: the error the work failed with meanwhile. */
  const lost = (cause: unknown) =>
    new Error(
      `the connection holding the lock of ${source} was lost (${session.lost()!.message}); what was committed before stays, ` +
        'a write under way may have been rolled back: run the command again (an import or remove of the same file is safe to repeat)',
      { cause },
    );
  // Once the connection is lost, a statement on it fails ("not queryable"), and that failure is told as the loss.
  const lock: SourceLock = { client };
  /** The work failed on its own, its connection still there. */
  let failedFirst = false;
  /** Set when the lock could not be let go: the connection, still holding it, is closed rather than pooled. */
  let unlockFailed: Error | null = null;
  try {
    const { rows } = await client.query<{ got: boolean }>('SELECT pg_try_advisory_lock(hashtext($1)) AS got', [source]);
    if (!rows[0]?.got) {
      onWait(`another import or remove of ${source} is running: waiting for it to finish`);
      await client.query('SELECT pg_advisory_lock(hashtext($1))', [source]);
    }
    try {
      if (!duringRekey) await refuseImportWhileRekeying(client, source);
      return await work(lock).catch((err: unknown) => {
        // The work's own failure, not its connection's: its error is the one to tell (a loss during the unlock after
        // it does not replace it). Told by the error, not by the order of events: a server that ends the session
        // fails the statement in flight before the client hears the connection close.
        if (!session.lost() && !endsSession(err)) failedFirst = true;
        throw err;
      });
    } finally {
      await client.query('SELECT pg_advisory_unlock(hashtext($1))', [source]).catch((err: Error) => {
        unlockFailed = err;
      });
    }
  } catch (err) {
    // Whatever failed once the connection was lost failed for that: the work is told so, its own error the cause.
    throw session.lost() && !failedFirst ? lost(err) : err;
  } finally {
    // A lost connection, or one whose lock could not be let go, is closed: it is not pooled again.
    session.end(unlockFailed);
  }
}
