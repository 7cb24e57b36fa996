// Who is calling, as a service sees it. The gateway resolves the key and forwards identity headers it signs (see
// @pra/core/auth); services accept nothing else. Only in development mode (PRA_DEVELOPMENT=1, set by npm start and
// the tests) may a service without the HMAC key resolve a presented key itself, with the gateway's own decision
// (authorizeKey), and trust identity headers and request ids from loopback.
import type { IncomingMessage } from 'node:http';
import { ApiError } from '@pra/core/errors';
import { TIER_NAMES, type TierName } from '@pra/core/tiers';
import {
  authorizeKey,
  IDEMPOTENCY_KEY_HEADER,
  IDENTITY_HEADERS,
  MARKETPLACE_SUBSCRIPTION_HEADER,
  MARKETPLACE_USER_HEADER,
  MISSING_KEY_MESSAGE,
  presentsCredentials,
  SIGNATURE_HEADER,
  verifyIdentitySignature,
  type Identity,
  type KeyLookup,
  type PresentedCredentials,
} from '@pra/core/auth';
import { annotateRequest } from './telemetry/trace-context.js';

const LOOPBACK_ADDRESSES: ReadonlySet<string> = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * How a service tells who is calling: only what the gateway signed (production), or, in development mode without
 * the gateway's key, a presented key resolved through the key cache and identity headers from loopback.
 */
export type CallerAuth = { gatewayKey: string } | { development: true; keys: KeyLookup };

/** The caller auth of a service's config; refuses to start outside development mode without the HMAC key. */
export function callerAuth(
  config: { GATEWAY_HMAC_KEY?: string; PRA_DEVELOPMENT: boolean },
  keys: KeyLookup,
): CallerAuth {
  if (config.GATEWAY_HMAC_KEY !== undefined) return { gatewayKey: config.GATEWAY_HMAC_KEY };
  if (config.PRA_DEVELOPMENT) return { development: true, keys };
  throw new Error(
    'Invalid configuration:\n  GATEWAY_HMAC_KEY: required (the key the gateway signs identity with); ' +
      'only a development machine may run without it, with PRA_DEVELOPMENT=1\nSet the variables above and start again.',
  );
}

type IdentifiedRequest = IncomingMessage & { identity?: Identity; requestId?: string; originalUrl?: string };

const header = (req: IncomingMessage, name: string) => {
  const v = req.headers[name];
  return typeof v === 'string' ? v : undefined;
};

/** The credential headers of a node request. */
export const credentialsOf = (req: IncomingMessage): PresentedCredentials => ({
  authorization: header(req, 'authorization'),
  marketplaceSecret: header(req, 'x-marketplace-proxy-secret'),
  marketplaceKey: header(req, 'x-marketplace-key'),
  marketplaceUser: header(req, MARKETPLACE_USER_HEADER),
  marketplaceSubscription: header(req, MARKETPLACE_SUBSCRIPTION_HEADER),
});

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

const isTier = (t: string | undefined): t is TierName =>
  t !== undefined && (TIER_NAMES as readonly string[]).includes(t);

async function developmentIdentity(req: IncomingMessage, keys: KeyLookup): Promise<Identity> {
  const fromLoopback = LOOPBACK_ADDRESSES.has(req.socket.remoteAddress ?? '');
  const given = header(req, 'x-request-id');
  // A caller on this machine may choose the transaction id (to test idempotent retries).
  if (fromLoopback && given !== undefined && UUID.test(given)) (req as IdentifiedRequest).requestId = given;
  const credentials = credentialsOf(req);
  if (presentsCredentials(credentials)) {
    const entry = await authorizeKey(credentials, keys);
    return { accountId: entry.accountId, tier: entry.tier, keyId: entry.keyId };
  }
  const account = header(req, IDENTITY_HEADERS.account);
  const tier = header(req, IDENTITY_HEADERS.tier);
  if (fromLoopback && account !== undefined && /^\d+$/.test(account) && isTier(tier)) {
    return { accountId: Number(account), tier, keyId: Number(header(req, IDENTITY_HEADERS.key) ?? 0) || 0 };
  }
  throw new ApiError('unauthorized', MISSING_KEY_MESSAGE);
}

function signedIdentity(req: IncomingMessage, gatewayKey: string): Identity {
  const account = header(req, IDENTITY_HEADERS.account);
  const tier = header(req, IDENTITY_HEADERS.tier);
  const requestId = header(req, 'x-request-id');
  const signature = header(req, SIGNATURE_HEADER);
  if (account && /^\d+$/.test(account) && isTier(tier) && requestId && UUID.test(requestId) && signature) {
    const id: Identity = {
      accountId: Number(account),
      tier,
      keyId: Number(header(req, IDENTITY_HEADERS.key) ?? 0) || 0,
    };
    const target = {
      method: req.method ?? 'GET',
      url: (req as IdentifiedRequest).originalUrl ?? req.url ?? '/',
      idempotencyKey: header(req, IDEMPOTENCY_KEY_HEADER),
    };
    if (verifyIdentitySignature(id, requestId, target, signature, gatewayKey)) {
      (req as IdentifiedRequest).requestId = requestId;
      return id;
    }
  }
  throw new ApiError('unauthorized', 'Call the API through the gateway host with your API key');
}
