// How record documents (a property's pre-rendered body, its sale and assessment histories) are stored: JSON text,
// compressed with a preset dictionary of typical records. A body is ~1.3 KB of JSON whose key names and shape repeat
// in every record; PostgreSQL compresses nothing under ~2 KB a row (TOAST starts above that), so the store held it
// raw, and it was two thirds of the records' bytes. With the dictionary a record is ~0.4 KB.
// The first byte says how the rest is encoded, so rows written in an earlier encoding, or raw (by a migration, which
// cannot compress in SQL), are read as they are:
//   0x00  the JSON as UTF-8
//   0x01  deflate (raw) with DICTIONARY_V1, 8 KB window: written until issue 36's fifth pass, still read
//   0x02  a zstd frame with DICTIONARY_V1 as a raw-content dictionary (zstd-v1.ts): what is written now
// The dictionary is part of the stored format: never change it; add a version.
import { decodeRecordBody } from './record-body.js';
import { asBuffer, DEFLATE_V1, inflateV1, RAW, unknownEncoding, ZSTD_V1 } from './stored-format.js';
import { keptBuffer } from './kept-buffer.js';
import { maxUtf8Bytes } from './max-utf8-bytes.js';
import { zstdDecode, zstdEncode } from './zstd-v1.js';

/** The kept buffer's first size. */
export const FIRST_SCRATCH_BYTES = 16 * 1024;
/** Texts whose UTF-8 may be larger than this get a buffer of their own. */
export const KEPT_SCRATCH_BYTES = 1024 * 1024;
/** The UTF-8 of the text being encoded: zstdEncode reads its input during the call only, and returns a copy. */
const utf8Scratch = keptBuffer(FIRST_SCRATCH_BYTES, KEPT_SCRATCH_BYTES);

/**
 * The stored form of a JSON text. Its UTF-8 is written into a buffer kept for the thread's life rather than a new one
 * a value: Buffer.from takes a slice of Node's 8 KB pool, a new pool every few records, and the first write to fresh
 * memory cost ~12 us a 4 KB page on a VM where it was measured (docs/benchmarks.md, issue 36's eighteenth pass).
 */
export function encodeStoredJson(json: string): Buffer {
  const most = maxUtf8Bytes(json);
  // Larger: its exact bytes, not a buffer of the bound's size.
  if (most > KEPT_SCRATCH_BYTES) return zstdEncode(Buffer.from(json));
  const scratch = utf8Scratch(most);
  const n = scratch.write(json, 0, 'utf8');
  return zstdEncode(scratch.subarray(0, n));
}

/** The JSON text of a stored value (any encoding). */
export function decodeStoredJson(stored: Uint8Array): string {
  const buf = asBuffer(stored);
  switch (buf[0]) {
    case ZSTD_V1:
      return zstdDecode(buf.subarray(1)).toString('utf8');
    case DEFLATE_V1:
      return inflateV1(buf.subarray(1)).toString('utf8');
    case RAW:
      return buf.toString('utf8', 1);
    default:
      throw unknownEncoding(buf[0]);
  }
}

/** A property's stored document: its body and both histories, compressed together (one call a record). */
export interface RecordDoc {
  /** The record body (SPEC 2.1 without demographics), as JSON. */
  body: string;
  /** The sale history as /sale/history returns it, newest first ('[]' when none). */
  sales: string;
  /** The assessment history as /assessment/detail returns it, newest first ('[]' when none). */
  assessments: string;
}

/**
 * The stored form of a property: "<body>\n<sales>\n<assessments>", or the body alone when it has no history. One
 * value, so a load compresses once a record: each call has a cost of its own before it compresses anything.
 * JSON.stringify never writes a newline, so the first two are the separators.
 */
export function encodeRecordDoc(body: string, histories: { sales: string; assessments: string } | null): Buffer {
  return encodeStoredJson(histories === null ? body : `${body}\n${histories.sales}\n${histories.assessments}`);
}

export function decodeRecordDoc(stored: Uint8Array): RecordDoc {
  const text = decodeStoredJson(stored);
  const first = text.indexOf('\n');
  if (first < 0) return { body: text, sales: '[]', assessments: '[]' };
  const second = text.indexOf('\n', first + 1);
  return { body: text.slice(0, first), sales: text.slice(first + 1, second), assessments: text.slice(second + 1) };
}

/** The address of a stored record, as its body renders it (SPEC 2.1); the fields the callers outside lookups read. */
export interface StoredAddress {
  line1: string;
  /** The unit ('' or, in bodies written by older loaders, null when there is none). */
  line2: string | null;
  locality: string;
  countrySubd: string;
  postal1: string;
  oneLine: string;
}

/**
 * The address of a stored record: what the rekey, the type-ahead index, fixtures and benchmarks read of a body. The
 * body alone is decoded (record-body.ts): the rekey and a rebuild read every record, histories of any length.
 */
export function storedAddress(stored: Uint8Array): StoredAddress {
  return (JSON.parse(decodeRecordBody(stored)) as { address: StoredAddress }).address;
}
