// Whether the stored address keys are this normaliser's (ADDRESS_KEYS_VERSION), and the guard that keeps an import
// off a source whose import-state identities may still be the old normaliser's: it would look its parcels up by
// the new identities, miss them, and add every one a second time.
import { ADDRESS_KEYS_VERSION } from '@pra/core/address';
import type { Db } from '@pra/platform/db';

/** The version the stored keys were computed with, when it is not this code's (a rekey is due or under way). */
export async function pendingKeysVersion(db: Db): Promise<number | null> {
  const { rows } = await db.query<{ v: number }>('SELECT address_keys_version AS v FROM records.dataset_stats');
  const v = rows[0]?.v ?? ADDRESS_KEYS_VERSION;
  return v === ADDRESS_KEYS_VERSION ? null : v;
}

/**
 * Refuses an import of `source` while a rekey is due and the source has import state (or planned identity moves).
 * A source without any may import: it writes identities of this normaliser, which the rekey leaves as they are.
 */
export async function refuseImportWhileRekeying(db: Db, source: string): Promise<void> {
  const from = await pendingKeysVersion(db);
  if (from === null) return;
  const { rows } = await db.query<{ held: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM records.import_state WHERE source = $1)
         OR EXISTS (SELECT 1 FROM records.rekey_moves WHERE source = $1) AS held`,
    [source],
  );
  if (!rows[0]?.held) return;
  throw new Error(
    `the stored address keys are being recomputed for a new normaliser (v${from} -> v${ADDRESS_KEYS_VERSION}), and ` +
      `the import state of '${source}' may still hold parcel identities of the old one: this import would add its ` +
      'parcels a second time. Let the rekey finish (npm run ingest -- rekey runs it and shows its progress; npm start ' +
      'and the chart run it in the background), then import again.',
  );
}
