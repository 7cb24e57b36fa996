// Starts the real lookup app on port 0 against this run's database for a test file, and stops it after.
import { afterAll, beforeAll, inject } from 'vitest';
import { createPool, type Pool } from '@pra/shared/platform';
import { startApp, type RunningApp } from '@pra/shared/testing';
import { createLookupApp } from '../src/app.js';

export function useLookupApp(): { readonly pool: Pool; readonly app: RunningApp } {
  const ctx = {} as { pool: Pool; app: RunningApp };
  beforeAll(async () => {
    ctx.pool = createPool(inject('databaseUrl'), 4);
    ctx.app = await startApp(createLookupApp({ pool: ctx.pool }));
  });
  afterAll(async () => {
    await ctx.app.close();
    await ctx.pool.end();
  });
  return ctx;
}
