// The OpenAPI 3.0.3 document, generated from the zod schemas (never written by hand).
import { OpenAPIRegistry, OpenApiGeneratorV3 } from '@asteasolutions/zod-to-openapi';
import { stringify } from 'yaml';
import type { z } from './zod.js';
import { ErrorResponse, PropertyResponse, SaleHistoryResponse, AssessmentHistoryResponse, SuggestionResponse } from './envelopes.js';
import { HealthResponse, PlansResponse, UsageResponse } from './account.js';
import { AddressQuery, AutocompleteQuery, IdempotencyHeaders, OwnerQuery, ParcelQuery, PropertyIdQuery } from './queries.js';

export const API_VERSION = '2.0.0';
export const BASE_PATH = '/api/v1';

const ERROR_TEXT: Record<number, string> = {
  400: 'Missing or invalid parameters; the message names the parameter. 0 credits.',
  401: 'Missing or invalid API key. 0 credits.',
  402: 'No credits remaining, or every credit grant has expired. 0 credits.',
  403: 'API key disabled. 0 credits.',
  404: 'No properties found. 0 credits.',
  429: 'Rate limit or daily quota exceeded; see Retry-After and RateLimit-* headers. 0 credits.',
  503: 'Temporarily unable to serve: a store is slow, unreachable or reloading (never reported as a bad key). Retry after Retry-After seconds. 0 credits.',
};

const header = (description: string) => ({ description, schema: { type: 'integer' as const } });
const RETRY_AFTER = { 'Retry-After': header('Seconds to wait before retrying') };
const RATE_LIMIT = {
  'RateLimit-Limit': header('Requests allowed in any rolling 60 s for this account'),
  'RateLimit-Remaining': header('Requests left in the current 60 s window'),
  'RateLimit-Reset': header('Seconds until a request slot frees (until the next UTC day for the daily quota)'),
};
const HEADERS_BY_CODE: Record<number, Record<string, ReturnType<typeof header>>> = { 429: { ...RETRY_AFTER, ...RATE_LIMIT }, 503: RETRY_AFTER };

function errors(codes: number[]) {
  return Object.fromEntries(
    codes.map((c) => [
      c,
      { description: ERROR_TEXT[c] ?? 'Error', ...(HEADERS_BY_CODE[c] ? { headers: HEADERS_BY_CODE[c] } : {}), content: { 'application/json': { schema: ErrorResponse } } },
    ]),
  );
}

const AUTH: Record<string, string[]>[] = [{ bearerAuth: [] }, { marketplaceSecret: [], marketplaceKey: [] }];
const METERED_ERRORS = [400, 401, 402, 403, 404, 429, 503];

interface PathSpec {
  path: string;
  operationId: string;
  tag: string;
  summary: string;
  description?: string;
  query?: z.ZodObject;
  ok: z.ZodTypeAny;
  okText: string;
  errorCodes: number[];
  isPublic?: boolean;
}

const ADDRESS_ALIASES: [string, string, string][] = [
  ['/property/address', 'getPropertyByAddress', 'Property records at a street address'],
  ['/property/detail', 'getPropertyDetail', 'Compatibility alias of /property/address'],
  ['/property/detailowner', 'getPropertyDetailOwner', 'Compatibility alias of /property/address (owner data included)'],
  ['/property/detailmortgage', 'getPropertyDetailMortgage', 'Compatibility alias of /property/address (mortgage data included)'],
  [
    '/property/detailmortgageowner',
    'getPropertyDetailMortgageOwner',
    'Compatibility alias of /property/address (mortgage and owner data included)',
  ],
  ['/sale/detail', 'getSaleDetail', 'Compatibility alias of /property/address (sale fields included)'],
];

const BILLING_NOTE =
  'Billing: 1 credit per property returned; errors cost 0. When credits run out mid-page, fewer records are returned, ' +
  '`truncated_by_credits` is true and `records_returned` is the number billed. Send an `Idempotency-Key` to retry safely.';

const PATHS: PathSpec[] = [
  ...ADDRESS_ALIASES.map(([path, operationId, summary]): PathSpec => ({
    path,
    operationId,
    tag: 'Property',
    summary,
    description:
      'Requires `address` with `city`+`state` or with `zip` (alternative names `locality`, `countrySubd`, `postal1`). ' +
      'Addresses are matched after USPS Publication 28 normalisation (suffixes, directionals, ordinals, unit designators, ' +
      'case, punctuation, ZIP+4). An address without a unit returns every unit at it, paginated. Every alias returns the full record. ' +
      BILLING_NOTE,
    query: AddressQuery,
    ok: PropertyResponse,
    okText: 'Matching property records',
    errorCodes: METERED_ERRORS,
  })),
  {
    path: '/property/owner',
    operationId: 'getPropertyByOwner',
    tag: 'Property',
    summary: 'Properties by owner name',
    description: 'Matches the last name of the primary and the secondary owner; firstName, city and state narrow. ' + BILLING_NOTE,
    query: OwnerQuery,
    ok: PropertyResponse,
    okText: 'Properties owned by the named owner',
    errorCodes: METERED_ERRORS,
  },
  {
    path: '/property/parcel',
    operationId: 'getPropertyByParcel',
    tag: 'Property',
    summary: 'Properties by Assessor Parcel Number',
    description:
      'Matches the APN as given and without special characters against the county parcel ID and the tax parcel ID; state and county narrow. ' +
      'No page parameters: up to 100 matches are returned. ' +
      BILLING_NOTE,
    query: ParcelQuery,
    ok: PropertyResponse,
    okText: 'Properties with that parcel number',
    errorCodes: METERED_ERRORS,
  },
  {
    path: '/sale/history',
    operationId: 'getSaleHistory',
    tag: 'Sale',
    summary: 'Full sale history of one property',
    description: 'One record with `saleHistory[]`, newest first. Costs 1 credit. ' + BILLING_NOTE,
    query: PropertyIdQuery,
    ok: SaleHistoryResponse,
    okText: 'The property with its sale history',
    errorCodes: METERED_ERRORS,
  },
  {
    path: '/assessment/detail',
    operationId: 'getAssessmentDetail',
    tag: 'Assessment',
    summary: 'Assessment and tax history of one property',
    description: 'One record with `assessmentHistory[]`, newest tax year first. Costs 1 credit. ' + BILLING_NOTE,
    query: PropertyIdQuery,
    ok: AssessmentHistoryResponse,
    okText: 'The property with its assessment history',
    errorCodes: METERED_ERRORS,
  },
  {
    path: '/property/autocomplete',
    operationId: 'autocompleteAddress',
    tag: 'Autocomplete',
    summary: 'Address type-ahead suggestions',
    description:
      'Not credit-metered (the balance is reported unchanged). No suggestion is 200 with an empty list. ' +
      "Feed a suggestion's `line1` and `postal1` to /property/detail for the full record.",
    query: AutocompleteQuery,
    ok: SuggestionResponse,
    okText: 'Suggestions, best first',
    errorCodes: [400, 401, 403, 429, 503],
  },
  {
    path: '/usage',
    operationId: 'getUsage',
    tag: 'Account',
    summary: 'Credit balance, usage and account details',
    description:
      'SPEC 4.7 lists 401 only; a disabled key is refused with 403 here as on every endpoint (SPEC 5). ' +
      'Read from PostgreSQL: a charge shows up within about a second.',
    ok: UsageResponse,
    okText: 'Usage of the calling account',
    errorCodes: [401, 403, 429, 503],
  },
  {
    path: '/health',
    operationId: 'getHealth',
    tag: 'Service',
    summary: 'Service status',
    ok: HealthResponse,
    okText: 'Service status, database state, record count and version',
    errorCodes: [],
    isPublic: true,
  },
  {
    path: '/plans',
    operationId: 'getPlans',
    tag: 'Account',
    summary: 'Pricing plans and credit packs',
    ok: PlansResponse,
    okText: 'Published plans',
    errorCodes: [],
    isPublic: true,
  },
];

/** An endpoint that charges credits (only those can answer 402): it takes an Idempotency-Key. */
const charges = (p: PathSpec) => p.errorCodes.includes(402);

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
  for (const p of PATHS) {
    registry.registerPath({
      method: 'get',
      path: p.path,
      operationId: p.operationId,
      tags: [p.tag],
      summary: p.summary,
      ...(p.description ? { description: p.description } : {}),
      security: p.isPublic ? [] : AUTH,
      ...(p.query ? { request: { query: p.query, ...(charges(p) ? { headers: IdempotencyHeaders } : {}) } } : {}),
      responses: {
        200: {
          description: p.okText,
          headers: { 'X-Request-Id': { description: 'Equals status.transactionID', schema: { type: 'string' } }, ...(p.isPublic ? {} : RATE_LIMIT) },
          content: { 'application/json': { schema: p.ok } },
        },
        ...errors(p.errorCodes),
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
        'All endpoints are GET with query parameters. 1 credit per property returned; errors cost 0.',
      license: { name: 'Proprietary', url: 'https://example.com/terms' },
    },
    servers: [{ url: serverUrl }],
    security: AUTH,
    tags: [
      { name: 'Property', description: 'Property record lookups' },
      { name: 'Sale', description: 'Sale history' },
      { name: 'Assessment', description: 'Assessment and tax history' },
      { name: 'Autocomplete', description: 'Address type-ahead' },
      { name: 'Account', description: 'Usage and plans' },
      { name: 'Service', description: 'Health' },
    ],
  });
}

export function openApiYaml(serverUrl?: string): string {
  return stringify(buildOpenApiDocument(serverUrl), { aliasDuplicateObjects: false });
}
