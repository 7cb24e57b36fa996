// @pra/client: the Property Records API from typed TypeScript. The request and response types are generated from
// the OpenAPI document (src/schema.ts, `npm run client:generate`); openapi-fetch does the calls, so every path,
// parameter and field is checked by the compiler.
//
//   const api = createPropertyRecordsClient({ baseUrl: 'http://127.0.0.1:8080/api/v1', apiKey });
//   const { data, error } = await api.GET('/property/address', { params: { query: { address, zip } } });
import createClient, { type Client } from 'openapi-fetch';
import type { components, paths } from './schema.js';

export type { components, operations, paths } from './schema.js';
export type PropertyResponse = components['schemas']['PropertyResponse'];
export type PropertyRecord = components['schemas']['PropertyRecord'];
export type UsageResponse = components['schemas']['UsageResponse'];
export type ErrorResponse = components['schemas']['ErrorResponse'];
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
}

export function createPropertyRecordsClient(o: ClientOptions): PropertyRecordsClient {
  const headers: Record<string, string> = {};
  if (o.apiKey) headers.authorization = `Bearer ${o.apiKey}`;
  if (o.marketplace) {
    headers['x-marketplace-proxy-secret'] = o.marketplace.proxySecret;
    headers['x-marketplace-key'] = o.marketplace.key;
  }
  return createClient<paths>({ baseUrl: o.baseUrl, headers, ...(o.fetch ? { fetch: o.fetch } : {}) });
}

/** An answer other than 2xx, with the API's ErrorResponse (its status.msg says what is wrong). */
export class PropertyRecordsError extends Error {
  constructor(
    readonly status: number,
    readonly body: ErrorResponse | undefined,
  ) {
    super(body?.status.msg ?? `HTTP ${status}`);
    this.name = 'PropertyRecordsError';
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
