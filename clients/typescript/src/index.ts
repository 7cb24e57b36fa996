// @pra/client: the Property Records API from typed TypeScript. The request and response types are generated from
// the OpenAPI document (src/schema.ts, `npm run client:generate`); openapi-fetch does the calls, so every path,
// parameter and field is checked by the compiler.
//
//   const api = createPropertyRecordsClient({ baseUrl: 'http://127.0.0.1:8080/api/v1', apiKey, cache: true });
//   const { data, error, response } = await api.GET('/property/address', { params: { query: { address, zip } } });
//   isNotModified(response); // true: asked again, unchanged, answered from the cache for 0 credits
import createClient, { type Client } from 'openapi-fetch';
import { AnswerCache, type AnswerCacheOptions, answerCacheMiddleware } from './answer-cache.js';
import type { components, paths } from './schema.js';

export { AnswerCache, type AnswerCacheOptions, isNotModified } from './answer-cache.js';

export type { components, operations, paths } from './schema.js';
export type PropertyResponse = components['schemas']['PropertyResponse'];
export type PropertyRecord = components['schemas']['PropertyRecord'];
export type UsageResponse = components['schemas']['UsageResponse'];
export type ErrorResponse = components['schemas']['ErrorResponse'];
/** Why a request was refused (status.reason): `insufficient_credits`, `over_max_credits`, `rate_limited` ... */
export type ErrorReason = components['schemas']['ErrorReason'];
export type OwnerDetailResponse = components['schemas']['OwnerDetailResponse'];
export type OwnerDetail = components['schemas']['OwnerDetail'];
export type OwnerSearchResponse = components['schemas']['OwnerSearchResponse'];
export type OwnerSummary = components['schemas']['OwnerSummary'];
export type ChangesResponse = components['schemas']['ChangesResponse'];
export type ChangeEvent = components['schemas']['ChangeEvent'];
export type PropertyRecordsClient = Client<paths>;

export interface ClientOptions {
  /** The API's base URL, with /api/v1: "https://api.example.com/api/v1". */
  baseUrl: string;
  /** An API key, sent as `Authorization: Bearer <key>`. */
  apiKey?: string;
  /** A marketplace's customer instead (SPEC 5): the marketplace's proxy secret and the customer's key. */
  marketplace?: { proxySecret: string; key: string };
  /** Another fetch (a test's, a proxy's). */
  fetch?: typeof fetch;
  /**
   * Keep every record answer with its ETag and ask again with If-None-Match: an answer whose records are unchanged
   * costs 0 credits (the API answers 304) and is handed back from the cache (`isNotModified(response)` is true).
   * `true` for the defaults, options, or an AnswerCache of your own (to share it or clear it). Off by default.
   */
  cache?: boolean | AnswerCacheOptions | AnswerCache;
}

export function createPropertyRecordsClient(o: ClientOptions): PropertyRecordsClient {
  const headers: Record<string, string> = {};
  if (o.apiKey) headers.authorization = `Bearer ${o.apiKey}`;
  if (o.marketplace) {
    headers['x-marketplace-proxy-secret'] = o.marketplace.proxySecret;
    headers['x-marketplace-key'] = o.marketplace.key;
  }
  const client = createClient<paths>({ baseUrl: o.baseUrl, headers, ...(o.fetch ? { fetch: o.fetch } : {}) });
  if (o.cache) {
    const cache = o.cache instanceof AnswerCache ? o.cache : new AnswerCache(o.cache === true ? {} : o.cache);
    client.use(answerCacheMiddleware(cache));
  }
  return client;
}

/**
 * An answer other than 2xx, with the API's ErrorResponse: `reason` for code to act on (402 `insufficient_credits`
 * vs `over_max_credits`, 429 `rate_limited` vs `quota_exceeded`), status.msg for people. `reason` is undefined only
 * when the answer was not an ErrorResponse (a proxy's page).
 */
export class PropertyRecordsError extends Error {
  readonly reason: ErrorReason | undefined;
  constructor(
    readonly status: number,
    readonly body: ErrorResponse | undefined,
  ) {
    super(body?.status.msg ?? `HTTP ${status}`);
    this.name = 'PropertyRecordsError';
    this.reason = body?.status.reason;
  }
}

type OwnerQuery = NonNullable<paths['/property/owner']['get']['parameters']['query']>;

/**
 * Every page of an owner search, in order, until the last (each page is charged as it is fetched: stop early to
 * spend less). A 404 on the first page (no such owner) ends it without a page; any other error is thrown.
 */
export async function* ownerPages(
  api: PropertyRecordsClient,
  query: Omit<OwnerQuery, 'page'>,
): AsyncGenerator<PropertyResponse> {
  for (let page = 1; ; page++) {
    const { data, error, response } = await api.GET('/property/owner', { params: { query: { ...query, page } } });
    if (!data) {
      if (response.status === 404 && page === 1) return;
      throw new PropertyRecordsError(response.status, error as ErrorResponse | undefined);
    }
    yield data;
    if (page * data.status.pagesize >= data.status.total || data.status.truncated_by_credits) return;
  }
}

export type BatchEntry = components['schemas']['BatchEntry'];
export type BatchResult = components['schemas']['BatchResult'];
export type BatchResponse = components['schemas']['BatchResponse'];
/** The most entries one batch call takes (the API refuses more). */
export const BATCH_MAX = 100;

export interface BatchLookupOptions {
  /** Entries per call, at most BATCH_MAX. */
  chunkSize?: number;
  /**
   * Makes the whole list safe to retry: chunk i is sent with `${idempotencyKey}:${i}`, so a retried list is charged
   * once per chunk and answered as first answered.
   */
  idempotencyKey?: string;
  /** The most each chunk may cost (max_credits); a chunk costing more is a 402, thrown. */
  maxCreditsPerChunk?: number;
}

export interface BatchLookupResult {
  /** One result per entry of the list, in order; entries never sent (credits ran out before) are 402s. */
  results: BatchResult[];
  recordsReturned: number;
  /** The balance after the last chunk sent. */
  creditsRemaining: number | null;
  /** One transaction per chunk sent. */
  transactionIds: string[];
}

/**
 * Any number of address lookups, sent as batches of up to 100, one after the other, their results joined in order.
 * When a chunk's credits run out, the rest are not sent (they would be 402s): their results say so. Any other error
 * of a chunk (400 for its body, 429, 503) is thrown as a PropertyRecordsError, with the chunks already answered lost
 * to the caller unless `idempotencyKey` is given (then a retry of the list is charged nothing more for them).
 */
export async function batchLookup(
  api: PropertyRecordsClient,
  entries: readonly BatchEntry[],
  o: BatchLookupOptions = {},
): Promise<BatchLookupResult> {
  const size = Math.min(BATCH_MAX, Math.max(1, o.chunkSize ?? BATCH_MAX));
  // Each chunk's key is the list's with ":<chunk>" after it, within the API's 255 characters.
  const longestKey = o.idempotencyKey ? `${o.idempotencyKey}:${Math.ceil(entries.length / size) - 1}` : '';
  if (!/^[\x21-\x7e]{0,255}$/.test(longestKey)) {
    throw new RangeError(
      `idempotencyKey must be visible ASCII and short enough for ":<chunk>" after it (${longestKey.length} > 255 characters)`,
    );
  }
  const out: BatchLookupResult = { results: [], recordsReturned: 0, creditsRemaining: null, transactionIds: [] };
  for (let start = 0, i = 0; start < entries.length; start += size, i++) {
    const chunk = entries.slice(start, start + size);
    if (out.creditsRemaining === 0) {
      out.results.push(...chunk.map(notSent));
      continue;
    }
    const query = o.maxCreditsPerChunk !== undefined ? { max_credits: o.maxCreditsPerChunk } : {};
    const { data, error, response } = await api.POST('/property/batch', {
      params: {
        query,
        ...(o.idempotencyKey ? { header: { 'Idempotency-Key': `${o.idempotencyKey}:${i}` } } : {}),
      },
      body: { requests: [...chunk] },
    });
    if (!data) {
      if (response.status === 402 && out.transactionIds.length > 0 && o.maxCreditsPerChunk === undefined) {
        out.creditsRemaining = 0; // spent by another call meanwhile: the rest would be 402s too
        out.results.push(...chunk.map(notSent));
        continue;
      }
      throw new PropertyRecordsError(response.status, error as ErrorResponse | undefined);
    }
    out.results.push(...data.results);
    out.recordsReturned += data.status.records_returned;
    out.creditsRemaining = data.status.truncated_by_credits ? 0 : data.status.credits_remaining;
    out.transactionIds.push(data.status.transactionID);
  }
  return out;
}

const notSent = (e: BatchEntry): BatchResult => ({
  id: e.id ?? null,
  status: {
    code: 402,
    msg: 'Not sent: the credits ran out in an earlier batch of this list',
    total: 0,
    records_returned: 0,
    truncated_by_credits: false,
  },
  match: null,
  property: [],
});

export type Webhook = components['schemas']['Webhook'];
/** A webhook as POST /webhooks answers it: with its signing secret, shown this once. */
export type CreatedWebhook = components['schemas']['CreatedWebhook'];
export type CreateWebhookRequest = components['schemas']['CreateWebhookRequest'];
export type WebhookFilter = components['schemas']['WebhookFilter'];
export type WebhookListResponse = components['schemas']['WebhookListResponse'];
export type DeliveryAttempt = components['schemas']['DeliveryAttempt'];
export type DeliveriesResponse = components['schemas']['DeliveriesResponse'];

/** The data of a success, or a PropertyRecordsError with the API's ErrorResponse. */
async function answered<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await call;
  if (!response.ok) throw new PropertyRecordsError(response.status, error as ErrorResponse | undefined);
  return data as T;
}

/**
 * Registers an endpoint for change events (`{url, events, filter}`, the filter one of zip, county+state, ids,
 * ownerId). The answer holds the signing `secret`, shown this once: keep it to verify deliveries. Free. With an
 * `idempotencyKey` (a new one, e.g. a UUID, per endpoint wanted), a retry after a time-out creates nothing more and
 * answers the webhook the first call made.
 */
export const createWebhook = async (
  api: PropertyRecordsClient,
  body: CreateWebhookRequest,
  o: { idempotencyKey?: string } = {},
): Promise<CreatedWebhook> =>
  (
    await answered(
      api.POST('/webhooks', {
        body,
        ...(o.idempotencyKey === undefined ? {} : { params: { header: { 'Idempotency-Key': o.idempotencyKey } } }),
      }),
    )
  ).webhook;

/** The account's webhooks, oldest first, each with its status (`disabled` with why), and the most it may have. */
export const listWebhooks = (api: PropertyRecordsClient): Promise<WebhookListResponse> =>
  answered(api.GET('/webhooks'));

/** Deletes a webhook; a PropertyRecordsError 404 (`not_found`) when the account has none by that id. */
export const deleteWebhook = async (api: PropertyRecordsClient, id: string): Promise<void> => {
  await answered(api.DELETE('/webhooks/{id}', { params: { path: { id } } }));
};

/** One page of a webhook's delivery attempts, newest first; pass `nextCursor` as `cursor` for the older ones. */
export const webhookDeliveries = (
  api: PropertyRecordsClient,
  id: string,
  page: { pagesize?: number; cursor?: string } = {},
): Promise<DeliveriesResponse> =>
  answered(api.GET('/webhooks/{id}/deliveries', { params: { path: { id }, query: page } }));

/** Queues a `webhook.test` event to the webhook; its attempts show in webhookDeliveries under the id returned. */
export const testWebhook = (api: PropertyRecordsClient, id: string): Promise<{ eventId: string }> =>
  answered(api.POST('/webhooks/{id}/test', { params: { path: { id } } }));

/** Enables a webhook disabled after repeated failures: the events it was owed meanwhile are then delivered. */
export const enableWebhook = async (api: PropertyRecordsClient, id: string): Promise<Webhook> =>
  (await answered(api.POST('/webhooks/{id}/enable', { params: { path: { id } } }))).webhook;

/**
 * Replaces a webhook's signing secret and answers the new one (shown this once). The old secret keeps signing beside
 * it for `overlapSeconds` (a day by default; 0 ends it at once, for a secret that leaked).
 */
export const rotateWebhookSecret = async (
  api: PropertyRecordsClient,
  id: string,
  overlapSeconds?: number,
): Promise<CreatedWebhook> =>
  (
    await answered(
      api.POST('/webhooks/{id}/rotate-secret', {
        params: { path: { id }, query: overlapSeconds === undefined ? {} : { overlap_seconds: overlapSeconds } },
      }),
    )
  ).webhook;

type ChangesQuery = NonNullable<paths['/changes']['get']['parameters']['query']>;

/**
 * The change feed page by page from `query.since` (absent: the oldest event kept) until it has caught up
 * (`status.more` false) or the credits ran out mid-page; each page is charged as it is fetched (1 credit per event,
 * an empty page free). Keep the last page's `status.cursor` and pass it as `since` next time, with the same filters.
 * An error (a 400 `cursor_expired`: read your records again and start without `since`) is thrown.
 */
export async function* changePages(api: PropertyRecordsClient, query: ChangesQuery): AsyncGenerator<ChangesResponse> {
  let since = query.since;
  for (;;) {
    const { data, error, response } = await api.GET('/changes', {
      params: { query: { ...query, ...(since !== undefined ? { since } : {}) } },
    });
    if (!data) throw new PropertyRecordsError(response.status, error as ErrorResponse | undefined);
    yield data;
    since = data.status.cursor;
    if (!data.status.more || data.status.truncated_by_credits) return;
  }
}
