// The cache of parsed street lines (domain/street-lines.ts): whatever the order and number of lines asked, each
// answer is the parse of that line, and a line asked again within a generation is not parsed again.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseStreetLine } from '@pra/core/address';
import { parsedStreetLine } from '../src/domain/street-lines.js';

describe('parsed street lines', () => {
  it('answers each line with its own parse, across generations, in any order of asking', () => {
    // Few distinct lines asked many times, and many asked once: generations of 20,000 fill and turn over.
    const line = fc.oneof(
      fc.integer({ min: 1, max: 40 }).map((n) => `${n} MAIN ST`),
      fc.integer({ min: 1, max: 60_000 }).map((n) => `${n} N ${n % 7 === 0 ? 'BROAD' : 'MARKET'} ST APT ${n % 13}`),
    );
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 30_000 }), (lines) => {
        for (const l of lines) expect(parsedStreetLine(l)).toEqual(parseStreetLine(l));
      }),
      { numRuns: 8 },
    );
  });

  it('gives the same object for a line asked again after a generation has turned over', () => {
    const first = parsedStreetLine('700 SEMINARY HILL RD');
    for (let n = 0; n < 25_000; n++) parsedStreetLine(`${n} CHESTNUT ST`);
    // Moved up from the older generation, not parsed again.
    expect(parsedStreetLine('700 SEMINARY HILL RD')).toBe(first);
  });
});
