// The access phase: who is calling, may they call now, and what the services are told. Any failure of our own
// stores is a 503 with Retry-After, never a 401 and never an error page of Kong's.
import { randomUUID, timingSafeEqual } from 'node:crypto';
import { ApiError, errorBody, IDEMPOTENCY_KEY_HEADER, IDENTITY_HEADERS, SIGNATURE_HEADER, signIdentity, type KeyCache } from '@pra/shared/platform';
import { TIER_LIMITS } from '@pra/shared/tiers';
import { telemetryMetrics } from '@pra/shared/telemetry/metrics';
import type { KongPdk } from './pdk.js';
import type { RateLimiter } from './rate-limit.js';

/** Paths served without a key (SPEC 4.8, 4.9, 9). */
export const PUBLIC_PATHS = new Set(['/api/v1/health', '/api/v1/plans', '/openapi.yaml', '/api/v1/openapi.yaml']);

export interface AccessDeps {
  keys: KeyCache;
  limiter: RateLimiter;
  hmacKey: string;
  /** The marketplace proxy secret; marketplace headers are refused when unset. */
  marketplaceSecret?: string;
  /** A clock for the rate limiter (tests); by default the limiter uses Redis's clock, shared by every gateway. */
  now?: () => number;
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Returns the presented key, or an error to answer with. */
async function presentedKey(kong: KongPdk, d: AccessDeps): Promise<{ key: string } | { status: 401; msg: string }> {
  const auth = await kong.request.get_header('authorization');
  const bearer = typeof auth === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(auth)?.[1] : undefined;
  if (bearer) return { key: bearer };
  const secret = await kong.request.get_header('x-marketplace-proxy-secret');
  const marketKey = await kong.request.get_header('x-marketplace-key');
  if (secret || marketKey) {
    if (!d.marketplaceSecret || !secret || !sameSecret(secret, d.marketplaceSecret)) return { status: 401, msg: 'Invalid marketplace proxy secret' };
    if (!marketKey) return { status: 401, msg: 'Missing X-Marketplace-Key' };
    return { key: marketKey };
  }
  return { status: 401, msg: 'Missing API key: send Authorization: Bearer <API_KEY>' };
}

export async function access(kong: KongPdk, d: AccessDeps): Promise<void> {
  const requestId = randomUUID();
  const exit = (status: number, msg: string, headers: Record<string, string> = {}) =>
    kong.response.exit(status, errorBody(status, msg, 0, requestId), { 'content-type': 'application/json; charset=utf-8', 'x-request-id': requestId, ...headers });
  try {
    await decide(kong, d, requestId, exit);
  } catch (err) {
    const unavailable = err instanceof ApiError && err.status === 503 ? err : undefined;
    return exit(503, unavailable?.message ?? 'The gateway cannot check API keys or limits right now; the request was not charged. Retry shortly.', {
      'retry-after': unavailable?.headers['retry-after'] ?? '1',
    });
  }
}

async function decide(kong: KongPdk, d: AccessDeps, requestId: string, exit: (status: number, msg: string, headers?: Record<string, string>) => Promise<void>) {
  // Identity comes from the gateway only: whatever a client sent is removed first.
  for (const h of [...Object.values(IDENTITY_HEADERS), SIGNATURE_HEADER]) await kong.service.request.clear_header(h);
  await kong.service.request.set_header('x-request-id', requestId);
  const path = await kong.request.get_path();
  if (PUBLIC_PATHS.has(path)) return;
  // Every other endpoint is GET: a HEAD would be charged and return no records, so it never reaches a service.
  const method = await kong.request.get_method();
  if (method !== 'GET') return exit(405, `Method ${method} not allowed: use GET`, { allow: 'GET' });

  const presented = await presentedKey(kong, d);
  if ('status' in presented) return exit(presented.status, presented.msg);
  const entry = await d.keys.lookup(presented.key);
  if (!entry) return exit(401, 'Invalid API key');
  if (entry.status !== 'active') return exit(403, 'API key disabled');

  const tier = TIER_LIMITS[entry.tier];
  const limits = { ratePerMinute: entry.ratePerMinute ?? tier.ratePerMinute, dailyQuota: entry.dailyQuota ?? tier.dailyQuota };
  const a = await d.limiter.admit(entry.accountId, limits.ratePerMinute, limits.dailyQuota, d.now?.());
  const rateHeaders = {
    'ratelimit-limit': String(a.limit),
    'ratelimit-remaining': String(a.remaining),
    'ratelimit-reset': String(a.resetSeconds),
  };
  if (!a.admitted) {
    telemetryMetrics.refused(a.refusedFor === 'quota' ? 'quota-day' : 'rate-minute', { tier: entry.tier });
    const msg = a.refusedFor === 'quota' ? `Daily quota of ${limits.dailyQuota} calls exceeded` : `Rate limit of ${a.limit} requests per minute exceeded`;
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
