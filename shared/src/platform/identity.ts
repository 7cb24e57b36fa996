// Who is calling. The gateway resolves the key and forwards identity headers it signs with an HMAC; services
// configured with that key accept nothing else. Without it (tests, a service run alone) a Bearer key is resolved
// through the same Redis key cache the gateway reads, and identity headers are trusted from loopback only.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Redis } from 'ioredis';
import { TIER_NAMES, type TierName } from '../tiers/index.js';
import { ApiError } from './errors.js';
import { hashApiKey } from './api-keys.js';
import { LOOPBACK_ADDRESSES } from './http.js';
import { annotateRequest } from '../telemetry/trace-context.js';
import { telemetryMetrics } from '../telemetry/metrics.js';

export interface Identity {
  accountId: number;
  tier: TierName;
  keyId: number;
}

export const IDENTITY_HEADERS = { account: 'x-pra-account-id', tier: 'x-pra-tier', key: 'x-pra-key-id' } as const;

/** What account-billing writes for every key: the gateway and services read nothing else to authenticate. */
export interface KeyCacheEntry {
  keyId: number;
  accountId: number;
  tier: TierName;
  status: 'active' | 'disabled';
  /** Per-account overrides of the tier's limits (enterprise contracts); absent: the tier's. */
  ratePerMinute?: number;
  dailyQuota?: number;
}

export const keyCacheKey = (prefix: string, keyHash: string) => `${prefix}key:${keyHash}`;

/** Reads the Redis key cache, with a short in-process cache (disabling a key takes effect within ttlMs). */
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
    const text = await this.redis.get(keyCacheKey(this.prefix, hash));
    telemetryMetrics.keyLookup(text ? 'redis' : 'miss');
    const entry = text ? (JSON.parse(text) as KeyCacheEntry) : null;
    if (this.local.size > 100_000) this.local.clear();
    this.local.set(hash, { at: now, entry });
    return entry;
  }
}


function bearer(req: IncomingMessage): string | null {
  const h = req.headers.authorization;
  if (typeof h !== 'string') return null;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(h);
  return m ? m[1]! : null;
}

/**
 * Who is calling. With `gatewayKey` (the gateway's HMAC key) only identity headers the gateway signed count, and
 * the signed request id becomes the transaction id; a key sent straight to the service is refused, so bypassing
 * the gateway gets nothing. Without it (tests, a service run alone) a Bearer key is resolved through the key cache
 * and identity headers are trusted from loopback only.
 */
export async function resolveIdentity(req: IncomingMessage, keys: KeyCache, gatewayKey?: string): Promise<Identity> {
  const id = await findIdentity(req, keys, gatewayKey);
  (req as IncomingMessage & { identity?: Identity }).identity = id;
  annotateRequest({ 'pra.account.id': id.accountId, 'pra.tier': id.tier });
  return id;
}

async function findIdentity(req: IncomingMessage, keys: KeyCache, gatewayKey?: string): Promise<Identity> {
  if (gatewayKey !== undefined) return signedIdentity(req, gatewayKey);
  const key = bearer(req);
  if (key !== null) {
    const entry = await keys.lookup(key);
    if (!entry) throw new ApiError('UNAUTHORIZED', 'Invalid API key');
    if (entry.status !== 'active') throw new ApiError('FORBIDDEN', 'API key disabled');
    return { accountId: entry.accountId, tier: entry.tier, keyId: entry.keyId };
  }
  const account = req.headers[IDENTITY_HEADERS.account];
  if (typeof account === 'string' && LOOPBACK_ADDRESSES.has(req.socket.remoteAddress ?? '')) {
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
  if (account && /^\d+$/.test(account) && tier && (TIER_NAMES as readonly string[]).includes(tier) && requestId && signature) {
    const id: Identity = { accountId: Number(account), tier: tier as TierName, keyId: Number(h(IDENTITY_HEADERS.key) ?? 0) || 0 };
    if (verifyIdentitySignature(id, requestId, signature, gatewayKey)) {
      (req as IncomingMessage & { requestId?: string }).requestId = requestId;
      return id;
    }
  }
  throw new ApiError('UNAUTHORIZED', 'Call the API through the gateway host with your API key');
}

/** The signature the gateway adds to identity headers, so services can tell them from forged ones. */
export const SIGNATURE_HEADER = 'x-pra-signature';

function signedText(id: Identity, requestId: string, timestamp: number): string {
  return `${timestamp}.${id.accountId}.${id.tier}.${id.keyId}.${requestId}`;
}

/** `t=<unix seconds>,v1=<hex HMAC-SHA256>` over the identity and the request id. */
export function signIdentity(id: Identity, requestId: string, hmacKey: string, nowSeconds = Math.floor(Date.now() / 1000)): string {
  const mac = createHmac('sha256', hmacKey).update(signedText(id, requestId, nowSeconds)).digest('hex');
  return `t=${nowSeconds},v1=${mac}`;
}

/** True when the signature is the gateway's for this identity and request, and at most maxSkewSeconds old. */
export function verifyIdentitySignature(
  id: Identity,
  requestId: string,
  signature: string,
  hmacKey: string,
  nowSeconds = Math.floor(Date.now() / 1000),
  maxSkewSeconds = 300,
): boolean {
  const m = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(signature);
  if (!m) return false;
  const t = Number(m[1]);
  if (Math.abs(nowSeconds - t) > maxSkewSeconds) return false;
  const expected = Buffer.from(createHmac('sha256', hmacKey).update(signedText(id, requestId, t)).digest('hex'));
  const given = Buffer.from(m[2]!);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
