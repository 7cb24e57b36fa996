// Applies the billing schema migrations (services/account-billing/migrations).
import { fileURLToPath } from 'node:url';
import type { Pool } from '@pra/platform/db';
import { migrate, readMigrations } from '@pra/platform/migrations';

export const BILLING_MIGRATIONS_DIR = fileURLToPath(new URL('../../migrations/', import.meta.url));

export function migrateBilling(pool: Pool, log?: (line: string) => void) {
  return migrate(pool, 'billing', readMigrations(BILLING_MIGRATIONS_DIR), log);
}
