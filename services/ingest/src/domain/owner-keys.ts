// The resolution keys of an owner mention (issue 37; docs/data.md "Owner entities"): what an owner is found by when a
// record names it. Pure, so it runs in the import's and the generator's worker threads; the registry
// (data/owner-registry.ts) turns keys into ids.
//
// - An entity (a company, a trust, a government...) is its normalised name in the parcel's state: punctuation gone,
//   L.L.C. = LLC, INCORPORATED = INC, TR/TRS/TTEE/TRUSTEE = TRUST, a leading or trailing THE dropped. An entity's
//   name is registered per state, so the same name is the same entity wherever it is mailed.
// - A person is last + first name (+ suffix: JR and SR are father and son) at a mailing address, normalised as the
//   lookups normalise addresses (line with unit, PO box spellings as one): a common name alone
//   says nothing, the address is the evidence that joins two mentions. The middle initial is kept apart (the
//   registry joins a mention with a middle initial to an owner with the same one or none).
//   The address's place is its city and state (the ZIP where no city is written): ZIPs are written wrong more often
//   than cities, and a same-named person at one house number and street of one city is one person.
// - A person named as trustee is another owner than the same person in their own name (they hold in another right).
// - A person with no mailing address on record is joined by nothing but the record itself (its property id, which a
//   re-import keeps).
import { entityNameKey, nameKey, normalizeCity, splitZip } from '@pra/core/address';
import {
  type ByOwnerField,
  byOwnerField,
  OWNER_FIELDS,
  type OwnerField,
  type OwnerInput,
  ownersInOrder,
  type PropertyInput,
} from './property-input.js';
import { parsedStreetLine } from './street-lines.js';

export type OwnerKind = 'E' | 'P' | 'T';

export interface OwnerMentionKey {
  kind: OwnerKind;
  /** The registry key (owner_keys.key). */
  key: string;
  /** A person's middle initial; '' for none and for entities. */
  middle: string;
  /** The name the owner is searched by (owner_entities.name_key): an entity's name, a person's LAST FIRST. */
  nameKey: string;
}

/** "P O BOX 12", "P.O. Box 12", "P OBOX 12", "POBOX 12": "PO BOX 12". */
const PO_BOX = /^\s*P\s*\.?\s*O\s*\.?\s*BOX\b/i;

/**
 * The mailing address as evidence: the line with its unit, normalised as the lookups normalise it, in its city and
 * state (a ZIP written wrong, or a PO box's ZIP that is not the street's, does not split it); the ZIP5 where no city
 * is written. Null when there is no line.
 */
export function mailingKey(m: PropertyInput['mailing']): string | null {
  if (!m || m.line1.trim() === '') return null;
  const line = parsedStreetLine(m.line1.replace(PO_BOX, 'PO BOX'));
  const street = `${line.lineKey}${line.unitKey ? ` #${line.unitKey}` : ''}`;
  if (street === '') return null;
  const city = normalizeCity(m.city);
  if (city !== '') return `${street}|${city}|${m.state.toUpperCase()}`;
  const zip5 = splitZip(m.zip).zip5;
  return zip5.length === 5 ? `${street}|${zip5}` : null;
}

const SUFFIXES = new Set(['JR', 'SR', 'II', 'III', 'IV', 'V', '2ND', '3RD']);

/** A person's middle initial and suffix, read from fullName (FIRST MIDDLE LAST SUFFIX) around first and last. */
export function personParts(o: OwnerInput): { first: string; last: string; middle: string; suffix: string } {
  const first = nameKey(o.firstName ?? '');
  const last = nameKey(o.lastName ?? '');
  const words = nameKey(o.fullName).split(' ');
  // Suffixes after the last name; the words between first name and last name are the middle names.
  let end = words.length;
  while (end > 2 && SUFFIXES.has(words[end - 1]!)) end--;
  const suffix = words.slice(end).join(' ');
  const lastWords = last === '' ? 0 : last.split(' ').length;
  const lastAt = words.slice(0, end).join(' ').endsWith(last) ? end - lastWords : end;
  const firstWords = first === '' ? 0 : first.split(' ').length;
  const middleWords = words.slice(firstWords, Math.max(firstWords, lastAt));
  return { first, last, middle: middleWords[0]?.charAt(0) ?? '', suffix };
}

/** Whether an owner is resolved as a person (last + first at an address) or as an entity (its name). */
export function isPerson(o: OwnerInput): boolean {
  return !!o.lastName && !!o.firstName && (o.type === 'Individual' || o.type === 'Trustee');
}

/** The key of one owner of a record; null when the record names no owner there (or a name with no letters). */
export function ownerMentionKey(
  o: OwnerInput | null,
  p: Pick<PropertyInput, 'state' | 'mailing'>,
  propertyId: number,
): OwnerMentionKey | null {
  if (!o) return null;
  if (isPerson(o)) {
    const { first, last, middle, suffix } = personParts(o);
    const kind: OwnerKind = o.type === 'Trustee' ? 'T' : 'P';
    const name = `${last} ${first}${suffix ? ` ${suffix}` : ''}`;
    const place = mailingKey(p.mailing) ?? `record:${propertyId}`;
    return { kind, key: `${kind}|${name}|${place}`, middle, nameKey: name };
  }
  const name = entityNameKey(o.fullName);
  if (name === '') return null;
  return { kind: 'E', key: `E|${p.state.toUpperCase()}|${name}`, middle: '', nameKey: name };
}

/** A mention to resolve: its key and its place (a stored record's place tells its previous owner). */
export interface OwnerMention extends OwnerMentionKey {
  propertyId: number;
  /** The place: 1 for owner1, ... 4 for owner4. */
  seq: OwnerSeq;
}

/** An owner's place in its record as stored (records.owners.seq): 1 for owner1, ... 4 for owner4 (OWNER_FIELDS). */
export type OwnerSeq = 1 | 2 | 3 | 4;

/**
 * The mentions of records (owner1 to owner4 of each, null where absent), OWNER_FIELDS.length per record, to resolve
 * together.
 */
export function recordMentions(
  ids: number | readonly number[],
  items: readonly Pick<PropertyInput, 'state' | 'mailing' | OwnerField>[],
): (OwnerMention | null)[] {
  return items.flatMap((p, i) => {
    const propertyId = typeof ids === 'number' ? ids + i : ids[i]!;
    return ownersInOrder(p).map((o, k) => {
      const key = ownerMentionKey(o, p, propertyId);
      return key && { ...key, propertyId, seq: (k + 1) as OwnerSeq };
    });
  });
}

/** Flat ids (OWNER_FIELDS.length per record, as recordMentions lists them) to the ids of each record's owners. */
export function idsByRecord(flat: readonly (number | null)[]): RecordOwnerIds[] {
  const n = OWNER_FIELDS.length;
  if (flat.length % n !== 0) throw new Error(`${flat.length} owner ids do not make records of ${n} owners each`);
  const out: RecordOwnerIds[] = [];
  for (let i = 0; i < flat.length; i += n) out.push(flat.slice(i, i + n) as unknown as RecordOwnerIds);
  return out;
}

/** The owner ids of one record, owner1 to owner4, null where it names no owner. */
export type RecordOwnerIds = ByOwnerField<number | null>;

/** A record's owner ids before its owners are resolved (a dry run, a test's record). */
export const NO_OWNER_IDS: RecordOwnerIds = byOwnerField(() => null);
