// HTTP plumbing shared by every service: a lean express app, request ids, query validation that names the
// bad parameter, JSON responses written in one call, and the one error handler that renders ErrorResponse.
import { randomUUID } from 'node:crypto';
import express, {
  type ErrorRequestHandler,
  type Express,
  type Request,
  type RequestHandler,
  type Response,
} from 'express';
import type { z } from 'zod';
import { createServer, type RequestListener, type Server, type ServerResponse } from 'node:http';
import {
  ApiError,
  badRequest,
  type ErrorReason,
  JSON_CONTENT_TYPE,
  ERROR_STATUS,
  errorBody,
  methodNotAllowed,
  noSuchEndpoint,
  reasonOfStatus,
} from '@pra/core/errors';
import { DEFAULT_CLIENT_TIMEOUTS, type ClientTimeouts } from '@pra/core/config';
import type { Identity } from '@pra/core/auth';
import { isStoreUnavailable, storeUnavailable } from './db.js';
import { recordRequest } from './telemetry/request-record.js';
import { serverSpan } from './telemetry/trace-context.js';

declare module 'express-serve-static-core' {
  interface Request {
    /** status.transactionID and X-Request-Id of this request. */
    requestId: string;
    /** Who called, once resolveIdentity has answered (for the request log line). */
    identity?: Identity;
    /** True once this request was charged: its charge event counts the call in /usage. */
    charged?: boolean;
    /** The transaction a metered request is charged under, when not its request id (from an Idempotency-Key). */
    transactionId?: string;
    /** The calls this request counts for in /usage (a batch: by its entries, as the gateway's quota counted it). */
    callWeight?: number;
  }
}

/** An express app without the per-request work we do not want (etag hashing, x-powered-by). */
export function createBaseApp(): Express {
  const app = express();
  app.disable('etag');
  app.disable('x-powered-by');
  app.set('query parser', 'simple');
  app.use((req, res, next) => {
    // The request id is the billing transaction id: a fresh one, until resolveIdentity takes the one the gateway
    // signed (so that a replay or a retry of the same request charges once).
    req.requestId = randomUUID();
    const startedAt = performance.now();
    res.locals.startedAt = startedAt;
    const span = serverSpan(req.method, req.path, req.headers);
    res.once('finish', () => {
      const route = req.route?.path !== undefined ? String(req.route.path) : 'unmatched';
      span.end(res.statusCode, route);
      recordRequest({
        requestId: req.requestId,
        method: req.method,
        route,
        status: res.statusCode,
        ms: performance.now() - startedAt,
        accountId: req.identity?.accountId,
        tier: req.identity?.tier,
      });
    });
    span.run(next);
  });
  return app;
}

/** `Server-Timing: app;dur=<ms>`: the time spent in the service, for SREs and the benchmarks. */
function serverTiming(res: ServerResponse): Record<string, string> {
  const started = (res as Partial<Response>).locals?.startedAt as number | undefined;
  return started === undefined ? {} : { 'server-timing': `app;dur=${(performance.now() - started).toFixed(2)}` };
}

/** A JSON answer in one write (a service's, or the local gateway's own). */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: string,
  requestId: string,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, {
    ...serverTiming(res),
    'content-type': JSON_CONTENT_TYPE,
    'content-length': Buffer.byteLength(body),
    'x-request-id': requestId,
    'cache-control': 'no-store',
    ...headers,
  });
  res.end(body);
}

/**
 * A 304 Not Modified (issue 38): no body, the current `etag` and the headers a 200 to the same request would carry
 * (RFC 9110 15.4.5: ETag, Cache-Control), never a Content-Length (a 200's varies with its transactionID).
 */
export function sendNotModified(res: ServerResponse, etag: string, requestId: string): void {
  res.writeHead(304, {
    ...serverTiming(res),
    etag,
    'x-request-id': requestId,
    'cache-control': 'no-store',
  });
  res.end();
}

/** An answer without a body (a DELETE's 204). */
export function sendEmpty(res: ServerResponse, status: 204, requestId: string): void {
  res.writeHead(status, { ...serverTiming(res), 'x-request-id': requestId, 'cache-control': 'no-store' });
  res.end();
}

/** An ErrorResponse: the one way every server of ours refuses a request (the HTTP status is the reason's). */
export function sendError(
  res: ServerResponse,
  reason: ErrorReason,
  msg: string,
  requestId: string,
  headers: Record<string, string> = {},
  total = 0,
): void {
  sendJson(res, ERROR_STATUS[reason], errorBody(reason, msg, total, requestId), requestId, headers);
}

type Query = Record<string, unknown>;

function describeIssue(issue: z.core.$ZodIssue, query: Query): { reason: ErrorReason; msg: string } {
  const name = String(issue.path[0] ?? 'query');
  const value = query[name];
  if (Array.isArray(value)) return { reason: 'invalid_parameter', msg: `Parameter '${name}' was given more than once` };
  if (value === undefined && issue.code === 'invalid_type') {
    return { reason: 'missing_parameter', msg: `Missing required parameter '${name}'` };
  }
  if (issue.message.startsWith('is required')) {
    return { reason: 'missing_parameter', msg: `Parameter '${name}' ${issue.message}` };
  }
  return { reason: 'invalid_parameter', msg: `Invalid parameter '${name}': ${issue.message}` };
}

const acceptedBySchema = new WeakMap<z.ZodType, string[] | undefined>();

/** The parameters an object schema names (its alternative names included); undefined for any other schema. */
function acceptedParameters(schema: z.ZodType): string[] | undefined {
  if (acceptedBySchema.has(schema)) return acceptedBySchema.get(schema);
  const shape = (schema as { shape?: Record<string, unknown> }).shape;
  const accepted = shape && typeof shape === 'object' ? Object.keys(shape) : undefined;
  acceptedBySchema.set(schema, accepted);
  return accepted;
}

/**
 * Validates a query string with its zod schema; a failure is a 400 naming each bad parameter. A parameter the
 * endpoint does not take is a 400 too, naming it and the ones it takes: dropped, it would widen the search (a
 * migrating client's `postal1` on /property/owner gave a nationwide, charged answer).
 */
export function parseQuery<T extends z.ZodType>(schema: T, query: Query): z.infer<T> {
  const accepted = acceptedParameters(schema);
  const unknown = accepted ? Object.keys(query).filter((k) => !accepted.includes(k)) : [];
  if (unknown.length > 0) {
    const names = unknown.map((k) => `'${k.slice(0, 40)}'`).join(', ');
    throw badRequest(
      `Unknown parameter${unknown.length > 1 ? 's' : ''} ${names}: this endpoint takes ${accepted!.join(', ')}`,
      'unknown_parameter',
    );
  }
  const result = schema.safeParse(query);
  if (result.success) return result.data;
  const seen = new Set<string>();
  const messages: string[] = [];
  const described = result.error.issues.map((issue) => describeIssue(issue, query));
  for (const { msg } of described) {
    if (!seen.has(msg)) messages.push(msg);
    seen.add(msg);
  }
  // Several problems: a missing parameter is named first among the reasons (the request cannot be read without it).
  const reason = described.some((d) => d.reason === 'missing_parameter') ? 'missing_parameter' : 'invalid_parameter';
  throw badRequest(messages.join('; '), reason);
}

/** HEAD on a metered path: 405 with `Allow: GET` (a HEAD would be charged and return no records). */
export const meteredHeadNotAllowed: RequestHandler = (req, res) => {
  sendError(res, 'method_not_allowed', 'Method HEAD not allowed on a metered endpoint: use GET', req.requestId, {
    allow: 'GET',
  });
};

/** Wraps an async handler so a rejection reaches the error handler. */
export function route(handler: (req: Request, res: Response) => Promise<void>): RequestHandler {
  return (req, res, next) => {
    inFlight++;
    handler(req, res)
      .catch(next)
      .finally(() => {
        if (--inFlight === 0) for (const wake of drained.splice(0)) wake();
      });
  };
}

/** Handlers still running: a client that hangs up does not stop its handler, which may still use the pools. */
let inFlight = 0;
const drained: (() => void)[] = [];

/** Resolves once no route handler is running (shutdown closes the pools after this, not when the sockets close). */
export function handlersDone(): Promise<void> {
  return inFlight === 0 ? Promise.resolve() : new Promise((resolve) => drained.push(resolve));
}

export type Logger = Pick<Console, 'error' | 'warn' | 'info'>;

/** Unknown paths, wrong methods and every error end here, as an ErrorResponse with HTTP status = status.code. */
export function finishApp(app: Express, logger: Logger = console): void {
  app.use((req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD')
      return sendError(res, 'method_not_allowed', methodNotAllowed(req.method), req.requestId, { allow: 'GET' });
    sendError(res, 'no_such_endpoint', noSuchEndpoint(req.path), req.requestId);
  });
  const handler: ErrorRequestHandler = (err, req, res, _next) => {
    const requestId = req.requestId ?? randomUUID();
    if (res.headersSent) {
      res.destroy();
      return;
    }
    if (isStoreUnavailable(err)) err = storeUnavailable();
    if (err instanceof ApiError) {
      sendError(res, err.reason, err.message, requestId, { ...err.headers }, err.total);
      return;
    }
    // Errors from express's own parsing (bad URL encoding, oversized input) are the client's.
    const status = typeof err?.status === 'number' && err.status >= 400 && err.status < 500 ? err.status : 500;
    if (status === 500) logger.error({ msg: 'unhandled error', requestId, err: String(err?.stack ?? err) });
    const msg =
      status === 500
        ? 'Internal error; the request was not charged. Retry, or report the transactionID.'
        : String(err.message);
    sendError(res, reasonOfStatus(status), msg, requestId);
  };
  app.use(handler);
}

/**
 * An HTTP server that no request can stop: bounded header size and count, header and request timeouts (checked
 * every second, not node's default 30 s), and every request node's parser refuses (malformed request line, bad
 * header, oversized headers, a slow client) answered with an ErrorResponse and a closed socket.
 */
/**
 * The most a request line and headers may take (a longer one is a 431): an area polygon of 200 vertices, as compact
 * JSON, fits. Kong's nginx takes more (kong.conf: nginx_http_large_client_header_buffers), so that a longer line is
 * answered here, with the declared 431, not by nginx.
 */
export const MAX_REQUEST_HEAD_BYTES = 16 * 1024;

export function createHardenedServer(listener: RequestListener, t: ClientTimeouts = DEFAULT_CLIENT_TIMEOUTS): Server {
  const server = createServer(
    {
      headersTimeout: t.headersTimeoutMs,
      requestTimeout: Math.max(t.requestTimeoutMs, t.headersTimeoutMs),
      connectionsCheckingInterval: Math.min(1_000, t.headersTimeoutMs),
      maxHeaderSize: MAX_REQUEST_HEAD_BYTES,
    },
    listener,
  );
  server.maxHeadersCount = 100;
  server.keepAliveTimeout = 65_000; // longer than the gateway's idle timeout, so it never hits a closing socket
  answerClientErrors(server);
  return server;
}

/** The text of the ErrorResponse node's parser errors get: status and message. */
function clientErrorAnswer(err: NodeJS.ErrnoException): {
  status: number;
  /** The status line's reason phrase. */
  phrase: string;
  reason: ErrorReason;
  msg: string;
} {
  switch (err.code) {
    case 'HPE_HEADER_OVERFLOW':
      return {
        status: 431,
        phrase: 'Request Header Fields Too Large',
        reason: 'request_line_too_long',
        msg: 'Request line or headers too large: shorten the query string (at most 16 KB)',
      };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return {
        status: 408,
        phrase: 'Request Timeout',
        reason: 'request_timeout',
        msg: 'The request was not received in time',
      };
    default:
      return {
        status: 400,
        phrase: 'Bad Request',
        reason: 'malformed_request',
        msg: `Malformed HTTP request${err.code?.startsWith('HPE_') ? ` (${err.code.slice(4).toLowerCase().replace(/_/g, ' ')})` : ''}`,
      };
  }
}

/**
 * Requests that node's HTTP parser refuses before any app code runs (oversized headers or URL, broken syntax, a
 * slow client) still get an ErrorResponse body instead of an empty reply, and the socket is closed.
 */
function answerClientErrors(server: Server): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket) => {
    if (!socket.writable || (socket as { _httpMessage?: unknown })._httpMessage) {
      socket.destroy();
      return;
    }
    const a = clientErrorAnswer(err);
    const body = errorBody(a.reason, a.msg, 0, randomUUID());
    socket.end(
      `HTTP/1.1 ${a.status} ${a.phrase}\r\n` +
        `Content-Type: ${JSON_CONTENT_TYPE}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}
