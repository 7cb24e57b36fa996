// Builds the lookup app from its dependencies; server.ts runs it, tests start it on port 0.
import type { Express } from 'express';
import {
  createBaseApp,
  finishApp,
  mountEndpoints,
  route,
  sendJson,
  type CallerAuth,
  type Pool,
  type Queryable,
} from '@pra/platform';
import { countCalls, type CallCounter, type CreditMeter } from '@pra/account-billing/client';
import { loadPostalZips } from '@pra/core/zip-places';
import { lookupDeadlineMs, RecordStore } from './data/record-queries.js';
import { recordsByIds } from './data/paid-records.js';
import { HealthCheck } from './domain/health.js';
import { recordHandlers } from './routes/record-routes.js';
import { EntityTags, entityTagKey } from './domain/entity-tags.js';

export function createLookupApp(deps: {
  /** The request pool (the primary). */
  pool: Pool;
  /** Where lookups read: the replica of DATABASE_READ_URL (requestPathClients' `reads`); the pool by default. */
  reads?: Queryable;
  meter: CreditMeter;
  calls: CallCounter;
  auth: CallerAuth;
  /**
   * The key of the record answers' ETags (issue 38): by default derived from the gateway's HMAC key, so that every
   * lookup replica answers the same tag; a development lookup without one makes its own.
   */
  tagKey?: Buffer;
}): Express {
  const app = createBaseApp();
  // The postal cities an address lookup by city reads (find-records.ts), read now rather than by the first request.
  loadPostalZips();
  app.use(countCalls(deps.calls));
  const reads = deps.reads ?? deps.pool;
  const primary = new RecordStore(deps.pool);
  // A lookup's deadline is the primary's statement timeout, whichever server answers it.
  const store = reads === deps.pool ? primary : new RecordStore(reads, lookupDeadlineMs(deps.pool));
  const health = new HealthCheck(store);
  mountEndpoints(app, 'lookup', {
    ...recordHandlers({
      store,
      meter: deps.meter,
      auth: deps.auth,
      tags: new EntityTags(deps.tagKey ?? entityTagKey('gatewayKey' in deps.auth ? deps.auth.gatewayKey : undefined)),
      // A repeat must find exactly what its first call was charged for, which may have been read on the primary (a
      // replica down or lagging then) or on the replica (behind the primary): the primary first, then the replica.
      rereadFrom: [
        { store: primary, recordsByIds: (ids) => recordsByIds(deps.pool, ids) },
        ...(store === primary ? [] : [{ store, recordsByIds: (ids: number[]) => recordsByIds(reads, ids) }]),
      ],
    }),
    health: () => route(async (req, res) => sendJson(res, 200, JSON.stringify(await health.check()), req.requestId)),
  });
  finishApp(app);
  return app;
}
