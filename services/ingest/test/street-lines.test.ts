// The cache of parsed street lines (domain/street-lines.ts), in two generations: whatever the order and number of
// lines asked, each answer is the parse of that line, and a line asked again within a generation of other lines is
// not parsed again. Tried with generations of a few lines, so that any sequence fills and turns them over.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseStreetLine } from '@pra/core/address';
import { parsedStreetLine, recentLines } from '../src/domain/street-lines.js';

describe('recently parsed lines', () => {
  it('answer each line with its own parse, the same while it is recent, and let it go once it is not', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 6 }),
        fc.array(fc.integer({ min: 0, max: 15 }), { minLength: 1, maxLength: 200 }),
        (generation, asked) => {
          const parses = new Map<number, number>();
          const cache = recentLines(generation, (line) => {
            parses.set(Number(line), (parses.get(Number(line)) ?? 0) + 1);
            return { line };
          });
          const answered = new Map<number, { line: string }>();
          const lastAsked = new Map<number, number>();
          let step = 0;
          for (const n of asked) {
            const got = cache(String(n));
            expect(got.line).toBe(String(n));
            const before = lastAsked.get(n);
            // Distinct other lines asked since this one: fewer than a generation, and it is the same answer.
            const others = new Set(asked.slice(before === undefined ? 0 : before + 1, step).filter((m) => m !== n));
            if (before !== undefined && others.size < generation) expect(got).toBe(answered.get(n));
            // Bounded: after three generations of other lines (at least two of them new to the newer generation, as
            // it held at most one generation of lines asked again), both generations have turned over without it.
            if (before !== undefined && others.size >= 3 * generation) expect(got).not.toBe(answered.get(n));
            answered.set(n, got);
            lastAsked.set(n, step);
            step++;
          }
          // No line parsed more often than it was asked.
          for (const [n, times] of parses) expect(times).toBeLessThanOrEqual(asked.filter((m) => m === n).length);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('give the street line parse, as parseStreetLine does', () => {
    for (const line of ['700 SEMINARY HILL RD', '35 SEMINARY HILL 22', '54 AIRPORT RD B2 U7', 'PO BOX 12']) {
      expect(parsedStreetLine(line)).toEqual(parseStreetLine(line));
      expect(parsedStreetLine(line)).toBe(parsedStreetLine(line));
    }
  });
});
