// The one decision on a presented API key, made alike by the gateway plugin and by a service in development mode:
// which key was presented (Bearer, or the marketplace proxy's pair of headers), whether it exists, whether it is
// active. Every refusal is an ApiError (401 or 403); an unreadable key store is the lookup's own 503.
import { timingSafeEqual } from 'node:crypto';
import { ApiError } from '../errors.js';
import type { TierName } from '../tiers/index.js';

/** What a key resolves to: its account, tier and state, and the account's own limits when it has them. */
export interface KeyRecord {
  keyId: number;
  accountId: number;
  tier: TierName;
  status: 'active' | 'disabled';
  /** Per-account overrides of the tier's limits (enterprise contracts); absent: the tier's. */
  ratePerMinute?: number;
  dailyQuota?: number;
}

/** Where keys are looked up (account-billing's key cache): null for a key that does not exist. */
export interface KeyLookup {
  lookup(rawKey: string): Promise<KeyRecord | null>;
}

/** The credential headers of a request, as sent. */
export interface PresentedCredentials {
  authorization?: string;
  marketplaceSecret?: string;
  marketplaceKey?: string;
}

export const MISSING_KEY_MESSAGE = 'Missing API key: send Authorization: Bearer <API_KEY>';

/** `Bearer <key>` -> the key; anything else -> undefined. */
export function bearerKey(authorization: string | undefined): string | undefined {
  return typeof authorization === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(authorization)?.[1] : undefined;
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** True when the request carries any credential at all. */
export const presentsCredentials = (c: PresentedCredentials) =>
  Boolean(c.authorization || c.marketplaceSecret || c.marketplaceKey);

/**
 * The key a request presents: a Bearer key, or the marketplace key behind the proxy's secret (refused unless the
 * secret is configured and matches). Throws a 401 naming what is wrong.
 */
export function presentedKey(c: PresentedCredentials, marketplaceSecret: string | undefined): string {
  const bearer = bearerKey(c.authorization);
  if (bearer) return bearer;
  if (c.marketplaceSecret || c.marketplaceKey) {
    if (!marketplaceSecret || !c.marketplaceSecret || !sameSecret(c.marketplaceSecret, marketplaceSecret)) {
      throw new ApiError('UNAUTHORIZED', 'Invalid marketplace proxy secret');
    }
    if (!c.marketplaceKey) throw new ApiError('UNAUTHORIZED', 'Missing X-Marketplace-Key');
    return c.marketplaceKey;
  }
  throw new ApiError('UNAUTHORIZED', MISSING_KEY_MESSAGE);
}

/** The active key record behind the presented credentials; a 401 for an unknown key, a 403 for a disabled one. */
export async function authorizeKey(
  c: PresentedCredentials,
  keys: KeyLookup,
  marketplaceSecret?: string,
): Promise<KeyRecord> {
  const entry = await keys.lookup(presentedKey(c, marketplaceSecret));
  if (!entry) throw new ApiError('UNAUTHORIZED', 'Invalid API key');
  if (entry.status !== 'active') throw new ApiError('FORBIDDEN', 'API key disabled');
  return entry;
}
