// The script that builds the owners' births' first names (services/ingest/reference/ssa-1920-1999-first-names-top1000.csv)
// from the SSA's yob files: shares of a sex's births over the years, each sex's top names, and a name that sex is
// rarely given left off that sex's list.
import { describe, expect, it } from 'vitest';
import { firstNamesOfBirths } from '../scripts/first-names-of-births.js';

describe('first names of the births of several years', () => {
  it("sums the years, ranks each sex's names, and shares them of that sex's births", () => {
    const y1 = 'Mary,F,70\nBetty,F,20\nJames,M,90\nMary,M,1\nWillie,M,5\nWillie,F,4\n';
    const y2 = 'Mary,F,50\nBetty,F,40\nDorothy,F,16\nJames,F,2\nJames,M,100\n';
    expect(firstNamesOfBirths([y1, y2], 3)).toEqual([
      'Name,total,sex',
      'James,96.9388%,M', // 190 of 196 boys
      'Willie,2.5510%,M', // 5 of 196
      // MARY, one boy of 121: under 5% of the name's births, not a boy's name.
      'Mary,59.4059%,F', // 120 of 202 girls
      'Betty,29.7030%,F',
      'Dorothy,7.9208%,F', // the third of the girls' (WILLIE, 4, and JAMES, 2, below it)
    ]);
  });

  it('names a line that is not of the yob files', () => {
    expect(() => firstNamesOfBirths(['Mary,X,3'])).toThrow(/not a line of the SSA's yob files .*Mary,X,3/);
    expect(() => firstNamesOfBirths(['Mary,F,many'])).toThrow(/Name,F\|M,count/);
  });
});
