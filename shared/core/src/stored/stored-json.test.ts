// The stored format does not depend on how a value was deflated: whatever values the kept deflater took before
// (its window past a value's end holds their bytes), each value it writes inflates alone, with the dictionary, to
// itself, as a one-shot deflateRawSync's does; and it is about as small.
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeRecordDoc, decodeStoredJson, encodeRecordDoc, encodeStoredJson } from './index.js';
import { DEFLATE_V1, dictionary, WINDOW_BITS } from './stored-format.js';

const oneShot = (json: string) =>
  Buffer.concat([
    Buffer.from([DEFLATE_V1]),
    deflateRawSync(json, { dictionary, windowBits: WINDOW_BITS, level: 6, memLevel: 8 }),
  ]);

/** Inflated as a reader does: alone, with nothing but the dictionary. */
const inflatedAlone = (stored: Buffer) =>
  inflateRawSync(stored.subarray(1), { dictionary, windowBits: WINDOW_BITS }).toString('utf8');

describe('encodeStoredJson', () => {
  it('writes, value after value, what inflates alone to each value, within a few bytes of a one-shot deflate', () => {
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
            expect(stored[0]).toBe(DEFLATE_V1);
            expect(inflatedAlone(stored)).toBe(json);
            expect(decodeStoredJson(stored)).toBe(json);
            expect(stored.length).toBeLessThanOrEqual(oneShot(json).length + 16);
          }
        },
      ),
      { numRuns: 500 },
    );
  });

  it('never reads past a value into what the value before left: prefixes of a value, after it', () => {
    // The window past the shorter value holds the rest of the longer one, which the match finder reads.
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 1_500 }),
        fc.array(fc.nat(), { minLength: 1, maxLength: 6 }),
        (text, cuts) => {
          const long = JSON.stringify({ t: text.repeat(3) });
          encodeStoredJson(long);
          for (const cut of cuts) {
            const json = long.slice(0, cut % long.length);
            expect(inflatedAlone(encodeStoredJson(json))).toBe(json);
          }
        },
      ),
      { numRuns: 300 },
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
      expect(inflatedAlone(stored)).toBe(json);
      expect(decodeStoredJson(stored)).toBe(json);
      expect(stored.length).toBeLessThanOrEqual(oneShot(json).length + 16);
    }
  });

  it('keeps a record document whole: body and both histories', () => {
    const doc = { body: '{"identifier":{"Id":1}}', sales: '[{"date":"2020-01-02"}]', assessments: '[]' };
    expect(decodeRecordDoc(encodeRecordDoc(doc.body, doc))).toEqual(doc);
    expect(decodeRecordDoc(encodeRecordDoc(doc.body, null))).toEqual({ ...doc, sales: '[]' });
  });
});
