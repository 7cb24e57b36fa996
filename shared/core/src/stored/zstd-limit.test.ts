// A stored value's reader refuses a frame claiming more than 256 MB (zstd-v1.ts, MAX_CONTENT_BYTES) as damaged, so
// the writer must never write one: a record imported from a county cell that large would be stored, then fail every
// read (found by review: JSON writes a control character as six, so a ~45 MB cell of them is enough).
import { describe, expect, it } from 'vitest';
import { zstdEncode } from './zstd-v1.js';

describe('zstdEncode', () => {
  it('refuses, before compressing, a value larger than a stored value may be read back', () => {
    const tooLarge = Buffer.alloc(256 * 1024 * 1024 + 1, 0x20);
    expect(() => zstdEncode(tooLarge)).toThrow(/268,435,457 bytes.*more than the 268,435,456 a stored value may hold/);
  });
});
