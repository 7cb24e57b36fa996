import { fileURLToPath } from 'node:url';
import { migrate, readMigrations, type Pool } from '@pra/platform';

export const SEARCH_MIGRATIONS_DIR = fileURLToPath(new URL('../../migrations/', import.meta.url));

export function migrateSearch(pool: Pool, log?: (line: string) => void) {
  return migrate(pool, 'search', readMigrations(SEARCH_MIGRATIONS_DIR), log);
}
