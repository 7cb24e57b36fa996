import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createServer, type Server } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { FETCH_BAD_PORTS } from '@pra/core/fetch-bad-ports';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import {
  ephemeralRange,
  firstFreePort,
  freePort,
  GRACE_MS,
  nthPort,
  portFree,
  portRanges,
  reservePort,
} from './free-port.js';

const listening: Server[] = [];
afterEach(async () => {
  await Promise.all(listening.splice(0).map((s) => new Promise((r) => s.close(r))));
});
const listen = (port: number, host = '127.0.0.1', ipv6Only = false) =>
  new Promise<Server>((resolve, reject) => {
    const s = createServer().once('error', reject);
    s.listen({ port, host, ipv6Only }, () => {
      listening.push(s);
      resolve(s);
    });
  });
const dir = mkdtempSync(join(tmpdir(), 'free-port-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const holder = (port: number) => readFileSync(join(dir, String(port)), 'utf8');
/** A reservation file as another process would have left it, `ageMs` old. */
const leave = (port: number, content: string, ageMs: number) => {
  const f = join(dir, String(port));
  writeFileSync(f, content);
  const t = (Date.now() - ageMs) / 1000;
  utimesSync(f, t, t);
};
/** A pid that has ended. */
const endedPid = async () => {
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((r) => child.once('exit', r));
  return child.pid!;
};
const hasIpv6Loopback = Object.values(networkInterfaces()).some((l) => l?.some((a) => a.address === '::1'));

describe('freePort', () => {
  it('reads the ephemeral range, and falls back to a default on text it cannot read', () => {
    expect(ephemeralRange('1024\t4999\n')).toEqual([1024, 4999]);
    expect(ephemeralRange('garbage')).toEqual([32_768, 65_535]);
    expect(ephemeralRange('5000 4000')).toEqual([32_768, 65_535]);
  });

  it('draws from ranges that lie wholly outside the ephemeral range, or none when there is no room', () => {
    // Kubernetes' NodePorts (30000-32767) are left out too.
    expect(portRanges([32_768, 60_999])).toEqual([
      [10_000, 30_000],
      [61_000, 65_536],
    ]);
    expect(portRanges([15_000, 65_000])).toEqual([[10_000, 15_000]]);
    expect(portRanges([40_000, 50_000])).toEqual([
      [10_000, 30_000],
      [32_768, 40_000],
      [50_001, 65_536],
    ]);
    expect(portRanges([1024, 65_535])).toEqual([]);
    const ranges = portRanges([32_768, 60_999]);
    expect([0, 19_999, 20_000, 24_535].map((n) => nthPort(ranges, n))).toEqual([10_000, 29_999, 61_000, 65_535]);
    expect(() => nthPort(ranges, 24_536)).toThrow(RangeError);
  });

  it('reserves a port once, for this process', () => {
    expect(reservePort(20_001, dir)).toBe(true);
    expect(holder(20_001)).toBe(String(process.pid));
    expect(reservePort(20_001, dir)).toBe(false);
  });

  it("leaves a live process's reservation alone, whatever its age", async () => {
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
    try {
      leave(20_002, String(child.pid), 2 * GRACE_MS);
      expect(reservePort(20_002, dir)).toBe(false);
      expect(holder(20_002)).toBe(String(child.pid));
    } finally {
      child.kill('SIGKILL');
      await new Promise((r) => child.once('exit', r));
    }
  });

  it("takes over an ended process's reservation only once it is older than the grace a child has to bind", async () => {
    const pid = await endedPid();
    leave(20_003, String(pid), GRACE_MS / 2);
    expect(reservePort(20_003, dir)).toBe(false);
    leave(20_003, String(pid), GRACE_MS + 1_000);
    expect(reservePort(20_003, dir)).toBe(true);
    expect(holder(20_003)).toBe(String(process.pid));
  });

  it('counts a file holding no pid as held until it is as old', () => {
    leave(20_004, '', 1_000);
    expect(reservePort(20_004, dir)).toBe(false);
    leave(20_005, 'not a pid', 1_000);
    expect(reservePort(20_005, dir)).toBe(false);
    leave(20_005, 'not a pid', GRACE_MS + 1_000);
    expect(reservePort(20_005, dir)).toBe(true);
  });

  it('leaves the choice to the probe where no reservation can be written', () => {
    expect(reservePort(20_006, join(dir, 'no-such-folder'))).toBe(true);
  });

  it('passes by a port reserved by a live process and one a server holds, and lets the latter go', async () => {
    // Three ports reserved machine-wide, so that no other test's server takes one meanwhile.
    const [a, b, c] = [await freePort(), await freePort(), await freePort()];
    const ranges: [number, number][] = [
      [a, a + 1],
      [b, b + 1],
      [c, c + 1],
    ];
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
    try {
      leave(a, String(child.pid), 0);
      await listen(b);
      expect(await firstFreePort(ranges, 0, dir, new Set())).toBe(c);
      expect(holder(a)).toBe(String(child.pid));
      // Reserved, found in use, let go again.
      expect(existsSync(join(dir, String(b)))).toBe(false);
    } finally {
      child.kill('SIGKILL');
      await new Promise((r) => child.once('exit', r));
    }
  });

  it('gives ports outside the ephemeral range, never the same twice, each free to listen on', async () => {
    const [lo, hi] = ephemeralRange();
    const ports: number[] = [];
    for (let i = 0; i < 8; i++) ports.push(await freePort());
    expect(new Set(ports).size).toBe(ports.length);
    for (const p of ports) expect(p < lo || p > hi).toBe(true);
    for (const p of ports) await listen(p);
  });

  it('never gives a port twice in a process, even without reservations', async () => {
    const port = await freePort();
    const given = new Set<number>();
    // No reservations (null): only the process's record of what it gave keeps the port from being given again.
    expect(await firstFreePort([[port, port + 1]], 0, null, given)).toBe(port);
    await expect(firstFreePort([[port, port + 1]], 0, null, given)).rejects.toThrow(/no free port/);
  });

  it("never gives a port fetch() refuses to connect to (the Fetch standard's bad ports: 10080)", async () => {
    // What a test would meet there: a server it cannot reach with fetch (where the port can be bound here).
    const server = createHttpServer((_req, res) => res.end('ok'));
    const bound = await new Promise<boolean>((resolve) => {
      server.once('error', () => resolve(false)).listen(10_080, '127.0.0.1', () => resolve(true));
    });
    if (bound) {
      await expect(fetch('http://127.0.0.1:10080/')).rejects.toThrow();
      await new Promise((r) => server.close(r));
    }
    // Drawn from a range that holds it, from it on: the next port is given, never it (those a user may listen on).
    const given = new Set<number>();
    for (const port of [...FETCH_BAD_PORTS].filter((p) => p >= 1024)) {
      expect(await firstFreePort([[port, port + 50]], 0, null, given)).toBeGreaterThan(port);
      await expect(firstFreePort([[port, port + 1]], 0, null, given)).rejects.toThrow(/no free port/);
    }
  });

  it('sees a port held by a server on 127.0.0.1 as not free, and free again once it closes', async () => {
    const port = await freePort();
    expect(await portFree(port)).toBe(true);
    const s = await listen(port);
    expect(await portFree(port)).toMatchObject({ code: 'EADDRINUSE' });
    await new Promise((r) => s.close(r));
    expect(await portFree(port)).toBe(true);
  });

  it.skipIf(!hasIpv6Loopback)('sees a server on IPv6 loopback alone, which a probe on 127.0.0.1 misses', async () => {
    const port = await freePort();
    await listen(port, '::1', true);
    expect(await portFree(port)).toMatchObject({ code: 'EADDRINUSE' });
  });
});
