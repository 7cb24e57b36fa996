// A transaction sent as one message: its statements in one simple Query, each COPY's data right behind it, so the
// whole write is one round trip. node-postgres runs a statement at a time and a COPY in two (its CopyInResponse
// awaited before the data goes): a batch's write was ~15 round trips, each answered only when the importer's main
// thread was free between rows, so the writes fell behind the parse and the last ones were waited for at the end
// (docs/benchmarks.md, issue 36's twenty-fifth and twenty-sixth passes).
//
// The protocol allows it: the server runs a simple Query's statements in turn, reading each COPY's data from what
// follows the Query; after an error it skips the rest of the Query and drops any COPY data still to come (PostgreSQL's
// protocol, "COPY Operations"). Values are in the statements' text (@pra/platform/db's literals).
import type { Connection, Db, PoolClient, Submittable } from '@pra/platform/db';
import { onConnection } from '@pra/platform/db';

/** A statement of a script, or a COPY ... FROM STDIN with its data (binary COPY data, or COPY text). */
export type ScriptStep = string | { copy: string; data: Uint8Array | string };

/** A COPY ... FROM STDIN step of `table`'s `columns`, binary or text. */
export function copyStep(table: string, columns: string, data: Uint8Array | string, binary: boolean): ScriptStep {
  return { copy: `COPY ${table} (${columns}) FROM STDIN${binary ? ' (FORMAT binary)' : ''}`, data };
}

/** A CopyData message's payload at most (its length field is a 32-bit signed integer, itself counted). */
const MAX_COPY_DATA = 0x7fff_ffff - 4;

/** CopyData's type byte, CopyDone. */
const COPY_DATA = 0x64;
const COPY_DONE = Buffer.from([0x63, 0, 0, 0, 4]);

/**
 * A node-postgres submittable (as a COPY stream package's is): node-postgres calls submit() when the connection is
 * free, then each handle*() as the server answers. It settles once: on the server's ReadyForQuery, or on the first
 * error (the server's, or the connection's: then no ReadyForQuery comes).
 */
class Script implements Submittable {
  /** Set before the script is queued (node-postgres calls it on a connection's failure too). */
  callback: (err: Error | null) => void = () => {};
  #settled = false;
  // Fields no other code reads: a wrapper of client.query (OpenTelemetry's) takes an object with a `text` for a query
  // config it may copy, which would lose these methods.
  readonly #text: string;
  readonly #copies: readonly Uint8Array[];

  constructor(text: string, copies: readonly Uint8Array[]) {
    this.#text = text;
    this.#copies = copies;
  }

  submit(connection: Connection): void {
    // Corked: the Query and every COPY's messages leave in one write of the socket, not one each.
    connection.stream.cork();
    try {
      connection.query(this.#text);
      for (const data of this.#copies) {
        const header = Buffer.allocUnsafe(5);
        header[0] = COPY_DATA;
        header.writeUInt32BE(data.length + 4, 1);
        connection.stream.write(header);
        connection.stream.write(data);
        connection.stream.write(COPY_DONE);
      }
    } finally {
      connection.stream.uncork();
    }
  }

  private settle(err: Error | null): void {
    if (this.#settled) return;
    this.#settled = true;
    this.callback(err);
  }

  handleError(err: Error): void {
    this.settle(err);
  }

  handleReadyForQuery(): void {
    this.settle(null);
  }

  // The data was sent with the Query: the server's request for it, and what its statements answer, need nothing.
  handleCopyInResponse(): void {}
  handleCommandComplete(): void {}
  handleRowDescription(): void {}
  handleDataRow(): void {}
  handleEmptyQuery(): void {}
  handlePortalSuspended(): void {}
  handleCopyData(): void {}
}

/**
 * Runs `steps` in one round trip on `db`'s connection: as a transaction of their own (BEGIN and COMMIT added; rolled
 * back on an error, when the connection is still there), or with `inOpenTransaction` as part of the one the caller
 * has begun on `db` (a connection it holds), which the caller ends. The error is the server's (or the connection's).
 */
export async function runScript(
  db: Db,
  steps: readonly ScriptStep[],
  { inOpenTransaction = false }: { inOpenTransaction?: boolean } = {},
): Promise<void> {
  const statements: string[] = inOpenTransaction ? [] : ['BEGIN'];
  const copies: Uint8Array[] = [];
  for (const step of steps) {
    if (typeof step === 'string') {
      statements.push(step);
      continue;
    }
    // A COPY of no rows is not sent.
    if (step.data.length === 0) continue;
    statements.push(step.copy);
    copies.push(typeof step.data === 'string' ? Buffer.from(step.data, 'utf8') : step.data);
  }
  if (!inOpenTransaction) statements.push('COMMIT');
  if (statements.length === 0) return;
  // Refused before anything is sent: a message the protocol cannot frame, thrown after the Query went out, would
  // leave the server waiting for COPY data that never comes.
  for (const data of copies)
    if (data.length > MAX_COPY_DATA) throw new Error(`a COPY's data is ${data.length} bytes: at most ${MAX_COPY_DATA}`);
  await onConnection(db, async (client: PoolClient) => {
    const script = new Script(statements.join(';\n'), copies);
    try {
      await new Promise<void>((resolve, reject) => {
        script.callback = (err) => (err ? reject(err) : resolve());
        client.query(script);
      });
    } catch (err) {
      // The server skipped the rest of the script: its transaction is open and failed (or ended, if COMMIT failed: a
      // ROLLBACK then only warns). A lost connection fails this too; the write's error is the one to tell. A caller's
      // own transaction is the caller's to roll back.
      if (!inOpenTransaction) await client.query('ROLLBACK').catch(() => {});
      throw err;
    }
  });
}
