// Lookup service configuration, parsed once at start.
import { z } from 'zod';
import { DEFAULT_DATABASE_URL, DEFAULT_REDIS_URL, parseConfig, port } from '@pra/shared/platform';

export const LookupConfig = z.object({
  DATABASE_URL: z.string().url().default(DEFAULT_DATABASE_URL),
  REDIS_URL: z.string().url().default(DEFAULT_REDIS_URL),
  REDIS_PREFIX: z.string().min(1).default('pra:'),
  LOOKUP_PORT: port(8081),
  LOOKUP_HOST: z.string().default('127.0.0.1'),
  LOOKUP_DB_POOL: z.coerce.number().int().min(1).max(200).default(16),
});
export type LookupConfig = z.infer<typeof LookupConfig>;

export const loadLookupConfig = (env: NodeJS.ProcessEnv = process.env) => parseConfig(LookupConfig, env);
