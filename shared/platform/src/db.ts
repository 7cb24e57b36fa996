// PostgreSQL access: pools, transactions, and the limits of every wait. A pool that serves requests has a connect
// timeout, a server-side statement timeout, an idle-in-transaction timeout, a client-side query timeout (for a server
// that stops answering) and a bounded wait queue; every way of running out of them is a StoreUnavailable, which
// the one error handler answers 503 with Retry-After. Batch work (ingest, migrations, workers) gets no limits.
// Transactions: on a pool, withTransaction (a connection checked out for it); on a connection the caller holds (a
// session lock's), inTransaction; a helper that may be given either takes a Db and calls transaction.
import pg from 'pg';
import { ApiError } from '@pra/core/errors';
import type { RequestPoolLimits } from '@pra/core/config';
import { context } from '@opentelemetry/api';
import { storeCallContext } from './telemetry/store-context.js';

// int8 (COUNT, bigint ids) as JS numbers: our ids and counts stay far below 2^53.
pg.types.setTypeParser(20, (v) => Number(v));
// numeric as JS numbers (acres, baths): values are small decimals.
pg.types.setTypeParser(1700, (v) => Number(v));

export type Pool = pg.Pool;
export type PoolClient = pg.PoolClient;

const STORE_BUSY = 'PRA_STORE_BUSY';

/** A pool whose wait queue is bounded: past maxWaiting a checkout fails at once instead of queueing. */
class BoundedPool extends pg.Pool {
  constructor(
    config: pg.PoolConfig,
    private readonly maxWaiting: number,
  ) {
    super(config);
  }

  override connect(): Promise<pg.PoolClient>;
  override connect(
    cb: (err: Error | undefined, client: pg.PoolClient | undefined, done: (release?: unknown) => void) => void,
  ): void;
  override connect(
    cb?: (err: Error | undefined, client: pg.PoolClient | undefined, done: (release?: unknown) => void) => void,
    // biome-ignore lint/suspicious/noConfusingVoidType: the implementation of pg's two overloads (promise, or callback and void)
  ): Promise<pg.PoolClient> | void {
    // Refused only when the checkout would have to wait (no idle client, no room for a new one) and the queue is full:
    // with maxWaiting 0, a pool still opens its connections up to its size.
    if (this.waitingCount >= this.maxWaiting && this.idleCount === 0 && this.totalCount >= (this.options.max ?? 10)) {
      const err = Object.assign(new Error(`database pool queue full (${this.maxWaiting} waiting)`), {
        code: STORE_BUSY,
      });
      if (cb) return cb(err, undefined, () => {});
      return Promise.reject(err);
    }
    // A waiter's callback runs when another request releases a client: bound to the waiter's own context, so its
    // query is traced (or not) as its own request is, not as the releasing one.
    return cb ? super.connect(context.bind(context.active(), cb)) : super.connect();
  }
}

export function createPool(
  connectionString: string,
  max = 10,
  applicationName = 'property-records',
  /** queryTimeoutMs (optional): the client-side wait for an answer; the statement timeout + 1 s unless given. */
  limits?: RequestPoolLimits & { queryTimeoutMs?: number },
): pg.Pool {
  const base: pg.PoolConfig = { connectionString, max, application_name: applicationName, idleTimeoutMillis: 30_000 };
  const pool = limits
    ? new BoundedPool(
        {
          ...base,
          connectionTimeoutMillis: limits.connectTimeoutMs,
          statement_timeout: limits.statementTimeoutMs,
          idle_in_transaction_session_timeout: limits.idleInTransactionTimeoutMs,
          // The server enforces the statement timeout; this one ends a wait on a server that stopped answering.
          query_timeout: limits.queryTimeoutMs ?? limits.statementTimeoutMs + 1_000,
        },
        limits.maxWaiting,
      )
    : new pg.Pool({ ...base, connectionTimeoutMillis: 10_000 });
  // An idle client's error (server restart) must not crash the process; the next query reports it.
  pool.on('error', () => {});
  // Nor a checked-out client's: pg emits 'error' on any client whose connection ends unexpectedly, a query in flight
  // or not, and the pool listens only to the idle ones. The query in flight rejects, and a later one on the client
  // fails (it is not queryable any more); a holder of a session lock that must know at once listens itself
  // (sessionConnection, below).
  pool.on('connect', (client) => {
    client.on('error', () => {});
  });
  // Inside a request that is not sampled, the pg instrumentation skips the query (storeCallContext).
  const query = pool.query.bind(pool) as (...a: unknown[]) => unknown;
  (pool as unknown as { query: (...a: unknown[]) => unknown }).query = (...a: unknown[]) =>
    context.with(storeCallContext(), () => query(...a));
  return pool;
}

// SQLSTATEs that say the store is overloaded, going away or cut off, never that the request was wrong:
// 57014 query_canceled (statement_timeout), 53xxx insufficient resources, 57P0x shutdown / cannot connect now,
// 08xxx connection exceptions, 25P03 idle_in_transaction_session_timeout, 55P03 lock_not_available. A SQLSTATE's
// last three characters may be letters. Not 08P01 protocol_violation: node-postgres reports our own mistakes with it
// (a bind message with the wrong number of parameters), which a retry repeats: a 500, not a 503 to retry.
const UNAVAILABLE_SQLSTATE = /^(57014|53[0-9A-Z]{3}|57P0[0-9A-Z]|(?!08P01)08[0-9A-Z]{3}|25P03|55P03)$/;
const SOCKET_ERRORS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);
const UNAVAILABLE_MESSAGE =
  /timeout exceeded when trying to connect|Query read timeout|Connection terminated|connection timeout|not queryable|ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|EHOSTUNREACH|database pool queue full/i;

/** True when the error is a request pool's refusal to queue one more checkout (its wait queue is full). */
export function isPoolQueueFull(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === STORE_BUSY;
}

/** True when a database error means the store is unreachable, overloaded or too slow: a 503, not a 500. */
export function isStoreUnavailable(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  const e = err as { code?: unknown; message?: unknown };
  if (
    typeof e.code === 'string' &&
    (e.code === STORE_BUSY || UNAVAILABLE_SQLSTATE.test(e.code) || SOCKET_ERRORS.has(e.code))
  )
    return true;
  return typeof e.message === 'string' && UNAVAILABLE_MESSAGE.test(e.message);
}

/**
 * SQLSTATEs of a server that is going away or will not take this client: shutdown, connection, too many clients,
 * login, database.
 */
const NOT_CONNECTED_SQLSTATE = /^(57P0[0-9A-Z]|08[0-9A-Z]{3}|53300|28[0-9A-Z]{3}|3D000)$/;
/** A host name that does not resolve (getaddrinfo's codes): the server is never reached. */
const NAME_ERRORS = new Set(['ENOTFOUND', 'EAI_AGAIN']);
// pg's own words, without a code: a connection that failed is "not queryable" ever after (a session lock's
// connection cut between batches reports that).
const NOT_CONNECTED_MESSAGE =
  /timeout exceeded when trying to connect|Connection terminated|connection timeout|not queryable/i;

/**
 * True when the error (or an error it wraps, as `cause`) says the connection to the server was never made or was
 * lost: a socket error, a host name that does not resolve, a shutdown, a login refused (SQLSTATE class 28) or a
 * database the server does not have (3D000). Not a statement's own error, nor an overloaded server's (a statement
 * timeout, a full disk: isStoreUnavailable counts those too), nor a file's (ENOENT). For a command's hint to check
 * its DATABASE_URL.
 */
export function isConnectionFailure(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  const { code, message, cause } = err as { code?: unknown; message?: unknown; cause?: unknown };
  if (
    typeof code === 'string' &&
    (SOCKET_ERRORS.has(code) || NAME_ERRORS.has(code) || NOT_CONNECTED_SQLSTATE.test(code))
  )
    return true;
  if (typeof message === 'string' && NOT_CONNECTED_MESSAGE.test(message)) return true;
  return isConnectionFailure(cause);
}

/** The 503 a request gets when the store cannot answer in time. */
export const storeUnavailable = () =>
  new ApiError('unavailable', 'The database is busy or unreachable; the request was not charged. Retry shortly.', 0, {
    'retry-after': '2',
  });

/**
 * A connection checked out to hold a session lock (ingest's source lock, the rekey's): the first error pg emits on it
 * is kept (its session, and the lock, are gone), never thrown. `end` takes the listener off and gives the connection
 * back; closed instead (release(err)) when it was lost, or when `failed` says it may still hold its lock.
 */
export async function sessionConnection(
  pool: pg.Pool,
): Promise<{ client: pg.PoolClient; lost: () => Error | null; end: (failed?: Error | null) => void }> {
  const client = await pool.connect();
  let lost: Error | null = null;
  const onError = (err: Error) => {
    lost ??= err;
  };
  client.on('error', onError);
  return {
    client,
    lost: () => lost,
    end: (failed = null) => {
      client.off('error', onError);
      client.release(lost ?? failed ?? undefined);
    },
  };
}

/** One transaction on a pooled connection, released after it. */
export async function withTransaction<T>(pool: pg.Pool, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  return onConnection(pool, (client) => inTransaction(client, () => fn(client)));
}

/**
 * One transaction on a connection the caller holds (and releases): committed when `fn` resolves, rolled back when it
 * throws. For work that must keep its connection across transactions (a session lock held over several).
 */
export async function inTransaction<T>(client: Pick<pg.PoolClient, 'query'>, fn: () => Promise<T>): Promise<T> {
  await client.query('BEGIN');
  try {
    const result = await fn();
    await client.query('COMMIT');
    return result;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    throw err;
  }
}

/** A pool (each transaction on a connection of its own) or a connection its caller holds (its transactions on it). */
export type Db = pg.Pool | pg.PoolClient;

/** One transaction on `db`: a pooled connection, or the connection the caller holds (a session lock's, say). */
export function transaction<T>(db: Db, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  return onConnection(db, (client) => inTransaction(client, () => fn(client)));
}

/**
 * `fn` on `db`'s connection: the one the caller holds, or one checked out of the pool for it and given back after
 * (never BEGIN through a pool, which would leave one of its connections in the transaction). No transaction of its own.
 */
export async function onConnection<T>(db: Db, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  // A held connection is a pg.Client; anything else is asked for a connection of its own.
  if (db instanceof pg.Client) return fn(db as pg.PoolClient);
  const client = await (db as pg.Pool).connect();
  try {
    return await fn(client);
  } finally {
    client.release();
  }
}

export { escapeLiteral, idArrayLiteral, inBatchedTransaction, runStatements, textArrayLiteral } from './sql-text.js';
export type { BatchedTransaction } from './sql-text.js';
/** A node-postgres submittable (a query of one's own making: ingest's write-script.ts) and the connection it is given. */
export type Submittable = pg.Submittable;
export type Connection = pg.Connection;

/** Replaces the database name of a connection URL. */
export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

/** A connection to the server of `url` through its `postgres` database, for statements about the database `url` names. */
async function withServer<T>(url: string, fn: (admin: pg.Client, name: string) => Promise<T>): Promise<T> {
  const name = decodeURIComponent(new URL(url).pathname.slice(1));
  const admin = new pg.Client({ connectionString: withDatabase(url, 'postgres') });
  await admin.connect();
  try {
    return await fn(admin, name);
  } finally {
    await admin.end();
  }
}

async function hasDatabase(admin: pg.Client, name: string): Promise<boolean> {
  const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
  return rowCount !== 0;
}

/** Whether the server has the database `url` names; nothing is made. */
export function databaseExists(url: string): Promise<boolean> {
  return withServer(url, hasDatabase);
}

/** Creates the database if it does not exist (needs a server reachable through its `postgres` database). */
export function ensureDatabase(url: string): Promise<void> {
  return withServer(url, async (admin, name) => {
    if (!(await hasDatabase(admin, name))) await admin.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
  });
}

export function dropDatabase(url: string): Promise<void> {
  return withServer(url, async (admin, name) => {
    await admin.query(`DROP DATABASE IF EXISTS "${name.replace(/"/g, '""')}" WITH (FORCE)`);
  });
}
