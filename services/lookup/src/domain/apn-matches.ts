// Which records an APN asked for answers. The lookup matches an APN without its separators (`015-0123-004` finds a
// record stored as `0150123004`, and a tax parcel id), but a county can write two parcels whose APNs differ only in
// their separators: Lebanon's `2-11` and `21-1` (its mapping keeps them apart: apnKey "separators"). Asked `2-11`,
// the record written `2-11` is the answer, and `21-1` is another parcel: not answered, so not charged (SPEC: a credit
// a property returned).
import { apnKey } from '@pra/core/address';
import type { RecordRow } from '../data/record-queries.js';

/** What an APN match's record says of its parcel (the stored record's identifier). */
interface Identifier {
  apn?: string;
  apnOrig?: string;
  fips?: string;
  parcelId?: number;
}

/** An APN as written, compared: case and spaces around it aside. */
const written = (apn: string | undefined) => (apn ?? '').trim().toUpperCase();

/**
 * The matches of `asked` (all of them: a caller that read only some passes them unchanged, since what it did not read
 * could be the parcel asked) less those of other parcels in a county where the APN is stored as asked: a record whose
 * own APN has the asked one's stripped key, in the county of a record written exactly as asked, of another parcel.
 * A record matched by its tax parcel id, a record of the same parcel written otherwise, and every record of a county
 * where no record is written as asked stay (there, separators tell nothing: `2-11` and `211` are one to the lookup).
 */
export function withoutOtherParcels(rows: readonly RecordRow[], asked: string): RecordRow[] {
  if (rows.length < 2) return [...rows];
  const want = written(asked);
  const key = apnKey(asked);
  const ids = rows.map((r) => (JSON.parse(r.body) as { identifier?: Identifier }).identifier ?? {});
  /** By county, the parcels of the records written as asked. */
  const asWritten = new Map<string, Set<number | undefined>>();
  for (const id of ids) {
    if (written(id.apn) !== want && written(id.apnOrig) !== want) continue;
    const parcels = asWritten.get(id.fips ?? '') ?? new Set();
    parcels.add(id.parcelId);
    asWritten.set(id.fips ?? '', parcels);
  }
  if (asWritten.size === 0) return [...rows];
  return rows.filter((_, i) => {
    const id = ids[i]!;
    const parcels = asWritten.get(id.fips ?? '');
    if (!parcels || parcels.has(id.parcelId)) return true;
    // Another parcel of that county: left out when it matched by its own APN, not by a tax parcel id. A record from
    // before parcel ids were kept (none) cannot be told another parcel: it stays.
    return id.parcelId === undefined || apnKey(id.apn ?? '') !== key;
  });
}
