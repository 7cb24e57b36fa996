// Applies the records schema migrations (services/ingest/migrations). Recomputing stored address keys after a
// normaliser change is not a migration step: at full scale it takes hours, so it runs online (rekey.ts), from
// `npm run ingest -- rekey`, in the background of npm start, and as the chart's rekey Job.
import { fileURLToPath } from 'node:url';
import { ADDRESS_KEYS_VERSION } from '@pra/core/address';
import { createPool, type Pool } from '@pra/platform/db';
import { migrate, pendingMigrations, readMigrations } from '@pra/platform/migrations';
import { locationsFilled } from './fill-locations.js';
import { pendingKeysVersion } from './rekey-gate.js';
import { recordKeysVersionIfEmpty, rekeyAddresses } from './rekey.js';

export const RECORDS_MIGRATIONS_DIR = fileURLToPath(new URL('../../migrations/', import.meta.url));

/** The SQL migrations; a new (empty) store takes this normaliser's version, and a stale one is named. */
export async function migrateRecords(pool: Pool, log: (line: string) => void = () => {}): Promise<void> {
  await migrate(pool, 'records', readMigrations(RECORDS_MIGRATIONS_DIR), log);
  if (!(await locationsFilled(pool)))
    log(
      'locations: records stored before area search have no location column yet: area search answers 503 until the ' +
        'rekey fills them (npm run ingest -- rekey; npm start and the chart run it in the background)',
    );
  if (await recordKeysVersionIfEmpty(pool)) return;
  const stored = await pendingKeysVersion(pool);
  if (stored !== null)
    log(
      `address keys: the stored ones are of normaliser v${stored}, this code's are v${ADDRESS_KEYS_VERSION}: until ` +
        'the rekey finishes (npm run ingest -- rekey; npm start and the chart run it in the background), lookups of ' +
        'addresses whose keys changed may miss, and imports of sources with import state are refused',
    );
}

/**
 * Refuses a store whose records schema is not this code's, changing nothing (no migration, no lock, no keys version):
 * for a dry run, which writes nothing: a newer importer's migration may lock a large store's tables for a while
 * (docs/data.md), which a check of a file must never set off.
 */
export async function checkRecordsSchema(pool: Pool, command: string): Promise<void> {
  const pending = await pendingMigrations(pool, 'records', readMigrations(RECORDS_MIGRATIONS_DIR));
  if (pending.length === 0) return;
  const names = pending.map((m) => `${String(m.version).padStart(4, '0')}_${m.name}`);
  throw new Error(
    `the store's records schema lacks ${pending.length === 1 ? 'migration' : `${pending.length} migrations`} of this ` +
      `code (${names.length > 4 ? `${names.slice(0, 3).join(', ')} ... ${names[names.length - 1]}` : names.join(', ')}); ` +
      `${command} writes nothing, so it does not migrate: run \`npm run ingest -- migrate\` first (docs/data.md), ` +
      'then this again',
  );
}

/**
 * Runs a due rekey in the background of this process with a pool of its own (npm start), logging its progress and
 * any failure; never throws. Killed with the process, it resumes at its checkpoint the next time.
 */
export function rekeyInBackground(databaseUrl: string, log: (line: string) => void): void {
  const pool = createPool(databaseUrl, 2, 'rekey');
  void rekeyAddresses(pool, log, { progressEveryMs: 30_000 })
    .catch((err: Error) => log(`address keys: the rekey failed (${err.message}); npm run ingest -- rekey resumes it`))
    .finally(() => pool.end().catch(() => {}));
}

/** The online pass itself (address keys, and the location columns of records stored before 0011). */
export { rekeyAddresses } from './rekey.js';
