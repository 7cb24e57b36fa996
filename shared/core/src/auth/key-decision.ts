// The one decision on a presented API key, made alike by the gateway plugin and by a service in development mode:
// which key was presented (Bearer, or the marketplace proxy's pair of headers), or which marketplace subscriber
// (behind the proxy secret, X-Marketplace-User and X-Marketplace-Subscription), whether it exists, whether it is
// active, whether its kind may come that way. Every refusal is an ApiError (401 or 403; a subscriber header sent
// malformed, or a plan the marketplace does not sell, is a 401 naming it); an unreadable key store is the lookup's
// own 503.
import { timingSafeEqual } from 'node:crypto';
import { ApiError } from '../errors.js';
import type { TierName } from '../tiers/index.js';
import { marketplaceSubscriber, type MarketplaceSubscriber } from './marketplace-subscriber.js';

/**
 * How a key may be presented: a 'standard' key as `Authorization: Bearer`, a 'marketplace' key only as
 * X-Marketplace-Key behind the marketplace's proxy secret (the marketplace bills its customers; a marketplace key
 * sent straight to us would bypass it, and a direct customer's key is not the marketplace's to proxy). A
 * 'subscriber' entry is no key at all: the account provisioned for a marketplace subscriber (user and plan), found
 * only through the subscriber headers behind the proxy secret.
 */
export type KeyKind = 'standard' | 'marketplace' | 'subscriber';

/** What a key resolves to: its account, tier and state, and the account's own limits when it has them. */
export interface KeyRecord {
  keyId: number;
  accountId: number;
  tier: TierName;
  status: 'active' | 'disabled';
  /**
   * Absent in key-cache entries written before kinds were enforced: a gateway with a key lookup looks such a key up
   * again (account-billing rewrites the entry with its kind); a reader without one counts it as 'standard'.
   */
  kind?: KeyKind;
  /** Per-account overrides of the tier's limits (enterprise contracts); absent: the tier's. */
  ratePerMinute?: number;
  dailyQuota?: number;
}

/** Where keys are looked up (account-billing's key cache): null for a key that does not exist. */
export interface KeyLookup {
  lookup(rawKey: string): Promise<KeyRecord | null>;
  /**
   * The account of a marketplace subscriber, provisioned on its first call on the plan (and given the plan's records
   * for the current period). Absent: subscribers cannot be served here (a 503).
   */
  subscriber?(s: MarketplaceSubscriber): Promise<KeyRecord>;
}

/** The credential headers of a request, as sent. */
export interface PresentedCredentials {
  authorization?: string;
  marketplaceSecret?: string;
  marketplaceKey?: string;
  /** X-Marketplace-User: the marketplace's subscriber, trusted only behind the proxy secret. */
  marketplaceUser?: string;
  /** X-Marketplace-Subscription: the subscriber's plan (one of MARKETPLACE_PLANS). */
  marketplaceSubscription?: string;
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
  Boolean(c.authorization || c.marketplaceSecret || c.marketplaceKey || c.marketplaceUser || c.marketplaceSubscription);

/** What a request presents: a key and the way it came, or a marketplace subscriber. */
export type Presented = { key: string; via: 'standard' | 'marketplace' } | { subscriber: MarketplaceSubscriber };

/**
 * What a request presents, first match wins: a Bearer key (whatever else is sent: a key of ours behind the secret
 * keeps working), else behind the proxy's secret (refused unless configured and matching) the marketplace key, else
 * the subscriber its user and subscription headers name. Throws a 401 naming what is wrong (the header, and for a
 * plan the plans accepted). The subscriber headers are read only once the secret is checked: without it they are a
 * 401, whatever they say.
 */
export function presentedCredential(c: PresentedCredentials, marketplaceSecret: string | undefined): Presented {
  const bearer = bearerKey(c.authorization);
  if (bearer) return { key: bearer, via: 'standard' };
  if (c.marketplaceSecret || c.marketplaceKey || c.marketplaceUser || c.marketplaceSubscription) {
    if (!marketplaceSecret || !c.marketplaceSecret || !sameSecret(c.marketplaceSecret, marketplaceSecret)) {
      throw new ApiError('unauthorized', 'Invalid marketplace proxy secret');
    }
    if (c.marketplaceKey) return { key: c.marketplaceKey, via: 'marketplace' };
    if (!c.marketplaceUser) throw new ApiError('unauthorized', 'Missing X-Marketplace-Key or X-Marketplace-User');
    return { subscriber: marketplaceSubscriber(c.marketplaceUser, c.marketplaceSubscription) };
  }
  throw new ApiError('unauthorized', MISSING_KEY_MESSAGE);
}

export const MARKETPLACE_KEY_AS_BEARER_MESSAGE =
  'This API key is a marketplace key: it is accepted only through the marketplace (X-Marketplace-Key behind its proxy secret), not as Authorization: Bearer';
export const STANDARD_KEY_VIA_MARKETPLACE_MESSAGE =
  'This API key is not a marketplace key: X-Marketplace-Key takes marketplace keys only; send it as Authorization: Bearer <API_KEY>';

/**
 * The active key record behind the presented credentials: a 401 for an unknown key, a 403 for a disabled one and
 * for a key presented the way its kind does not allow (a marketplace key as Bearer, a standard key as
 * X-Marketplace-Key).
 */
export async function authorizeKey(
  c: PresentedCredentials,
  keys: KeyLookup,
  marketplaceSecret?: string,
): Promise<KeyRecord> {
  const presented = presentedCredential(c, marketplaceSecret);
  if ('subscriber' in presented) return authorizeSubscriber(presented.subscriber, keys);
  const { key, via } = presented;
  const entry = await keys.lookup(key);
  if (!entry) throw new ApiError('unauthorized', 'Invalid API key');
  if (entry.status !== 'active') throw new ApiError('forbidden', 'API key disabled');
  if ((entry.kind ?? 'standard') !== via) {
    throw new ApiError(
      'forbidden',
      via === 'standard' ? MARKETPLACE_KEY_AS_BEARER_MESSAGE : STANDARD_KEY_VIA_MARKETPLACE_MESSAGE,
    );
  }
  return entry;
}

/** The active account of a marketplace subscriber (a 403 when an operator disabled it or suspended its account). */
async function authorizeSubscriber(s: MarketplaceSubscriber, keys: KeyLookup): Promise<KeyRecord> {
  if (!keys.subscriber) {
    throw new ApiError('unavailable', 'Marketplace subscribers cannot be served right now; retry shortly', 0, {
      'retry-after': '2',
    });
  }
  const entry = await keys.subscriber(s);
  if (entry.kind !== 'subscriber') throw new ApiError('unauthorized', 'Invalid marketplace subscriber');
  if (entry.status !== 'active') throw new ApiError('forbidden', 'Marketplace subscriber disabled');
  return entry;
}
