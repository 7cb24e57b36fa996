// Who is calling. The gateway resolves the key and forwards identity headers it signs with an HMAC over the
// identity, the method, the path, the canonical query and the request id; services accept nothing else. Only in
// development mode (PRA_DEVELOPMENT=1, set by npm start and the tests) may a service without the HMAC key resolve a
// Bearer key itself and trust identity headers and request ids from loopback.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Redis } from 'ioredis';
import { TIER_NAMES, type TierName } from '../tiers/index.js';
import { ApiError } from './errors.js';
import { hashApiKey } from './api-keys.js';
import { annotateRequest } from '../telemetry/trace-context.js';
import { telemetryMetrics } from '../telemetry/metrics.js';

export interface Identity {
  accountId: number;
  tier: TierName;
  keyId: number;
}

export const IDENTITY_HEADERS = { account: 'x-pra-account-id', tier: 'x-pra-tier', key: 'x-pra-key-id' } as const;

const LOOPBACK_ADDRESSES: ReadonlySet<string> = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What account-billing writes for every key: the gateway and services read nothing else to authenticate. */
export interface KeyCacheEntry {
  keyId: number;
  accountId: number;
  tier: TierName;
  status: 'active' | 'disabled';
  /** Per-account overrides of the tier's limits (enterprise contracts); absent: the tier's. */
  ratePerMinute?: number;
  dailyQuota?: number;
  /** Version of the key's row when written: a write never replaces a newer one (a rebuild cannot undo a disable). */
  v?: number;
}

export const keyCacheKey = (prefix: string, keyHash: string) => `${prefix}key:${keyHash}`;
/** Present while the key cache holds every key (set at the end of a rebuild); gone after Redis lost its data. */
export const keyCacheLoadedKey = (prefix: string) => `${prefix}keys:loaded`;

/** The key cache cannot say whether a key is valid (Redis unreachable, or emptied and not yet rebuilt). */
export const keyCacheUnavailable = () =>
  new ApiError('UNAVAILABLE', 'Authentication is temporarily unavailable (our key store cannot be read right now); the request was not charged. Retry shortly', 0, { 'retry-after': '2' });

/**
 * Reads the Redis key cache, with a short in-process cache (a change takes effect within ttlMs). A key missing from
 * a cold cache is never called invalid: the lookup throws keyCacheUnavailable (503), so our outage is not answered
 * 401. Unknown keys are remembered for ttlMs too (a short negative cache).
 */
export class KeyCache {
  private readonly local = new Map<string, { at: number; entry: KeyCacheEntry | null }>();
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly ttlMs = 1_000,
  ) {}

  async lookup(rawKey: string): Promise<KeyCacheEntry | null> {
    const hash = hashApiKey(rawKey);
    const now = Date.now();
    const hit = this.local.get(hash);
    if (hit && now - hit.at < this.ttlMs) {
      telemetryMetrics.keyLookup('local');
      return hit.entry;
    }
    let text: string | null | undefined;
    let loaded: string | null | undefined;
    try {
      [text, loaded] = await this.redis.mget(keyCacheKey(this.prefix, hash), keyCacheLoadedKey(this.prefix));
    } catch {
      throw keyCacheUnavailable();
    }
    if (!text && !loaded) throw keyCacheUnavailable();
    telemetryMetrics.keyLookup(text ? 'redis' : 'miss');
    const entry = text ? (JSON.parse(text) as KeyCacheEntry) : null;
    if (this.local.size > 100_000) this.local.clear();
    this.local.set(hash, { at: now, entry });
    return entry;
  }
}

/**
 * How a service tells who is calling: only what the gateway signed (production), or, in development mode without
 * the gateway's key, a Bearer key resolved through the key cache and identity headers from loopback.
 */
export type CallerAuth = { gatewayKey: string } | { development: true; keys: KeyCache };

/** The caller auth of a service's config; refuses to start outside development mode without the HMAC key. */
export function callerAuth(config: { GATEWAY_HMAC_KEY?: string; PRA_DEVELOPMENT: boolean }, keys: KeyCache): CallerAuth {
  if (config.GATEWAY_HMAC_KEY !== undefined) return { gatewayKey: config.GATEWAY_HMAC_KEY };
  if (config.PRA_DEVELOPMENT) return { development: true, keys };
  throw new Error(
    'Invalid configuration:\n  GATEWAY_HMAC_KEY: required (the key the gateway signs identity with); ' +
      'only a development machine may run without it, with PRA_DEVELOPMENT=1\nSet the variables above and start again.',
  );
}

function bearer(req: IncomingMessage): string | null {
  const h = req.headers.authorization;
  if (typeof h !== 'string') return null;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(h);
  return m ? m[1]! : null;
}

type IdentifiedRequest = IncomingMessage & { identity?: Identity; requestId?: string; originalUrl?: string };

/**
 * Who is calling. With the gateway's key only identity headers the gateway signed for this very request count,
 * and the signed request id becomes the transaction id (a replay of the same request is charged once); a key
 * sent straight to the service is refused, so bypassing the gateway gets nothing.
 */
export async function resolveIdentity(req: IncomingMessage, auth: CallerAuth): Promise<Identity> {
  const id = 'gatewayKey' in auth ? signedIdentity(req, auth.gatewayKey) : await developmentIdentity(req, auth.keys);
  (req as IdentifiedRequest).identity = id;
  annotateRequest({ 'pra.account.id': id.accountId, 'pra.tier': id.tier });
  return id;
}

async function developmentIdentity(req: IncomingMessage, keys: KeyCache): Promise<Identity> {
  const fromLoopback = LOOPBACK_ADDRESSES.has(req.socket.remoteAddress ?? '');
  const given = req.headers['x-request-id'];
  // A caller on this machine may choose the transaction id (to test idempotent retries).
  if (fromLoopback && typeof given === 'string' && UUID.test(given)) (req as IdentifiedRequest).requestId = given;
  const key = bearer(req);
  if (key !== null) {
    const entry = await keys.lookup(key);
    if (!entry) throw new ApiError('UNAUTHORIZED', 'Invalid API key');
    if (entry.status !== 'active') throw new ApiError('FORBIDDEN', 'API key disabled');
    return { accountId: entry.accountId, tier: entry.tier, keyId: entry.keyId };
  }
  const account = req.headers[IDENTITY_HEADERS.account];
  if (typeof account === 'string' && fromLoopback) {
    const tier = req.headers[IDENTITY_HEADERS.tier];
    const keyId = req.headers[IDENTITY_HEADERS.key];
    if (/^\d+$/.test(account) && typeof tier === 'string' && (TIER_NAMES as readonly string[]).includes(tier)) {
      return { accountId: Number(account), tier: tier as TierName, keyId: Number(keyId ?? 0) || 0 };
    }
  }
  throw new ApiError('UNAUTHORIZED', 'Missing API key: send Authorization: Bearer <API_KEY>');
}

function signedIdentity(req: IncomingMessage, gatewayKey: string): Identity {
  const h = (name: string) => {
    const v = req.headers[name];
    return typeof v === 'string' ? v : undefined;
  };
  const account = h(IDENTITY_HEADERS.account);
  const tier = h(IDENTITY_HEADERS.tier);
  const requestId = h('x-request-id');
  const signature = h(SIGNATURE_HEADER);
  if (account && /^\d+$/.test(account) && tier && (TIER_NAMES as readonly string[]).includes(tier) && requestId && UUID.test(requestId) && signature) {
    const id: Identity = { accountId: Number(account), tier: tier as TierName, keyId: Number(h(IDENTITY_HEADERS.key) ?? 0) || 0 };
    const target = { method: req.method ?? 'GET', url: (req as IdentifiedRequest).originalUrl ?? req.url ?? '/', idempotencyKey: h(IDEMPOTENCY_KEY_HEADER) };
    if (verifyIdentitySignature(id, requestId, target, signature, gatewayKey)) {
      (req as IdentifiedRequest).requestId = requestId;
      return id;
    }
  }
  throw new ApiError('UNAUTHORIZED', 'Call the API through the gateway host with your API key');
}

/** The signature the gateway adds to identity headers, so services can tell them from forged ones. */
export const SIGNATURE_HEADER = 'x-pra-signature';
/** How long a signature is accepted (clock skew between the gateway and the services included). */
export const SIGNATURE_MAX_AGE_SECONDS = 30;

/** The request a signature is for: its method, its target (path and query string, as sent), its Idempotency-Key. */
export interface SignedTarget {
  method: string;
  /** Path with its query string, e.g. `/api/v1/property/owner?lastName=SMITH`. */
  url: string;
  /** The client's Idempotency-Key header, if any: it chooses the transaction id, so it is signed too. */
  idempotencyKey?: string;
}

export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';

function decodeSafely(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/**
 * `METHOD path?query` with the path percent-decoded and the query's parameters decoded, sorted and re-encoded, so
 * that the gateway and the service agree however either side spells the same request (Kong normalises paths).
 */
export function canonicalTarget(t: SignedTarget): string {
  const q = t.url.indexOf('?');
  const path = decodeSafely(q < 0 ? t.url : t.url.slice(0, q));
  const pairs = q < 0 ? [] : [...new URLSearchParams(t.url.slice(q + 1))];
  pairs.sort(([ak, av], [bk, bv]) => (ak < bk ? -1 : ak > bk ? 1 : av < bv ? -1 : av > bv ? 1 : 0));
  const query = pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
  return `${t.method.toUpperCase()} ${path}?${query}\n${t.idempotencyKey ?? ''}`;
}

function signedText(id: Identity, requestId: string, target: SignedTarget, timestamp: number): string {
  return `${timestamp}\n${id.accountId}\n${id.tier}\n${id.keyId}\n${requestId}\n${canonicalTarget(target)}`;
}

/** `t=<unix seconds>,v1=<hex HMAC-SHA256>` over the identity, the request id and the request itself. */
export function signIdentity(id: Identity, requestId: string, target: SignedTarget, hmacKey: string, nowSeconds = Math.floor(Date.now() / 1000)): string {
  const mac = createHmac('sha256', hmacKey).update(signedText(id, requestId, target, nowSeconds)).digest('hex');
  return `t=${nowSeconds},v1=${mac}`;
}

/** True when the signature is the gateway's for this identity, request id and request, and recent enough. */
export function verifyIdentitySignature(
  id: Identity,
  requestId: string,
  target: SignedTarget,
  signature: string,
  hmacKey: string,
  nowSeconds = Math.floor(Date.now() / 1000),
  maxAgeSeconds = SIGNATURE_MAX_AGE_SECONDS,
): boolean {
  const m = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(signature);
  if (!m) return false;
  const t = Number(m[1]);
  if (Math.abs(nowSeconds - t) > maxAgeSeconds) return false;
  const expected = Buffer.from(createHmac('sha256', hmacKey).update(signedText(id, requestId, target, t)).digest('hex'));
  const given = Buffer.from(m[2]!);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
