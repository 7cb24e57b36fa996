// Builds the lookup app from its dependencies; server.ts runs it, tests start it on port 0.
import type { Express } from 'express';
import { BASE_PATH } from '@pra/shared/contracts';
import { createBaseApp, finishApp, route, sendJson, type CallerAuth, type Pool } from '@pra/shared/platform';
import type { CreditCharger } from '@pra/account-billing/billing';
import { RecordStore } from './data/record-queries.js';
import { HealthCheck } from './domain/health.js';
import { mountRecordRoutes } from './routes/record-routes.js';

export function createLookupApp(deps: { pool: Pool; charger: CreditCharger; auth: CallerAuth }): Express {
  const app = createBaseApp();
  const store = new RecordStore(deps.pool);
  const health = new HealthCheck(store);
  mountRecordRoutes(app, BASE_PATH, { store, charger: deps.charger, auth: deps.auth });
  app.get(`${BASE_PATH}/health`, route(async (req, res) => sendJson(res, 200, JSON.stringify(await health.check()), req.requestId)));
  finishApp(app);
  return app;
}
