// Lookup service configuration, parsed once at start. DB_STATEMENT_TIMEOUT_MS (requestPoolEnv, 4 s by default) also
// bounds a whole lookup, all its statements together (lookupDeadlineMs in data/record-queries.ts): past it the
// lookup is a 503 with Retry-After, uncharged.
import { z } from 'zod';
import { authEnv, internalEnv, parseConfig, port, requestPoolEnv, serverEnv, storeEnv } from '@pra/core/config';

export const LookupConfig = z.object({
  ...storeEnv,
  ...authEnv,
  ...requestPoolEnv,
  ...serverEnv,
  ...internalEnv,
  LOOKUP_PORT: port(8081),
  LOOKUP_HOST: z.string().default('127.0.0.1'),
});
export type LookupConfig = z.infer<typeof LookupConfig>;

export const loadLookupConfig = (env: NodeJS.ProcessEnv = process.env) => parseConfig(LookupConfig, env);
