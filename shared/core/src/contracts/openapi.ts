// The OpenAPI 3.0.3 document, generated from the zod schemas (never written by hand).
import { OpenAPIRegistry, OpenApiGeneratorV3 } from '@asteasolutions/zod-to-openapi';
import { stringify } from 'yaml';
import { ErrorResponse } from './envelopes.js';
import { CreateHeaders, MeteredHeaders } from './queries.js';
import { BASE_PATH, servedPaths, type EndpointDef } from './endpoints.js';

export const API_VERSION = '2.0.0';

const ERROR_TEXT: Record<number, string> = {
  400: 'Missing or invalid parameters (a text value past its maxLength too) or headers (Idempotency-Key, If-None-Match); the message names the parameter or header. 0 credits.',
  401: 'Missing or invalid API key. 0 credits.',
  402: 'No credits remaining, or every credit grant has expired. 0 credits.',
  403: 'API key disabled. 0 credits.',
  404: 'No properties found. 0 credits.',
  409: 'The account has as many as it may have (webhooks: see the limit in GET /webhooks); delete one first.',
  413: 'The request body is larger than the gateway takes (the batch: 256 KB). 0 credits.',
  429: 'Rate limit or daily quota exceeded; see Retry-After and RateLimit-* headers. 0 credits.',
  431: 'The request line and headers are larger than the service takes (16 KB): shorten the query string (a polygon: compact JSON, fewer digits or vertices). 0 credits.',
  503: 'Temporarily unable to serve: a store is slow, unreachable or reloading (never reported as a bad key). Retry after Retry-After seconds. 0 credits.',
};

const header = (description: string) => ({ description, schema: { type: 'integer' as const } });
const RETRY_AFTER = { 'Retry-After': header('Seconds to wait before retrying') };
const RATE_LIMIT = {
  'RateLimit-Limit': header('Requests allowed in any rolling 60 s for this account'),
  'RateLimit-Remaining': header('Requests left in the current 60 s window'),
  'RateLimit-Reset': header('Seconds until a request slot frees (until the next UTC day for the daily quota)'),
};
const ETAG = {
  ETag: {
    description:
      'A strong tag over the records this answer returned (their stored data, `vintage.lastModified` among it), the page ' +
      'asked and the account: send it back in `If-None-Match` with the same request, and while those records are ' +
      'unchanged the answer is a 304, charged nothing. Not sent with a preview (no records) or an error.',
    schema: { type: 'string' as const },
  },
};
const HEADERS_BY_CODE: Record<number, Record<string, ReturnType<typeof header>>> = {
  429: { ...RETRY_AFTER, ...RATE_LIMIT },
  503: RETRY_AFTER,
};

/** A metered answer's 304 (issue 38): the records the held tag stands for are unchanged; free, counted as a call. */
const NOT_MODIFIED = {
  304: {
    description:
      "Not Modified: `If-None-Match` held this request's current `ETag`, so the records it stands for are unchanged. " +
      'No body (use the answer you hold). 0 credits; it counts as a call (rate limit, daily quota, `/usage`) like any other.',
    headers: {
      ...ETAG,
      'X-Request-Id': {
        description: "This call's id (a keyed request's: its transaction's)",
        schema: { type: 'string' as const },
      },
      ...RATE_LIMIT,
    },
  },
};

function errors(codes: number[], text: Partial<Record<number, string>> = {}) {
  return Object.fromEntries(
    codes.map((c) => [
      c,
      {
        description: text[c] ?? ERROR_TEXT[c] ?? 'Error',
        ...(HEADERS_BY_CODE[c] ? { headers: HEADERS_BY_CODE[c] } : {}),
        content: { 'application/json': { schema: ErrorResponse } },
      },
    ]),
  );
}

const AUTH: Record<string, string[]>[] = [
  { bearerAuth: [] },
  { marketplaceSecret: [], marketplaceKey: [] },
  { marketplaceSecret: [], marketplaceUser: [], marketplaceSubscription: [] },
];

/**
 * The error answers of an endpoint follow from its access: only metered ones answer 402, and 404 for no match. One
 * that takes a query string answers 431 to one past the service's 16 KB request line (http.ts createHardenedServer):
 * a GeoJSON polygon within its own limits can be that long once URL-encoded. One with a body answers 413 to a body
 * past the gateway's limit; one with path parameters 404 to an id the account does not have; `errors` adds the rest.
 */
function errorCodes(e: EndpointDef): number[] {
  if (e.access === 'public') return [];
  const tooLong = e.query ? [431] : [];
  if (e.access === 'metered') return [400, 401, 402, 403, ...(e.body ? [413] : [404]), 429, ...tooLong, 503];
  const codes = [
    ...(e.query || e.body || e.params ? [400] : []),
    401,
    403,
    ...(e.params ? [404] : []),
    ...(e.errors ? Object.keys(e.errors).map(Number) : []),
    ...(e.body ? [413] : []),
    ...(e.limits === 'exempt' ? [] : [429]),
    ...tooLong,
    503,
  ];
  return [...new Set(codes)].sort((a, b) => a - b);
}

/** Whether an answer carries the envelope's status (then X-Request-Id is its transactionID). */
const hasStatus = (schema: unknown) => 'status' in ((schema as { shape?: object } | undefined)?.shape ?? {});

/** The request part of an operation: path parameters, query, the Idempotency-Key of a metered one, the body. */
function requestOf(e: EndpointDef) {
  const request = {
    ...(e.params ? { params: e.params } : {}),
    ...(e.query ? { query: e.query } : {}),
    ...(e.query && e.access === 'metered' ? { headers: MeteredHeaders } : {}),
    ...(e.idempotentCreate ? { headers: CreateHeaders } : {}),
    ...(e.body ? { body: { required: true, content: { 'application/json': { schema: e.body } } } } : {}),
  };
  return Object.keys(request).length > 0 ? { request } : {};
}

export function buildOpenApiDocument(serverUrl = BASE_PATH) {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', 'bearerAuth', {
    type: 'http',
    scheme: 'bearer',
    description: '`Authorization: Bearer <API_KEY>`',
  });
  registry.registerComponent('securitySchemes', 'marketplaceSecret', {
    type: 'apiKey',
    in: 'header',
    name: 'X-Marketplace-Proxy-Secret',
    description: 'Set by the marketplace proxy; goes with X-Marketplace-Key',
  });
  registry.registerComponent('securitySchemes', 'marketplaceKey', {
    type: 'apiKey',
    in: 'header',
    name: 'X-Marketplace-Key',
    description: "The marketplace subscriber's key",
  });
  registry.registerComponent('securitySchemes', 'marketplaceUser', {
    type: 'apiKey',
    in: 'header',
    name: 'X-Marketplace-User',
    description:
      "Set by the marketplace proxy: the subscriber's marketplace user id (an account is provisioned on its first call)",
  });
  registry.registerComponent('securitySchemes', 'marketplaceSubscription', {
    type: 'apiKey',
    in: 'header',
    name: 'X-Marketplace-Subscription',
    description: 'Set by the marketplace proxy: the plan subscribed to, one of `marketplace_plans` of /plans',
  });
  for (const { endpoint: e, path, operationId, summary, method } of servedPaths()) {
    const isPublic = e.access === 'public';
    registry.registerPath({
      method: method.toLowerCase() as 'get' | 'post' | 'delete',
      path,
      operationId,
      tags: [e.tag],
      summary,
      ...(e.description ? { description: e.description } : {}),
      security: isPublic ? [] : AUTH,
      ...requestOf(e),
      responses: {
        [e.okStatus ?? 200]: {
          description: e.okText,
          headers: {
            'X-Request-Id': {
              description: hasStatus(e.response) ? 'Equals status.transactionID' : 'The request id',
              schema: { type: 'string' },
            },
            ...(e.access === 'metered' ? ETAG : {}),
            ...(isPublic || e.limits === 'exempt' ? {} : RATE_LIMIT),
          },
          ...(e.response ? { content: { 'application/json': { schema: e.response } } } : {}),
        },
        ...(e.access === 'metered' ? NOT_MODIFIED : {}),
        ...errors(errorCodes(e), e.errors),
      },
    });
  }
  const generator = new OpenApiGeneratorV3(registry.definitions);
  return generator.generateDocument({
    openapi: '3.0.3',
    info: {
      title: 'Property Records API',
      version: API_VERSION,
      description:
        'Credit-metered United States property, owner, parcel, sale and assessment records. ' +
        'Endpoints are GET with query parameters, but for the batch lookup (POST with a JSON body) and the webhooks ' +
        '(POST and DELETE, the webhook id in the path). ' +
        '1 credit per property returned; errors cost 0; webhooks are free. Every record answer carries an `ETag`: sent back in ' +
        '`If-None-Match`, it is answered 304 with no body and 0 credits while those records are unchanged (counted as a call). ' +
        'Every refusal is an ErrorResponse, those no operation lists too: a path not listed here is a 404; a method a path ' +
        'does not take (POST to a GET endpoint, GET to the batch, HEAD to any endpoint that needs a key) is a 405 with ' +
        'an `Allow` header naming the ones it takes; both cost 0.',
      license: { name: 'Proprietary', url: 'https://example.com/terms' },
    },
    servers: [{ url: serverUrl }],
    security: AUTH,
    tags: [
      { name: 'Property', description: 'Property record lookups' },
      { name: 'Owner', description: 'Owner entities: one owner, all of its parcels, under an ID that stays' },
      { name: 'Sale', description: 'Sale history' },
      { name: 'Assessment', description: 'Assessment and tax history' },
      { name: 'Autocomplete', description: 'Address type-ahead' },
      { name: 'Account', description: 'Usage and plans' },
      {
        name: 'Webhooks',
        description:
          'Change events POSTed to your endpoints, signed with the secret shown when the webhook is created; free',
      },
      { name: 'Service', description: 'Health' },
    ],
  });
}

export function openApiYaml(serverUrl?: string): string {
  return stringify(buildOpenApiDocument(serverUrl), { aliasDuplicateObjects: false });
}
