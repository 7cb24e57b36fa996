// deedKey (sale-merge.ts) reads a deed's book and page in one pass over its characters, for speed: for any text, it
// must give what the plain reading gives, its runs of ASCII digits (without leading zeros) and letters (upper-cased)
// joined by `/`.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deedKey } from '../src/importer/sale-merge.js';

/** The plain reading, as the pattern it replaced wrote it (big numbers kept whole: no Number()). */
const plain = (ref: string) =>
  (ref.match(/\d+|[A-Z]+/gi) ?? [])
    .map((x) => (/^\d+$/.test(x) ? x.replace(/^0+(?=\d)/, '') : x.toUpperCase()))
    .join('/');

describe('deedKey', () => {
  it('gives the plain reading of any text: book and page as the rolls write them, and anything else', () => {
    const bookPage = fc
      .array(fc.constantFrom('0', '4', '119', '0683', 'W', 'wb', 'A', ':', '/', '-', ' ', '.', '#', 'é', '１', '٣'), {
        maxLength: 12,
      })
      .map((parts) => parts.join(''));
    fc.assert(
      fc.property(fc.oneof(bookPage, fc.string(), fc.string({ unit: 'grapheme' })), (ref) => {
        expect(deedKey(ref)).toBe(plain(ref));
      }),
      { numRuns: 20_000 },
    );
  });
});
