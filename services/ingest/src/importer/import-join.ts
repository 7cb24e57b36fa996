// A county's roll in several files (issue 36): one file makes the parcels (its mapping has no `join`), the others add
// to them, one import per file, each with its own mapping: joined on the parcel's APN (owners, building details,
// sales) or on its address, line with unit (address points with coordinates). A joined file writes under the
// parcels' own source, into their import state, so that every file's re-import merges over what all of them said.
// A row naming a parcel the store lacks is reported by line and adds nothing: no record, no registry entry.
import { apnKey, dashLetterAsUnit, parseStreetLine } from '@pra/core/address';
import type { Pool } from '@pra/platform/db';
import type { ParcelRef } from '../data/parcels.js';
import type { PropertyInput } from '../domain/property-input.js';
import { streetWithUnit } from '../domain/street-lines.js';
import type { Values } from './apply-rules.js';
import { splitAddressLine } from './import-row.js';
import type { Join } from './mapping.js';

/** A joined parcel by address: its address key ("<line key>|<unit key>"), identity, and registry key. */
export type AddressIndexEntry = [key: string, identity: string, fips: string, apn: string];

/** The key a parcel is found by in a file joined on address: its line and unit, through the lookup keys' normaliser. */
export const addressKey = (line: string) => {
  const s = parseStreetLine(line);
  return `${s.lineKey}|${s.unitKey}`;
};

/** A parcel of the joined file's source, as its import state holds it. */
export interface IndexedParcel {
  identity: string;
  line1: string;
  line2: string | null;
  fips: string;
  apn: string;
}

/** The parcels of `source` (its import state), read before a file joined on address is imported: addressIndex. */
export async function readAddressIndex(pool: Pool, source: string): Promise<AddressIndexEntry[]> {
  const { rows } = await pool.query<IndexedParcel>(
    // input is text since migration 0015: parsed here, the one read inside it.
    `SELECT identity, s->>'line1' AS line1, s->>'line2' AS line2, s->>'fips' AS fips, s->>'apn' AS apn
       FROM records.import_state, LATERAL (SELECT input::jsonb AS s) j WHERE source = $1`,
    [source],
  );
  return addressIndex(rows);
}

/**
 * The parcels by address (line with unit). A parcel without a unit numbered with a letter after a dash (`1604-E
 * MONTICELLO AVE`) is also found as that unit (`1604 MONTICELLO AVE # E`: dashLetterAsUnit), as Charlottesville's
 * address points write 200 of its 203 such parcels, unless a parcel is stored at that address. An address two
 * parcels share (stored, or both as such a unit) is left out, so that a point there is reported rather than given to
 * one of them.
 */
export function addressIndex(parcels: readonly IndexedParcel[]): AddressIndexEntry[] {
  const byKey = new Map<string, AddressIndexEntry | null>();
  const asUnits = new Map<string, AddressIndexEntry | null>();
  for (const r of parcels) {
    const key = addressKey(streetWithUnit({ line1: r.line1, line2: r.line2 ?? '' }));
    byKey.set(key, byKey.has(key) ? null : [key, r.identity, r.fips, r.apn]);
    const unit = r.line2 ? null : dashLetterAsUnit(r.line1);
    if (unit !== null) {
      const k = addressKey(unit);
      asUnits.set(k, asUnits.has(k) ? null : [k, r.identity, r.fips, r.apn]);
    }
  }
  for (const [k, e] of asUnits) if (!byKey.has(k)) byKey.set(k, e);
  return [...byKey.values()].filter((e) => e !== null);
}

/** Finds the parcel a joined file's row names. */
export class JoinedParcels {
  private readonly byAddress: Map<string, AddressIndexEntry>;

  constructor(
    private readonly join: Join,
    index: readonly AddressIndexEntry[],
  ) {
    this.byAddress = new Map(index.map((e) => [e[0], e]));
  }

  /** The row's parcel: by APN (in the mapping's county, `fips`), or by address, its unit's, else its building's. */
  find(values: Values, input: PropertyInput): { identity: string; ref: ParcelRef } {
    if (this.join.on === 'apn') {
      if (!input.apn) throw new Error('apn is empty');
      if (!/^\d{5}$/.test(input.fips)) throw new Error('a file joined on apn needs the county (fips) of its APNs');
      const key = input.parcelKey ?? apnKey(input.apn);
      return { identity: `apn:${input.fips}:${key}`, ref: { fips: input.fips, key } };
    }
    const written = String(values.line1 ?? '').trim();
    if (written === '') throw new Error('line1 is empty');
    const unit = values.unit === null || values.unit === undefined ? null : String(values.unit);
    const { line1, line2 } = splitAddressLine(written, unit);
    const exact = this.byAddress.get(addressKey(streetWithUnit({ line1, line2 })));
    // A point of a unit the roll does not list apart (its units are one parcel): the building's parcel.
    const entry = exact ?? this.byAddress.get(addressKey(line1));
    if (!entry) throw new Error(`no parcel of the joined file at '${streetWithUnit({ line1, line2 })}'`);
    // The registry knows a parcel by its APN (or its parts: parcelKey), or (a roll without APNs) by its identity.
    const key = entry[1].startsWith('apn:') ? entry[1].slice(entry[1].indexOf(':', 4) + 1) : entry[1];
    return { identity: entry[1], ref: { fips: entry[2], key } };
  }
}
