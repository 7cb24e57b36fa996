// The cache of parsed street lines (domain/street-lines.ts), in two generations: whatever the order and number of
// lines asked, each answer is the parse of that line, and a line asked again within a generation of other lines is
// not parsed again. Tried with generations of a few lines, so that any sequence fills and turns them over.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseStreetLine } from '@pra/core/address';
import { parsedStreetLine, recentLines } from '../src/domain/street-lines.js';

describe('recently parsed lines', () => {
  it('answer each line with its own parse, and parse a line again only after a generation of other lines', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 6 }),
        fc.array(fc.integer({ min: 0, max: 15 }), { minLength: 1, maxLength: 200 }),
        (generation, asked) => {
          const parsedAt: number[][] = [];
          const cache = recentLines(generation, (line) => {
            parsedAt.push([Number(line), step]);
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
            answered.set(n, got);
            lastAsked.set(n, step);
            step++;
          }
          // Bounded: no line parsed more often than it was asked.
          for (const n of new Set(asked)) {
            expect(parsedAt.filter(([m]) => m === n).length).toBeLessThanOrEqual(asked.filter((m) => m === n).length);
          }
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
