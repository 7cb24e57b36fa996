// Words of the API contract that domain code needs as values (the owner types, the parts a change event names): a
// module of their own, without zod, so that an import's worker threads, which type owners and tell a record's changed
// parts, do not load the contracts (services/ingest/test/import-worker-modules.test.ts says why). contracts/ builds its
// schemas from these.
/**
 * Which parts of a record a change touched. The record's fields fall in groups: owner (owner1 to owner4, mailing
 * address), sale (the sale history), assessment (current and history), building (type, year built, size, rooms,
 * vacancy), lot (size, subdivision, pool), address (street, unit, city, state, ZIP), location (coordinates, census
 * tract, county), identifier (APN, tax parcel id, FIPS), mortgage; other: a stored field none of those names.
 * created: a record an import added to a source that had records before (a first load of a source emits nothing);
 * removed: a record deleted with its source.
 */
export const CHANGE_PARTS = [
  'created',
  'removed',
  'owner',
  'sale',
  'assessment',
  'building',
  'lot',
  'address',
  'location',
  'identifier',
  'mortgage',
  'other',
] as const;
export type ChangePart = (typeof CHANGE_PARTS)[number];

/**
 * The places a record has for owners (`owner.owner1` ... `owner.owner4`, as the incumbent's records have): a roll's
 * first, its second of another surname (or an entity), then the others in its order. An owner search matches any.
 */
export const OWNER_FIELDS = ['owner1', 'owner2', 'owner3', 'owner4'] as const;

/**
 * The owner types records carry (`owner.owner1.type`), as the owner-name parser types the names county rolls write
 * (docs/data.md "Owner names"): `Individual` and `Trustee` (a person named as trustee) are persons, with first and last
 * name; the others are entities, named whole in `fullName` with `firstName` and `lastName` null.
 */
export const OWNER_TYPES = [
  'Individual',
  'Trustee',
  'Corporation',
  'Trust',
  'Government',
  'Estate',
  'Religious',
  'Association',
  'Financial',
] as const;

/**
 * The property types records carry (`summary.proptype`): what the generator and the import mappings write. The area
 * search filter takes these (any case); an import refuses a county file's value its mapping does not make one of these.
 */
export const PROPERTY_TYPES = [
  'SFR',
  'CONDOMINIUM',
  'APARTMENT',
  'COOPERATIVE',
  'TOWNHOUSE/ROWHOUSE',
  'DUPLEX',
  'TRIPLEX',
  'MOBILE HOME',
  'VACANT LAND',
  'COMMERCIAL',
  'INDUSTRIAL',
  'CONDOMINIUM PARKING',
  'OTHER',
  'UNKNOWN',
] as const;

/**
 * Land without a building: vacant (`summary.vacantInd` Y) whatever else a record says, as the generator makes it and
 * as a county roll's land-use class says it (a roll says nothing else of occupancy).
 */
export const VACANT_LAND = 'VACANT LAND' satisfies (typeof PROPERTY_TYPES)[number];

/** The property type of a record whose files say none: the type's empty value, which another file's may fill. */
export const UNKNOWN_PROPERTY_TYPE = 'UNKNOWN' satisfies (typeof PROPERTY_TYPES)[number];
