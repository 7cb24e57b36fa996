// One delivery attempt over HTTP, safe against server-side request forgery: the host is resolved here, every address
// it resolves to is checked against the URL policy (domain/url-policy.ts), and the connection is made to the address
// checked (a `lookup` pinned to it), so a DNS answer that changes between check and connect (rebinding) changes
// nothing. The Host header and TLS server name stay the URL's. One deadline for the whole attempt (connect, send,
// response), at most `responseCapBytes` of the answer read (then the connection is dropped), redirects never
// followed (a 3xx is a failure: a receiver that moved is told by its failures, not followed into a private network).
import { lookup as dnsLookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { addressRefusal, isLoopbackAddress, type UrlPolicy } from '../domain/url-policy.js';

export interface ResolvedAddress {
  address: string;
  family: number;
}

/** How a host name becomes addresses (the system resolver by default; a test gives its own). */
export type Resolve = (host: string) => Promise<ResolvedAddress[]>;

export const systemResolve: Resolve = (host) => dnsLookup(host, { all: true, verbatim: true });

export interface SenderOptions {
  policy: UrlPolicy;
  /** The whole attempt's deadline (WEBHOOK_TIMEOUT_MS, 5 s). */
  timeoutMs: number;
  /** How much of a response is read (and discarded) before the connection is dropped. */
  responseCapBytes: number;
  resolve?: Resolve;
}

export interface Attempt {
  /** The receiver's status, when it answered. */
  status?: number;
  /** Why it failed, in words (refused address, time-out, connection error, non-2xx). */
  error?: string;
  /** True on a 2xx: the event is acknowledged. */
  ok: boolean;
  latencyMs: number;
}

const USER_AGENT = 'property-records-webhooks/2';

// Keep-alive pools: a socket is reused only for the same host and port, and was connected to an address that was
// checked when it was opened.
const agents = {
  http: new http.Agent({ keepAlive: true, maxSockets: 16, timeout: 30_000 }),
  https: new https.Agent({ keepAlive: true, maxSockets: 16, timeout: 30_000 }),
};

/** The address to connect to: the host's (literal, or resolved now) once every one of them passes the policy. */
async function checkedAddress(host: string, o: SenderOptions): Promise<ResolvedAddress> {
  const literal = host.startsWith('[') ? host.slice(1, -1) : host;
  const family = isIP(literal);
  let addresses: ResolvedAddress[];
  if (family !== 0) addresses = [{ address: literal, family }];
  else {
    try {
      addresses = await (o.resolve ?? systemResolve)(literal);
    } catch (err) {
      throw new Error(
        `${host} could not be resolved (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`,
      );
    }
  }
  if (addresses.length === 0) throw new Error(`${host} resolved to no address`);
  // Every address must pass: a name answering one public and one private address is refused, not half-used. The
  // address is not named: the error goes to the account's delivery log, and what a name resolves to inside our
  // network (a cluster name through the resolver's search domains) is none of its business.
  for (const a of addresses) {
    if (addressRefusal(a.address, o.policy))
      throw new Error(
        `${host} resolves to an address in a private, loopback, link-local, metadata or reserved range: webhooks are only sent to public addresses`,
      );
  }
  return addresses[0]!;
}

/** A lookup that answers the checked address whatever it is asked (both of node's call shapes). */
function pinnedLookup(pinned: ResolvedAddress): LookupFunction {
  return ((_host: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [{ address: pinned.address, family: pinned.family }]);
    else callback(null, pinned.address, pinned.family);
  }) as LookupFunction;
}

/** POSTs one signed event; never throws (every failure is an Attempt with its error). */
export async function sendWebhook(
  target: { url: string; headers: Record<string, string>; body: string },
  o: SenderOptions,
): Promise<Attempt> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const deadline = AbortSignal.timeout(o.timeoutMs);
  try {
    const url = new URL(target.url);
    if (url.protocol !== 'https:' && !(o.policy.allowInsecureLocal && url.protocol === 'http:'))
      return { ok: false, error: `${url.protocol} URLs are not delivered to`, latencyMs: elapsed() };
    const pinned = await Promise.race([checkedAddress(url.hostname, o), aborted(deadline)]);
    // Plain http only to this machine (the local setting): anywhere else the body would cross a network in the clear.
    if (url.protocol === 'http:' && !isLoopbackAddress(pinned.address))
      return {
        ok: false,
        error: `http:// is delivered only to a loopback address, not ${pinned.address}`,
        latencyMs: elapsed(),
      };
    const status = await post(url, pinned, target, o, deadline);
    if (status >= 200 && status < 300) return { ok: true, status, latencyMs: elapsed() };
    const error =
      status >= 300 && status < 400 ? `answered ${status} (a redirect: not followed)` : `answered ${status}`;
    return { ok: false, status, error, latencyMs: elapsed() };
  } catch (err) {
    const error = deadline.aborted
      ? `no answer within ${o.timeoutMs / 1000} s`
      : ((err as Error).message ?? String(err));
    return { ok: false, error, latencyMs: elapsed() };
  }
}

const aborted = (signal: AbortSignal) =>
  new Promise<never>((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });

/** The POST itself: resolves with the status once the answer (up to the cap) is read. */
function post(
  url: URL,
  pinned: ResolvedAddress,
  target: { headers: Record<string, string>; body: string },
  o: SenderOptions,
  signal: AbortSignal,
): Promise<number> {
  const secure = url.protocol === 'https:';
  const body = Buffer.from(target.body);
  return new Promise<number>((resolve, reject) => {
    const req = (secure ? https : http).request(
      url,
      {
        method: 'POST',
        agent: secure ? agents.https : agents.http,
        lookup: pinnedLookup(pinned),
        signal,
        headers: {
          ...target.headers,
          'content-type': 'application/json',
          'content-length': String(body.length),
          'user-agent': USER_AGENT,
        },
      },
      (res) => {
        let read = 0;
        const status = res.statusCode ?? 0;
        res.on('data', (chunk: Buffer) => {
          read += chunk.length;
          // Enough read: the answer's body means nothing to us; the socket is dropped rather than drained.
          if (read > o.responseCapBytes) {
            res.destroy();
            resolve(status);
          }
        });
        res.on('end', () => resolve(status));
        res.on('error', (err) => (read > o.responseCapBytes ? resolve(status) : reject(err)));
        res.on('close', () => resolve(status));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
