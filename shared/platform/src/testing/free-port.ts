// A port for a server a test or a benchmark starts in another process (a redis-server, a collector, the system's
// services), chosen now and bound there later. Two ways the port can be lost in between, each seen here:
// - The kernel hands out a port for listen(0) from its ephemeral range, the range every outgoing connection's local
//   port is drawn from too: any process's connection or port-0 server could take it before the child binds. A
//   clean-clone CI run lost the gateway's port so, and its supervised process was restarted until the test gave up.
//   So ports are chosen outside that range, where only a server naming its port can be.
// - Two processes choosing at once (test files run in parallel, a benchmark beside the tests) could choose the same
//   one. So each port given is reserved for the user's processes on this machine: a file named after it in a folder
//   of the user's own under the temporary folder (one TMPDIR: processes with different ones do not see each other's),
//   holding the pid. Files are left when their process ends (a child it started may still be binding the port): a
//   reservation is taken over once its process has ended and it was made GRACE_MS ago or more.
// Where no reservation can be made (the folder is someone else's, the temporary folder is read-only or full), a
// warning says so and ports are only probed. The children must bind the port on the loopback interface or every
// interface (as every child here does): the probe listens on every address, so a listener on any is seen.
import { randomInt } from 'node:crypto';
import {
  linkSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmdirSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { threadId } from 'node:worker_threads';
import { join } from 'node:path';
import { FETCH_BAD_PORTS } from '@pra/core/fetch-bad-ports';

/** The kernel's ephemeral port range: Linux's, read; elsewhere, Linux's default start and IANA's end. */
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
/**
 * Kubernetes' NodePort range, left alone too: on a machine that is a cluster's node, connections to 127.0.0.1 on such
 * a port may be redirected by the node's proxy rules with no listener there for the probe to see.
 */
const NODE_PORTS: [number, number] = [30_000, 32_768];
/** A side of the ephemeral range with fewer ports than this is not drawn from. */
const LEAST_ROOM = 1_000;
/** How long a reservation holds after it was made, its process ended or not: time for a child to bind the port. */
export const GRACE_MS = 10 * 60_000;

/** The ranges ports are drawn from, [from, to): outside the ephemeral range and NODE_PORTS, above LOWEST. */
export function portRanges([lo, hi]: [number, number]): [number, number][] {
  const outside: [number, number][] = [
    [LOWEST, lo],
    [hi + 1, 65_536],
  ];
  return outside
    .flatMap(([from, to]): [number, number][] => [
      [from, Math.min(to, NODE_PORTS[0])],
      [Math.max(from, NODE_PORTS[1]), to],
    ])
    .filter(([from, to]) => to - from >= LEAST_ROOM);
}

/** How many ports the ranges hold. */
const portCount = (ranges: [number, number][]) => ranges.reduce((n, [from, to]) => n + to - from, 0);

/** The n-th port of the ranges, counted from the first range's start (n less than their ports in all). */
export function nthPort(ranges: [number, number][], n: number): number {
  for (const [from, to] of ranges) {
    if (n < to - from) return from + n;
    n -= to - from;
  }
  throw new RangeError(`port ${n} past the ranges' end`);
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
};

const code = (err: unknown) => (err as NodeJS.ErrnoException).code;

/** This user's reservations folder (made if missing), or null when it cannot be used. */
function reservationsFolder(): string | null {
  if (folder !== undefined) return folder;
  const uid = process.getuid?.() ?? userInfo().username;
  const dir = join(tmpdir(), `pra-ports-${uid}`);
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const st = lstatSync(dir);
    const mine = process.getuid === undefined || st.uid === process.getuid();
    // Another user's, a link, or writable by others (who could plant links in it): not used.
    if (!st.isDirectory() || !mine || (st.mode & 0o022) !== 0) {
      throw new Error(`${dir} is not a folder of this user's alone`);
    }
    folder = dir;
  } catch (err) {
    noReservations(err);
  }
  return folder ?? null;
}
let folder: string | null | undefined;

/** From now on ports are only probed, not reserved: said once, as a warning. */
function noReservations(err: unknown): void {
  if (folder !== null) {
    process.emitWarning(`freePort reserves no ports (${(err as Error).message}): it only probes them, which can race`);
  }
  folder = null;
}

/** Lets a reservation of this process go (one taken over since is someone else's, and stays). */
function release(file: string): void {
  try {
    if (readFileSync(file, 'utf8') === String(process.pid)) unlinkSync(file);
  } catch {
    // Gone already.
  }
}

/**
 * Reserves `port` for this process: false when it is held (by a live process, this one included, or reserved less
 * than GRACE_MS ago). A new reservation is made whole at once (a file of the pid linked into place: EEXIST when
 * taken); an old one is taken over under a lock (a folder beside it, made atomically) by renaming a new file over it.
 * Reservations are not let go when their process ends (a child it started may still be binding; vitest's test
 * processes end without running exit handlers anyway): they are taken over once stale. `dir`: this user's folder by
 * default; null: no reservations (true: the probe alone decides). Where the folder cannot be written, reservations
 * stop, with a warning, and the probe alone decides.
 */
export function reservePort(port: number, dir: string | null = reservationsFolder()): boolean {
  if (dir === null) return true;
  const file = join(dir, String(port));
  // Of this thread: worker threads of one process have the same pid.
  const draft = `${file}.${process.pid}.${threadId}.new`;
  try {
    try {
      writeFileSync(draft, String(process.pid));
      linkSync(draft, file);
      return true;
    } catch (err) {
      if (code(err) === 'EEXIST') return takeOver(file, draft);
      // The folder cannot be written (removed, read-only, full, no hard links): the probe alone decides.
      if (dir === folder) noReservations(err);
      return true;
    }
  } finally {
    try {
      unlinkSync(draft);
    } catch {
      // Renamed into place.
    }
  }
}

/** A reservation taken over if stale: its holder ended (or it holds no pid) and it was made GRACE_MS ago or more. */
function takeOver(file: string, draft: string): boolean {
  const lock = `${file}.lock`;
  try {
    mkdirSync(lock);
  } catch {
    return false; // another process is taking it over (or one crashed doing so: that port stays out of use)
  }
  try {
    const holder = readFileSync(file, 'utf8');
    const pid = Number(holder);
    if ((Number.isInteger(pid) && pid > 0 && alive(pid)) || Date.now() - statSync(file).mtimeMs < GRACE_MS)
      return false;
    renameSync(draft, file);
    return true;
  } catch {
    return false; // released meanwhile, or unreadable: the next port
  } finally {
    rmdirSync(lock);
  }
}

/**
 * Nothing listens on `port`, on any address (on Linux a dual-stack listener on every address conflicts with each):
 * true; or the error that kept the probe from listening (EADDRINUSE, or EACCES where the port may not be bound).
 */
export const portFree = (port: number) =>
  new Promise<true | Error>((resolve) => {
    const s = createServer()
      .once('error', (err) => resolve(err))
      .once('listening', () => s.close(() => resolve(true)));
    s.listen(port);
  });

/** The kernel's choice for port 0: on a machine whose ephemeral range leaves no room outside it. */
let warnedAnyPort = false;
async function anyPort(): Promise<number> {
  if (!warnedAnyPort) {
    process.emitWarning('no room outside the ephemeral port range: freePort falls back to listen(0), which can race');
    warnedAnyPort = true;
  }
  for (;;) {
    const s = createServer();
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
    const port = (s.address() as { port: number }).port;
    await new Promise((r) => s.close(r));
    if (!FETCH_BAD_PORTS.has(port)) return port;
  }
}

/** Every port this process was given: never given again, reservations or not. */
const givenHere = new Set<number>();

/**
 * The first port from the `start`-th of the ranges on, in turn, not given before, not one fetch() refuses
 * (FETCH_BAD_PORTS: a system a test starts there never answers its health checks; a clean-clone CI run gave the
 * gateway 10080, and its start timed out), that can be reserved and that the probe can listen on. A port reserved
 * but found in use (or not to be bound) is let go again.
 */
export async function firstFreePort(
  ranges: [number, number][],
  start: number,
  dir: string | null = reservationsFolder(),
  given: Set<number> = givenHere,
): Promise<number> {
  const ports = portCount(ranges);
  let last: Error | null = null;
  for (let i = 0; i < ports; i++) {
    const port = nthPort(ranges, (start + i) % ports);
    if (given.has(port) || FETCH_BAD_PORTS.has(port) || !reservePort(port, dir)) continue;
    const probed = await portFree(port);
    if (probed === true) {
      given.add(port);
      return port;
    }
    last = probed;
    if (dir !== null) release(join(dir, String(port)));
  }
  const why = last ? ` (the last probe: ${last.message})` : '';
  throw new Error(`no free port in ${ranges.map(([f, t]) => `${f}-${t - 1}`).join(', ')}${why}`);
}

/**
 * A TCP port nobody listens on now, outside the ephemeral range, reserved for this process: no other process using
 * freePort is given it while this one lives (nor, after, until GRACE_MS from the reservation), nor this one twice.
 */
export async function freePort(): Promise<number> {
  const ranges = portRanges(ephemeralRange());
  if (ranges.length === 0) return anyPort();
  // From a random start: processes starting at once rarely meet on the same ports.
  return firstFreePort(ranges, randomInt(portCount(ranges)));
}
