import { fileURLToPath } from 'node:url';
import type { Pool } from '@pra/platform/db';
import { migrate, readMigrations } from '@pra/platform/migrations';

export const SEARCH_MIGRATIONS_DIR = fileURLToPath(new URL('../../migrations/', import.meta.url));

export function migrateSearch(pool: Pool, log?: (line: string) => void) {
  return migrate(pool, 'search', readMigrations(SEARCH_MIGRATIONS_DIR), log);
}
