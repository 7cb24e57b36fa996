// A port for a server a test or a benchmark starts in another process (a redis-server, a collector, the system's
// services), chosen now and bound there later. Two ways the port can be lost in between, each seen here:
// - The kernel hands out a port for listen(0) from its ephemeral range, the range every outgoing connection's local
//   port is drawn from too: any process's connection or port-0 server could take it before the child binds. A
//   clean-clone CI run lost the gateway's port so, and its supervised process was restarted until the test gave up.
//   So ports are chosen outside that range, where only a server naming its port can be.
// - Two processes choosing at once (test files run in parallel, a benchmark beside the tests) could choose the same
//   one. So each port given is reserved machine-wide, by a file named after it in RESERVATIONS holding the pid, until
//   the process that reserved it ends. A process that exits removes its files; one killed, or ended without
//   its exit handlers (vitest's test processes were seen to), leaves them: a reservation whose process has ended is
//   taken over.
// The children must bind the port on the loopback interface or every interface (as every child here does): the
// probe listens on every interface, so a listener on any address is seen.
import { randomInt } from 'node:crypto';
import { mkdirSync, readFileSync, rmdirSync, unlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The kernel's ephemeral port range: Linux's, read; elsewhere, the widest default (Linux's start, IANA's end). */
export function ephemeralRange(text?: string): [number, number] {
  try {
    const [lo, hi] = (text ?? readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8'))
      .trim()
      .split(/\s+/)
      .map(Number);
    if (Number.isInteger(lo) && Number.isInteger(hi) && lo! > 0 && hi! >= lo!) return [lo!, hi!];
  } catch {
    // Not Linux: the default below.
  }
  return [32_768, 65_535];
}

/** Ports below this are left alone (the well-known services: PostgreSQL's 5432, Redis's 6379, and the like). */
const LOWEST = 10_000;
/** A side of the ephemeral range with fewer ports than this is not drawn from. */
const LEAST_ROOM = 1_000;

/** The ranges ports are drawn from, [from, to): outside the ephemeral range, above LOWEST. */
export function portRanges([lo, hi]: [number, number]): [number, number][] {
  return (
    [
      [LOWEST, lo],
      [hi + 1, 65_536],
    ] as [number, number][]
  ).filter(([from, to]) => to - from >= LEAST_ROOM);
}

export const RESERVATIONS = join(tmpdir(), 'pra-ports');

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
};

const reserved: string[] = [];
process.once('exit', () => {
  for (const f of reserved) {
    try {
      unlinkSync(f);
    } catch {
      // Taken over, or the folder removed: nothing to release.
    }
  }
});

/**
 * Reserves `port` for this process: false when a live process (this one included) holds it. A stale reservation is
 * taken over under a lock (a folder beside it, made atomically), so that two processes cannot both take it over.
 */
export function reservePort(port: number, dir = RESERVATIONS): boolean {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, String(port));
  const take = (flag: 'wx' | 'w') => {
    writeFileSync(file, String(process.pid), { flag });
    reserved.push(file);
    return true;
  };
  try {
    return take('wx');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  const lock = `${file}.lock`;
  try {
    mkdirSync(lock);
  } catch {
    return false; // another process is taking it over
  }
  try {
    let holder = 0;
    try {
      holder = Number(readFileSync(file, 'utf8'));
    } catch {
      // Released meanwhile: free to take.
    }
    if (holder > 0 && alive(holder)) return false;
    return take('w');
  } finally {
    rmdirSync(lock);
  }
}

/** Nothing listens on `port`, on any address. */
export const portFree = (port: number) =>
  new Promise<boolean>((resolve) => {
    const s = createServer()
      .once('error', () => resolve(false))
      .once('listening', () => s.close(() => resolve(true)));
    s.listen(port);
  });

/** The kernel's choice for port 0: on a machine whose ephemeral range leaves no room outside it. */
async function anyPort(): Promise<number> {
  process.emitWarning('no room outside the ephemeral port range: freePort falls back to listen(0), which can race');
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const port = (s.address() as { port: number }).port;
  await new Promise((r) => s.close(r));
  return port;
}

/** The n-th port of the ranges, counted from the first range's start (n less than their ports in all). */
export function nthPort(ranges: [number, number][], n: number): number {
  for (const [from, to] of ranges) {
    if (n < to - from) return from + n;
    n -= to - from;
  }
  throw new RangeError(`port ${n} past the ranges' end`);
}

/**
 * A TCP port nobody listens on now, outside the ephemeral range, reserved for this process (no other process using
 * freePort is given it while this one lives, and this one is not given it twice).
 */
export async function freePort(): Promise<number> {
  const ranges = portRanges(ephemeralRange());
  if (ranges.length === 0) return anyPort();
  const ports = ranges.map(([from, to]) => to - from).reduce((a, b) => a + b);
  // From a random start, in turn: processes starting at once rarely probe the same ports.
  const start = randomInt(ports);
  for (let i = 0; i < ports; i++) {
    const port = nthPort(ranges, (start + i) % ports);
    if (reservePort(port) && (await portFree(port))) return port;
  }
  throw new Error(`no free port outside the ephemeral range ${ephemeralRange().join('-')}`);
}
