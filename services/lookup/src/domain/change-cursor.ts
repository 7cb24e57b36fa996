// The change feed's cursor (GET /changes `since`, `status.cursor`): opaque to clients, it holds the feed position to
// continue after and a tag of the filters it was read with, so that a cursor of one filter is refused under another
// (it would skip the events the other filter matches). base64url of `1:<position>:<tag>`; 1 is the format's version.
import { createHash } from 'node:crypto';
import { countyKey } from '@pra/core/address';
import type { ChangesQuery } from '@pra/core/contracts';
import { badRequest } from '@pra/core/errors';

const VERSION = '1';
/** The largest feed position (bigint). */
const MAX_POSITION = 2n ** 63n - 1n;

/** The filters of a query, canonical: the same filters however written give the same tag. */
export function filterTag(q: Pick<ChangesQuery, 'zip' | 'state' | 'county' | 'ownerId' | 'ids'>): string {
  const county = q.county === undefined ? null : /^\d{5}$/.test(q.county) ? q.county : countyKey(q.county);
  const canonical = JSON.stringify([
    q.zip ?? null,
    q.state ?? null,
    county,
    q.ownerId === undefined ? null : String(Number(q.ownerId)),
    q.ids === undefined ? null : [...q.ids].sort(),
  ]);
  return createHash('sha256').update(canonical).digest('base64url').slice(0, 10);
}

export function encodeCursor(position: string, tag: string): string {
  return Buffer.from(`${VERSION}:${position}:${tag}`).toString('base64url');
}

/** The position a cursor continues after; a 400 naming `since` for a cursor this API did not give for these filters. */
export function decodeCursor(cursor: string, tag: string): string {
  const m = /^(\d+):(\d{1,19}):([\w-]{10})$/.exec(Buffer.from(cursor, 'base64url').toString('latin1'));
  // A position is a PostgreSQL bigint: a longer one (a cursor edited by hand) would fail the read as a 500.
  if (!m || m[1] !== VERSION || BigInt(m[2]!) > MAX_POSITION)
    throw badRequest(
      "Invalid parameter 'since': not a cursor this API gave (use status.cursor of an answer)",
      'invalid_parameter',
    );
  if (m[3] !== tag)
    throw badRequest(
      "Invalid parameter 'since': this cursor was given for other filters; continue a feed with the filters it was read with",
      'invalid_parameter',
    );
  return m[2]!.replace(/^0+(?=\d)/, '');
}
