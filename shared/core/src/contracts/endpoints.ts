// Every endpoint of the API, defined once: its path and aliases, query schema, response, whether it is metered,
// authenticated or public, and the service that serves it. The express routes (mountEndpoints), the OpenAPI
// document, the gateway plugin's public paths and the kong.yml check are all derived from this table.
import { HealthResponse, PlansResponse, UsageResponse } from './account.js';
import {
  AssessmentHistoryResponse,
  BatchResponse,
  OwnerDetailResponse,
  OwnerSearchResponse,
  PropertyResponse,
  SaleHistoryResponse,
  SuggestionResponse,
} from './envelopes.js';
import {
  AddressQuery,
  AUTOCOMPLETE_TOTAL_CAP,
  AutocompleteQuery,
  BATCH_MAX,
  BatchQuery,
  BatchRequest,
  OWNER_NAME_MIN_LETTERS,
  OwnerDetailQuery,
  OwnerQuery,
  OwnerSearchQuery,
  PAGING_DEPTH_MAX,
  ParcelQuery,
  PropertyIdQuery,
} from './queries.js';
import { AREA_SPAN_MAX_MILES, RADIUS_MAX_MILES } from './area-geometry.js';
import { CHANGE_RETENTION_DAYS, ChangesQuery, ChangesResponse } from './changes.js';
import { AreaQuery, RadiusQuery } from './queries.js';
import type { z } from './zod.js';

export const BASE_PATH = '/api/v1';

export type ServiceName = 'lookup' | 'autocomplete' | 'account-billing' | 'plans';

/** metered: charges credits (can answer 402, takes an Idempotency-Key); authenticated: needs a key, costs nothing. */
export type EndpointAccess = 'metered' | 'authenticated' | 'public';

/** Another path that answers exactly like its endpoint: [path, operationId, summary]. */
export type Alias = readonly [path: string, operationId: string, summary: string];

export interface EndpointDef {
  /** Below BASE_PATH. */
  path: string;
  operationId: string;
  tag: 'Property' | 'Owner' | 'Sale' | 'Assessment' | 'Autocomplete' | 'Account' | 'Service';
  summary: string;
  description?: string;
  query?: z.ZodObject;
  /** GET unless said: POST takes `body` as its JSON request body. */
  method?: 'GET' | 'POST';
  body?: z.ZodType;
  response: z.ZodType;
  okText: string;
  access: EndpointAccess;
  service: ServiceName;
  aliases?: readonly Alias[];
  /**
   * 'exempt': authenticated, but outside the rate limit and the daily quota (and so not a call in /usage either,
   * which counts what the quota counts): /usage answers its owner even at the quota, so a client can read why.
   */
  limits?: 'exempt';
}

const BILLING_NOTE =
  'Billing: 1 credit per property returned; errors cost 0. When credits run out mid-page, fewer records are returned, ' +
  '`truncated_by_credits` is true and `records_returned` is the number billed. Send an `Idempotency-Key` to retry safely.';

export const ENDPOINTS = {
  propertyAddress: {
    path: '/property/address',
    operationId: 'getPropertyByAddress',
    tag: 'Property',
    summary: 'Property records at a street address',
    description:
      'Requires `address` with `city`+`state` or with `zip` (alternative names `locality`, `countrySubd`, `postal1`). ' +
      'Addresses are matched after USPS Publication 28 normalisation (suffixes, directionals, ordinals, unit designators, ' +
      'case, punctuation, ZIP+4). An address without a unit returns every unit at it, paginated. Every alias returns the full record. ' +
      BILLING_NOTE,
    query: AddressQuery,
    response: PropertyResponse,
    okText: 'Matching property records',
    access: 'metered',
    service: 'lookup',
    // SPEC 4.1: the incumbent's paths, answered alike.
    aliases: [
      ['/property/detail', 'getPropertyDetail', 'Compatibility alias of /property/address'],
      [
        '/property/detailowner',
        'getPropertyDetailOwner',
        'Compatibility alias of /property/address (owner data included)',
      ],
      [
        '/property/detailmortgage',
        'getPropertyDetailMortgage',
        'Compatibility alias of /property/address (mortgage data included)',
      ],
      [
        '/property/detailmortgageowner',
        'getPropertyDetailMortgageOwner',
        'Compatibility alias of /property/address (mortgage and owner data included)',
      ],
      ['/sale/detail', 'getSaleDetail', 'Compatibility alias of /property/address (sale fields included)'],
    ],
  },
  propertyBatch: {
    path: '/property/batch',
    operationId: 'getPropertiesInBatch',
    tag: 'Property',
    summary: `Up to ${BATCH_MAX} address lookups in one call`,
    description:
      `A JSON body \`{"requests": [{"id": "a1", "address": "...", "zip": "..."}, ...]}\` of 1 to ${BATCH_MAX} entries, each taking ` +
      'the parameters of /property/address (strings; numbers are read as their digits) and your own `id`. One result per ' +
      'entry, in order, with its own status (0, or the 400/404 a single call would have answered), `match` and records. ' +
      'Billed as the single calls would be, 1 credit per record returned, under one transaction: when the credits run out ' +
      'within the batch, the entry where they ran out is truncated and every later entry is answered 402 with no record. ' +
      'The batch counts one call per 10 entries (rounded up; a full batch is 10), preview or not, for the rate limit, ' +
      'the daily quota and /usage. An `Idempotency-Key` covers the whole batch: a repeat ' +
      'is answered with what the first call paid for. `preview=true` and `max_credits` apply to the whole batch. ' +
      'An entry that cannot be read is a 400 in its result; a body that cannot be read is a 400 for the batch.',
    query: BatchQuery,
    method: 'POST',
    body: BatchRequest,
    response: BatchResponse,
    okText: 'One result per entry, in order',
    access: 'metered',
    service: 'lookup',
  },
  propertyOwner: {
    path: '/property/owner',
    operationId: 'getPropertyByOwner',
    tag: 'Property',
    summary: 'Properties by owner name, or of one owner entity',
    description: `\`ownerId\` (an owner entity, \`owner.owner1.id\` of a record or \`id\` of /owner/search) answers that owner's properties by property ID, paged alike (an ID merged into another owner answers as that one). Otherwise matches the last name of the primary and the secondary owner; an owner without a personal last name (a company, trust, government, or a full name as imported) by any word of its name (\`lastName=ACME\` finds \`ACME HOLDINGS LLC\`). firstName (people only), city and state narrow. \`status.total\` counts at most ${PAGING_DEPTH_MAX.toLocaleString('en-US')} properties: ${PAGING_DEPTH_MAX.toLocaleString('en-US')} means that many or more (pages reach no deeper either; narrow with state or city). ${BILLING_NOTE}`,
    query: OwnerQuery,
    response: PropertyResponse,
    okText: 'Properties owned by the named owner',
    access: 'metered',
    service: 'lookup',
  },
  ownerDetail: {
    path: '/owner/detail',
    operationId: 'getOwnerDetail',
    tag: 'Owner',
    summary: 'One owner entity: names, mailing addresses, parcel count and values',
    description:
      'An owner entity by ID (`owner.owner1.id` / `owner.owner2.id` of a record, `id` of /owner/search): the names its ' +
      'records write, its type, mailing addresses, parcel count, total market and assessed value, states and counties, ' +
      'first and last acquisition (last-sale) date. An ID merged into another owner answers as that one (`owner.id` ' +
      'says which). Costs 1 credit; an unknown ID is a 404 (free). `preview=true` answers the cost without the owner.',
    query: OwnerDetailQuery,
    response: OwnerDetailResponse,
    okText: 'The owner',
    access: 'metered',
    service: 'lookup',
  },
  ownerSearch: {
    path: '/owner/search',
    operationId: 'searchOwners',
    tag: 'Owner',
    summary: 'Owner entities by name, most parcels first',
    description:
      `Owners (people and entities) whose name starts with \`name\` (at least ${OWNER_NAME_MIN_LETTERS} letters; a person is ` +
      'LAST FIRST; entity words are normalised: `L.L.C.` is LLC, a leading THE is dropped), each with its parcel count, ' +
      'most parcels first; `state` counts only parcels there. Paged like /property/owner; at most ' +
      `${PAGING_DEPTH_MAX.toLocaleString('en-US')} owners are counted. Billing: 1 credit per owner returned; errors cost 0; ` +
      '`preview` and `max_credits` as on the property endpoints.',
    query: OwnerSearchQuery,
    response: OwnerSearchResponse,
    okText: 'Owners, most parcels first',
    access: 'metered',
    service: 'lookup',
  },
  propertyParcel: {
    path: '/property/parcel',
    operationId: 'getPropertyByParcel',
    tag: 'Property',
    summary: 'Properties by Assessor Parcel Number',
    description:
      'Matches the APN as given and without special characters against the county parcel ID and the tax parcel ID; state and county narrow. ' +
      'No page parameters: up to 100 matches are returned. ' +
      BILLING_NOTE,
    query: ParcelQuery,
    response: PropertyResponse,
    okText: 'Properties with that parcel number',
    access: 'metered',
    service: 'lookup',
  },
  propertyRadius: {
    path: '/property/radius',
    operationId: 'getPropertiesInRadius',
    tag: 'Property',
    summary: 'Properties within a radius of a point',
    description:
      `The properties within \`radius\` miles (great-circle, at most ${RADIUS_MAX_MILES}) of \`latitude\`,\`longitude\`, nearest ` +
      'first (ties by property ID, so pages never overlap or skip); each record carries `location.distance`, miles from ' +
      'the centre (3 decimals). `proptype` narrows to property types. Paged like /property/owner; records without ' +
      `coordinates are never found by area. \`status.total\` counts at most ${PAGING_DEPTH_MAX.toLocaleString('en-US')} properties: ${PAGING_DEPTH_MAX.toLocaleString('en-US')} means that many or more, and the pages hold the nearest ${PAGING_DEPTH_MAX.toLocaleString('en-US')} (none deeper; narrow with a smaller radius or proptype). ${BILLING_NOTE}`,
    query: RadiusQuery,
    response: PropertyResponse,
    okText: 'Properties in the circle, nearest first',
    access: 'metered',
    service: 'lookup',
  },
  propertyArea: {
    path: '/property/area',
    operationId: 'getPropertiesInArea',
    tag: 'Property',
    summary: 'Properties in a bounding box or a GeoJSON polygon',
    description:
      'Exactly one of `bbox` (`minLon,minLat,maxLon,maxLat`) or `polygon` (a GeoJSON Polygon, URL-encoded; its edges ' +
      `straight in longitude/latitude as RFC 7946 says), at most ${AREA_SPAN_MAX_MILES} miles each way. URL-encoded, the request ` +
      'line must fit in 16 KB (else a 431): send the polygon as compact JSON (200 vertices at 6 decimals are 6 to 7 KB ' +
      'encoded; the same pretty-printed can be 25 KB). Ordered by distance from ' +
      "the box's centre (a polygon: its bounding box's centre), nearest first, ties by property ID; each record carries " +
      `\`location.distance\` in miles from that centre. \`proptype\` narrows to property types. Paged like /property/owner. \`status.total\` counts at most ${PAGING_DEPTH_MAX.toLocaleString('en-US')} properties: ${PAGING_DEPTH_MAX.toLocaleString('en-US')} means that many or more, and the pages hold the ${PAGING_DEPTH_MAX.toLocaleString('en-US')} nearest the centre (none deeper; narrow the area or proptype). ${BILLING_NOTE}`,
    query: AreaQuery,
    response: PropertyResponse,
    okText: 'Properties in the area, nearest its centre first',
    access: 'metered',
    service: 'lookup',
  },
  saleHistory: {
    path: '/sale/history',
    operationId: 'getSaleHistory',
    tag: 'Sale',
    summary: 'Full sale history of one property',
    description: `One record with \`saleHistory[]\`, newest first. Costs 1 credit. ${BILLING_NOTE}`,
    query: PropertyIdQuery,
    response: SaleHistoryResponse,
    okText: 'The property with its sale history',
    access: 'metered',
    service: 'lookup',
  },
  assessmentDetail: {
    path: '/assessment/detail',
    operationId: 'getAssessmentDetail',
    tag: 'Assessment',
    summary: 'Assessment and tax history of one property',
    description: `One record with \`assessmentHistory[]\`, newest tax year first. Costs 1 credit. ${BILLING_NOTE}`,
    query: PropertyIdQuery,
    response: AssessmentHistoryResponse,
    okText: 'The property with its assessment history',
    access: 'metered',
    service: 'lookup',
  },
  changes: {
    path: '/changes',
    operationId: 'getChanges',
    tag: 'Property',
    summary: 'Changes to property records since a cursor',
    description:
      'What imports changed, oldest first: one event per record changed, naming the parts that changed (`parts`) ' +
      'with the owner names and last sale before and after. Continue with `since=<status.cursor>` (with the same ' +
      'filters): a cursor never skips or repeats an event, also while imports run. Filters: `zip`; `county` with ' +
      '`state` (or `state` alone); `ownerId`; `ids`, a watch list of property IDs. `status.more` says the page was ' +
      `full. Events are kept ${CHANGE_RETENTION_DAYS} days: a cursor past that is a 400 \`cursor_expired\` (read the ` +
      'records you follow again, then continue from a new cursor: `since` absent starts at the oldest event kept). ' +
      'Billing: 1 credit per event returned; a page with no event costs nothing (it counts as a call). When credits ' +
      'run out mid-page, fewer events are returned, `truncated_by_credits` is true and the cursor continues after the ' +
      'last one returned. `preview` and `max_credits` as on the property endpoints; send an `Idempotency-Key` to retry safely.',
    query: ChangesQuery,
    response: ChangesResponse,
    okText: 'The events after the cursor, oldest first',
    access: 'metered',
    service: 'lookup',
  },
  autocomplete: {
    path: '/property/autocomplete',
    operationId: 'autocompleteAddress',
    tag: 'Autocomplete',
    summary: 'Address type-ahead suggestions',
    description:
      'Not credit-metered (the balance is reported unchanged). No suggestion is 200 with an empty list. ' +
      `\`status.total\` is the number of suggestions that match, counted up to ${AUTOCOMPLETE_TOTAL_CAP}: ${AUTOCOMPLETE_TOTAL_CAP} means that many or more ` +
      '(type more to narrow them); at most `limit` of them are returned. ' +
      "Feed a suggestion's `line1` and `postal1` to /property/detail for the full record.",
    query: AutocompleteQuery,
    response: SuggestionResponse,
    okText: 'Suggestions, best first',
    access: 'authenticated',
    service: 'autocomplete',
  },
  usage: {
    path: '/usage',
    operationId: 'getUsage',
    tag: 'Account',
    summary: 'Credit balance, usage and account details',
    description:
      'SPEC 4.7 lists 401 only; a disabled key is refused with 403 here as on every endpoint (SPEC 5). ' +
      'Outside the rate limit and the daily quota (never a 429), and not counted as a call: a client at its quota ' +
      'can still read its usage. Read from PostgreSQL: a charge shows up within about a second.',
    response: UsageResponse,
    okText: 'Usage of the calling account',
    access: 'authenticated',
    limits: 'exempt',
    service: 'account-billing',
  },
  health: {
    path: '/health',
    operationId: 'getHealth',
    tag: 'Service',
    summary: 'Service status',
    response: HealthResponse,
    okText: 'Service status, database state, record count and version',
    access: 'public',
    service: 'lookup',
  },
  plans: {
    path: '/plans',
    operationId: 'getPlans',
    tag: 'Account',
    summary: 'Pricing plans and credit packs',
    response: PlansResponse,
    okText: 'Published plans',
    access: 'public',
    service: 'plans',
  },
} as const satisfies Record<string, EndpointDef>;

export type EndpointKey = keyof typeof ENDPOINTS;
/** The endpoints one service serves. */
export type EndpointKeyOf<S extends ServiceName> = {
  [K in EndpointKey]: (typeof ENDPOINTS)[K]['service'] extends S ? K : never;
}[EndpointKey];

/** The generated OpenAPI document, public, served by plans (SPEC 9), at the root and below BASE_PATH. */
/** The interactive API reference (Swagger UI, served by plans from its npm package) and its assets. */
export const REFERENCE_PAGE = '/docs';
export const REFERENCE_ASSETS = ['/docs/swagger-ui.css', '/docs/swagger-ui-bundle.js', '/docs/init.js'] as const;
export const DOCUMENT_PATHS = [
  '/openapi.yaml',
  `${BASE_PATH}/openapi.yaml`,
  REFERENCE_PAGE,
  ...REFERENCE_ASSETS,
] as const;

/** One served path: an endpoint's own or one of its aliases, with the operation it is documented as. */
export interface ServedPath {
  key: EndpointKey;
  endpoint: EndpointDef;
  /** Below BASE_PATH. */
  path: string;
  operationId: string;
  summary: string;
}

/** Every path of the API (aliases included), in table order. */
export function servedPaths(): ServedPath[] {
  return (Object.entries(ENDPOINTS) as [EndpointKey, EndpointDef][]).flatMap(([key, endpoint]) => [
    { key, endpoint, path: endpoint.path, operationId: endpoint.operationId, summary: endpoint.summary },
    ...(endpoint.aliases ?? []).map(([path, operationId, summary]) => ({ key, endpoint, path, operationId, summary })),
  ]);
}

/** Full paths the gateway lets through without a key: the public endpoints and the OpenAPI document. */
export function publicPaths(): Set<string> {
  const endpoints = servedPaths()
    .filter((p) => p.endpoint.access === 'public')
    .map((p) => BASE_PATH + p.path);
  return new Set([...endpoints, ...DOCUMENT_PATHS]);
}

/** Full paths that need a key but are outside the rate limit and the daily quota (/usage). */
export function limitExemptPaths(): Set<string> {
  return new Set(
    servedPaths()
      .filter((p) => p.endpoint.limits === 'exempt')
      .map((p) => BASE_PATH + p.path),
  );
}

const POST_PATHS: ReadonlySet<string> = new Set(
  servedPaths()
    .filter((p) => p.endpoint.method === 'POST')
    .map((p) => BASE_PATH + p.path),
);

/** The method a full path takes: GET, but for the batch (POST). */
export const methodOf = (fullPath: string): 'GET' | 'POST' => (POST_PATHS.has(fullPath) ? 'POST' : 'GET');

/** Full path -> the service that serves it: what the gateway's routes must say (the OpenAPI document included). */
export function routedPaths(): Map<string, ServiceName> {
  const routes = new Map<string, ServiceName>(servedPaths().map((p) => [BASE_PATH + p.path, p.endpoint.service]));
  for (const d of DOCUMENT_PATHS) routes.set(d, 'plans');
  return routes;
}
