import { z } from 'zod';
import { clientTimeouts, internalEnv, parseConfig, port, serverEnv } from '@pra/core/config';
import { runInternalServer, runServer } from '@pra/platform';
import { createPlansApp } from './app.js';

const config = parseConfig(
  z.object({
    ...internalEnv,
    ...serverEnv,
    PLANS_PORT: port(8084),
    PLANS_HOST: z.string().default('127.0.0.1'),
    PURCHASE_URL: z.string().url().default('https://example.com/pricing'),
    PUBLIC_BASE_URL: z.string().default('/api/v1'),
  }),
);
await runInternalServer(config);
await runServer(
  createPlansApp({ purchaseUrl: config.PURCHASE_URL, publicBaseUrl: config.PUBLIC_BASE_URL }),
  config.PLANS_PORT,
  config.PLANS_HOST,
  'plans',
  async () => {},
  clientTimeouts(config),
);
