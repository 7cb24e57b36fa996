// The stored format does not depend on how a value was deflated: the reused deflater writes the bytes a one-shot
// deflateRawSync with the same dictionary and settings writes, for values of every size, one after the other.
import { deflateRawSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeRecordDoc, decodeStoredJson, encodeRecordDoc, encodeStoredJson } from './index.js';
import { DEFLATE_V1, dictionary, WINDOW_BITS } from './stored-format.js';

const oneShot = (json: string) =>
  Buffer.concat([
    Buffer.from([DEFLATE_V1]),
    deflateRawSync(json, { dictionary, windowBits: WINDOW_BITS, level: 6, memLevel: 8 }),
  ]);

describe('encodeStoredJson', () => {
  it('writes the bytes of a one-shot deflate, value after value, and reads them back', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.json({ maxDepth: 4 }),
            // Text of any script, up to past the longest value the kept deflater takes.
            fc.string({ unit: 'grapheme', maxLength: 3_000 }).map((t) => JSON.stringify({ t })),
          ),
          { minLength: 1, maxLength: 8 },
        ),
        (values) => {
          for (const json of values) {
            const stored = encodeStoredJson(json);
            expect(stored.equals(oneShot(json))).toBe(true);
            expect(decodeStoredJson(stored)).toBe(json);
          }
        },
      ),
      { numRuns: 500 },
    );
  });

  it('holds for values larger than its buffer and for ones that do not compress', () => {
    // Text that does not compress (a fixed pseudo-random sequence).
    const random = (n: number) => {
      let x = 7;
      const chars: string[] = [];
      for (let i = 0; i < n; i++) {
        x = (x * 1_103_515_245 + 12_345) % 2 ** 31;
        chars.push(String.fromCharCode(33 + (x % 90)));
      }
      return chars.join('');
    };
    for (const json of [
      '',
      JSON.stringify({ text: random(100_000) }),
      JSON.stringify({ text: 'abc'.repeat(200_000) }),
      JSON.stringify({ text: random(2_000) }),
      JSON.stringify({ names: ['ÅSA', 'ÉLODIE', '李'] }),
    ]) {
      const stored = encodeStoredJson(json);
      expect(stored.equals(oneShot(json))).toBe(true);
      expect(decodeStoredJson(stored)).toBe(json);
    }
  });

  it('keeps a record document whole: body and both histories', () => {
    const doc = { body: '{"identifier":{"Id":1}}', sales: '[{"date":"2020-01-02"}]', assessments: '[]' };
    expect(decodeRecordDoc(encodeRecordDoc(doc.body, doc))).toEqual(doc);
    expect(decodeRecordDoc(encodeRecordDoc(doc.body, null))).toEqual({ ...doc, sales: '[]' });
  });
});
