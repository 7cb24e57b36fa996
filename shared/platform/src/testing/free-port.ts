// A port for a server a test starts in another process (a redis-server, a collector, the system's services), chosen
// now and bound there later. A port the kernel hands out for port 0 comes from its ephemeral range, the range every
// outgoing connection's local port is drawn from too: between the choice and the child's bind, any process's
// connection or port-0 server could take it, and the child then fails to listen (a clean-clone CI run lost the
// gateway's port so, and its supervised process was restarted until the test gave up). So ports are chosen outside
// that range, where only a server naming its port can be, and each test process draws from a slice of its own
// (VITEST_POOL_ID: the test files that run at once have different ids), in turn, so that two test processes, or two
// servers of one, are never given the same port.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/** The kernel's ephemeral port range (Linux's default when it cannot be read). */
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
  return [32_768, 60_999];
}

/** Ports below this are left alone (the well-known services: PostgreSQL's 5432, Redis's 6379, and the like). */
const LOWEST = 10_000;
const SLICE = 1_000;

/**
 * The slices ports are drawn from, outside the ephemeral range: below it from LOWEST, and above it. Empty when
 * neither side has a whole slice.
 */
export function portSlices([lo, hi]: [number, number]): [number, number][] {
  const slices: [number, number][] = [];
  for (let p = LOWEST; p + SLICE <= lo; p += SLICE) slices.push([p, p + SLICE]);
  for (let p = hi + 1; p + SLICE <= 65_536; p += SLICE) slices.push([p, p + SLICE]);
  return slices;
}

const canListen = (port: number) =>
  new Promise<boolean>((resolve) => {
    const s = createServer()
      .once('error', () => resolve(false))
      .once('listening', () => s.close(() => resolve(true)));
    s.listen(port, '127.0.0.1');
  });

/** The kernel's choice for port 0: where no slice lies outside the ephemeral range (a machine set up so). */
async function anyPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const port = (s.address() as { port: number }).port;
  await new Promise((r) => s.close(r));
  return port;
}

let drawn = 0;

/** A TCP port nobody listens on now, outside the ephemeral range, and not given before by this process. */
export async function freePort(): Promise<number> {
  const slices = portSlices(ephemeralRange());
  if (slices.length === 0) return anyPort();
  // The test process's slot (1 to maxWorkers) picks its slice; a process outside vitest (a benchmark), its pid.
  const slot = Number(process.env.VITEST_POOL_ID) || process.pid;
  const [from, to] = slices[slot % slices.length]!;
  for (let tried = 0; tried < to - from; tried++) {
    const port = from + (drawn++ % (to - from));
    if (await canListen(port)) return port;
  }
  throw new Error(`no free port in ${from}-${to - 1} on 127.0.0.1`);
}
