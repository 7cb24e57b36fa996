// The access phase: who is calling, may they call now, and what the services are told. Any failure of our own
// stores is a 503 with Retry-After, never a 401 and never an error page of Kong's.
import { randomUUID } from 'node:crypto';
import { ApiError, errorBody, JSON_CONTENT_TYPE, methodNotAllowed } from '@pra/core/errors';
import {
  authorizeKey,
  bearerKey,
  IDEMPOTENCY_KEY_HEADER,
  IDENTITY_HEADERS,
  SIGNATURE_HEADER,
  signIdentity,
  type KeyLookup,
} from '@pra/core/auth';
import { TIER_LIMITS } from '@pra/core/tiers';
import { publicPaths } from '@pra/core/endpoints';
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
  const exit = (status: number, msg: string, headers: Record<string, string> = {}) =>
    kong.response.exit(status, errorBody(status, msg, 0, requestId), {
      'content-type': JSON_CONTENT_TYPE,
      'x-request-id': requestId,
      ...headers,
    });
  try {
    await decide(kong, d, requestId, exit);
  } catch (err) {
    // The key decision refuses with a 401 or 403; anything else is our own failure.
    if (err instanceof ApiError && (err.status === 401 || err.status === 403)) return exit(err.status, err.message);
    const unavailable = err instanceof ApiError && err.status === 503 ? err : undefined;
    return exit(
      503,
      unavailable?.message ??
        'The gateway cannot check API keys or limits right now; the request was not charged. Retry shortly.',
      {
        'retry-after': unavailable?.headers['retry-after'] ?? '1',
      },
    );
  }
}

async function decide(
  kong: KongPdk,
  d: AccessDeps,
  requestId: string,
  exit: (status: number, msg: string, headers?: Record<string, string>) => Promise<void>,
) {
  // Identity comes from the gateway only: whatever a client sent is removed first.
  for (const h of [...Object.values(IDENTITY_HEADERS), SIGNATURE_HEADER]) await kong.service.request.clear_header(h);
  await kong.service.request.set_header('x-request-id', requestId);
  const path = await kong.request.get_path();
  if (PUBLIC_PATHS.has(path)) return;
  // Every other endpoint is GET: a HEAD would be charged and return no records, so it never reaches a service.
  const method = await kong.request.get_method();
  if (method !== 'GET') return exit(405, methodNotAllowed(method), { allow: 'GET' });

  const header = async (name: string) => (await kong.request.get_header(name)) ?? undefined;
  // Each header is a call to Kong: the marketplace pair is read only when there is no Bearer key.
  const authorization = await header('authorization');
  const credentials = bearerKey(authorization)
    ? { authorization }
    : {
        authorization,
        marketplaceSecret: await header('x-marketplace-proxy-secret'),
        marketplaceKey: await header('x-marketplace-key'),
      };
  const entry = await authorizeKey(credentials, d.keys, d.marketplaceSecret);

  const tier = TIER_LIMITS[entry.tier];
  const limits = {
    ratePerMinute: entry.ratePerMinute ?? tier.ratePerMinute,
    dailyQuota: entry.dailyQuota ?? tier.dailyQuota,
  };
  const a = await d.limiter.admit(entry.accountId, limits.ratePerMinute, limits.dailyQuota, d.now?.());
  const rateHeaders = {
    'ratelimit-limit': String(a.limit),
    'ratelimit-remaining': String(a.remaining),
    'ratelimit-reset': String(a.resetSeconds),
  };
  if (!a.admitted) {
    telemetryMetrics.refused(a.refusedFor === 'quota' ? 'quota-day' : 'rate-minute', { tier: entry.tier });
    const msg =
      a.refusedFor === 'quota'
        ? `Daily quota of ${limits.dailyQuota} calls exceeded`
        : `Rate limit of ${a.limit} requests per minute exceeded`;
    return exit(429, msg, { ...rateHeaders, 'retry-after': String(a.retryAfterSeconds) });
  }
  for (const [name, value] of Object.entries(rateHeaders)) await kong.response.set_header(name, value);
  const identity = { accountId: entry.accountId, tier: entry.tier, keyId: entry.keyId };
  const query = await kong.request.get_raw_query();
  const idempotencyKey = (await kong.request.get_header(IDEMPOTENCY_KEY_HEADER)) ?? undefined;
  const target = { method, url: query ? `${path}?${query}` : path, idempotencyKey };
  await kong.service.request.set_header(IDENTITY_HEADERS.account, String(identity.accountId));
  await kong.service.request.set_header(IDENTITY_HEADERS.tier, identity.tier);
  await kong.service.request.set_header(IDENTITY_HEADERS.key, String(identity.keyId));
  await kong.service.request.set_header(SIGNATURE_HEADER, signIdentity(identity, requestId, target, d.hmacKey));
}
