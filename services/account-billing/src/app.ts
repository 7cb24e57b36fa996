// The public account-billing app: GET /api/v1/usage for the calling account.
import type { Express } from 'express';
import {
  createBaseApp,
  finishApp,
  mountEndpoints,
  resolveIdentity,
  route,
  sendJson,
  type CallerAuth,
  type Pool,
} from '@pra/platform';
import { usageReport } from './domain/usage-report.js';
import { countCalls, type CallCounter } from './client/call-counter.js';

export function createBillingApp(deps: { pool: Pool; calls: CallCounter; auth: CallerAuth }): Express {
  const app = createBaseApp();
  app.use(countCalls(deps.calls));
  mountEndpoints(app, 'account-billing', {
    usage: () =>
      route(async (req, res) => {
        const who = await resolveIdentity(req, deps.auth);
        sendJson(res, 200, JSON.stringify(await usageReport(deps.pool, who.accountId)), req.requestId);
      }),
  });
  finishApp(app);
  return app;
}
