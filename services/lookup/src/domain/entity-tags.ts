// The ETag of a record answer (issue 38, "Unchanged is free"): a strong tag over what the answer returns, so that a
// client holding it asks again with If-None-Match and is answered 304, free, while nothing it received has changed.
//
// What it covers: the account it was answered to, the request (its canonical target: path, parameters and paging, and
// a batch's entries), the page's total, page and page size, how an address matched, whether credits cut it, and each
// record returned as sent (its stored body, vintage.lastModified in it, its tract's demographics, its history). Not the
// status fields every call has afresh (transactionID, credits_remaining): a tag says "the same records", not "the same
// bytes"; the body of a 200 carries them and a 304 none.
//
// Why a keyed hash (HMAC-SHA256, 132 bits kept) and why the account: a 304 is free, so a tag must never let an
// account learn for free what it could not learn otherwise. A plain digest of the records could be computed by anyone
// who knows (or guesses) a record, and then asked "is it still exactly this?" without paying for it; a tag under the
// server's key can only be known by receiving it, with the records. Bound to the account, a tag received by one
// account tells another nothing (a leaked or shared tag is worth nothing elsewhere). So a 304 only ever confirms, to
// the account that paid for these very records, that they have not changed. The key is derived from GATEWAY_HMAC_KEY
// (HKDF, its own label: a tag reveals nothing of the signing key and no signature is a tag), shared by every lookup
// replica so that each answers the same tag; rotating that key changes every tag (one paid answer each, never a
// wrong 304). A development lookup without the gateway's key (the tests) makes a random key of its own.
import { createHmac, hkdfSync, randomBytes, timingSafeEqual, type Hmac } from 'node:crypto';
import type { RecordRow } from '../data/record-queries.js';
import type { RecordPage } from './record-page.js';

/** The characters of a tag's HMAC kept (base64url, 6 bits each: 132 bits). */
const TAG_CHARS = 22;

/** The key tags are made with: derived from the gateway's, else (development only) a random one of this process. */
export function entityTagKey(gatewayKey: string | undefined): Buffer {
  if (gatewayKey !== undefined) return Buffer.from(hkdfSync('sha256', gatewayKey, '', 'pra entity tags v1', 32));
  return randomBytes(32);
}

/** Who a tag is made for: the account, and the request as billing reads it (its canonical target, a batch's entries). */
export interface TagScope {
  accountId: number;
  fingerprint: string;
}

/** What a batch's tag covers of each entry: its answer, as the BatchResponse renders it. */
export interface TaggedEntry {
  id: string | null;
  code: number;
  msg: string;
  total: number;
  page?: number;
  pagesize?: number;
  rows: readonly RecordRow[];
  truncatedByCredits: boolean;
  match: unknown;
}

export class EntityTags {
  constructor(private readonly key: Buffer) {}

  /** The tag of the first `returned` rows of a page, `truncated` when credits cut it. */
  page(scope: TagScope, p: RecordPage, returned: number, truncated: boolean): string {
    const h = this.begin('page', scope);
    field(h, `${p.total}:${p.page}:${p.pagesize}:${p.historyField ?? ''}:${truncated}:${returned}`);
    field(h, p.match === undefined ? '' : canonicalJson(p.match));
    // Only a change-feed page has it (record pages keep the tags they had).
    if (p.continuesAt !== undefined) field(h, `continues:${p.continuesAt}`);
    for (let i = 0; i < returned; i++) row(h, p.rows[i]!);
    return finish(h);
  }

  /** The tag of a batch's answer: every entry as answered, in order. */
  batch(scope: TagScope, entries: readonly TaggedEntry[]): string {
    const h = this.begin('batch', scope);
    field(h, String(entries.length));
    for (const e of entries) {
      field(h, e.id === null ? '' : `=${e.id}`);
      field(h, `${e.code}:${e.total}:${e.page ?? ''}:${e.pagesize ?? ''}:${e.truncatedByCredits}:${e.rows.length}`);
      field(h, e.msg);
      field(h, e.match === null || e.match === undefined ? '' : canonicalJson(e.match));
      for (const r of e.rows) row(h, r);
    }
    return finish(h);
  }

  private begin(kind: string, scope: TagScope): Hmac {
    const h = createHmac('sha256', this.key);
    field(h, kind);
    field(h, String(scope.accountId));
    field(h, scope.fingerprint);
    return h;
  }
}

/** One field, length first: no two different sequences of fields hash alike. */
function field(h: Hmac, text: string): void {
  h.update(`${text.length}:`);
  h.update(text);
}

/** A record as the answer renders it (routes/render-responses.ts): its body, demographics and history. */
function row(h: Hmac, r: RecordRow): void {
  field(h, r.body);
  field(h, r.demo ?? '');
  field(h, r.hist ?? '');
}

/** A strong entity tag: the opaque tag in quotes. */
const finish = (h: Hmac) => `"${h.digest('base64url').slice(0, TAG_CHARS)}"`;

/**
 * JSON with object keys sorted: a match read back from a receipt (a repeat) has its keys in the schema's order, the
 * one just found in the order it was built in; the same match must give the same tag.
 */
export function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    const keys = Object.keys(o)
      .filter((k) => o[k] !== undefined)
      .sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(o[k])}`).join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}

/** What a call revalidates with: the tags its client holds (If-None-Match; undefined: none) and the tagger. */
export interface Revalidation {
  tags: EntityTags;
  held: readonly string[] | undefined;
}

/**
 * Weak comparison (RFC 9110 8.8.3.2, as If-None-Match compares): one of the held opaque tags (a weak tag's `W/`
 * already dropped) is `current`. Every tag is compared, each in constant time: how long the answer takes says nothing
 * of how close a guess came.
 */
export function holdsEntityTag(held: readonly string[] | undefined, current: string): boolean {
  if (held === undefined) return false;
  const want = Buffer.from(current, 'latin1');
  let found = false;
  for (const tag of held) {
    if (tag.length === current.length && timingSafeEqual(Buffer.from(tag, 'latin1'), want)) found = true;
  }
  return found;
}
