// Builds the lookup app from its dependencies; server.ts runs it, tests start it on port 0.
import type { Express } from 'express';
import {
  createBaseApp,
  finishApp,
  mountEndpoints,
  readsFor,
  route,
  sendJson,
  type CallerAuth,
  type Pool,
} from '@pra/platform';
import { countCalls, type CallCounter, type CreditMeter } from '@pra/account-billing/client';
import { RecordStore } from './data/record-queries.js';
import { recordsByIds } from './data/paid-records.js';
import { HealthCheck } from './domain/health.js';
import { recordHandlers } from './routes/record-routes.js';

export function createLookupApp(deps: {
  /** The request pool; lookups read through readsFor(pool) (the replica of DATABASE_READ_URL, when attached). */
  pool: Pool;
  meter: CreditMeter;
  calls: CallCounter;
  auth: CallerAuth;
}): Express {
  const app = createBaseApp();
  app.use(countCalls(deps.calls));
  const reads = readsFor(deps.pool);
  const primary = new RecordStore(deps.pool);
  const store = reads === deps.pool ? primary : new RecordStore(reads);
  const health = new HealthCheck(store);
  mountEndpoints(app, 'lookup', {
    ...recordHandlers({
      store,
      meter: deps.meter,
      auth: deps.auth,
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
