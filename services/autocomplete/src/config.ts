// Autocomplete configuration, parsed once at start. SEARCH_BACKEND chooses the adapter.
import { z } from 'zod';
import {
  authEnv,
  internalEnv,
  parseConfig,
  port,
  requestPoolEnv,
  serverEnv,
  storeEnv,
  workerPoolEnv,
} from '@pra/core/config';

export const AutocompleteConfig = z
  .object({
    ...storeEnv,
    ...authEnv,
    ...requestPoolEnv,
    ...workerPoolEnv(4),
    ...serverEnv,
    ...internalEnv,
    AUTOCOMPLETE_PORT: port(8082),
    AUTOCOMPLETE_HOST: z.string().default('127.0.0.1'),
    SEARCH_BACKEND: z.enum(['postgres', 'typesense']).default('postgres'),
    TYPESENSE_URL: z.string().url().optional(),
    TYPESENSE_API_KEY: z.string().optional(),
    TYPESENSE_ALIAS: z.string().default('addresses'),
  })
  .refine((c) => c.SEARCH_BACKEND !== 'typesense' || (c.TYPESENSE_URL && c.TYPESENSE_API_KEY), {
    message: 'SEARCH_BACKEND=typesense needs TYPESENSE_URL and TYPESENSE_API_KEY',
    path: ['SEARCH_BACKEND'],
  });
export type AutocompleteConfig = z.infer<typeof AutocompleteConfig>;

export const loadAutocompleteConfig = (env: NodeJS.ProcessEnv = process.env) => parseConfig(AutocompleteConfig, env);
