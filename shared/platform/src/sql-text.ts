// Statements with their values in their text, several sent as one simple Query: one round trip where node-postgres
// sends a statement (and its bound values) at a time and waits for each answer. For batch work whose answers are read
// by a busy thread (ingest's importer reads each only between rows: docs/benchmarks.md, issue 36's twenty-sixth pass).
// Every value goes through these literals: text escaped whatever the server's standard_conforming_strings, ids checked
// to be integers.
import type pg from 'pg';

/**
 * A string as an SQL literal: quotes doubled, and an E'' literal (backslashes doubled) when it holds a backslash, so it
 * reads the same whatever standard_conforming_strings says. node-postgres's escapeLiteral gives the same text a
 * character at a time: ~7 ms for the ~90 KB of an import batch's owner keys, cold, against ~0.1.
 */
export function escapeLiteral(s: string): string {
  const quoted = s.replaceAll("'", "''");
  return s.includes('\\') ? ` E'${quoted.replaceAll('\\', '\\\\')}'` : `'${quoted}'`;
}

/** Integers of at most 15 digits (below 2^53: exact as JS numbers), comma-separated. */
const INTEGER_LIST = /^(-?\d{1,15}(,-?\d{1,15})*)?$/;

/** An SQL literal of an array of ids (`'{1,2,3}'`): integers only, so nothing to quote. */
export function idArrayLiteral(ids: readonly number[]): string {
  const list = ids.join(',');
  // Checked as text, at once (a loop over the ids cost an import's cold main thread ~14 ms): a number that is not a
  // safe integer reads with a dot, an exponent, NaN, Infinity or 16 digits and more.
  if (!INTEGER_LIST.test(list))
    throw new Error(`an id in a statement's text must be an integer: ${list.slice(0, 200)}`);
  return `'{${list}}'`;
}

/** An SQL literal of an array of text (null: NULL), each element quoted in the array, the whole escaped as a literal. */
export function textArrayLiteral(values: readonly (string | null)[]): string {
  const elements = values.map((v) =>
    v === null ? 'NULL' : v.includes('"') || v.includes('\\') ? `"${v.replace(/[\\"]/g, '\\$&')}"` : `"${v}"`,
  );
  return escapeLiteral(`{${elements.join(',')}}`);
}

/**
 * Statements as one simple Query, one round trip: the rows of each, in order. Without a BEGIN of their own they are one
 * transaction (the server's implicit one: an xact lock is held to its end, and an error rolls it all back).
 */
export async function runStatements(client: pg.ClientBase, statements: readonly string[]): Promise<pg.QueryResult[]> {
  const result: pg.QueryResult | pg.QueryResult[] = await client.query(statements.join(';\n'));
  return Array.isArray(result) ? result : [result];
}

/** What inBatchedTransaction gives its work: its first statements, and its last with the commit. */
export interface BatchedTransaction {
  /** BEGIN and `statements`, one round trip: their rows (BEGIN's first). */
  begin(statements: readonly string[]): Promise<pg.QueryResult[]>;
  /** `statements` and COMMIT, one round trip. */
  commit(statements: readonly string[]): Promise<void>;
}

/**
 * One transaction whose BEGIN and COMMIT go with its first and last statements (runStatements), on a connection the
 * caller holds. Rolled back when `work` throws, and when it returns without committing: never a connection given
 * back inside a transaction.
 */
export async function inBatchedTransaction<T>(
  client: pg.ClientBase,
  work: (tx: BatchedTransaction) => Promise<T>,
): Promise<T> {
  let ended = false;
  try {
    const result = await work({
      begin: (statements) => runStatements(client, ['BEGIN', ...statements]),
      commit: async (statements) => {
        await runStatements(client, [...statements, 'COMMIT']);
        ended = true;
      },
    });
    if (!ended) throw new Error('a batched transaction returned without its commit');
    return result;
  } catch (err) {
    if (!ended) await client.query('ROLLBACK').catch(() => {});
    throw err;
  }
}
