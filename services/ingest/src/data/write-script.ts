// A transaction sent as one message: its statements in one simple Query, each COPY's data right behind it, so the
// whole write is one round trip. node-postgres runs a statement at a time and a COPY in two (its CopyInResponse
// awaited before the data goes): a batch's write was ~15 round trips, each answered only when the importer's main
// thread was free between rows, so the writes fell behind the parse and the last ones were waited for at the end
// (docs/benchmarks.md, issue 36's twenty-fifth pass).
//
// The protocol allows it: the server runs a simple Query's statements in turn, reading each COPY's data from what
// follows the Query; after an error it skips the rest of the Query and drops any COPY data still to come (PostgreSQL's
// protocol, "COPY Operations"). The script opens and ends its transaction itself, so an error leaves it open and
// failed: runScript rolls it back before it rethrows.
import { type Db, escapeLiteral, onConnection, type PoolClient } from '@pra/platform/db';

/** A statement of a script, or a COPY ... FROM STDIN with its data (binary COPY data, or COPY text). */
export type ScriptStep = string | { copy: string; data: Uint8Array | string };

/** CopyData's type byte, CopyDone. */
const COPY_DATA = 0x64;
const COPY_DONE = Buffer.from([0x63, 0, 0, 0, 4]);

/** The node-postgres connection a submittable is given: the socket its messages go on, in order. */
interface Connection {
  query(text: string): void;
  stream: { write(chunk: Uint8Array): boolean; cork(): void; uncork(): void };
}

/**
 * A node-postgres submittable (as pg-copy-streams' COPY is): node-postgres calls submit() when the connection is
 * free, then each handle*() as the server answers. It settles once: on the server's ReadyForQuery, or on the first
 * error (the server's, or the connection's: then no ReadyForQuery comes).
 */
class Script {
  /** Set by runScript before the script is queued (node-postgres calls it on a connection's failure too). */
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
 * Runs `steps` as one transaction in one round trip on `db`'s connection (BEGIN and COMMIT are added). Statements carry
 * no parameters: their values are in their text (idArrayLiteral, textArrayLiteral). On an error the transaction is
 * rolled back (when the connection is still there) and the error thrown.
 */
export async function runScript(db: Db, steps: readonly ScriptStep[]): Promise<void> {
  await onConnection(db, (client) => runScriptOn(client, steps));
}

async function runScriptOn(client: PoolClient, steps: readonly ScriptStep[]): Promise<void> {
  const statements = ['BEGIN'];
  const copies: Uint8Array[] = [];
  for (const step of steps) {
    if (typeof step === 'string') {
      statements.push(step);
      continue;
    }
    // A COPY of no rows is not sent (as copyInto sends none).
    if (step.data.length === 0) continue;
    statements.push(step.copy);
    copies.push(typeof step.data === 'string' ? Buffer.from(step.data, 'utf8') : step.data);
  }
  statements.push('COMMIT');
  const script = new Script(statements.join(';\n'), copies);
  try {
    await new Promise<void>((resolve, reject) => {
      script.callback = (err) => (err ? reject(err) : resolve());
      (client as unknown as { query(s: Script): void }).query(script);
    });
  } catch (err) {
    // The server skipped the rest of the script: its transaction is open and failed (or ended, if COMMIT failed:
    // a ROLLBACK then only warns). A lost connection fails this too; the write's error is the one to tell.
    await client.query('ROLLBACK').catch(() => {});
    throw err;
  }
}

/**
 * Statements as one simple Query, one round trip: the results of each, in order. Without a BEGIN of their own they are
 * one transaction (the server's implicit one: an xact lock is held to its end, and an error rolls it all back).
 */
export async function runStatements(client: PoolClient, statements: readonly string[]): Promise<QueryResult[]> {
  const result = (await client.query(statements.join(';\n'))) as unknown as QueryResult | QueryResult[];
  return Array.isArray(result) ? result : [result];
}

/** A result of runStatements: its rows. */
export interface QueryResult {
  rows: Record<string, unknown>[];
}

/** An SQL literal of an array of ids (`'{1,2,3}'`), for a statement's text: integers only, so nothing to quote. */
export function idArrayLiteral(ids: readonly number[]): string {
  const list = ids.join(',');
  // Checked as text, at once (a loop over the ids cost the importer's cold main thread ~14 ms an import): a number
  // that is not an integer reads with a dot, an exponent, NaN or Infinity.
  if (!INTEGER_LIST.test(list))
    throw new Error(`an id in a statement's text must be an integer: ${list.slice(0, 200)}`);
  return `'{${list}}'`;
}

const INTEGER_LIST = /^(-?\d+(,-?\d+)*)?$/;

/** An SQL literal of an array of text (each element quoted in the array, the whole escaped as a literal). */
export function textArrayLiteral(values: readonly string[]): string {
  const elements = values.map((v) =>
    v.includes('"') || v.includes('\\') ? `"${v.replace(/[\\"]/g, '\\$&')}"` : `"${v}"`,
  );
  return escapeLiteral(`{${elements.join(',')}}`);
}
