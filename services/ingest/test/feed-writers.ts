// The writers of the records change feed, for the type-ahead indexer's tests (exported through @pra/ingest/testing):
// an in-place rewrite as a re-import makes it, a batch held open until the test lets it commit (a concurrent
// import whose lower ids commit later), and the removal of a source.
import type { Pool } from '@pra/platform';
import type { PropertyInput } from '../src/domain/property-input.js';
import { buildCopyChunks } from '../src/data/copy-rows.js';
import { resolveRecordOwners } from '../src/data/owner-registry.js';
import { reserveIds, writeBatch } from '../src/data/loader.js';
import { parcelRefOf, registerParcels } from '../src/data/parcels.js';

export { removeSource } from '../src/data/remove-source.js';

/** Rewrites properties under their own ids, as a re-import of a changed parcel does (one batch). */
export async function rewriteProperties(
  pool: Pool,
  ids: readonly number[],
  items: readonly PropertyInput[],
  source = 'test',
): Promise<void> {
  const parcelIds = await registerParcels(pool, items.map(parcelRefOf));
  const ownerIds = await resolveRecordOwners(pool, ids, items);
  await writeBatch(pool, buildCopyChunks(ids, items, parcelIds, source, ownerIds), 0, { replaceIds: ids });
}

export interface HeldBatch {
  ids: number[];
  /** Resolves once the batch's rows and its feed row are written, uncommitted. */
  written: Promise<void>;
  /** Lets the batch commit; resolves when it has. */
  commit(): Promise<void>;
}

/** Writes a batch of new properties and holds its transaction open (after its feed row) until `commit`. */
export async function holdBatchOpen(pool: Pool, items: readonly PropertyInput[], source = 'test'): Promise<HeldBatch> {
  const first = await reserveIds(pool, items.length);
  const ids = items.map((_, i) => first + i);
  const parcelIds = await registerParcels(pool, items.map(parcelRefOf));
  let written!: () => void;
  let release!: () => void;
  const inTransaction = new Promise<void>((r) => {
    written = r;
  });
  const gate = new Promise<void>((r) => {
    release = r;
  });
  const ownerIds = await resolveRecordOwners(pool, first, items);
  const done = writeBatch(pool, buildCopyChunks(first, items, parcelIds, source, ownerIds), items.length, {
    inTransaction: async () => {
      written();
      await gate;
    },
  });
  done.catch(() => {});
  return {
    ids,
    written: Promise.race([inTransaction, done.then(() => {})]),
    commit: async () => {
      release();
      await done;
    },
  };
}
