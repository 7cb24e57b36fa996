// Turns properties into PostgreSQL COPY data for each records table, with every lookup key computed by the shared
// normalisers: records.properties in the binary format (copy-binary.ts: its stored body goes as its own bytes), the
// others as COPY text. Pure and synchronous, so it runs in a worker thread during large loads.
import { apnKey, countyKey, nameKey, normalizeCity } from '@pra/core/address';
import type { RecordOwnerIds } from '../domain/owner-keys.js';
import { ownersInOrder, type PropertyInput, type TractInput } from '../domain/property-input.js';
import { encodeRecordDoc } from '@pra/core/stored';
import { renderDemographics, renderRecord } from '../domain/render-record.js';
import { streetWithUnit } from '../domain/street-lines.js';
import { renderHistories } from '../domain/render-history.js';
import { parsedStreetLine } from '../domain/street-lines.js';
import { BinaryCopyWriter } from './copy-binary.js';

export const TABLES = ['properties', 'owners', 'owner_mentions'] as const;
export type TableName = (typeof TABLES)[number];

/** The column of each table that holds the property id. */
export const ID_COLUMN = (t: TableName) => (t === 'properties' ? 'id' : 'property_id');

export const COLUMNS: Record<TableName, string> = {
  properties:
    'id, apn, apn_key, tax_parcel_key, fips, state, county_key, city_key, zip, line_key, street_key, unit_key, loose_key, street_type, census_tract, source, last_modified, location, proptype, body',
  owners: 'property_id, seq, last_name_key, first_name_key, state, city_key, zip, name_words',
  owner_mentions:
    'property_id, seq, owner_id, name, owner_type, mailing, state, county, market_total, assessed_total, acquired',
};

type Cell = string | number | null | undefined;

const NEEDS_ESCAPE = /[\\\t\n\r]/;

function cell(v: Cell): string {
  if (v === null || v === undefined) return '\\N';
  if (typeof v === 'number') return String(v);
  if (!NEEDS_ESCAPE.test(v)) return v;
  return v.replace(/[\\\t\n\r]/g, (c) => (c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r'));
}

/** One COPY text line: cells escaped, tab-separated. */
export function copyLine(cells: Cell[]): string {
  // join() yields flat strings; `+=` chains would be flattened later at a much higher cost.
  return `${cells.map(cell).join('\t')}\n`;
}

export type CopyFormat = 'text' | 'binary';

/** The COPY format of each table's data: records.properties in binary (copy-binary.ts), the others as COPY text. */
export const COPY_FORMAT = {
  properties: 'binary',
  owners: 'text',
  owner_mentions: 'text',
} as const satisfies Record<TableName, CopyFormat>;

/** COPY data of a batch's records, each table's in its format: binary COPY data as bytes, COPY text as a string. */
export type CopyChunks = { [T in TableName]: (typeof COPY_FORMAT)[T] extends 'binary' ? Uint8Array : string };
/** The same with every table's data as bytes (the text as UTF-8), as a worker thread hands it over. */
export type CopyBytes = Record<TableName, Uint8Array>;

/**
 * A batch's COPY data as bytes, each in an ArrayBuffer of its own, with those buffers to transfer (not copy) out of
 * a worker thread (a Buffer of Node's shared pool cannot be: TextEncoder and BinaryCopyWriter give each its own).
 */
export function transferableChunks(chunks: CopyChunks): { bytes: CopyBytes; transfer: ArrayBuffer[] } {
  const utf8 = new TextEncoder();
  const bytes: CopyBytes = {
    properties: chunks.properties,
    owners: utf8.encode(chunks.owners),
    owner_mentions: utf8.encode(chunks.owner_mentions),
  };
  return { bytes, transfer: TABLES.map((t) => bytes[t].buffer as ArrayBuffer) };
}

/**
 * An entity's (or a full name's) words as a PostgreSQL array literal, so any word finds it; null for a person with a
 * last name (an Individual, or a Trustee: a person named as trustee), found by last and first name.
 */
export function ownerNameWords(o: { lastName: string | null; fullName: string; type: string }): string | null {
  if (o.lastName && (o.type === 'Individual' || o.type === 'Trustee')) return null;
  const words = nameKey(o.fullName)
    .split(' ')
    .filter((w) => w !== '');
  return words.length === 0 ? null : `{${words.map((w) => `"${w}"`).join(',')}}`;
}

/**
 * The `location` column (0011): point(longitude, latitude), what area search finds a record by; null when the record
 * has no coordinates or impossible ones (it is then found by no area search).
 */
export function locationPoint(p: { latitude: number | null; longitude: number | null }): [number, number] | null {
  const { latitude: lat, longitude: lon } = p;
  if (lat === null || lon === null || !Number.isFinite(lat) || !Number.isFinite(lon)) return null;
  if (Math.abs(lat) > 90 || Math.abs(lon) > 180) return null;
  return [lon, lat];
}

/** The mailing address on one line, as written (what owner detail lists); null when none. */
export function mailingLine(m: PropertyInput['mailing']): string | null {
  if (!m || m.line1.trim() === '') return null;
  const place = [m.city, [m.state, m.zip].filter(Boolean).join(' ')].filter(Boolean).join(', ');
  return place === '' ? m.line1 : `${m.line1}, ${place}`;
}

/**
 * The fields of a records.properties row (COLUMNS.properties): the writer refuses a row of another count, and a test
 * reads every column back by name (copy-binary.property.test.ts).
 */
const PROPERTY_FIELDS = COLUMNS.properties.split(',').length;
/** Bytes a records.properties row takes in binary COPY data, about (it grows when a batch's rows take more). */
const PROPERTY_ROW_BYTES = 768;

/**
 * COPY data for `items`; ids are consecutive from a first id, or given one per item (an update keeps its ids).
 * `parcelIds` are the items' registry ids (parcels.ts), one per item; `ownerIds` their owners' ids
 * (owner-registry.ts), one RecordOwnerIds per item.
 */
export function buildCopyChunks(
  ids: number | readonly number[],
  items: readonly PropertyInput[],
  parcelIds: readonly number[],
  source: string,
  ownerIds: readonly RecordOwnerIds[],
): CopyChunks {
  if (parcelIds.length !== items.length) throw new Error(`${items.length} items, ${parcelIds.length} parcel ids`);
  if (ownerIds.length !== items.length) throw new Error(`${items.length} items, ${ownerIds.length} records' owner ids`);
  const properties = new BinaryCopyWriter(items.length * PROPERTY_ROW_BYTES);
  const out: Record<'owners' | 'owner_mentions', string[]> = { owners: [], owner_mentions: [] };
  items.forEach((p, i) => {
    const id = typeof ids === 'number' ? ids + i : ids[i]!;
    const street = parsedStreetLine(streetWithUnit(p));
    const cityKey = normalizeCity(p.city);
    const record = JSON.stringify(renderRecord(id, parcelIds[i]!, p, ownerIds[i]!));
    // In COLUMNS.properties' order.
    properties.row(PROPERTY_FIELDS);
    properties.int8(id);
    properties.text(p.apn);
    properties.text(apnKey(p.apn));
    properties.text(p.taxParcelId ? apnKey(p.taxParcelId) : null);
    properties.text(p.fips);
    properties.text(p.state);
    properties.text(countyKey(p.county));
    properties.text(cityKey);
    properties.text(p.zip);
    properties.text(street.lineKey);
    properties.text(street.streetKey);
    properties.text(street.unitKey);
    properties.text(street.looseKey);
    properties.text(street.streetType);
    properties.text(p.censusTract);
    properties.text(source);
    properties.timestamptz(p.lastModified);
    const point = locationPoint(p);
    if (point) properties.point(point[0], point[1]);
    else properties.null();
    properties.text(p.proptype.toUpperCase()); // what the area search type filter compares (case-insensitive)
    properties.bytes(encodeRecordDoc(record, renderHistories(p)));
    ownersInOrder(p).forEach((o, k) => {
      if (!o) return;
      out.owners.push(
        copyLine([
          id,
          k + 1,
          o.lastName ? nameKey(o.lastName) : null,
          o.firstName ? nameKey(o.firstName) : null,
          p.state,
          cityKey,
          p.zip,
          ownerNameWords(o),
        ]),
      );
      const ownerId = ownerIds[i]![k];
      if (ownerId === null || ownerId === undefined) return;
      out.owner_mentions.push(
        copyLine([
          id,
          k + 1,
          ownerId,
          o.fullName,
          o.type,
          mailingLine(p.mailing),
          p.state,
          p.county,
          p.assessment?.marketTotal ?? null,
          p.assessment?.total ?? null,
          p.sales[0]?.date ?? null,
        ]),
      );
    });
  });
  return { properties: properties.finish(), owners: out.owners.join(''), owner_mentions: out.owner_mentions.join('') };
}

export function tractProfileBody(t: TractInput): string {
  return JSON.stringify(renderDemographics(t));
}
