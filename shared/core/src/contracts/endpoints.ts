// Every endpoint of the API, defined once: its method, path (with its parameters) and aliases, query and body
// schemas, response, whether it is metered, authenticated or public, and the service that serves it. The express
// routes (mountEndpoints), the OpenAPI document, the gateway plugin's paths and methods and the kong.yml check are
// all derived from this table.
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
  BATCH_BODY_MAX_BYTES,
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
import {
  ANY_PROPERTY_CHANGE,
  CreateWebhookRequest,
  CreateWebhookResponse,
  DeliveriesQuery,
  RotateWebhookSecretQuery,
  RotateWebhookSecretResponse,
  DeliveriesResponse,
  WEBHOOK_BODY_MAX_BYTES,
  WEBHOOK_EVENTS,
  WEBHOOK_FILTER_IDS_MAX,
  WebhookIdParams,
  WebhookListResponse,
  WebhookResponse,
  WEBHOOK_TESTS_PENDING_MAX,
  WEBHOOKS_PER_ACCOUNT_MAX,
  WebhookTestResponse,
} from './webhooks.js';
import type { z } from './zod.js';

export const BASE_PATH = '/api/v1';

export type ServiceName = 'lookup' | 'autocomplete' | 'account-billing' | 'plans';

/** metered: charges credits (can answer 402, takes an Idempotency-Key); authenticated: needs a key, costs nothing. */
export type EndpointAccess = 'metered' | 'authenticated' | 'public';

/** Another path that answers exactly like its endpoint: [path, operationId, summary]. */
export type Alias = readonly [path: string, operationId: string, summary: string];

/** The methods an endpoint may take (HEAD goes with GET, where it is allowed at all). */
export type HttpMethod = 'GET' | 'POST' | 'DELETE';

export interface EndpointDef {
  /** Below BASE_PATH. A `{name}` segment is a path parameter, described by `params` (`/webhooks/{id}`). */
  path: string;
  operationId: string;
  tag: 'Property' | 'Owner' | 'Sale' | 'Assessment' | 'Autocomplete' | 'Account' | 'Webhooks' | 'Service';
  summary: string;
  description?: string;
  /** The path parameters, one per `{name}` of `path`. */
  params?: z.ZodObject;
  query?: z.ZodObject;
  /** GET unless said. POST takes `body` as its JSON request body (when it has one). */
  method?: HttpMethod;
  body?: z.ZodType;
  /** The answer of a success: 200 unless said; 204 has no body (and no `response`). */
  okStatus?: 200 | 201 | 202 | 204;
  response?: z.ZodType;
  okText: string;
  access: EndpointAccess;
  service: ServiceName;
  aliases?: readonly Alias[];
  /**
   * 'exempt': authenticated, but outside the rate limit and the daily quota (and so not a call in /usage either,
   * which counts what the quota counts): /usage answers its owner even at the quota, so a client can read why.
   */
  limits?: 'exempt';
  /**
   * 'batch-entries': the call counts by the entries of its body (the batch: one call per 10 entries) for the rate
   * limit, the daily quota and /usage; the gateway reads the body for it. Every other call counts 1.
   */
  weight?: 'batch-entries';
  /** The largest body taken (the gateway's request-size limit for its route is at least this). */
  bodyMaxBytes?: number;
  /** A creation that takes an Idempotency-Key: a retry with it is answered with what the first call made. */
  idempotentCreate?: true;
  /** Statuses it answers beyond those its access gives, or another text for one of those: status -> meaning. */
  errors?: Readonly<Partial<Record<number, string>>>;
}

const BILLING_NOTE =
  'Billing: 1 credit per property returned; errors cost 0. When credits run out mid-page, fewer records are returned, ' +
  '`truncated_by_credits` is true and `records_returned` is the number billed. Send an `Idempotency-Key` to retry safely.';

/** The 404 of a webhook id: one the account does not have, whether another account has it or none does. */
const NO_SUCH_WEBHOOK = {
  404: "No webhook with that id on the calling account (another account's is not found either).",
};

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
    weight: 'batch-entries',
    bodyMaxBytes: BATCH_BODY_MAX_BYTES,
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
    description: `\`ownerId\` (an owner entity, \`owner.owner1.id\` of a record or \`id\` of /owner/search) answers that owner's properties by property ID, paged alike (an ID merged into another owner answers as that one). Otherwise matches the last name of any owner of a record (owner1, owner2, and owner3 and owner4 where the roll names them); an owner without a personal last name (a company, trust, government, or a full name as imported) by any word of its name (\`lastName=ACME\` finds \`ACME HOLDINGS LLC\`). firstName (people only), city and state narrow. \`status.total\` counts at most ${PAGING_DEPTH_MAX.toLocaleString('en-US')} properties: ${PAGING_DEPTH_MAX.toLocaleString('en-US')} means that many or more (pages reach no deeper either; narrow with state or city). ${BILLING_NOTE}`,
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
      'An owner entity by ID (`owner.owner1.id` ... `owner.owner4.id` of a record, `id` of /owner/search): the names its ' +
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
  // Webhooks (issue 38): an account's endpoints for change events. Free (never charged, never a 402), but calls like
  // any other: they need the key and count for the rate limit, the daily quota and /usage's calls.
  listWebhooks: {
    path: '/webhooks',
    operationId: 'listWebhooks',
    tag: 'Webhooks',
    summary: "The account's webhooks, with their status",
    description:
      'Each webhook with `status` (`active`, or `disabled` after repeated failed deliveries, with `disabledReason`) ' +
      'and its failures in a row. Secrets are never shown here. Free.',
    response: WebhookListResponse,
    okText: "The calling account's webhooks",
    access: 'authenticated',
    service: 'account-billing',
  },
  createWebhook: {
    path: '/webhooks',
    operationId: 'createWebhook',
    tag: 'Webhooks',
    summary: 'Register an endpoint for change events',
    description:
      'A JSON body `{"url": "https://...", "events": ["property.changed"], "filter": {...}}`; the filter is exactly one ' +
      'of `zip`; `county` and `state`; `ids` (1 to ' +
      `${WEBHOOK_FILTER_IDS_MAX.toLocaleString('en-US')} property IDs); \`ownerId\`. Events: ${WEBHOOK_EVENTS.join(', ')}, or \`${ANY_PROPERTY_CHANGE}\` for all three. ` +
      'The URL must be https (plain http is taken only on a development machine, and then only to a loopback ' +
      `address). An account may have ${WEBHOOKS_PER_ACCOUNT_MAX} webhooks (a 409 past that). The answer holds the signing ` +
      '`secret`, shown this once: each delivery is signed with it (`webhook-id`, `webhook-timestamp`, ' +
      '`webhook-signature` headers, the Standard Webhooks scheme). Free: no credits are charged.',
    method: 'POST',
    body: CreateWebhookRequest,
    bodyMaxBytes: WEBHOOK_BODY_MAX_BYTES,
    okStatus: 201,
    errors: {
      409: `The account has ${WEBHOOKS_PER_ACCOUNT_MAX} webhooks already, the most it may have: delete one first.`,
    },
    response: CreateWebhookResponse,
    idempotentCreate: true,
    okText: 'The webhook, with its secret (shown this once)',
    access: 'authenticated',
    service: 'account-billing',
  },
  deleteWebhook: {
    path: '/webhooks/{id}',
    operationId: 'deleteWebhook',
    tag: 'Webhooks',
    summary: 'Delete a webhook',
    description:
      "No event is sent to it afterwards. Another account's webhook is a 404, like one that does not exist. Free.",
    method: 'DELETE',
    params: WebhookIdParams,
    errors: NO_SUCH_WEBHOOK,
    okStatus: 204,
    okText: 'Deleted',
    access: 'authenticated',
    service: 'account-billing',
  },
  webhookDeliveries: {
    path: '/webhooks/{id}/deliveries',
    operationId: 'listWebhookDeliveries',
    tag: 'Webhooks',
    summary: "A webhook's delivery attempts, newest first",
    description:
      'Each attempt: the event, the attempt number, when, the HTTP status (or the error), the latency and the outcome. ' +
      'Paged by `pagesize` and `cursor` (`nextCursor` of the page before). Free.',
    params: WebhookIdParams,
    errors: NO_SUCH_WEBHOOK,
    query: DeliveriesQuery,
    response: DeliveriesResponse,
    okText: 'Delivery attempts, newest first',
    access: 'authenticated',
    service: 'account-billing',
  },
  testWebhook: {
    path: '/webhooks/{id}/test',
    operationId: 'testWebhook',
    tag: 'Webhooks',
    summary: 'Send a test event to a webhook',
    description:
      'Queues one test event (`webhook.test`, whatever events the webhook takes), delivered, signed and retried like ' +
      'any other; its attempts appear under `/webhooks/{id}/deliveries`. A disabled webhook gets it once enabled ' +
      'again. No body. Free.',
    method: 'POST',
    params: WebhookIdParams,
    errors: {
      ...NO_SUCH_WEBHOOK,
      409: `The webhook is owed ${WEBHOOK_TESTS_PENDING_MAX} test events already, the most at once: wait for them to be delivered (or enable it).`,
    },
    okStatus: 202,
    response: WebhookTestResponse,
    okText: 'The test event is queued',
    access: 'authenticated',
    service: 'account-billing',
  },
  enableWebhook: {
    path: '/webhooks/{id}/enable',
    operationId: 'enableWebhook',
    tag: 'Webhooks',
    summary: 'Enable a disabled webhook again',
    description:
      'A webhook disabled after repeated failed deliveries takes events again: its failures in a row start over, ' +
      'and the events it was owed meanwhile are delivered, in order. An active one is answered as it is. No body. Free.',
    method: 'POST',
    params: WebhookIdParams,
    errors: NO_SUCH_WEBHOOK,
    response: WebhookResponse,
    okText: 'The webhook, active',
    access: 'authenticated',
    service: 'account-billing',
  },
  rotateWebhookSecret: {
    path: '/webhooks/{id}/rotate-secret',
    operationId: 'rotateWebhookSecret',
    tag: 'Webhooks',
    summary: "Replace a webhook's signing secret",
    description:
      'Answers the webhook with its new `secret`, shown this once. The secret it replaces keeps signing every ' +
      'delivery beside the new one for `overlap_seconds` (a day by default, at most a day; 0 ends it at once, for a ' +
      'secret that leaked): the `webhook-signature` header then holds both signatures, space-separated as Standard ' +
      'Webhooks writes them, so a receiver verifying with either secret accepts the delivery while it moves to the ' +
      'new one. One replaced secret at most: rotating again within the overlap drops the oldest at once. No body. Free.',
    method: 'POST',
    params: WebhookIdParams,
    query: RotateWebhookSecretQuery,
    errors: NO_SUCH_WEBHOOK,
    response: RotateWebhookSecretResponse,
    okText: 'The webhook, with its new secret (shown this once)',
    access: 'authenticated',
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
  /** Below BASE_PATH; `{name}` for a path parameter. */
  path: string;
  operationId: string;
  summary: string;
  method: HttpMethod;
}

/** Every path of the API (aliases included), one entry per method, in table order. */
export function servedPaths(): ServedPath[] {
  return (Object.entries(ENDPOINTS) as [EndpointKey, EndpointDef][]).flatMap(([key, endpoint]) => {
    const method = endpoint.method ?? 'GET';
    return [
      { key, endpoint, path: endpoint.path, operationId: endpoint.operationId, summary: endpoint.summary, method },
      ...(endpoint.aliases ?? []).map(([path, operationId, summary]) => ({
        key,
        endpoint,
        path,
        operationId,
        summary,
        method,
      })),
    ];
  });
}

/** The names of a path's parameters, in order: `/webhooks/{id}/test` -> ['id']. */
export const pathParameters = (path: string): string[] => [...path.matchAll(/\{([A-Za-z]\w*)\}/g)].map((m) => m[1]!);

/** A table path as express routes it: `/webhooks/{id}` -> `/webhooks/:id`. */
export const expressPath = (path: string): string => path.replace(/\{([A-Za-z]\w*)\}/g, ':$1');

/** One path of the table (full, below no base) and what each method there does. */
export interface TablePath {
  /** The full path as the table writes it (`/api/v1/webhooks/{id}`). */
  template: string;
  /** The endpoints at it, one per method. */
  byMethod: ReadonlyMap<HttpMethod, ServedPath>;
  /** Its methods, in table order (the `Allow` header of a 405). */
  methods: readonly HttpMethod[];
}

/** The paths of a table, each with its methods, found from a request's path. */
export interface PathTable {
  /**
   * The table's path a request's full path is (`/api/v1/webhooks/wh_1` is `/api/v1/webhooks/{id}`), with the
   * parameters read from it; undefined for a path the table does not have. A path without parameters is one map
   * look-up (the gateway's hot path); only the few templated ones are tried as patterns.
   */
  resolve(fullPath: string): { path: TablePath; params: Record<string, string> } | undefined;
  /** Every path, full, as templates (`/api/v1/webhooks/{id}`), each with its methods. */
  list(): TablePath[];
}

/** A path table of served paths (the endpoint table's: resolvePath; a test's own). */
export function pathTable(served: readonly ServedPath[]): PathTable {
  const byTemplate = new Map<string, { template: string; byMethod: Map<HttpMethod, ServedPath> }>();
  for (const p of served) {
    const template = BASE_PATH + p.path;
    const entry = byTemplate.get(template) ?? { template, byMethod: new Map<HttpMethod, ServedPath>() };
    byTemplate.set(template, entry);
    if (entry.byMethod.has(p.method)) throw new Error(`${p.method} ${template} is in the endpoint table twice`);
    entry.byMethod.set(p.method, p);
  }
  const exact = new Map<string, TablePath>();
  const templated: { pattern: RegExp; names: string[]; path: TablePath }[] = [];
  for (const { template, byMethod } of byTemplate.values()) {
    const path: TablePath = { template, byMethod, methods: [...byMethod.keys()] };
    const names = pathParameters(template);
    if (names.length === 0) {
      exact.set(template, path);
      continue;
    }
    // A parameter is one whole segment: never empty, no slash.
    const parts = template.split(/\{[A-Za-z]\w*\}/).map((part) => part.replace(/[.*+?^$()|[\]\\]/g, '\\$&'));
    templated.push({ pattern: new RegExp(`^${parts.join('([^/]+)')}$`), names, path });
  }
  return {
    resolve(fullPath) {
      const found = exact.get(fullPath);
      if (found) return { path: found, params: {} };
      for (const { pattern, names, path } of templated) {
        const m = pattern.exec(fullPath);
        if (m) return { path, params: Object.fromEntries(names.map((n, i) => [n, m[i + 1]!])) };
      }
      return undefined;
    },
    list: () => [...exact.values(), ...templated.map((t) => t.path)],
  };
}

const TABLE = pathTable(servedPaths());

/** The endpoint table's path a request's full path is, with its parameters (PathTable.resolve). */
export const resolvePath = (fullPath: string) => TABLE.resolve(fullPath);

/** Every path of the endpoint table, full, as templates, each with its methods. */
export const tablePathList = (): TablePath[] => TABLE.list();

/** Full paths the gateway lets through without a key: the public endpoints and the OpenAPI document. */
export function publicPaths(): Set<string> {
  const endpoints = servedPaths()
    .filter((p) => p.endpoint.access === 'public')
    .map((p) => BASE_PATH + p.path);
  return new Set([...endpoints, ...DOCUMENT_PATHS]);
}

/** The methods a full path takes, as the table says (undefined for a path it does not have). */
export const methodsOf = (fullPath: string): readonly HttpMethod[] | undefined => resolvePath(fullPath)?.path.methods;

/** Full path (a template for a path with parameters) -> the service that serves it: what the gateway's routes must say. */
export function routedPaths(): Map<string, ServiceName> {
  const routes = new Map<string, ServiceName>(servedPaths().map((p) => [BASE_PATH + p.path, p.endpoint.service]));
  for (const d of DOCUMENT_PATHS) routes.set(d, 'plans');
  return routes;
}
