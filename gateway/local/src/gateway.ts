// The embedded-default gateway: a proxy, not an application. node:http in front, undici keep-alive pools behind,
// and the same pra-gateway plugin Kong runs, through a small PDK adapter. X-Request-Id is added to every response.
// With tracing on, the request's server span (from the client's traceparent) gets a child span for the plugin and
// one for the upstream call, whose context replaces the client's traceparent on the way to the service; with
// tracing off the client's traceparent passes through untouched. One log line and one metric sample per request.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import { Pool } from 'undici';
import { access, type AccessDeps, type KongPdk } from '@pra/gateway-plugin';
import { IDENTITY_HEADERS } from '@pra/shared/platform';
import { annotateRequest, inSpan, recordRequest, serverSpan, SpanKind, traceHeaders } from '@pra/shared/telemetry';
import { matchRoute, type Route } from './routes.js';

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade', 'host', 'content-length']);

function errorResponse(res: ServerResponse, status: number, msg: string, requestId: string, headers: Record<string, string> = {}): void {
  const body = JSON.stringify({ property: [], status: { code: status, msg, total: 0, transactionID: requestId } });
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body), 'x-request-id': requestId, ...headers });
  res.end(body);
}

/** The PDK calls of the plugin, applied to one node:http request. */
class LocalPdk implements KongPdk {
  exited = false;
  readonly upstreamHeaders: Record<string, string | string[]> = {};
  constructor(private readonly req: IncomingMessage, private readonly res: ServerResponse, private readonly path: string) {
    for (const [k, v] of Object.entries(req.headers)) if (v !== undefined && !HOP_BY_HOP.has(k)) this.upstreamHeaders[k] = v;
  }
  request = {
    get_header: async (name: string) => {
      const v = this.req.headers[name.toLowerCase()];
      return Array.isArray(v) ? v[0] : v;
    },
    get_path: async () => this.path,
  };
  response = {
    exit: async (status: number, body?: string, headers: Record<string, string> = {}) => {
      this.exited = true;
      this.res.writeHead(status, { ...headers, 'content-length': Buffer.byteLength(body ?? '') });
      this.res.end(body ?? '');
    },
  };
  service = {
    request: {
      set_header: async (name: string, value: string) => void (this.upstreamHeaders[name.toLowerCase()] = value),
      clear_header: async (name: string) => void delete this.upstreamHeaders[name.toLowerCase()],
    },
  };
}

export interface GatewayOptions {
  routes: Route[];
  plugin: AccessDeps;
  log?: (o: Record<string, unknown>) => void;
}

export function createGateway(o: GatewayOptions): Server {
  const pools = new Map<string, Pool>();
  const pool = (origin: string) => {
    let p = pools.get(origin);
    if (!p) pools.set(origin, (p = new Pool(origin, { connections: 64, pipelining: 1, keepAliveTimeout: 30_000 })));
    return p;
  };
  const handle = async (req: IncomingMessage, res: ServerResponse, url: URL, route: Route | undefined, identity: { accountId?: number; tier?: string }) => {
    if (!route) return errorResponse(res, 404, `No such endpoint: ${url.pathname}`, randomUUID());
    if (!route.methods.has(req.method ?? 'GET')) return errorResponse(res, 405, `Method ${req.method} not allowed: every endpoint is GET`, randomUUID(), { allow: 'GET' });
    const pdk = new LocalPdk(req, res, url.pathname);
    try {
      await inSpan('pra-gateway access', {}, () => access(pdk, o.plugin));
    } catch (err) {
      o.log?.({ msg: 'gateway plugin error', err: String(err) });
      return errorResponse(res, 503, 'Gateway temporarily unable to authenticate; retry shortly', randomUUID());
    }
    if (pdk.exited) return;
    const requestId = String(pdk.upstreamHeaders['x-request-id'] ?? randomUUID());
    const account = pdk.upstreamHeaders[IDENTITY_HEADERS.account];
    if (typeof account === 'string') {
      identity.accountId = Number(account);
      identity.tier = String(pdk.upstreamHeaders[IDENTITY_HEADERS.tier]);
      annotateRequest({ 'pra.account.id': identity.accountId, 'pra.tier': identity.tier, 'pra.request.id': requestId });
    }
    try {
      await inSpan(`proxy ${route.service}`, { kind: SpanKind.CLIENT, attributes: { 'pra.service': route.service, 'server.address': route.upstream } }, async (span) => {
        Object.assign(pdk.upstreamHeaders, traceHeaders());
        const upstream = await pool(new URL(route.upstream).origin).request({
          method: req.method === 'HEAD' ? 'HEAD' : 'GET',
          path: `${url.pathname}${url.search}`,
          headers: pdk.upstreamHeaders,
        });
        span.setAttribute('http.response.status_code', upstream.statusCode);
        const headers: Record<string, string | string[]> = {};
        for (const [k, v] of Object.entries(upstream.headers)) if (v != null && !HOP_BY_HOP.has(k)) headers[k] = v as string | string[];
        headers['x-request-id'] = requestId;
        res.writeHead(upstream.statusCode, headers);
        for await (const chunk of upstream.body) res.write(chunk);
        res.end();
      });
    } catch (err) {
      o.log?.({ msg: 'upstream unavailable', service: route.service, err: String(err) });
      if (!res.headersSent) errorResponse(res, 503, `Service ${route.service} unavailable; the request was not charged. Retry shortly.`, requestId);
      else res.destroy();
    }
  };
  const server = createServer((req, res) => {
    const started = performance.now();
    const url = new URL(req.url ?? '/', 'http://gateway');
    const route = matchRoute(o.routes, url.pathname);
    const identity: { accountId?: number; tier?: string } = {};
    const span = serverSpan(req.method ?? 'GET', url.pathname, req.headers);
    res.once('finish', () => {
      span.end(res.statusCode, route?.prefix);
      recordRequest({
        requestId: res.getHeader('x-request-id'), method: req.method ?? 'GET', route: route?.prefix ?? 'unmatched', status: res.statusCode,
        ms: performance.now() - started, accountId: identity.accountId, tier: identity.tier, upstream: route?.service,
      });
    });
    span.run(() =>
      handle(req, res, url, route, identity).catch((err) => {
        o.log?.({ msg: 'gateway error', err: String(err) });
        if (!res.headersSent) errorResponse(res, 502, 'Gateway error; the request was not charged. Retry shortly.', randomUUID());
        else res.destroy();
      }),
    );
  });
  server.keepAliveTimeout = 65_000;
  server.on('close', () => {
    for (const p of pools.values()) void p.close();
  });
  return server;
}
