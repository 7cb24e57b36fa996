// The bounded wait queue of a request pool, against the real PostgreSQL: a checkout is refused only when it would
// have to wait and the queue is full, never while the pool may still open a connection.
import { describe, expect, inject, it } from 'vitest';
import { createPool, isConnectionFailure, isStoreUnavailable } from './db.js';

const limits = (maxWaiting: number) => ({
  connectTimeoutMs: 2_000,
  statementTimeoutMs: 2_000,
  idleInTransactionTimeoutMs: 5_000,
  maxWaiting,
});

describe('BoundedPool', () => {
  it('with no wait queue (maxWaiting 0) still opens connections up to its size, then refuses at once', async () => {
    const pool = createPool(inject('databaseUrl'), 2, 'bounded-pool-test', limits(0));
    try {
      const [a, b] = await Promise.all([pool.connect(), pool.connect()]);
      await expect(pool.connect()).rejects.toThrow(/queue full/);
      a.release();
      const c = await pool.connect();
      c.release();
      b.release();
    } finally {
      await pool.end();
    }
  });

  it('queues up to maxWaiting checkouts while every connection is busy, and refuses the next', async () => {
    const pool = createPool(inject('databaseUrl'), 1, 'bounded-pool-test', limits(1));
    try {
      const a = await pool.connect();
      const waiting = pool.connect();
      await expect(pool.connect()).rejects.toThrow(/queue full/);
      a.release();
      (await waiting).release();
    } finally {
      await pool.end();
    }
  });
});

describe('isConnectionFailure', () => {
  const err = (code: string | undefined, message = 'x', cause?: unknown) =>
    Object.assign(new Error(message, { cause }), code === undefined ? {} : { code });
  it('is a failure to reach the server or be let in, its causes included; not a statement, overload or file error', () => {
    for (const e of [
      err('ECONNREFUSED'),
      err('ENOTFOUND'),
      err('57P01'),
      err('08006'),
      err('53300'),
      err('28P01'),
      err('28000'),
      err('08P01'),
      err('3D000'),
      err(undefined, 'Client has encountered a connection error and is not queryable'),
      err(undefined, 'Connection terminated unexpectedly'),
      err(undefined, 'the connection holding the lock was lost', err(undefined, 'x', err('ECONNRESET'))),
    ])
      expect(isConnectionFailure(e), `${(e as { code?: string }).code} ${e.message}`).toBe(true);
    for (const e of [
      err('57014'),
      err('53100'),
      err('55P03'),
      err('23505'),
      err('ENOENT'),
      err(undefined),
      null,
      'text',
    ])
      expect(isConnectionFailure(e), String(e)).toBe(false);
  });
});

describe('isStoreUnavailable', () => {
  const err = (code: string | undefined, message = 'x') =>
    Object.assign(new Error(message), code === undefined ? {} : { code });
  it('is the store overloaded, going away or cut off (SQLSTATE classes with letters too); not a wrong statement, nor a protocol violation (our own bug: a retry repeats it)', () => {
    for (const e of [
      err('57014'),
      err('53300'),
      err('53100'),
      err('57P01'),
      err('57P05'),
      err('08006'),
      err('08001'),
      err('25P03'),
      err('55P03'),
      err('ECONNRESET'),
      err(undefined, 'Connection terminated unexpectedly'),
    ])
      expect(isStoreUnavailable(e), `${(e as { code?: string }).code} ${e.message}`).toBe(true);
    for (const e of [
      err('23505'),
      err('42P01'),
      err('22P02'),
      err('08P01'),
      err('0800'),
      err('08P011'),
      err(undefined),
      null,
    ])
      expect(isStoreUnavailable(e), String(e)).toBe(false);
  });
});
