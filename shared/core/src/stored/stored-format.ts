// The stored format's constants, shared by the whole-value decoder (stored-json.ts), the body-only one
// (record-body.ts) and the zstd encoding (zstd-v1.ts): the first byte says how the rest is encoded (see
// stored-json.ts).
import { constants, inflateRawSync } from 'node:zlib';
import { DICTIONARY_V1 } from './dictionary-v1.js';

export const RAW = 0x00;
export const DEFLATE_V1 = 0x01;
export const ZSTD_V1 = 0x02;
export const WINDOW_BITS = 13;
export const dictionary = Buffer.from(DICTIONARY_V1, 'utf8');

/** The value as a Buffer without a copy (pg gives Buffers; a worker may hand over a Uint8Array). */
export function asBuffer(stored: Uint8Array): Buffer {
  return Buffer.isBuffer(stored) ? stored : Buffer.from(stored.buffer, stored.byteOffset, stored.byteLength);
}

export function unknownEncoding(first: number | undefined): Error {
  return new Error(
    `stored JSON has an unknown encoding (first byte ${first}): this code reads 0 (raw), 1 (deflate v1) and ` +
      '2 (zstd v1), so a newer version wrote it or the value is damaged',
  );
}

/** A stored value that cannot be read as its encoding says: what to do about it. */
export function damagedValue(encoding: string, why: string): Error {
  return new Error(`a stored value (${encoding}) is damaged: ${why}; rewrite the record (import its file again)`);
}

/**
 * node:zlib's inflate of a deflate v1 value, its failure named as a damaged value. `prefix`: the bytes are a prefix
 * of the value, inflated as far as they go instead of failing on the missing end.
 */
export function inflateV1(packed: Uint8Array, prefix = false): Buffer {
  try {
    return inflateRawSync(packed, {
      dictionary,
      windowBits: WINDOW_BITS,
      ...(prefix ? { finishFlush: constants.Z_SYNC_FLUSH } : {}),
    });
  } catch (err) {
    throw damagedValue('deflate, encoding 1', (err as Error).message);
  }
}
