// Applies the records schema migrations (services/ingest/migrations).
import { fileURLToPath } from 'node:url';
import { migrate, readMigrations, type Pool } from '@pra/platform';

export const RECORDS_MIGRATIONS_DIR = fileURLToPath(new URL('../../migrations/', import.meta.url));

export function migrateRecords(pool: Pool, log?: (line: string) => void) {
  return migrate(pool, 'records', readMigrations(RECORDS_MIGRATIONS_DIR), log);
}
