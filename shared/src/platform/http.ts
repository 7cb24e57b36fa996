// HTTP plumbing shared by every service: a lean express app, request ids, query validation that names the
// bad parameter, JSON responses written in one call, and the one error handler that renders ErrorResponse.
import { randomUUID } from 'node:crypto';
import express, { type ErrorRequestHandler, type Express, type Request, type RequestHandler, type Response } from 'express';
import type { z } from 'zod';
import { ApiError, badRequest } from './errors.js';
import { recordRequest } from '../telemetry/request-record.js';
import { serverSpan } from '../telemetry/trace-context.js';
import type { Identity } from './identity.js';

export const LOOPBACK_ADDRESSES: ReadonlySet<string> = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

declare module 'express-serve-static-core' {
  interface Request {
    /** status.transactionID and X-Request-Id of this request. */
    requestId: string;
    /** Who called, once resolveIdentity has answered (for the request log line). */
    identity?: Identity;
  }
}

/** An express app without the per-request work we do not want (etag hashing, x-powered-by). */
export function createBaseApp(): Express {
  const app = express();
  app.disable('etag');
  app.disable('x-powered-by');
  app.set('query parser', 'simple');
  app.use((req, res, next) => {
    // The request id is the billing transaction id: only the gateway (on loopback) may set it, so that a retry it
    // forwards charges once. From anyone else it is ignored and a fresh one is made.
    const given = req.headers['x-request-id'];
    const trusted = LOOPBACK_ADDRESSES.has(req.socket.remoteAddress ?? '');
    req.requestId = trusted && typeof given === 'string' && UUID.test(given) ? given : randomUUID();
    const startedAt = performance.now();
    res.locals.startedAt = startedAt;
    const span = serverSpan(req.method, req.path, req.headers);
    res.once('finish', () => {
      const route = req.route?.path !== undefined ? String(req.route.path) : 'unmatched';
      span.end(res.statusCode, route);
      recordRequest({
        requestId: req.requestId, method: req.method, route, status: res.statusCode, ms: performance.now() - startedAt,
        accountId: req.identity?.accountId, tier: req.identity?.tier,
      });
    });
    span.run(next);
  });
  return app;
}


/** `Server-Timing: app;dur=<ms>`: the time spent in the service, for SREs and the benchmarks. */
function serverTiming(res: Response): string {
  const started = res.locals.startedAt as number | undefined;
  return started === undefined ? 'app' : `app;dur=${(performance.now() - started).toFixed(2)}`;
}

export function sendJson(res: Response, status: number, body: string, requestId: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, {
    'server-timing': serverTiming(res),
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    'x-request-id': requestId,
    'cache-control': 'no-store',
    ...headers,
  });
  res.end(body);
}

export function errorBody(status: number, msg: string, total: number, requestId: string): string {
  return JSON.stringify({ property: [], status: { code: status, msg, total, transactionID: requestId } });
}

type Query = Record<string, unknown>;

function describeIssue(issue: z.core.$ZodIssue, query: Query): string {
  const name = String(issue.path[0] ?? 'query');
  const value = query[name];
  if (Array.isArray(value)) return `Parameter '${name}' was given more than once`;
  if (value === undefined && issue.code === 'invalid_type') return `Missing required parameter '${name}'`;
  if (issue.message.startsWith('is required')) return `Parameter '${name}' ${issue.message}`;
  return `Invalid parameter '${name}': ${issue.message}`;
}

/** Validates a query string with its zod schema; a failure is a 400 naming each bad parameter. */
export function parseQuery<T extends z.ZodType>(schema: T, query: Query): z.infer<T> {
  const result = schema.safeParse(query);
  if (result.success) return result.data;
  const seen = new Set<string>();
  const messages: string[] = [];
  for (const issue of result.error.issues) {
    const m = describeIssue(issue, query);
    if (!seen.has(m)) messages.push(m);
    seen.add(m);
  }
  throw badRequest(messages.join('; '));
}

/** Wraps an async handler so a rejection reaches the error handler. */
export function route(handler: (req: Request, res: Response) => Promise<void>): RequestHandler {
  return (req, res, next) => {
    handler(req, res).catch(next);
  };
}

export type Logger = Pick<Console, 'error' | 'warn' | 'info'>;

/** Unknown paths, wrong methods and every error end here, as an ErrorResponse with HTTP status = status.code. */
export function finishApp(app: Express, logger: Logger = console): void {
  app.use((req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      sendJson(res, 405, errorBody(405, `Method ${req.method} not allowed: every endpoint is GET`, 0, req.requestId), req.requestId, {
        allow: 'GET',
      });
      return;
    }
    sendJson(res, 404, errorBody(404, `No such endpoint: ${req.path}`, 0, req.requestId), req.requestId);
  });
  const handler: ErrorRequestHandler = (err, req, res, _next) => {
    const requestId = req.requestId ?? randomUUID();
    if (res.headersSent) {
      res.destroy();
      return;
    }
    if (err instanceof ApiError) {
      sendJson(res, err.status, errorBody(err.status, err.message, err.total, requestId), requestId, { ...err.headers });
      return;
    }
    // Errors from express's own parsing (bad URL encoding, oversized input) are the client's.
    const status = typeof err?.status === 'number' && err.status >= 400 && err.status < 500 ? err.status : 500;
    if (status === 500) logger.error({ msg: 'unhandled error', requestId, err: String(err?.stack ?? err) });
    const msg = status === 500 ? 'Internal error; the request was not charged. Retry, or report the transactionID.' : String(err.message);
    sendJson(res, status, errorBody(status, msg, 0, requestId), requestId);
  };
  app.use(handler);
}

/**
 * Requests that node's HTTP parser refuses before any app code runs (oversized headers or URL, broken syntax)
 * still get an ErrorResponse body instead of an empty reply.
 */
export function answerClientErrors(server: import('node:http').Server): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket) => {
    if (!socket.writable || (socket as { _httpMessage?: unknown })._httpMessage) {
      socket.destroy();
      return;
    }
    const tooLarge = err.code === 'HPE_HEADER_OVERFLOW';
    const status = tooLarge ? 431 : 400;
    const msg = tooLarge ? 'Request line or headers too large: shorten the query string (at most 16 KB)' : 'Malformed HTTP request';
    const body = errorBody(status, msg, 0, randomUUID());
    socket.end(
      `HTTP/1.1 ${status} ${tooLarge ? 'Request Header Fields Too Large' : 'Bad Request'}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}
