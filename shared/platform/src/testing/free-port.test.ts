import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { ephemeralRange, freePort, nthPort, portFree, portRanges, reservePort } from './free-port.js';

const listening: Server[] = [];
afterEach(async () => {
  await Promise.all(listening.splice(0).map((s) => new Promise((r) => s.close(r))));
});
const listen = (port: number) =>
  new Promise<Server>((resolve, reject) => {
    const s = createServer().once('error', reject);
    s.listen(port, '127.0.0.1', () => {
      listening.push(s);
      resolve(s);
    });
  });
const dir = mkdtempSync(join(tmpdir(), 'free-port-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('freePort', () => {
  it('reads the ephemeral range, and falls back to the widest default on text it cannot read', () => {
    expect(ephemeralRange('1024\t4999\n')).toEqual([1024, 4999]);
    expect(ephemeralRange('garbage')).toEqual([32_768, 65_535]);
    expect(ephemeralRange('5000 4000')).toEqual([32_768, 65_535]);
  });

  it('draws from ranges that lie wholly outside the ephemeral range, or none when there is no room', () => {
    expect(portRanges([32_768, 60_999])).toEqual([
      [10_000, 32_768],
      [61_000, 65_536],
    ]);
    expect(portRanges([15_000, 65_000])).toEqual([[10_000, 15_000]]);
    expect(portRanges([1024, 65_535])).toEqual([]);
    const ranges = portRanges([32_768, 60_999]);
    expect([0, 22_767, 22_768, 27_303].map((n) => nthPort(ranges, n))).toEqual([10_000, 32_767, 61_000, 65_535]);
    expect(() => nthPort(ranges, 27_304)).toThrow(RangeError);
  });

  it('reserves a port once: not for a second taker while its holder lives, taken over once it has ended', async () => {
    expect(reservePort(20_001, dir)).toBe(true);
    expect(reservePort(20_001, dir)).toBe(false);
    expect(readFileSync(join(dir, '20001'), 'utf8')).toBe(String(process.pid));
    // A live process's reservation is left alone; an ended one's is taken over.
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
    try {
      writeFileSync(join(dir, '20002'), String(child.pid));
      expect(reservePort(20_002, dir)).toBe(false);
    } finally {
      child.kill('SIGKILL');
      await new Promise((r) => child.once('exit', r));
    }
    expect(reservePort(20_002, dir)).toBe(true);
    expect(readFileSync(join(dir, '20002'), 'utf8')).toBe(String(process.pid));
  });

  it('gives ports outside the ephemeral range, never the same twice, each free to listen on', async () => {
    const [lo, hi] = ephemeralRange();
    const ports: number[] = [];
    for (let i = 0; i < 8; i++) ports.push(await freePort());
    expect(new Set(ports).size).toBe(ports.length);
    for (const p of ports) expect(p < lo || p > hi).toBe(true);
    for (const p of ports) await listen(p);
  });

  it('sees a port held by a server on any address as not free', async () => {
    const port = await freePort();
    expect(await portFree(port)).toBe(true);
    const s = await listen(port);
    expect(await portFree(port)).toBe(false);
    await new Promise((r) => s.close(r));
    expect(await portFree(port)).toBe(true);
    // A server on IPv6 loopback alone: a probe on 127.0.0.1 would miss it.
    const v6 = createServer();
    const bound = await new Promise<boolean>((r) => {
      v6.once('error', () => r(false));
      v6.listen({ port, host: '::1', ipv6Only: true }, () => r(true));
    });
    if (bound) {
      expect(await portFree(port)).toBe(false);
      await new Promise((r) => v6.close(r));
    }
  });
});
