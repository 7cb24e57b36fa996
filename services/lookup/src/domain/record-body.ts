// What the lookup reads of a stored record's body (the JSON text render-record.ts in ingest writes) without parsing
// all of it: its id, its identifier.
import type { PropertyRecord } from '@pra/core/contracts';

/**
 * A stored record's id: its body starts `{"identifier":{"Id":N` (render-record.ts in ingest); an owner's (owner
 * detail, owner search: data/owner-queries.ts) starts `{"id":N`; a change event's (find-changes.ts) `{"id":"N"`.
 */
export function recordId(body: string): number {
  const m =
    /^\{"identifier":\{"Id":(\d{1,15})[,}]/.exec(body) ??
    /^\{"id":(\d{1,15})[,}]/.exec(body) ??
    /^\{"id":"(\d{1,15})"[,}]/.exec(body);
  if (m) return Number(m[1]);
  return Number((JSON.parse(body) as { identifier: { Id: number } }).identifier.Id);
}

/** The identifier object a record's body starts with: `{"identifier":{...}` holds no object of its own. */
const IDENTIFIER_PREFIX = '{"identifier":';

/**
 * A stored record's identifier (Id, APN, FIPS, parcel id), parsed alone from the start of its body; the whole body
 * when it does not start so.
 */
export function identifierOf(body: string): PropertyRecord['identifier'] {
  if (body.startsWith(IDENTIFIER_PREFIX)) {
    // The identifier's values are numbers and strings: its object ends at the first `}` outside a string. A string
    // holding one (an APN with a brace) makes the slice no JSON, and the whole body is read instead.
    const end = body.indexOf('}', IDENTIFIER_PREFIX.length);
    try {
      const id = JSON.parse(body.slice(IDENTIFIER_PREFIX.length, end + 1)) as PropertyRecord['identifier'];
      if (typeof id.parcelId === 'number' && typeof id.apn === 'string') return id;
    } catch {
      // read whole below
    }
  }
  return (JSON.parse(body) as PropertyRecord).identifier;
}
