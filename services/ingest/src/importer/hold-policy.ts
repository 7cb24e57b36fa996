// Which rows of a file the importer's reader holds back to its end (held-rows.ts HeldRows keeps them), and by which
// key (heldApnColumn, heldKey): on a re-import, every row of the parcels a read of the file before found apart
// (scatteredParcels), so that each is merged once over its stored state; otherwise, judged as the file is read
// (JudgedOrder), the rows of a parcel met again after other parcels' rows, and every row once the file shows itself
// sorted otherwise than by parcel. Only for a mapping whose parcels are told by one APN cell as written: the reader's
// key for a row must be the same for every row of one parcel, or its rows could be merged out of the file's order.
import { apnKey } from '@pra/core/address';
import { hash32 } from '../generator/random.js';
import { readCsvValues } from './csv-records.js';
import type { Mapping } from './mapping.js';

/**
 * The column of `mapping`'s APN where the reader may hold its rows apart, keyed by that cell: an APN read from one
 * cell as written (no template, map, refinement, fallback or nullIf that could make two cells one APN, or a cell no
 * APN), of parcels not found by their address (a file joined on address). Null where it may not. The key leaves the
 * FIPS code out: coarser than the parcel's identity, it may group two parcels' rows, never part one parcel's.
 */
export function heldApnColumn(mapping: Mapping & { kind: 'property' }): string | null {
  const { apn } = mapping.fields;
  if (!apn || mapping.join?.on === 'address' || !('column' in apn)) return null;
  const plain = apn.format === 'text' && apn.nullIf.length === 0 && !apn.fallback && !apn.map && !apn.refine;
  return plain ? apn.column : null;
}

/** The reader's key of a row's APN cell, as apnKey reads an APN; null when it holds no letter or digit. */
export function heldKey(cell: string): string | null {
  for (let i = 0; i < cell.length; i++) {
    const c = cell.charCodeAt(i);
    // Most APNs are digits alone: no copy.
    if (!((c >= 48 && c <= 57) || (c >= 65 && c <= 90))) {
      const key = apnKey(cell);
      return key === '' ? null : key;
    }
  }
  return cell === '' ? null : cell;
}

/** Which rows are held: `holds` is asked once a row, in the file's order, with the row's parcel key (null: none). */
export interface HoldPolicy {
  holds(parcel: string | null): parcel is string;
}

/**
 * Parcels whose run of rows ended, remembered at most (~80 MB of a Set of small integers; a Set holds 2^24 at most,
 * and a state's roll may hold more parcels): a parcel whose run ends after that is not held when met again.
 */
const ENDED_KEPT = 4_000_000;

/** A parcel's key as a number (a 30-bit hash): what the reader remembers of a parcel, for a roll of millions. */
const parcelHash = (parcel: string) => hash32(parcel) >>> 2;

/**
 * Parcels' runs of rows, in the file's order: `next(parcel)` says whether a row's parcel is met again, its run of rows
 * ended before (another parcel's row came between). A run that ends is remembered by its parcel's hash, ENDED_KEPT at
 * most (`complete` false once a run that ended was not). Two parcels may share a hash: a parcel whose first row meets
 * another's hash counts as met again.
 */
class Runs {
  constructor(private readonly kept = ENDED_KEPT) {}
  private readonly ended = new Set<number>();
  /** The parcel of the run of rows going on, and its hash. */
  run: string | null = null;
  private runHash = 0;
  complete = true;

  next(parcel: string): boolean {
    if (parcel === this.run) return false;
    const hash = parcelHash(parcel);
    if (this.ended.has(hash)) return true;
    this.end();
    this.run = parcel;
    this.runHash = hash;
    return false;
  }

  /** Ends the run going on, and remembers its parcel as met. */
  end(): void {
    if (this.run === null) return;
    if (this.ended.size < this.kept) this.ended.add(this.runHash);
    else this.complete = false;
    this.run = null;
  }
}

/**
 * The parcels of a file whose rows are apart (met again after other parcels' rows), read before its import
 * (import-csv.ts, on a re-import) so that the reader holds every row of theirs, the first ones too, and each is merged
 * once: `parcels`, their hashes (a parcel sharing one's hash is held too, which changes nothing but when it is sent);
 * `rows`, the file's rows. Null, as soon as it is known, when the file has more parcels than the reader remembers
 * (ENDED_KEPT): it then holds as it does without (JudgedOrder). `cell`: the APN's cell
 * (heldApnColumn), by index, of the header's `columns`; `remembered`: ENDED_KEPT (fewer in tests).
 */
export async function scatteredParcels(
  file: string,
  delimiter: string,
  columns: number,
  cell: number,
  remembered = ENDED_KEPT,
  /** Told the bytes of the file read, every 10,000 rows and at its end. */
  onRead?: (bytes: number) => void,
): Promise<ScatteredParcels | null> {
  const runs = new Runs(remembered);
  const parcels = new Set<number>();
  let rows = 0;
  let bytes = 0;
  const mask = Array.from({ length: columns }, (_, i) => i === cell);
  for await (const item of readCsvValues(file, delimiter, mask)) {
    if ('header' in item) continue;
    rows++;
    bytes = item.bytes;
    if (rows % 10_000 === 0) onRead?.(bytes);
    // An unreadable row goes with the row before it (import-batches.ts): it neither starts nor ends a run. A row
    // without an APN ends the run here, since the reader may cut a batch before it (a parcel's rows on both sides of
    // one are apart); JudgedOrder (no scan) lets such rows not end a run, so that a few here and there do not make
    // it hold every row.
    if ('error' in item) continue;
    const parcel = heldKey(item.values[cell]!);
    if (parcel === null) runs.end();
    else if (runs.next(parcel)) parcels.add(parcelHash(parcel));
    if (!runs.complete) return null;
  }
  onRead?.(bytes);
  return { parcels, rows };
}

export interface ScatteredParcels {
  /** The hashes of the parcels whose rows are apart (holdScattered holds theirs). */
  parcels: ReadonlySet<number>;
  /** The file's rows. */
  rows: number;
}

/** Holds every row of the parcels read before as apart (scatteredParcels' hashes). */
export function holdScattered(parcels: ReadonlySet<number>): HoldPolicy {
  return { holds: (parcel): parcel is string => parcel !== null && parcels.has(parcelHash(parcel)) };
}

/**
 * Holds, as the file is read, a parcel met again (Runs) from then on: once an eighth of the rows read (`judgeAfter`
 * at least: a batch's) were held, the file's parcels come apart, and every row is held but the run's going on, so that
 * a parcel first met then is merged once, its rows all together. A row without an APN is a parcel of its own: never
 * held, and it does not end the run.
 */
export class JudgedOrder implements HoldPolicy {
  private readonly runs = new Runs();
  /** Rows judged, and held of them; whether every row is held now. */
  private judged = 0;
  private heldTotal = 0;
  private holdAll = false;

  constructor(private readonly judgeAfter: number) {}

  holds(parcel: string | null): parcel is string {
    const held = this.decide(parcel);
    this.judged++;
    if (held) this.heldTotal++;
    if (!this.holdAll && this.judged >= this.judgeAfter && this.heldTotal * 8 >= this.judged) this.holdAll = true;
    return held;
  }

  private decide(parcel: string | null): boolean {
    if (parcel === null || parcel === this.runs.run) return false;
    if (this.holdAll) return true;
    return this.runs.next(parcel);
  }
}
