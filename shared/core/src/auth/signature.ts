// The identity the gateway vouches for, and its signature: an HMAC over the identity, the request id, the method,
// the path, the canonical query and the Idempotency-Key, so a service can tell the gateway's headers from forged ones.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { TierName } from '../tiers/index.js';

export interface Identity {
  accountId: number;
  tier: TierName;
  keyId: number;
}

export const IDENTITY_HEADERS = { account: 'x-pra-account-id', tier: 'x-pra-tier', key: 'x-pra-key-id' } as const;

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

/** `t=<unix seconds>,v1=<hex HMAC-SHA256 of text(t)>`: the form of every signature the gateway's key makes. */
function signTimedMac(text: (timestamp: number) => string, hmacKey: string, nowSeconds: number): string {
  return `t=${nowSeconds},v1=${createHmac('sha256', hmacKey).update(text(nowSeconds)).digest('hex')}`;
}

/**
 * True when `signature` is signTimedMac's for this text and key, made at most maxAgeSeconds from now (either way:
 * clock skew), compared in constant time.
 */
function verifyTimedMac(
  text: (timestamp: number) => string,
  signature: string,
  hmacKey: string,
  nowSeconds: number,
  maxAgeSeconds: number,
): boolean {
  const m = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(signature);
  if (!m) return false;
  const t = Number(m[1]);
  if (Math.abs(nowSeconds - t) > maxAgeSeconds) return false;
  const expected = Buffer.from(createHmac('sha256', hmacKey).update(text(t)).digest('hex'));
  const given = Buffer.from(m[2]!);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

function signedText(id: Identity, requestId: string, target: SignedTarget, timestamp: number): string {
  return `${timestamp}\n${id.accountId}\n${id.tier}\n${id.keyId}\n${requestId}\n${canonicalTarget(target)}`;
}

/** `t=<unix seconds>,v1=<hex HMAC-SHA256>` over the identity, the request id and the request itself. */
export function signIdentity(
  id: Identity,
  requestId: string,
  target: SignedTarget,
  hmacKey: string,
  nowSeconds = Math.floor(Date.now() / 1000),
): string {
  return signTimedMac((t) => signedText(id, requestId, target, t), hmacKey, nowSeconds);
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
  return verifyTimedMac((t) => signedText(id, requestId, target, t), signature, hmacKey, nowSeconds, maxAgeSeconds);
}

/** The header that carries a key-lookup request's signature (the gateway asking account-billing about a key). */
export const KEY_LOOKUP_SIGNATURE_HEADER = 'x-pra-key-lookup-signature';

const keyLookupText = (keyHash: string, timestamp: number) => `key-lookup\n${timestamp}\n${keyHash}`;

/**
 * `t=<unix seconds>,v1=<hex HMAC-SHA256>` over a key hash, with the gateway's key: what lets account-billing tell a
 * gateway's (or a service's) key lookup from anyone else's. Its text differs from an identity signature's, so
 * neither can stand for the other.
 */
export function signKeyLookup(keyHash: string, hmacKey: string, nowSeconds = Math.floor(Date.now() / 1000)): string {
  return signTimedMac((t) => keyLookupText(keyHash, t), hmacKey, nowSeconds);
}

/** True when the signature is the gateway key's for this key hash, and recent enough. */
export function verifyKeyLookup(
  keyHash: string,
  signature: string,
  hmacKey: string,
  nowSeconds = Math.floor(Date.now() / 1000),
  maxAgeSeconds = SIGNATURE_MAX_AGE_SECONDS,
): boolean {
  return verifyTimedMac((t) => keyLookupText(keyHash, t), signature, hmacKey, nowSeconds, maxAgeSeconds);
}
