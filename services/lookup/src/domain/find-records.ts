// The record lookups of SPEC 4.1-4.5, on normalised keys. No req/res here: criteria in, a page or an ApiError out.
import { apnKey, countyKey, nameKey, normalizeCity, parseStreetLine, splitZip } from '@pra/core/address';
import type { AddressQuery, OwnerQuery, ParcelQuery } from '@pra/core/contracts';
import { badRequest, notFound } from '@pra/core/errors';
import type { AddressCriteria, RecordRow, RecordStore } from '../data/record-queries.js';
import type { RecordPage } from './record-page.js';

/** At most this many records answer a parcel lookup (the endpoint has no page parameters). */
export const PARCEL_MATCH_LIMIT = 100;

export function addressCriteria(q: AddressQuery): AddressCriteria {
  let line = q.address!;
  const given = parseStreetLine(line);
  if (q.number !== undefined) {
    if (given.houseNumber === null) line = `${q.number} ${line}`;
    else if (given.houseNumber.toUpperCase() !== q.number.toUpperCase()) {
      throw badRequest(
        `Parameter 'number' (${q.number}) conflicts with the house number in 'address' (${given.houseNumber})`,
      );
    }
  }
  const parsed = q.number !== undefined && given.houseNumber === null ? parseStreetLine(line) : given;
  if (parsed.houseNumber === null) {
    throw badRequest("Invalid parameter 'address': it must start with a house number (or give the number in 'number')");
  }
  if (parsed.streetKey === '') throw badRequest("Invalid parameter 'address': no street name after the house number");
  const zip = q.zip ?? q.postal1;
  const city = q.city ?? q.locality;
  return {
    lineKey: parsed.lineKey,
    unitKey: parsed.unitKey,
    zip: zip !== undefined ? splitZip(zip).zip5 : null,
    state: zip !== undefined ? null : (q.state ?? q.countrySubd)!,
    cityKey: zip !== undefined ? null : normalizeCity(city!),
  };
}

function pageOrNotFound(rows: RecordRow[], total: number, page: number, pagesize: number, what: string): RecordPage {
  if (total === 0) throw notFound(`No properties found for ${what}`);
  if (rows.length === 0) {
    const pages = Math.ceil(total / pagesize);
    throw notFound(`Page ${page} is past the last page (${pages} of ${pagesize} for ${total} properties)`, total);
  }
  return { rows, total, page, pagesize };
}

export async function findByAddress(store: RecordStore, q: AddressQuery): Promise<RecordPage> {
  let c = addressCriteria(q);
  const offset = (q.page - 1) * q.pagesize;
  let { rows, total } = await store.byAddress(c, q.pagesize, offset);
  if (total === 0) {
    // Nothing at exactly that line: it may lack its suffix ("123 W 5th" for "123 W 5TH ST"). One street that
    // extends it is the answer; several are named, so the caller can say which.
    const lines = await store.extendedLines(c);
    if (lines.length === 1) {
      c = { ...c, lineKey: lines[0]! };
      ({ rows, total } = await store.byAddress(c, q.pagesize, offset));
    } else if (lines.length > 1) {
      const names = lines.slice(0, 3).join("', '");
      throw notFound(
        `No properties found at '${c.lineKey}'; did you mean '${names}'${lines.length > 3 ? ', ...' : ''}? Give the street suffix.`,
      );
    }
  }
  const where = c.zip
    ? `${c.lineKey}${c.unitKey ? ` #${c.unitKey}` : ''} in ${c.zip}`
    : `${c.lineKey}${c.unitKey ? ` #${c.unitKey}` : ''}, ${c.cityKey}, ${c.state}`;
  return pageOrNotFound(rows, total, q.page, q.pagesize, `address '${where}'`);
}

export async function findByOwner(store: RecordStore, q: OwnerQuery): Promise<RecordPage> {
  const c = {
    lastNameKey: nameKey(q.lastName),
    firstNameKey: q.firstName ? nameKey(q.firstName) : null,
    state: q.state ?? null,
    cityKey: q.city ? normalizeCity(q.city) : null,
  };
  if (c.lastNameKey === '') throw badRequest("Invalid parameter 'lastName': it must contain letters");
  const { rows, total } = await store.byOwner(c, q.pagesize, (q.page - 1) * q.pagesize);
  return pageOrNotFound(
    rows,
    total,
    q.page,
    q.pagesize,
    `owner '${[q.firstName, q.lastName].filter(Boolean).join(' ')}'`,
  );
}

export async function findByParcel(store: RecordStore, q: ParcelQuery): Promise<RecordPage> {
  const key = apnKey(q.apn);
  const rows = await store.byParcel(key, q.state ?? null, q.county ? countyKey(q.county) : null, PARCEL_MATCH_LIMIT);
  if (rows.length === 0) throw notFound(`No properties found for APN '${q.apn}'`);
  return { rows, total: rows[0]!.total, page: 1, pagesize: PARCEL_MATCH_LIMIT };
}

export async function findHistory(store: RecordStore, id: number, kind: 'sale' | 'assessment'): Promise<RecordPage> {
  const row = kind === 'sale' ? await store.saleHistory(id) : await store.assessmentHistory(id);
  if (!row) throw notFound(`No property with id ${id}`);
  return {
    rows: [row],
    total: 1,
    page: 1,
    pagesize: 1,
    historyField: kind === 'sale' ? 'saleHistory' : 'assessmentHistory',
  };
}
