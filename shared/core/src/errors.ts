// The one error type of the API. Every refusal is an ApiError; the one error handler renders it as ErrorResponse.

export type ErrorCode =
  | 'BAD_REQUEST'
  | 'UNAUTHORIZED'
  | 'PAYMENT_REQUIRED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'RATE_LIMITED'
  | 'INTERNAL'
  | 'UNAVAILABLE';

export const STATUS_BY_CODE: Readonly<Record<ErrorCode, number>> = {
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  PAYMENT_REQUIRED: 402,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  UNAVAILABLE: 503,
};

export class ApiError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    /** status.total of the ErrorResponse (e.g. matches that exist when a page is past the end). */
    readonly total = 0,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = STATUS_BY_CODE[code];
    // A 503 always says when to come back.
    if (code === 'UNAVAILABLE' && !('retry-after' in headers)) this.headers = { ...headers, 'retry-after': '1' };
  }
}

export const badRequest = (message: string) => new ApiError('BAD_REQUEST', message);
export const notFound = (message: string, total = 0) => new ApiError('NOT_FOUND', message, total);

/** The ErrorResponse body (SPEC 3): every refusal of every process, the services', the gateway's and the plugin's. */
export function errorBody(status: number, msg: string, total: number, requestId: string): string {
  return JSON.stringify({ property: [], status: { code: status, msg, total, transactionID: requestId } });
}

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/**
 * The 404 of a path no endpoint serves, and the 405 of a method the path does not take (`allow`: GET, or POST for
 * the batch; the endpoint table says which): the same words everywhere.
 */
export const noSuchEndpoint = (path: string) => `No such endpoint: ${path}`;
export const methodNotAllowed = (method: string, allow: 'GET' | 'POST' = 'GET') =>
  `Method ${method} not allowed here: use ${allow}`;
