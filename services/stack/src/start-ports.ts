// The ports npm start listens on: the gateway's (given, or the last start's, or 8080), the four services after it,
// the admin API at +10, and one internal port per process. Checked before anything starts: a port in use would
// otherwise be a child that dies and is restarted forever.
import { createServer } from 'node:net';
import { FETCH_BAD_PORTS } from '@pra/core/fetch-bad-ports';

/**
 * The ports of one start: the gateway's, the four services after it, the admin API at +10, and the internal ports
 * from `internal`. Given ones first, else those the last start used (kept in .data), else 8080 and 9464.
 */
export function chooseStartPorts(
  given: { gateway?: string; internal?: string },
  last?: { gateway: number; internal: number },
) {
  const gateway = Number(given.gateway ?? last?.gateway ?? 8080);
  const internal = Number(given.internal ?? last?.internal ?? 9464);
  for (const [name, p] of [
    ['--gateway-port', gateway],
    ['--internal-port', internal],
  ] as const) {
    if (!Number.isInteger(p) || p < 1 || p > 65_000) throw new Error(`${name} must be a port number from 1 to 65000`);
  }
  return {
    services: {
      gateway,
      lookup: gateway + 1,
      autocomplete: gateway + 2,
      billing: gateway + 3,
      plans: gateway + 4,
      admin: gateway + 10,
    },
    internal: {
      gateway: internal,
      lookup: internal + 1,
      autocomplete: internal + 2,
      billing: internal + 3,
      plans: internal + 4,
      'webhooks-worker': internal + 5,
    },
  };
}

/**
 * Each port free on 127.0.0.1, no two the same, and none that fetch() refuses (the Fetch standard's bad ports): else
 * one error naming every port in the way and how to move.
 */
export async function checkPortsFree(ports: Record<string, number>): Promise<void> {
  const taken: string[] = [];
  const seen = new Map<number, string>();
  for (const [name, port] of Object.entries(ports)) {
    if (seen.has(port)) taken.push(`${port} (${name}) is also ${seen.get(port)}'s`);
    seen.set(port, name);
    // A server there never answers fetch() (a client's, or the start's own health check).
    if (FETCH_BAD_PORTS.has(port)) taken.push(`${port} (${name}) is a port fetch() refuses to connect to`);
    const free = await new Promise<boolean>((resolve) => {
      const probe = createServer()
        .once('error', () => resolve(false))
        .once('listening', () => probe.close(() => resolve(true)));
      probe.listen(port, '127.0.0.1');
    });
    if (!free) taken.push(`${port} (${name}) is in use`);
  }
  if (taken.length > 0) {
    throw new Error(
      `Ports in the way: ${taken.join('; ')}. Another npm start? Stop it, or choose other ports: ` +
        'npm start -- --gateway-port N (the services take N+1 to N+4, the admin API N+10) --internal-port M (M to M+5).',
    );
  }
}
