// A connection lost while checked out of a pool (its backend terminated, as a server restart does to all of them)
// must fail what runs on it, not the process: pg emits the lost connection's error as an event, and the pool listens
// only to its idle clients. Found by review: a transaction (withTransaction) whose backend was terminated ended the
// whole process with an unhandled 'error' event, whether a query was in flight or the client sat idle between two.
import { describe, expect, inject, it } from 'vitest';
import { createPool, isStoreUnavailable, transaction, withTransaction } from './db.js';

const terminate = async (pool: ReturnType<typeof createPool>, pid: number) => {
  await pool.query('SELECT pg_terminate_backend($1)', [pid]);
  // The server has ended the backend once it leaves pg_stat_activity; the client hears of it within moments.
  for (let i = 0; i < 100; i++) {
    const { rows } = await pool.query('SELECT 1 FROM pg_stat_activity WHERE pid = $1', [pid]);
    if (rows.length === 0) break;
    await new Promise((r) => setTimeout(r, 20));
  }
  await new Promise((r) => setTimeout(r, 100));
};

describe('a checked-out connection lost', () => {
  it('idle between two statements of a transaction: the next one fails, the process lives on', async () => {
    const pool = createPool(inject('databaseUrl'), 3, 'lost-connection-test');
    try {
      const work = withTransaction(pool, async (c) => {
        const { rows } = await c.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
        await terminate(pool, rows[0]!.pid);
        await c.query('SELECT 1');
      });
      // A 503 for a request (the store went away), not a 500: pg says the client "is not queryable".
      const err = await work.then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).not.toBeNull();
      expect(isStoreUnavailable(err)).toBe(true);
      // The pool goes on with a connection of its own.
      expect((await pool.query<{ one: number }>('SELECT 1 AS one')).rows[0]!.one).toBe(1);
    } finally {
      await pool.end();
    }
  });

  it('with a query in flight: that query fails, the process lives on', async () => {
    const pool = createPool(inject('databaseUrl'), 3, 'lost-connection-test');
    try {
      const client = await pool.connect();
      const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      const sleeping = transaction(client, () => client.query('SELECT pg_sleep(30)'));
      sleeping.catch(() => {});
      await pool.query('SELECT pg_terminate_backend($1)', [rows[0]!.pid]);
      await expect(sleeping).rejects.toThrow();
      client.release(new Error('lost'));
      await new Promise((r) => setTimeout(r, 100));
      expect((await pool.query<{ one: number }>('SELECT 1 AS one')).rows[0]!.one).toBe(1);
    } finally {
      await pool.end();
    }
  });
});
