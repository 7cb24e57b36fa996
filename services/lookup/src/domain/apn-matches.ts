// Which records an APN asked for answers. The lookup matches an APN without its separators (`015-0123-004` finds a
// record stored as `0150123004`, and a tax parcel id). Outside a county mapped with `apnKey: "separators"`, one
// stripped APN is one parcel (the import keys its parcels so), and nothing here changes what answers. But such a
// county writes two parcels whose APNs differ only in their separators: Lebanon's `2-11` and `21-1`. Asked `2-11` (or
// `2 11`: the same parts), the parcel written `2-11` answers, and `21-1`, another parcel, does not: it is neither
// returned nor charged (SPEC 4.10, rule 1: one credit per property returned).
import { apnKey, separatedApnKey } from '@pra/core/address';
import type { RecordRow } from '../data/record-queries.js';
import { identifierOf } from './record-body.js';

/**
 * The matches of `asked` less its separator look-alikes. A match is left out when (a) it matched by its own APN (not
 * by a tax parcel id), (b) its county holds a match whose APN has the asked parts (separatedApnKey), and (c) it is
 * not one of those matches' parcels. Asked without separators (`211`), where no match is written so, every match
 * answers. Records rendered before the parcel registry (migration 0009) carry ids hashed from the county and the
 * stripped APN: two look-alikes of then share one, and both answer. `rows` must be every match (see findByParcel).
 */
export function withoutSeparatorLookalikes(rows: readonly RecordRow[], asked: string): RecordRow[] {
  if (rows.length < 2) return [...rows];
  const askedParts = separatedApnKey(asked);
  const askedKey = apnKey(asked);
  const identifiers = rows.map((r) => identifierOf(r.body));
  const written = identifiers.filter((id) => separatedApnKey(id.apn) === askedParts);
  // Parcel ids are the registry's, one per county and key: a set of them tells parcels apart across counties too.
  const counties = new Set(written.map((id) => id.fips));
  const parcels = new Set(written.map((id) => id.parcelId));
  return rows.filter((_, i) => {
    const id = identifiers[i]!;
    return !counties.has(id.fips) || parcels.has(id.parcelId) || apnKey(id.apn) !== askedKey;
  });
}
