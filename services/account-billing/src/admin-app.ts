import type { Express } from 'express';
import { createBaseApp, finishApp } from '@pra/platform';
import type { BillingDeps } from './domain/accounts.js';
import { mountAdminRoutes } from './routes/admin-routes.js';

export function createAdminApp(deps: BillingDeps, token: string): Express {
  const app = createBaseApp();
  mountAdminRoutes(app, deps, token);
  finishApp(app);
  return app;
}
