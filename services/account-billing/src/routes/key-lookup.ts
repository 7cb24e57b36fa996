// GET /internal/keys/<sha-256 of the key, hex>: the key lookup (domain/key-lookup.ts), on account-billing's service
// port (the gateway routes no such path), signed with the gateway's key (KEY_LOOKUP_SIGNATURE_HEADER).
// 200 {"key": entry | null}; 503 with Retry-After when the key could not be checked now.
// POST /internal/marketplace-subscribers?plan=<plan>&user=<user>: a marketplace subscriber's entry, provisioned on
// its first call (domain/marketplace-subscribers.ts), signed over its subscriberKeyHash. 200 {"key": entry}.
import type { Express, Request } from 'express';
import { ApiError } from '@pra/core/errors';
import { KEY_LOOKUP_SIGNATURE_HEADER, marketplaceSubscriber, subscriberKeyHash, verifyKeyLookup } from '@pra/core/auth';
import { route, sendJson } from '@pra/platform';
import { keyLookupPath, SUBSCRIBER_LOOKUP_PATH } from '../client/key-cache.js';
import type { KeyLookupService } from '../domain/key-lookup.js';

const KEY_HASH = /^[0-9a-f]{64}$/;

const signedOver = (req: Request, hash: string, gatewayKey: string) => {
  const signature = req.headers[KEY_LOOKUP_SIGNATURE_HEADER];
  if (typeof signature !== 'string' || !verifyKeyLookup(hash, signature, gatewayKey)) {
    throw new ApiError('unauthorized', 'A key lookup must be signed with the gateway key');
  }
};

/** Mounts GET /internal/keys/:hash and POST /internal/marketplace-subscribers, for callers holding the gateway's key. */
export function mountKeyLookup(app: Express, service: KeyLookupService, gatewayKey: string): void {
  app.post(
    SUBSCRIBER_LOOKUP_PATH,
    route(async (req, res) => {
      const { user, plan } = req.query;
      if (typeof user !== 'string' || typeof plan !== 'string') {
        throw new ApiError('invalid_parameter', 'A subscriber lookup takes one user and one plan');
      }
      // The gateway checked the headers already; the same rules again (a 401 naming what is wrong).
      const subscriber = marketplaceSubscriber(user, plan);
      signedOver(req, subscriberKeyHash(subscriber), gatewayKey);
      sendJson(res, 200, JSON.stringify({ key: await service.subscriber(subscriber) }), req.requestId);
    }),
  );
  app.get(
    keyLookupPath(':hash'),
    route(async (req, res) => {
      const hash = String(req.params.hash);
      if (!KEY_HASH.test(hash))
        throw new ApiError('invalid_parameter', 'A key lookup takes the hex SHA-256 of the key');
      signedOver(req, hash, gatewayKey);
      sendJson(res, 200, JSON.stringify({ key: await service.lookup(hash) }), req.requestId);
    }),
  );
}
