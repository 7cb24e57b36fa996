// account-billing configuration, parsed once at start.
import { z } from 'zod';
import {
  authEnv,
  flag,
  internalEnv,
  parseConfig,
  port,
  requestPoolEnv,
  serverEnv,
  storeEnv,
  workerPoolEnv,
} from '@pra/core/config';

export const BillingConfig = z.object({
  ...storeEnv,
  ...authEnv,
  ...requestPoolEnv,
  ...workerPoolEnv(8),
  ...serverEnv,
  ...internalEnv,
  BILLING_PORT: port(8083),
  BILLING_HOST: z.string().default('127.0.0.1'),
  /** The internal admin API: its own port, never routed by the public gateway. */
  ADMIN_PORT: port(8090),
  ADMIN_HOST: z.string().default('127.0.0.1'),
  ADMIN_TOKEN: z.string().min(24, 'ADMIN_TOKEN must be at least 24 characters'),
  /**
   * Webhooks may point at http:// URLs and loopback addresses (a system on one machine: npm start and the tests turn
   * it on; the delivery worker reads the same setting). Off, the default and production's: https to public
   * addresses only.
   */
  WEBHOOKS_ALLOW_INSECURE_LOCAL: flag(),
});
export type BillingConfig = z.infer<typeof BillingConfig>;

export const loadBillingConfig = (env: NodeJS.ProcessEnv = process.env) => parseConfig(BillingConfig, env);
