// The one error type of the API. Every refusal is an ApiError; the one error handler renders it as ErrorResponse.

/**
 * Why a request was refused, machine-readable (`status.reason` of every ErrorResponse; issue 35), and the HTTP status
 * each reason is answered with. The list is closed: the OpenAPI document declares it as an enum (ErrorReason), the
 * typed client's errors carry it, and docs/api.md lists it. A client tells "402 no credits" from "402 over
 * max_credits" by it, never by the message.
 */
export const ERROR_STATUS = {
  /** A query parameter has a value the endpoint cannot take (or is given twice, or conflicts with another). */
  invalid_parameter: 400,
  /** A required query parameter is absent. */
  missing_parameter: 400,
  /** A query parameter the endpoint does not take (dropped, it would widen the search). */
  unknown_parameter: 400,
  /** A header has a value that cannot be used (the Idempotency-Key). */
  invalid_header: 400,
  /** The request body cannot be read: not JSON, empty, too large for the endpoint, or of the wrong shape. */
  invalid_body: 400,
  /** The request could not be parsed as HTTP (a bad request line, a broken header, a target that is not a path). */
  malformed_request: 400,
  /** The Idempotency-Key (or request id) was used before for another request. */
  idempotency_key_reused: 400,
  /** A repeat whose paid answer can no longer be sent as it was (its records changed, its receipt unreadable). */
  repeat_unavailable: 400,
  /** A change-feed cursor older than the feed keeps: the events after it are gone (read the records again). */
  cursor_expired: 400,
  /** What the request would create exists already (an account's email). */
  already_exists: 400,
  /** No API key, an unknown key, a bad signature or a call that did not come through the gateway. */
  unauthorized: 401,
  /** No credits left, or every grant expired. */
  insufficient_credits: 402,
  /** The call would cost more than its max_credits; nothing was charged. */
  over_max_credits: 402,
  /** A disabled key, or a key used the way its kind does not allow. */
  forbidden: 403,
  /** Nothing matches the search (or no such account, key or property id). */
  not_found: 404,
  /** The page asked is past the last page; status.total gives the matches that exist. */
  page_out_of_range: 404,
  /** No endpoint serves this path. */
  no_such_endpoint: 404,
  /** The path does not take this method (the Allow header names the ones it takes). */
  method_not_allowed: 405,
  /** The account has as many of what the request would create as it may have (webhooks); delete one first. */
  limit_reached: 409,
  /** The request was not received in time. */
  request_timeout: 408,
  /** The body is larger than the endpoint takes. */
  payload_too_large: 413,
  /** The request line or headers are larger than the API takes. */
  request_line_too_long: 431,
  /** The rolling-minute rate limit is reached (Retry-After says when to come back). */
  rate_limited: 429,
  /** The daily quota is reached (Retry-After says when it resets). */
  quota_exceeded: 429,
  /** A fault of ours; nothing was charged. */
  internal: 500,
  /** A store, billing or the search is unavailable or too slow right now (Retry-After says when to retry). */
  unavailable: 503,
} as const satisfies Record<string, number>;

export type ErrorReason = keyof typeof ERROR_STATUS;

/** Every reason, in the order above (the OpenAPI enum's). */
export const ERROR_REASONS = Object.keys(ERROR_STATUS) as [ErrorReason, ...ErrorReason[]];

/** The reason of a 4xx or 5xx that carries no reason of its own (express's parsing errors): by its status. */
export function reasonOfStatus(status: number): ErrorReason {
  const byStatus: Partial<Record<number, ErrorReason>> = {
    400: 'malformed_request',
    404: 'no_such_endpoint',
    405: 'method_not_allowed',
    408: 'request_timeout',
    413: 'payload_too_large',
    431: 'request_line_too_long',
    503: 'unavailable',
  };
  return byStatus[status] ?? (status < 500 ? 'malformed_request' : 'internal');
}

export class ApiError extends Error {
  readonly status: number;
  constructor(
    /** Why, for a client's code (status.reason); the HTTP status follows from it. */
    readonly reason: ErrorReason,
    message: string,
    /** status.total of the ErrorResponse (e.g. matches that exist when a page is past the end). */
    readonly total = 0,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = ERROR_STATUS[reason];
    // A 503 always says when to come back.
    if (this.status === 503 && !('retry-after' in headers)) this.headers = { ...headers, 'retry-after': '1' };
  }
}

/** A 400 with its reason (invalid_parameter, invalid_body ...). */
export const badRequest = (message: string, reason: ErrorReason) => new ApiError(reason, message);
export const notFound = (message: string, total = 0) => new ApiError('not_found', message, total);

/**
 * The ErrorResponse body (SPEC 3): every refusal of every process, the services', the gateway's and the plugin's.
 * status.code is the HTTP status of the reason.
 */
export function errorBody(reason: ErrorReason, msg: string, total: number, requestId: string): string {
  return JSON.stringify({
    property: [],
    status: { code: ERROR_STATUS[reason], reason, msg, total, transactionID: requestId },
  });
}

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/**
 * The 404 of a path no endpoint serves, and the 405 of a method the path does not take (`allow`: the methods it
 * takes, as the endpoint table says: GET, POST for the batch, GET and POST for /webhooks ...): the same words
 * everywhere. `allowHeader` is the `Allow` header that goes with it.
 */
export const noSuchEndpoint = (path: string) => `No such endpoint: ${path}`;
export const methodNotAllowed = (method: string, allow: string | readonly string[] = 'GET') =>
  `Method ${method} not allowed here: use ${typeof allow === 'string' ? allow : allow.join(' or ')}`;
export const allowHeader = (allow: readonly string[]) => allow.join(', ');
