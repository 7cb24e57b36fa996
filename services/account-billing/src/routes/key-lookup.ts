// GET /internal/keys/<sha-256 of the key, hex>: the key lookup (domain/key-lookup.ts), on account-billing's service
// port (the gateway routes no such path), signed with the gateway's key (KEY_LOOKUP_SIGNATURE_HEADER).
// 200 {"key": entry | null}; 503 with Retry-After when the key could not be checked now.
import type { Express } from 'express';
import { ApiError } from '@pra/core/errors';
import { KEY_LOOKUP_SIGNATURE_HEADER, verifyKeyLookup } from '@pra/core/auth';
import { route, sendJson } from '@pra/platform';
import { keyLookupPath } from '../client/key-cache.js';
import type { KeyLookupService } from '../domain/key-lookup.js';

const KEY_HASH = /^[0-9a-f]{64}$/;

/** Mounts GET /internal/keys/:hash, for callers holding the gateway's key. */
export function mountKeyLookup(app: Express, service: KeyLookupService, gatewayKey: string): void {
  app.get(
    keyLookupPath(':hash'),
    route(async (req, res) => {
      const hash = String(req.params.hash);
      if (!KEY_HASH.test(hash)) throw new ApiError('BAD_REQUEST', 'A key lookup takes the hex SHA-256 of the key');
      const signature = req.headers[KEY_LOOKUP_SIGNATURE_HEADER];
      if (typeof signature !== 'string' || !verifyKeyLookup(hash, signature, gatewayKey)) {
        throw new ApiError('UNAUTHORIZED', 'A key lookup must be signed with the gateway key');
      }
      sendJson(res, 200, JSON.stringify({ key: await service.lookup(hash) }), req.requestId);
    }),
  );
}
