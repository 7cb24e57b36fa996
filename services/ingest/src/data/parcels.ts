// The parcel registry (records.parcels, migration 0009): `identifier.parcelId` is allocated there, once per parcel,
// so two parcels never share an id and a parcel keeps its id across reloads and sources. Every path that renders
// records gets its batch's ids here first, in one round trip per batch.
import { apnKey } from '@pra/core/address';
import { type Pool, type PoolClient, textArrayLiteral } from '@pra/platform/db';
import type { PropertyInput } from '../domain/property-input.js';

/** A parcel as the registry knows it: its county and its key (the stripped APN, or an import's address identity). */
export interface ParcelRef {
  fips: string;
  key: string;
}

/** The parcel of a property with its county's APN (generated records, imports whose mapping reads an APN). */
export function parcelRefOf(p: Pick<PropertyInput, 'fips' | 'apn' | 'parcelKey'>): ParcelRef {
  return { fips: p.fips, key: p.parcelKey ?? apnKey(p.apn) };
}

/**
 * The registry ids of `refs`, in their order, registering those not yet known. Runs as a statement of its own (not
 * inside a REPEATABLE READ transaction): concurrent callers registering one parcel then get the same id.
 */
export async function registerParcels(db: Pool | PoolClient, refs: readonly ParcelRef[]): Promise<number[]> {
  if (refs.length === 0) return [];
  // The arrays in the statement's text (@pra/platform/db's literals): node-postgres's array parameters cost the
  // importer's main thread two regular-expression replaces an element.
  const fips = textArrayLiteral(refs.map((r) => r.fips));
  const keys = textArrayLiteral(refs.map((r) => r.key));
  const { rows } = await db.query<{ fips: string; parcel_key: string; parcel_id: string }>(
    `SELECT fips, parcel_key, parcel_id FROM records.register_parcels(${fips}::text[], ${keys}::text[])`,
  );
  const ids = new Map(rows.map((r) => [`${r.fips}\t${r.parcel_key}`, Number(r.parcel_id)]));
  return refs.map((r) => {
    const id = ids.get(`${r.fips}\t${r.key}`);
    if (id === undefined) throw new Error(`parcel ${r.fips} ${r.key} was not registered`);
    return id;
  });
}
