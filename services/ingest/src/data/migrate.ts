// Applies the records schema migrations (services/ingest/migrations).
import { fileURLToPath } from 'node:url';
import { migrate, readMigrations, type Pool } from '@pra/platform';
import { rekeyAddresses } from './rekey.js';

export const RECORDS_MIGRATIONS_DIR = fileURLToPath(new URL('../../migrations/', import.meta.url));

/** The SQL migrations, then the address keys of stored records if the normaliser changed since they were written. */
export async function migrateRecords(pool: Pool, log?: (line: string) => void): Promise<void> {
  await migrate(pool, 'records', readMigrations(RECORDS_MIGRATIONS_DIR), log);
  await rekeyAddresses(pool, log);
}
