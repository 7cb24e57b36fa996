// Which records an APN asked for answers. The lookup matches an APN without its separators (`015-0123-004` finds a
// record stored as `0150123004`, and a tax parcel id), but a county can write two parcels whose APNs differ only in
// their separators: Lebanon's `2-11` and `21-1` (its mapping keeps them apart: apnKey "separators"). Asked `2-11`
// (or `2 11`), the record written `2-11` is the answer, and `21-1` is another parcel: not answered, so not charged
// (SPEC: a credit a property returned).
import { apnKey, separatedApnKey } from '@pra/core/address';
import type { RecordRow } from '../data/record-queries.js';

/** What an APN match's record says of its parcel (the stored record's identifier). */
interface Identifier {
  apn?: string;
  apnOrig?: string;
  fips?: string;
  parcelId?: number;
}

/** An APN as written, compared as the import keys such a county's parcels: its parts, whatever separates them. */
const written = (apn: string | undefined) => separatedApnKey(apn ?? '');

/**
 * The matches of `asked` (all of them: a caller that read only some passes them unchanged, since what it did not read
 * could be the parcel asked) less those of other parcels in a county where the APN is stored as asked: a record whose
 * own APN has the asked one's stripped key, in the county of a record written as asked (the same parts, whatever
 * separates them: separatedApnKey), of another parcel. A record matched by its tax parcel id, a record of the same
 * parcel written otherwise, and every record of a county where no record is written as asked stay (there,
 * separators tell nothing: asked `211`, Lebanon's `2-11` and `21-1` both answer).
 */
export function withoutOtherParcels(rows: readonly RecordRow[], asked: string): RecordRow[] {
  const want = written(asked);
  // One match, or an APN of no parts (`-`): nothing to tell apart.
  if (rows.length < 2 || want === '') return [...rows];
  const key = apnKey(asked);
  const ids = rows.map((r) => (JSON.parse(r.body) as { identifier?: Identifier }).identifier ?? {});
  /**
   * By county, the parcels of the records written as asked; null for a county where one of those has no parcel id
   * (stored before they were kept): the others there cannot be told other parcels.
   */
  const asWritten = new Map<string, Set<number> | null>();
  for (const id of ids) {
    if (written(id.apn) !== want && written(id.apnOrig) !== want) continue;
    const county = id.fips ?? '';
    const parcels = asWritten.get(county);
    if (parcels === null) continue;
    asWritten.set(county, id.parcelId === undefined ? null : (parcels ?? new Set<number>()).add(id.parcelId));
  }
  if (asWritten.size === 0) return [...rows];
  return rows.filter((_, i) => {
    const id = ids[i]!;
    const parcels = asWritten.get(id.fips ?? '');
    if (!parcels || id.parcelId === undefined || parcels.has(id.parcelId)) return true;
    // Another parcel of that county: left out when it matched by its own APN, not by a tax parcel id. (A record from
    // before parcel ids were kept, none, cannot be told another parcel: it stayed above.)
    return apnKey(id.apn ?? '') !== key;
  });
}
