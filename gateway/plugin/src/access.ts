// The access phase: who is calling, may they call now, and what the services are told. Any failure of our own
// stores is a 503 with Retry-After, never a 401 and never an error page of Kong's. A marketplace subscriber (behind
// the proxy secret, X-Marketplace-User and X-Marketplace-Subscription) is resolved to its account like a key: one
// Redis read on the hot path, account-billing asked on its first call and once a period.
import { randomUUID } from 'node:crypto';
import {
  allowHeader,
  ApiError,
  ERROR_STATUS,
  type ErrorReason,
  errorBody,
  JSON_CONTENT_TYPE,
  methodNotAllowed,
  noSuchEndpoint,
} from '@pra/core/errors';
import { counted } from '@pra/core/wording';
import {
  authorizeKey,
  bearerKey,
  IDEMPOTENCY_KEY_HEADER,
  IDENTITY_HEADERS,
  MARKETPLACE_SUBSCRIPTION_HEADER,
  MARKETPLACE_USER_HEADER,
  SIGNATURE_HEADER,
  signIdentity,
  type KeyLookup,
} from '@pra/core/auth';
import { TIER_LIMITS } from '@pra/core/tiers';
import { type HttpMethod, publicPaths, resolvePath } from '@pra/core/endpoints';
import { BATCH_MAX, BATCH_ENTRIES_PER_CALL, batchCallWeightOf } from '@pra/core/contracts';
import { telemetryMetrics } from '@pra/platform/telemetry/metrics';
import type { KongPdk } from './pdk.js';
import type { RateLimiter } from './rate-limit.js';

/** Paths served without a key (SPEC 4.8, 4.9, 9). */
export const PUBLIC_PATHS: ReadonlySet<string> = publicPaths();

export interface AccessDeps {
  keys: KeyLookup;
  limiter: RateLimiter;
  hmacKey: string;
  /** The marketplace proxy secret; marketplace headers are refused when unset. */
  marketplaceSecret?: string;
  /** A clock for the rate limiter (tests); by default the limiter uses Redis's clock, shared by every gateway. */
  now?: () => number;
}

export async function access(kong: KongPdk, d: AccessDeps): Promise<void> {
  const requestId = randomUUID();
  const exit = (reason: ErrorReason, msg: string, headers: Record<string, string> = {}) =>
    kong.response.exit(ERROR_STATUS[reason], errorBody(reason, msg, 0, requestId), {
      'content-type': JSON_CONTENT_TYPE,
      'x-request-id': requestId,
      ...headers,
    });
  try {
    await decide(kong, d, requestId, exit);
  } catch (err) {
    // The key decision refuses with a 401 or 403; anything else is our own failure.
    if (err instanceof ApiError && (err.status === 401 || err.status === 403)) return exit(err.reason, err.message);
    const unavailable = err instanceof ApiError && err.status === 503 ? err : undefined;
    return exit(
      'unavailable',
      unavailable?.message ??
        'The gateway cannot check API keys or limits right now; the request was not charged. Retry shortly.',
      {
        'retry-after': unavailable?.headers['retry-after'] ?? '1',
      },
    );
  }
}

/**
 * The calls a batch's body counts for. A body Kong could not hand over (past its buffer: kong.conf sizes the buffer
 * for the largest batch, so only a body the service refuses anyway) counts as a full batch.
 */
async function bodyWeight(kong: KongPdk): Promise<number> {
  const got = await kong.request.get_raw_body();
  const raw = Array.isArray(got) ? got[0] : got;
  if (raw === null || raw === undefined) return Math.ceil(BATCH_MAX / BATCH_ENTRIES_PER_CALL);
  return batchCallWeightOf(typeof raw === 'string' ? raw : raw.toString('utf8'));
}

/** The headers a client may not send: identity comes from the gateway only. */
const IDENTITY = [...Object.values(IDENTITY_HEADERS), SIGNATURE_HEADER];

const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

// Each PDK call is a round trip between Kong and the pluginserver: an admitted request makes six (path, method,
// headers, the response's headers, query, the service's headers; /usage five: it has no RateLimit headers), a refused
// one four (path, method, headers, exit), a path no endpoint has two (path, exit).
// test/pdk-calls.test.ts holds these counts.
async function decide(
  kong: KongPdk,
  d: AccessDeps,
  requestId: string,
  exit: (reason: ErrorReason, msg: string, headers?: Record<string, string>) => Promise<void>,
) {
  const path = await kong.request.get_path();
  if (PUBLIC_PATHS.has(path)) {
    // Served without a key: whatever identity a client sent is removed.
    for (const h of IDENTITY) await kong.service.request.clear_header(h);
    return kong.service.request.set_headers({ 'x-request-id': requestId });
  }
  // Every other path is one of the endpoint table's (`/webhooks/{id}` matches /webhooks/wh_1), and takes the methods
  // the table gives it (GET; the batch POST; /webhooks GET and POST ...). A HEAD would be charged and return no
  // records, so it never reaches a service. A route's prefix also leads here paths below it that no endpoint has.
  const served = resolvePath(path);
  if (!served) return exit('no_such_endpoint', noSuchEndpoint(path));
  const method = await kong.request.get_method();
  const endpoint = served.path.byMethod.get(method as HttpMethod)?.endpoint;
  if (!endpoint) {
    const allowed = served.path.methods;
    return exit('method_not_allowed', methodNotAllowed(method, allowed), { allow: allowHeader(allowed) });
  }

  const headers = await kong.request.get_headers();
  const authorization = first(headers.authorization);
  const credentials = bearerKey(authorization)
    ? { authorization }
    : {
        authorization,
        marketplaceSecret: first(headers['x-marketplace-proxy-secret']),
        marketplaceKey: first(headers['x-marketplace-key']),
        marketplaceUser: first(headers[MARKETPLACE_USER_HEADER]),
        marketplaceSubscription: first(headers[MARKETPLACE_SUBSCRIPTION_HEADER]),
      };
  const entry = await authorizeKey(credentials, d.keys, d.marketplaceSecret);

  // /usage answers its owner whatever the limits (a client at its quota can read why): the key was checked above
  // (401 unknown, 403 disabled), the window and the quota are neither read nor counted.
  if (endpoint.limits !== 'exempt') {
    const tier = TIER_LIMITS[entry.tier];
    const limits = {
      ratePerMinute: entry.ratePerMinute ?? tier.ratePerMinute,
      dailyQuota: entry.dailyQuota ?? tier.dailyQuota,
    };
    // A batch counts by its entries (batchCallWeight: 1 call per 10 entries), read from the buffered body: one more
    // PDK call, for the batch only.
    const weight = endpoint.weight === 'batch-entries' ? await bodyWeight(kong) : 1;
    const a = await d.limiter.admit(entry.accountId, limits.ratePerMinute, limits.dailyQuota, d.now?.(), weight);
    const rateHeaders = {
      'ratelimit-limit': String(a.limit),
      'ratelimit-remaining': String(a.remaining),
      'ratelimit-reset': String(a.resetSeconds),
    };
    if (!a.admitted) {
      telemetryMetrics.refused(a.refusedFor === 'quota' ? 'quota-day' : 'rate-minute', { tier: entry.tier });
      const msg =
        a.refusedFor === 'quota'
          ? `Daily quota of ${counted(limits.dailyQuota ?? 0, 'call')} exceeded`
          : `Rate limit of ${counted(a.limit, 'request')} per minute exceeded`;
      return exit(a.refusedFor === 'quota' ? 'quota_exceeded' : 'rate_limited', msg, {
        ...rateHeaders,
        'retry-after': String(a.retryAfterSeconds),
      });
    }
    await kong.response.set_headers(rateHeaders);
  }
  const identity = { accountId: entry.accountId, tier: entry.tier, keyId: entry.keyId };
  const query = await kong.request.get_raw_query();
  const target = {
    method,
    url: query ? `${path}?${query}` : path,
    idempotencyKey: first(headers[IDEMPOTENCY_KEY_HEADER]),
  };
  // Setting a header replaces whatever the client sent under that name: every identity header is set here, so none
  // of the client's reaches the service. A refused request never reaches it, so nothing needs clearing before.
  await kong.service.request.set_headers({
    'x-request-id': requestId,
    [IDENTITY_HEADERS.account]: String(identity.accountId),
    [IDENTITY_HEADERS.tier]: identity.tier,
    [IDENTITY_HEADERS.key]: String(identity.keyId),
    [SIGNATURE_HEADER]: signIdentity(identity, requestId, target, d.hmacKey),
  });
}
