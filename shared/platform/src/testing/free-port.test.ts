import { createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ephemeralRange, freePort, portSlices } from './free-port.js';

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

describe('freePort', () => {
  it('reads the ephemeral range, and falls back to Linux default on text it cannot read', () => {
    expect(ephemeralRange('1024\t4999\n')).toEqual([1024, 4999]);
    expect(ephemeralRange('garbage')).toEqual([32_768, 60_999]);
    expect(ephemeralRange('5000 4000')).toEqual([32_768, 60_999]);
  });

  it('draws from slices that lie wholly outside the ephemeral range, or none when there is no room', () => {
    for (const range of [
      [32_768, 60_999],
      [15_000, 65_000],
      [49_152, 65_535],
    ] as [number, number][]) {
      const slices = portSlices(range);
      expect(slices.length).toBeGreaterThan(0);
      for (const [from, to] of slices) {
        expect(from).toBeGreaterThanOrEqual(10_000);
        expect(to).toBeLessThanOrEqual(65_536);
        expect(to <= range[0] || from > range[1]).toBe(true);
      }
    }
    expect(portSlices([1024, 65_535])).toEqual([]);
  });

  it('gives ports outside the ephemeral range, never the same twice, and skips one a server holds', async () => {
    const [lo, hi] = ephemeralRange();
    const first = await freePort();
    // A server on the next port in turn: freePort must pass it by.
    await listen(first + 1);
    const ports = [first];
    for (let i = 0; i < 5; i++) ports.push(await freePort());
    expect(new Set(ports).size).toBe(ports.length);
    expect(ports).not.toContain(first + 1);
    for (const p of ports) expect(p < lo || p > hi).toBe(true);
    // Each is free: a server can listen on it.
    for (const p of ports) await listen(p);
  });
});
