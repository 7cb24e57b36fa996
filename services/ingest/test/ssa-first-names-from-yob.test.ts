// The SSA's first names of several years' births (scripts/ssa-first-names-from-yob.ts, which built
// services/ingest/reference/ssa-1920-1999-first-names-top1000.csv from the SSA's yob files), and that list as the
// owner-name parser reads it (name-frequencies.ts): shares of a sex's births over the years, each sex's top names,
// and a sex a name is rarely given left out by the reader.
import { describe, expect, it } from 'vitest';
import { ssaFirstNames } from '../scripts/ssa-first-names-from-yob.js';
import { isFirstName, isWomansName, mostlyGivenName } from '../src/domain/name-frequencies.js';
import { checkedFirstNameRows, firstNameRows } from '../src/domain/reference-files.js';

describe("the SSA's first names of several years' births", () => {
  it("sums the years, ranks each sex's names, and shares them of that sex's births", () => {
    const y1 = 'Mary,F,70\nBetty,F,20\nJames,M,90\nMary,M,1\nWillie,M,5\nWillie,F,4\n';
    const y2 = 'Mary,F,50\nBetty,F,40\nDorothy,F,16\nJames,F,2\nJames,M,100\n';
    expect(ssaFirstNames([y1, y2], 3)).toEqual([
      'Name,total,sex',
      'James,96.9388%,M', // 190 of 196 boys
      'Willie,2.5510%,M', // 5 of 196
      'Mary,0.5102%,M', // one boy: listed, as the SSA's 2010 list lists such names (the reader leaves it out)
      'Mary,59.4059%,F', // 120 of 202 girls
      'Betty,29.7030%,F',
      'Dorothy,7.9208%,F', // the third of the girls' (WILLIE, 4, and JAMES, 2, below it)
    ]);
  });

  it('ranks ties by name, whatever the order of the lines', () => {
    expect(ssaFirstNames(['Zoe,F,5\nAda,F,5\nEve,F,5'], 2)).toEqual([
      'Name,total,sex',
      'Ada,33.3333%,F',
      'Eve,33.3333%,F',
    ]);
  });

  it('names a line that is not of the yob files, and reads past a byte-order mark', () => {
    expect(() => ssaFirstNames(['Mary,X,3'])).toThrow(/not a line of the SSA's yob files .*Mary,X,3/);
    for (const bad of ['Mary,F,many', 'Mary,F,', 'Mary,F,1e5', 'Mary,F,0', 'Ma ry,F,3'])
      expect(() => ssaFirstNames([bad]), bad).toThrow(/Name,F\|M,count/);
    expect(ssaFirstNames(['\uFEFFZelda,F,2\nAda,F,2'])).toEqual([
      'Name,total,sex',
      'Ada,50.0000%,F',
      'Zelda,50.0000%,F',
    ]);
  });
});

describe('the shipped list of 1920-1999 births, as the parser reads it', () => {
  const rows = firstNameRows('ssa-1920-1999-first-names-top1000.csv');

  it("holds each sex's top 1,000 names, by share", () => {
    for (const sex of ['F', 'M'] as const) {
      const ofSex = rows.filter((r) => r.sex === sex);
      expect(ofSex).toHaveLength(1000);
      for (let i = 1; i < ofSex.length; i++) expect(ofSex[i]!.percent).toBeLessThanOrEqual(ofSex[i - 1]!.percent);
    }
    expect(rows.find((r) => r.name === 'MARY' && r.sex === 'F')?.percent).toBeGreaterThan(2);
  });

  it("gives the parser the first names of the owners' births, and leaves out a sex a name is rarely given", () => {
    // Off the 2010 list, or there as boys' names only.
    for (const w of ['BETTY', 'DOROTHY', 'ALMA', 'ERMA', 'JEAN', 'WILLIE']) expect(isWomansName(w), w).toBe(true);
    // Boys' names given to a few girls, on either list (JAMES on the older one, RYAN on the 2010 one).
    for (const w of ['JAMES', 'RYAN', 'ROBERT']) expect(isWomansName(w), w).toBe(false);
    expect(isFirstName('DOROTHY')).toBe(true);
    // THOMAS: six times as often a first name as a surname among the owners' births.
    expect(mostlyGivenName('THOMAS')).toBe(true);
    expect(mostlyGivenName('TAYLOR')).toBe(false);
    // Names the census gives at least half as often as surnames are none of the older list's first names (HARRIS,
    // WARD: a few boys; KIM, as common a surname as a first name), as `KIM, SOO J & KIM MI K` needs.
    for (const w of ['HARRIS', 'WARD', 'KIM', 'STEWART']) expect(isFirstName(w), w).toBe(false);
  });

  it('refuses a damaged list, naming the file and the line', () => {
    const f = 'ssa-test.csv';
    expect(checkedFirstNameRows(f, [['Betty', '0.75%', 'F']])).toEqual([{ name: 'BETTY', percent: 0.75, sex: 'F' }]);
    expect(() => checkedFirstNameRows(f, [])).toThrow(/ssa-test\.csv has no names: restore it/);
    for (const [bad, line] of [
      [[['Betty', '0.75%', 'F'], ['']], 3],
      [[['Betty', 'n/a', 'F']], 2],
      [[['Betty', '1e-9%', 'F']], 2],
      [[['Betty', '0.75%', 'X']], 2],
    ] as const) {
      expect(() => checkedFirstNameRows(f, bad as unknown as string[][])).toThrow(
        new RegExp(`ssa-test\\.csv, line ${line}, is not Name,share %,F\\|M`),
      );
    }
  });
});
