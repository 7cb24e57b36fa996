// The database every benchmark uses: property_records_bench_<records>, migrated, with the records generated once
// (seed 1) and reused by later runs.
import { createPool, ensureDatabase, withDatabase, type Pool } from '@pra/platform';
import { DEFAULT_DATABASE_URL } from '@pra/core/config';
import { migrateRecords } from '@pra/ingest/migrate';
import { loadGenerated } from '@pra/ingest/generate';
import { propertyCount } from '@pra/ingest/load';
import { migrateBilling } from '@pra/account-billing/migrate';
import { migrateWebhooks } from '@pra/webhooks/migrate';

export function benchDatabaseUrl(records: number, server = process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL): string {
  return withDatabase(server, `property_records_bench_${records}`);
}

/** The bench database on `server` (a PostgreSQL URL; DATABASE_URL or the embedded default when not given). */
export async function prepareBenchDatabase(
  records: number,
  poolSize = 8,
  server?: string,
): Promise<{ url: string; pool: Pool }> {
  const url = benchDatabaseUrl(records, server);
  await ensureDatabase(url);
  const pool = createPool(url, poolSize, 'bench');
  await migrateRecords(pool);
  await migrateBilling(pool);
  // /usage reports the account's webhooks (bench:billing reads it): their tables are billing's companions.
  await migrateWebhooks(pool);
  const have = await propertyCount(pool);
  if (have < records) await loadGenerated(pool, { seed: 1, count: records - have });
  return { url, pool };
}
