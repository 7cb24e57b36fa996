// A roll without site ZIPs is read twice: first for its evidence (zip-evidence.ts), the parcels whose owner is mailed
// at the parcel itself, in a ZIP of the county; then imported, each parcel without a ZIP of its own taking the one its
// street segment's evidence shares. The evidence is the file's alone, so a re-import finds the same ZIPs. The first
// read is worked by the import's executors, batch by batch (its worker threads, for a large file, which then start
// the import warm); Lebanon x20 (113,200 rows) gained 2-4% by it over reading the evidence in the main thread. A small
// file's rows are read from the file once: its batches, cut here as the import cuts them (a parcel's rows together),
// are kept (`keep`) and are the import's, and the main thread's executor keeps what it read of each row for the
// batch's parse (import-csv.ts keepRead).
import type { ZipEvidenceEntry } from '../domain/zip-evidence.js';
import { type BatchReading, type KeptBatches, readBatches } from './import-batches.js';
import type { RowBatch } from './import-work.js';
import type { Mapping } from './mapping.js';

/** A mapping that makes parcels and gives no site ZIP: its parcels' ZIPs come from evidence. */
export function needsZipEvidence(mapping: Mapping & { kind: 'property' }): boolean {
  return !mapping.join && !mapping.fields.zip && !mapping.fields.cityStateZip;
}

/** What reads a batch's evidence (an executor of import-csv.ts: in a worker thread, or this one). */
export interface EvidenceReader {
  zipEvidence(batch: number, rows: RowBatch, cells?: string[][]): Promise<ZipEvidenceEntry[]>;
}

/**
 * The roll's ZIP evidence, in the file's order: its batches read by the executors in turn, as the import reads them
 * after. `keep`: the batches as cut are added to it (readBatches), for the import to send again (replayBatches).
 */
export async function prescanZipEvidence(
  reading: BatchReading<EvidenceReader>,
  keep?: KeptBatches,
  /** Told the bytes of the file read, batch by batch. */
  onRead?: (bytes: number) => void,
): Promise<ZipEvidenceEntry[]> {
  // Rows held apart only where the batches are kept to be the import's: the evidence needs no parcel's rows together.
  const read = keep ? reading : { ...reading, heldCell: undefined };
  const batches = readBatches(read, (e, batch, rows, cells) => e.zipEvidence(batch, rows, cells), keep);
  const out: ZipEvidenceEntry[] = [];
  try {
    for (let b = await batches.take(); b; b = await batches.take()) {
      for (const e of await b.parsed) out.push(e);
      onRead?.(b.bytesPassed);
    }
  } finally {
    batches.stop();
    // The reader done (what it held on disk let go: held-spill.ts) before a failure goes up.
    await batches.finished.catch(() => {});
  }
  await batches.finished;
  return out;
}
