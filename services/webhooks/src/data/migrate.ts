// Applies the webhooks schema migrations (services/webhooks/migrations). After billing's: endpoints belong to accounts.
import { fileURLToPath } from 'node:url';
import type { Pool } from '@pra/platform/db';
import { migrate, readMigrations } from '@pra/platform/migrations';

export const WEBHOOKS_MIGRATIONS_DIR = fileURLToPath(new URL('../../migrations/', import.meta.url));

export function migrateWebhooks(pool: Pool, log?: (line: string) => void) {
  return migrate(pool, 'webhooks', readMigrations(WEBHOOKS_MIGRATIONS_DIR), log);
}
