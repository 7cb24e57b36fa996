// Config is parsed once at start from the environment with zod; a bad value stops the process with a clear message.
import { z } from 'zod';

export function parseConfig<T extends z.ZodType>(schema: T, env: NodeJS.ProcessEnv = process.env): z.infer<T> {
  const result = schema.safeParse(env);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join('.') || '(env)'}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}\nSet the variables above and start again.`);
  }
  return result.data;
}

export const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/property_records';
export const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';

export const port = (fallback: number) => z.coerce.number().int().min(0).max(65535).default(fallback);

/** Every process's internal port: /metrics (Prometheus), /livez and /readyz (probes). Never routed by the gateway. */
export const internalEnv = {
  INTERNAL_PORT: port(9464),
  INTERNAL_HOST: z.string().default('127.0.0.1'),
};

/** The stores every service connects to, with the embedded defaults. */
export const storeEnv = {
  DATABASE_URL: z.string().url().default(DEFAULT_DATABASE_URL),
  REDIS_URL: z.string().url().default(DEFAULT_REDIS_URL),
  /** Prefix of every Redis key and BullMQ queue: one per deployment (and per test run). */
  REDIS_PREFIX: z.string().min(1).default('pra:'),
  /** The gateway's HMAC key: when set, services accept only identity the gateway signed. */
  GATEWAY_HMAC_KEY: z.string().min(32, 'GATEWAY_HMAC_KEY must be at least 32 characters').optional(),
};
