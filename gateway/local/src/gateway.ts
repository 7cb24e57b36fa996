// The embedded-default gateway: a proxy, not an application. node:http in front (hardened like every server of
// ours), undici keep-alive pools behind with the timeouts and retries kong.yml gives each service, and the same
// pra-gateway plugin Kong runs, through a small PDK adapter. X-Request-Id is added to every response.
// Tracing: the request's server span keeps the client's trace id but not its sampled flag (the configured ratio
// decides, sampling.ts), and gets a child span for the plugin and one for the upstream call, whose context is the
// only trace context a service receives (the client's traceparent, tracestate and baggage never pass). One log line
// and one metric sample per request, without the query string. No request, however malformed, escapes a handler:
// the worst answer is a 4xx or a 503 with Retry-After, and a 503 says "not charged" only when no byte of the
// request reached a service.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import { Pool } from 'undici';
import { access, type AccessDeps, type KongPdk } from '@pra/gateway-plugin';
import { createHardenedServer, readBodyUpTo, sendError } from '@pra/platform';
import { allowHeader, methodNotAllowed, noSuchEndpoint } from '@pra/core/errors';
import { methodsOf } from '@pra/core/endpoints';
import { bytes } from '@pra/core/wording';
import { IDENTITY_HEADERS } from '@pra/core/auth';
import type { ClientTimeouts } from '@pra/core/config';
import { annotateRequest, inSpan, recordRequest, serverSpan, SpanKind, traceHeaders } from '@pra/platform/telemetry';
import { matchRoute, type Route } from './routes.js';

const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'host',
  'content-length',
]);
/** Request headers a service never receives from the client: hop-by-hop ones, and the client's trace context (the
 * gateway's own context, and its sampling decision, is what the services follow). */
const NOT_FORWARDED = new Set([...HOP_BY_HOP, 'traceparent', 'tracestate', 'baggage']);

/** The path and query of a request target: origin-form as sent, absolute-form reduced to it; null for anything else. */
export function requestTarget(raw: string): { path: string; query: string } | null {
  let target = raw;
  if (!target.startsWith('/')) {
    // absolute-form (RFC 9112 3.2.2): the authority is not ours to check; only the path and query are used.
    const m = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*([/?][^#]*)?$/i.exec(target);
    if (!m) return null;
    target = m[1] ?? '/';
    if (target.startsWith('?')) target = `/${target}`;
  }
  const q = target.indexOf('?');
  return q < 0 ? { path: target, query: '' } : { path: target.slice(0, q), query: target.slice(q + 1) };
}

/** The PDK calls of the plugin, applied to one node:http request. */
class LocalPdk implements KongPdk {
  exited = false;
  readonly upstreamHeaders: Record<string, string | string[]> = {};
  /** Headers the plugin adds to the client's response (RateLimit-*), whoever answers. */
  readonly responseHeaders: Record<string, string> = {};
  constructor(
    private readonly req: IncomingMessage,
    private readonly res: ServerResponse,
    private readonly target: { path: string; query: string },
    /** The body read before the plugin runs (the batch's), as Kong buffers it. */
    private readonly body?: Buffer | string,
  ) {
    for (const [k, v] of Object.entries(req.headers))
      if (v !== undefined && !NOT_FORWARDED.has(k)) this.upstreamHeaders[k] = v;
  }
  request = {
    get_headers: async () => ({ ...this.req.headers }),
    get_method: async () => this.req.method ?? 'GET',
    get_path: async () => this.target.path,
    get_raw_query: async () => this.target.query,
    get_raw_body: async () => this.body ?? null,
  };
  response = {
    exit: async (status: number, body?: string, headers: Record<string, string> = {}) => {
      this.exited = true;
      this.res.writeHead(status, {
        ...this.responseHeaders,
        ...headers,
        'content-length': Buffer.byteLength(body ?? ''),
      });
      this.res.end(body ?? '');
    },
    set_headers: async (headers: Record<string, string>) => {
      for (const [name, value] of Object.entries(headers)) this.responseHeaders[name.toLowerCase()] = value;
    },
  };
  service = {
    request: {
      set_headers: async (headers: Record<string, string>) => {
        for (const [name, value] of Object.entries(headers)) this.upstreamHeaders[name.toLowerCase()] = value;
      },
      clear_header: async (name: string) => void delete this.upstreamHeaders[name.toLowerCase()],
    },
  };
}

export interface GatewayOptions {
  routes: Route[];
  plugin: AccessDeps;
  log?: (o: Record<string, unknown>) => void;
  timeouts?: ClientTimeouts;
}

/** An upstream failure the client caused (a request undici refuses to send) is a 400; ours are 503s. */
const refusedByClient = (err: unknown) => (err as { code?: string })?.code === 'UND_ERR_INVALID_ARG';

/**
 * Errors that can only happen before a connection to the service exists: no byte of the request reached it, so it
 * cannot have been charged, and trying again is safe (Kong's `proxy_next_upstream error` retries these too).
 * Everything else (the socket reset or closed after the request was written, a read timeout) may have come after
 * the service charged.
 */
const NEVER_CONNECTED = new Set([
  'ECONNREFUSED',
  'UND_ERR_CONNECT_TIMEOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
]);
export function neverReachedService(err: unknown): boolean {
  const e = err as { code?: string; errors?: unknown[] } | undefined;
  // Node's happy-eyeballs connect reports every address it tried in an AggregateError.
  if (Array.isArray(e?.errors) && e.errors.length > 0) return e.errors.every(neverReachedService);
  return e?.code !== undefined && NEVER_CONNECTED.has(e.code);
}

/** The 503 for an upstream that failed: what it means for the client's money, in the client's words. */
export function upstreamFailureMessage(service: string, reached: boolean): string {
  return reached
    ? `Service ${service} failed after the request reached it: the request may have been charged. ` +
        'Retrying it with the same Idempotency-Key is never charged twice (without one, a retry is a new request).'
    : `Service ${service} unavailable; the request was not charged. Retry shortly.`;
}

export function createGateway(o: GatewayOptions): Server {
  const pools = new Map<string, Pool>();
  const pool = (route: Route) => {
    const origin = new URL(route.upstream).origin;
    let p = pools.get(origin);
    if (!p) {
      p = new Pool(origin, {
        connections: 64,
        pipelining: 1,
        keepAliveTimeout: 30_000,
        connect: { timeout: route.connectTimeoutMs },
        headersTimeout: route.readTimeoutMs,
        bodyTimeout: route.readTimeoutMs,
      });
      pools.set(origin, p);
    }
    return p;
  };
  const handle = async (
    req: IncomingMessage,
    res: ServerResponse,
    target: { path: string; query: string },
    route: Route | undefined,
    identity: { accountId?: number; tier?: string },
  ) => {
    if (!route) return sendError(res, 'no_such_endpoint', noSuchEndpoint(target.path), randomUUID());
    if (!route.methods.has(req.method ?? 'GET')) {
      // The methods the endpoint table gives the path (a path below a route's prefix that no endpoint has: the route's).
      const allow = methodsOf(target.path) ?? [...route.methods].filter((m) => m !== 'HEAD');
      return sendError(res, 'method_not_allowed', methodNotAllowed(req.method ?? '', allow), randomUUID(), {
        allow: allowHeader(allow),
      });
    }
    // A body (the batch's) is read whole before the plugin runs, as Kong buffers it: a retry can send it again.
    const read = req.method === 'POST' ? await readBodyUpTo(req, route.maxBodyBytes) : undefined;
    if (read && 'over' in read) {
      return sendError(
        res,
        'payload_too_large',
        `Request size limit exceeded: at most ${bytes(route.maxBodyBytes)}`,
        randomUUID(),
      );
    }
    const body = read?.body;
    const pdk = new LocalPdk(req, res, target, body);
    await inSpan('pra-gateway access', {}, () => access(pdk, o.plugin));
    if (pdk.exited) return;
    const requestId = String(pdk.upstreamHeaders['x-request-id'] ?? randomUUID());
    const account = pdk.upstreamHeaders[IDENTITY_HEADERS.account];
    if (typeof account === 'string') {
      identity.accountId = Number(account);
      identity.tier = String(pdk.upstreamHeaders[IDENTITY_HEADERS.tier]);
      annotateRequest({ 'pra.account.id': identity.accountId, 'pra.tier': identity.tier, 'pra.request.id': requestId });
    }
    try {
      await inSpan(
        `proxy ${route.service}`,
        { kind: SpanKind.CLIENT, attributes: { 'pra.service': route.service, 'server.address': route.upstream } },
        async (span) => {
          Object.assign(pdk.upstreamHeaders, traceHeaders());
          const options = {
            // One of the route's methods (checked above): GET, HEAD, POST or DELETE.
            method: (req.method ?? 'GET') as 'GET' | 'HEAD' | 'POST' | 'DELETE',
            path: target.query ? `${target.path}?${target.query}` : target.path,
            headers: pdk.upstreamHeaders,
            ...(body !== undefined ? { body } : {}),
          };
          // As Kong does (`retries`, `proxy_next_upstream error`), but only for a connection that never opened (a
          // request that reached the service is never sent twice by this gateway), after a short pause.
          for (let attempt = 0; ; attempt++) {
            try {
              // undici's stream(): the upstream body is written straight into the client's response (no Readable
              // in between, and none of stream.pipeline's per-request AbortController).
              await pool(route).stream(options, ({ statusCode, headers: upstreamHeaders }) => {
                span.setAttribute('http.response.status_code', statusCode);
                const headers: Record<string, string | string[]> = { ...pdk.responseHeaders };
                for (const [k, v] of Object.entries(upstreamHeaders))
                  if (v != null && !HOP_BY_HOP.has(k)) headers[k] = v as string | string[];
                // The service's own id wins: a keyed request's transaction id comes from its Idempotency-Key.
                headers['x-request-id'] ??= requestId;
                res.writeHead(statusCode, headers);
                return res;
              });
              return;
            } catch (err) {
              if (attempt >= route.retries || res.headersSent || !neverReachedService(err)) throw err;
              span.setAttribute('pra.upstream.retries', attempt + 1);
              await new Promise((r) => setTimeout(r, 50 * 2 ** attempt)); // a restarting service: 50 ms, 100 ms
            }
          }
        },
      );
    } catch (err) {
      if (res.headersSent) return void res.destroy();
      if (refusedByClient(err)) return sendError(res, 'malformed_request', 'Malformed request target', requestId);
      const reached = !neverReachedService(err);
      o.log?.({ msg: 'upstream unavailable', service: route.service, reached, err: String(err) });
      sendError(res, 'unavailable', upstreamFailureMessage(route.service, reached), requestId, { 'retry-after': '1' });
    }
  };
  const server = createHardenedServer((req, res) => {
    const started = performance.now();
    const target = requestTarget(req.url ?? '/');
    if (!target)
      return sendError(
        res,
        'malformed_request',
        'Malformed request target: send a path such as /api/v1/health',
        randomUUID(),
      );
    const route = matchRoute(o.routes, target.path);
    const identity: { accountId?: number; tier?: string } = {};
    const span = serverSpan(req.method ?? 'GET', target.path, req.headers, { edge: true });
    res.once('finish', () => {
      span.end(res.statusCode, route?.prefix);
      recordRequest({
        requestId: res.getHeader('x-request-id'),
        method: req.method ?? 'GET',
        route: route?.prefix ?? 'unmatched',
        status: res.statusCode,
        ms: performance.now() - started,
        accountId: identity.accountId,
        tier: identity.tier,
        upstream: route?.service,
      });
    });
    span.run(() =>
      handle(req, res, target, route, identity).catch((err) => {
        // Only the plugin (before any upstream call) and the answer itself can throw here: nothing was proxied.
        o.log?.({ msg: 'gateway error', err: String(err) });
        if (!res.headersSent)
          sendError(res, 'unavailable', 'Gateway error; the request was not charged. Retry shortly.', randomUUID(), {
            'retry-after': '1',
          });
        else res.destroy();
      }),
    );
  }, o.timeouts);
  server.on('close', () => {
    for (const p of pools.values()) void p.close();
  });
  return server;
}
