// The ReadPool's routing and fallback against this run's real database. The "replica" here is the same database
// reached through a TCP proxy the test can cut or stall, its sessions marked by a setting (rp.role = replica) so that
// a statement can fail on the replica only, with a real SQLSTATE. Replication itself (lag, a standby stopped) is
// tested on a real primary and standby in services/stack/test/read-replica.test.ts.
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { createPool, type Pool } from './db.js';
import { createReadPool, fallbackReason, type ReadPool, replicaLimits } from './read-pool.js';
import type {} from './testing/index.js';
import { proxyUrl, type TcpProxy } from './testing/tcp-proxy.js';
import { freePort } from './testing/free-port.js';

const LIMITS = { connectTimeoutMs: 1_000, statementTimeoutMs: 800, idleInTransactionTimeoutMs: 5_000, maxWaiting: 4 };
/** Raises `code` on the replica's sessions only; on the primary it does nothing (no rows). */
const failOnReplica = (code: string) =>
  `DO $$ BEGIN IF current_setting('rp.role', true) = 'replica' THEN
     RAISE EXCEPTION 'on the replica only' USING ERRCODE = '${code}'; END IF; END $$`;

let proxy: TcpProxy;
let replicaUrl: string;
const open: { primary: Pool; reads: ReadPool }[] = [];

beforeAll(async () => {
  const through = await proxyUrl(inject('databaseUrl'));
  proxy = through.proxy;
  const url = new URL(through.url);
  url.searchParams.set('options', '-c rp.role=replica');
  replicaUrl = url.toString();
});
afterEach(async () => {
  proxy.restore();
  for (const { primary, reads } of open.splice(0)) {
    await reads.end();
    await primary.end();
  }
});
afterAll(async () => {
  await proxy.close();
});

async function readPool(
  opts: { url?: string; size?: number; maxWaiting?: number; probeIntervalMs?: number; maxLagSeconds?: number } = {},
) {
  const primary = createPool(inject('databaseUrl'), 2, 'read-pool-test', LIMITS);
  const reads = createReadPool(primary, opts.url ?? replicaUrl, {
    size: opts.size ?? 2,
    name: 'read-pool-test',
    limits: { ...LIMITS, maxWaiting: opts.maxWaiting ?? LIMITS.maxWaiting },
    maxLagSeconds: opts.maxLagSeconds ?? 30,
    downMs: 300,
    probeIntervalMs: opts.probeIntervalMs ?? 100,
  });
  open.push({ primary, reads });
  await reads.probe();
  return { primary, reads };
}
const where = async (reads: ReadPool) =>
  (await reads.query<{ role: string }>(`SELECT coalesce(current_setting('rp.role', true), 'primary') AS role`)).rows[0]!
    .role;

describe('ReadPool', () => {
  it('reads the replica once measured; a server that is not a standby is 0 s behind', async () => {
    const { reads } = await readPool();
    expect(reads.state()).toBe('serving');
    expect(reads.lagSeconds()).toBe(0);
    expect(await where(reads)).toBe('replica');
    expect(reads.counts).toEqual({ replica: 1, primary: 0, fallbacks: 0 });
  });

  it("throws a statement's own error without asking the primary", async () => {
    const { reads } = await readPool();
    await expect(reads.query('SELECT 1 / 0')).rejects.toMatchObject({ code: '22012' });
    expect(reads.counts).toMatchObject({ primary: 0, fallbacks: 0 });
    expect(reads.state()).toBe('serving');
  });

  it('runs a read canceled by a recovery conflict, or missing a table, again on the primary, and stays on the replica', async () => {
    const { reads } = await readPool();
    for (const code of ['40001', '40P01', '42P01']) await reads.query(failOnReplica(code));
    expect(reads.counts).toMatchObject({ primary: 3, fallbacks: 3 });
    expect(reads.state()).toBe('serving');
    expect(await where(reads)).toBe('replica');
  });

  it('falls back on a replica cut off, marks it down (reads go straight to the primary), and returns after', async () => {
    const { reads } = await readPool();
    expect(await where(reads)).toBe('replica');
    proxy.cut();
    expect(await where(reads)).toBe('primary');
    expect(reads.state()).toBe('down');
    expect(reads.counts.fallbacks).toBe(1);
    for (let i = 0; i < 5; i++) expect(await where(reads)).toBe('primary');
    expect(reads.counts.fallbacks).toBe(1); // not tried while down
    proxy.restore();
    const until = Date.now() + 5_000;
    while (reads.state() !== 'serving' && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    expect(await where(reads)).toBe('replica');
  });

  it('falls back on a replica that stops answering: its own timeout ends the wait, leaving the rest to the primary', async () => {
    // The replica's whole wait (statement timeout, then the client's) ends before the primary's statement timeout,
    // the deadline of a lookup's statements together: what is left is the primary's.
    const replica = replicaLimits(LIMITS);
    expect(replica.queryTimeoutMs).toBeLessThan(LIMITS.statementTimeoutMs);
    const { reads } = await readPool();
    expect(await where(reads)).toBe('replica');
    proxy.stall();
    expect(await where(reads)).toBe('primary');
    expect(reads.counts.fallbacks).toBe(1);
    expect(reads.state()).toBe('down');
  });

  it('stops serving a replica it has not measured for longer than the lag bound (its probes refused, busy)', async () => {
    // One connection and no wait queue: while the test holds it, every probe is refused (queue full).
    const { reads } = await readPool({ size: 1, maxWaiting: 0, probeIntervalMs: 50, maxLagSeconds: 0.3 });
    expect(reads.state()).toBe('serving');
    const held = await reads.replica.connect();
    try {
      for (let i = 0; i < 100 && reads.state() === 'serving'; i++) await new Promise((r) => setTimeout(r, 20));
      expect(reads.state()).toBe('lagging');
      expect(await where(reads)).toBe('primary');
    } finally {
      held.release();
    }
    await reads.probe();
    expect(reads.state()).toBe('serving');
  });

  it('sends a read to the primary when the replica pool is full, without marking it down', async () => {
    // One connection, one waiter allowed; no probe in the way. The test holds the connection, a first read waits.
    const { reads } = await readPool({ size: 1, maxWaiting: 1, probeIntervalMs: 60_000 });
    const held = await reads.replica.connect();
    let waiting: Promise<string> | undefined;
    try {
      waiting = where(reads);
      for (let i = 0; i < 200 && reads.replica.waitingCount === 0; i++) await new Promise((r) => setTimeout(r, 5));
      expect(await where(reads)).toBe('primary');
      expect(reads.counts.fallbacks).toBe(1);
      expect(reads.state()).toBe('serving');
    } finally {
      held.release();
    }
    expect(await waiting).toBe('replica');
  });

  it('never reads a replica it could not measure (nothing listens there)', async () => {
    const { reads } = await readPool({ url: `postgres://postgres@127.0.0.1:${await freePort()}/postgres` });
    expect(reads.state()).toBe('down');
    expect(await where(reads)).toBe('primary');
    expect(reads.counts).toMatchObject({ replica: 0, fallbacks: 0 });
  });

  it('end() closes the replica, not the primary', async () => {
    const { primary, reads } = await readPool();
    await reads.end();
    expect(reads.replica.ended).toBe(true);
    expect(primary.ended).toBe(false);
  });
});

describe('fallbackReason', () => {
  it("tells the statement's own errors from a replica that cannot answer", () => {
    const e = (code: string, message = 'x') => Object.assign(new Error(message), { code });
    expect(fallbackReason(e('22012'))).toBeNull();
    expect(fallbackReason(e('42601'))).toBeNull();
    expect(fallbackReason(new TypeError('a bug'))).toBeNull();
    expect(fallbackReason(e('40001'))).toBe('conflict');
    expect(fallbackReason(e('42703'))).toBe('behind');
    expect(fallbackReason(e('PRA_STORE_BUSY'))).toBe('busy');
    for (const code of ['ECONNREFUSED', '57P01', '57014', '08006', '28P01', '3D000', 'XX000', 'ENOTFOUND'])
      expect(fallbackReason(e(code)), code).toBe('down');
    expect(fallbackReason(new Error('Connection terminated unexpectedly'))).toBe('down');
    expect(fallbackReason(new Error('Query read timeout'))).toBe('down');
  });

  it('gives the replica half the statement timeout, so a fallback has time left', () => {
    expect(
      replicaLimits({
        connectTimeoutMs: 2_000,
        statementTimeoutMs: 4_000,
        idleInTransactionTimeoutMs: 1,
        maxWaiting: 1,
      }),
    ).toMatchObject({ statementTimeoutMs: 2_000, connectTimeoutMs: 2_000, queryTimeoutMs: 2_500 });
  });
});
