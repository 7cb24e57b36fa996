// Every schema migration stream (records, billing, search, webhooks), in dependency order. Used by `npm start` and as the
// Helm chart's pre-install/pre-upgrade Job (`node dist/migrate.js` in the image): safe to run
// again, and concurrent runs wait on the runner's advisory lock.
import { pathToFileURL } from 'node:url';
import { createPool, type Pool } from '@pra/platform/db';
import { DEFAULT_DATABASE_URL } from '@pra/core/config';
import { migrateRecords } from '@pra/ingest/migrate';
import { migrateBilling } from '@pra/account-billing/migrate';
import { migrateSearch } from '@pra/autocomplete/migrate';
import { migrateWebhooks } from '@pra/webhooks/migrate';
import { useLocalStack } from '@pra/platform/local-stack';

export async function migrateAll(pool: Pool, log: (line: string) => void): Promise<void> {
  await migrateRecords(pool, log);
  await migrateBilling(pool, log);
  await migrateSearch(pool, log);
  await migrateWebhooks(pool, log);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  // npm run migrate on a developer's machine: npm start's database unless DATABASE_URL says otherwise (the chart's
  // Job sets DATABASE_URL, and its image has no .data).
  useLocalStack('migrate');
  const pool = createPool(process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL, 2, 'migrate');
  migrateAll(pool, (l) => console.error(`[migrate] ${l}`))
    .then(() => console.error('[migrate] done'))
    .catch((err: Error) => {
      console.error(
        `[migrate] failed: ${err.message}\nCheck DATABASE_URL and that the role may create schemas, then run again.`,
      );
      process.exitCode = 1;
    })
    .finally(() => void pool.end());
}
