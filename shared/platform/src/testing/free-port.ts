// A port for a server a test or a benchmark starts in another process (a redis-server, a collector, the system's
// services), chosen now and bound there later. Two ways the port can be lost in between, each seen here:
// - The kernel hands out a port for listen(0) from its ephemeral range, the range every outgoing connection's local
//   port is drawn from too: any process's connection or port-0 server could take it before the child binds. A
//   clean-clone CI run lost the gateway's port so, and its supervised process was restarted until the test gave up.
//   So ports are chosen outside that range, where only a server naming its port can be.
// - Two processes choosing at once (test files run in parallel, a benchmark beside the tests) could choose the same
//   one. So each port given is reserved for the user's processes on this machine: a file named after it in a folder
//   of the user's own under the temporary folder (one TMPDIR: processes with different ones do not see each other's),
//   holding the pid. A process that exits removes its files; one killed, or ended without its exit handlers
//   (vitest's test processes were seen to), leaves them. A reservation is taken over once its process has ended and
//   it is older than GRACE_MS, so that a child the dead process started still has time to bind the port.
// Where no reservation can be made (the folder belongs to someone else, the temporary folder is read-only), a
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
import { join } from 'node:path';

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
/** A side of the ephemeral range with fewer ports than this is not drawn from. */
const LEAST_ROOM = 1_000;
/** How long a reservation outlives its process: a child it started may still be starting (a gateway under tsx). */
export const GRACE_MS = 10 * 60_000;

/** The ranges ports are drawn from, [from, to): outside the ephemeral range, above LOWEST. */
export function portRanges([lo, hi]: [number, number]): [number, number][] {
  return (
    [
      [LOWEST, lo],
      [hi + 1, 65_536],
    ] as [number, number][]
  ).filter(([from, to]) => to - from >= LEAST_ROOM);
}

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

/** This user's reservations folder, made if missing; null (with a warning, once) when it cannot be used. */
let folderChecked: string | null | undefined;
function reservationsFolder(): string | null {
  if (folderChecked !== undefined) return folderChecked;
  const uid = process.getuid?.() ?? userInfo().username;
  const dir = join(tmpdir(), `pra-ports-${uid}`);
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const st = lstatSync(dir);
    const mine = process.getuid === undefined || st.uid === process.getuid();
    if (!st.isDirectory() || !mine) throw new Error(`${dir} is not a folder of this user's`);
    folderChecked = dir;
  } catch (err) {
    process.emitWarning(`freePort reserves no ports (${(err as Error).message}): it only probes them, which can race`);
    folderChecked = null;
  }
  return folderChecked;
}

const reserved = new Set<string>();
const releaseFile = (file: string) => {
  try {
    // Only a file that is still this process's: a reservation taken over since is someone else's.
    if (readFileSync(file, 'utf8') === String(process.pid)) unlinkSync(file);
  } catch {
    // Gone already.
  }
  reserved.delete(file);
};
process.once('exit', () => {
  for (const f of [...reserved]) releaseFile(f);
});

/**
 * Reserves `port` for this process: false when it is held (by a live process, this one included, or by one ended
 * less than GRACE_MS ago). A new reservation is made whole at once (a file of the pid linked into place, EEXIST when
 * taken); an old one is taken over under a lock (a folder beside it, made atomically) by renaming a new file over it.
 * `dir`: the folder (this user's by default); `now` for tests.
 */
export function reservePort(port: number, dir: string | null = reservationsFolder(), now = Date.now()): boolean {
  if (dir === null) return true; // no reservations here: the probe alone decides
  const file = join(dir, String(port));
  const draft = `${file}.${process.pid}.new`;
  try {
    writeFileSync(draft, String(process.pid));
    try {
      linkSync(draft, file);
      reserved.add(file);
      return true;
    } catch (err) {
      if (code(err) !== 'EEXIST') throw err;
    }
    const lock = `${file}.lock`;
    try {
      mkdirSync(lock);
    } catch {
      return false; // another process is taking it over (or one crashed doing so: that port stays out of use)
    }
    try {
      let holder: string;
      let since: number;
      try {
        holder = readFileSync(file, 'utf8');
        since = statSync(file).mtimeMs;
      } catch (err) {
        if (code(err) !== 'ENOENT') throw err;
        // Released meanwhile: made anew, unless another process has just done so.
        try {
          linkSync(draft, file);
        } catch (again) {
          if (code(again) === 'EEXIST') return false;
          throw again;
        }
        reserved.add(file);
        return true;
      }
      const pid = /^\d+$/.test(holder) ? Number(holder) : 0;
      // A holder alive, or gone too recently; a file not (yet) holding a pid counts as held until it is as old.
      if ((pid > 0 && alive(pid)) || now - since < GRACE_MS) return false;
      renameSync(draft, file);
      reserved.add(file);
      return true;
    } finally {
      rmdirSync(lock);
    }
  } catch (err) {
    if (['EACCES', 'EPERM', 'EROFS'].includes(code(err) ?? '')) return false;
    throw err;
  } finally {
    try {
      unlinkSync(draft);
    } catch {
      // Renamed into place.
    }
  }
}

/** Nothing listens on `port`, on any address (a dual-stack listener on every address conflicts with each). */
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

/**
 * The first port from the `start`-th of the ranges on, in turn, that can be reserved and that nothing listens on.
 * A port reserved but found in use is let go again.
 */
export async function firstFreePort(
  ranges: [number, number][],
  start: number,
  dir: string | null = reservationsFolder(),
): Promise<number> {
  const ports = ranges.map(([from, to]) => to - from).reduce((a, b) => a + b, 0);
  for (let i = 0; i < ports; i++) {
    const port = nthPort(ranges, (start + i) % ports);
    if (!reservePort(port, dir)) continue;
    if (await portFree(port)) return port;
    if (dir !== null) releaseFile(join(dir, String(port)));
  }
  throw new Error(`no free port in ${ranges.map(([f, t]) => `${f}-${t - 1}`).join(', ')}`);
}

/**
 * A TCP port nobody listens on now, outside the ephemeral range, reserved for this process: no other process using
 * freePort is given it while this one lives (and for GRACE_MS after), and this one is not given it twice.
 */
export async function freePort(): Promise<number> {
  const ranges = portRanges(ephemeralRange());
  if (ranges.length === 0) return anyPort();
  // From a random start: processes starting at once rarely meet on the same ports.
  return firstFreePort(ranges, randomInt(ranges.map(([from, to]) => to - from).reduce((a, b) => a + b)));
}
