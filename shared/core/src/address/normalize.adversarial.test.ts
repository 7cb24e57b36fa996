// Adversarial inputs for the address normaliser: every pattern and loop of shared/core/src/address gets a ~100 KB
// input built to make it backtrack or repeat work (the quadratic code took 10 s to 2 min on these). Each case checks
// what the normaliser answers; the test timeout is the backstop against a return of quadratic work, and no case
// measures time (a loaded machine would make that flaky). How long these inputs take, and how that grows with their
// size: `npm run bench:normalize`. The request's own length limits (contracts/queries.ts) come first; these cases
// are the normaliser's own guarantee, for ingest (which reads files) and for any caller without them.
import { describe, expect, it } from 'vitest';
import {
  apnKey,
  countyKey,
  nameKey,
  normalizeCity,
  numericOrdinals,
  parseStreetLine,
  splitZip,
  tokenize,
} from './index.js';

const SIZE = 100_000;
const repeat = (unit: string) => unit.repeat(Math.ceil(SIZE / unit.length));

describe('the address normaliser on adversarial input (~100 KB each): what it answers', () => {
  it('thousands of unit designators with nothing after them (splitUnit)', () => {
    const p = parseStreetLine(`1 MAIN ST ${repeat('# ')}`);
    // A designator with nothing after it is dropped (issue 26: "1615 MIDLAND CT NE UNIT").
    expect(p).toMatchObject({ houseNumber: '1', lineKey: '1 MAIN ST', unitDesignator: null, unitKey: '' });
  });

  it('thousands of unit designators, then a unit (splitUnit keeps the unit)', () => {
    const p = parseStreetLine(`1 MAIN ST ${repeat('APT ')}4B`);
    expect(p).toMatchObject({ lineKey: '1 MAIN ST', unitDesignator: 'APT', unitKey: '4B' });
  });

  it('a designator after a comma, repeated (isUnitPart, then splitUnit)', () => {
    const p = parseStreetLine(`1 Main St, ${repeat('Apt ')}`);
    expect(p).toMatchObject({ houseNumber: '1', unitDesignator: null, unitKey: '' });
  });

  it('`#` glued in a run (tokenize splits each one off)', () => {
    const p = parseStreetLine(`1 MAIN ST${repeat('#')}7`);
    expect(p).toMatchObject({ lineKey: '1 MAIN ST', unitDesignator: '#', unitKey: '7' });
  });

  it('a run of zeros that is not an ordinal (the ordinal pattern)', () => {
    const zeros = '0'.repeat(SIZE);
    const p = parseStreetLine(`1 ${zeros}X ST`);
    expect(p.lineKey === `1 ${zeros}X ST`).toBe(true);
    const tokens = [`${zeros}X`, `${zeros}D1`, `${zeros}T`];
    expect(numericOrdinals(tokens).every((t, i) => t === tokens[i])).toBe(true);
  });

  it('a run of zeros before an ordinal folds to the ordinal', () => {
    const zeros = '0'.repeat(SIZE);
    expect(parseStreetLine(`1 ${zeros}5TH ST`).lineKey).toBe('1 5TH ST');
    expect(numericOrdinals([`${zeros}2D`, `${zeros}0TH`])).toEqual(['2ND', '0TH']);
  });

  it('thousands of "NORTH EAST" pairs (each joined once, without moving the rest of the line)', () => {
    const pairs = Math.ceil(SIZE / 11);
    const p = parseStreetLine(`1 ${'NORTH EAST '.repeat(pairs)}ST`);
    const words = p.streetKey.split(' ');
    expect(words).toHaveLength(pairs + 1);
    expect(words[0]).toBe('NE');
    expect(words[1]).toBe('NORTHEAST');
    expect(words.at(-1)).toBe('ST');
  });

  it('spelled ordinals in a run ("TWENTY FIRST ...")', () => {
    const p = parseStreetLine(`1 ${repeat('TWENTY FIRST ')}ST`);
    expect(p.streetKey.startsWith('21ST 21ST')).toBe(true);
    expect(p.streetType).toBe('ST');
  });

  it('numbers that may be numbered streets, in a run (numberedStreets)', () => {
    const p = parseStreetLine(`1 W ${repeat('12 ')}`);
    expect(p.streetKey.endsWith('12 12TH')).toBe(false);
    expect(p.streetKey.startsWith('W 12 12')).toBe(true);
  });

  it('floors written as ordinals, in a run (floorsAsUnits), then a room (innermostUnit)', () => {
    const p = parseStreetLine(`1 MAIN ST ${repeat('2ND FLOOR ')}RM 5`);
    expect(p).toMatchObject({ lineKey: '1 MAIN ST', unitDesignator: 'RM', unitKey: '5' });
  });

  it('thousands of floor segments (unitOfSegments keeps the first floor when nothing else is written)', () => {
    const p = parseStreetLine(`1 MAIN ST ${repeat('FL 2 ')}`);
    expect(p).toMatchObject({ lineKey: '1 MAIN ST', unitDesignator: 'FL' });
    expect(p.unitKey).toBe('FL2');
  });

  it('a line of single letters after the number (isHouseLetter reads two tokens: initials, not a house letter)', () => {
    const p = parseStreetLine(`1 ${repeat('A ')}ST`);
    expect(p.houseNumber).toBe('1');
  });

  it('a unit first, then a long line (unitLast moves two tokens)', () => {
    const p = parseStreetLine(`APT 4 10 ${repeat('MAIN ')}ST`);
    expect(p).toMatchObject({ houseNumber: '10', unitKey: '4', streetType: 'ST' });
  });

  it('a long house number, and one that almost is (HOUSE_NUMBER, the range, the fraction)', () => {
    const digits = '1'.repeat(SIZE);
    expect(parseStreetLine(`${digits} MAIN ST`).houseNumber === digits).toBe(true);
    expect(parseStreetLine(`${digits}X1 MAIN ST`).houseNumber).toBeNull();
    expect(parseStreetLine(`1-${digits}X1 MAIN ST`).houseNumber).toBeNull();
    expect(parseStreetLine(`1 ${digits}/1 MAIN ST`).houseNumber).toBe('1');
    expect(parseStreetLine(`1-${digits} MAIN ST`).looseKey).toBe('MAIN 1');
  });

  it('digit-dash runs (tokenize keeps a dash between digits)', () => {
    const p = parseStreetLine(`${repeat('1-')}1 MAIN ST`);
    expect(p.houseNumber).toBe('1-1');
  });

  it('a number glued to a long name, and a slash range that is not one (the glued and slash patterns)', () => {
    const digits = '1'.repeat(SIZE / 2);
    const letters = 'A'.repeat(SIZE / 2);
    expect(parseStreetLine(`${digits}${letters} ST`).houseNumber === digits).toBe(true);
    expect(parseStreetLine(`${digits}${letters}1 ST`).houseNumber).toBeNull();
    expect(parseStreetLine(`${digits}X/1 MAIN ST`).houseNumber).toBeNull();
    expect(parseStreetLine(`${digits}/1 MAIN ST`).houseNumber).toBeNull();
  });

  it('a directional glued to a long number (GLUED_DIRECTIONAL)', () => {
    const p = parseStreetLine(`1 EAST${'7'.repeat(SIZE)}TH ST`);
    expect(p.streetKey === `EAST${'7'.repeat(SIZE)}TH ST`).toBe(true);
  });

  it('long unit ids and a long token of one letter', () => {
    const zeros = '0'.repeat(SIZE);
    expect(parseStreetLine(`1 MAIN ST APT ${zeros}4`).unitKey).toBe('4');
    const word = 'A'.repeat(SIZE);
    expect(parseStreetLine(`1 ${word} ST`).looseKey === `${word} 1`).toBe(true);
  });

  it('punctuation runs and commas (tokenize, the comma split)', () => {
    expect(tokenize(`1${repeat(".-'’")}2`)).toEqual(['1', '2']);
    expect(tokenize(repeat('1/'))).toHaveLength(1);
    expect(parseStreetLine(`1 MAIN ST${repeat(',')}`).lineKey).toBe('1 MAIN ST');
  });

  it('the dashed spellings of keys v8 (NUMBER_DASH_LETTER, DASHED_FRACTION, DASHED_ID, a route unit)', () => {
    // A house letter before a long street of type words, or before a type and a long run of directionals.
    expect(parseStreetLine(`1-A ${repeat('ST ')}`).houseNumber).toBe('1A');
    expect(parseStreetLine(`1-A ST ${repeat('N ')}`).houseNumber).toBe('1');
    expect(parseStreetLine(`1-A${' '.repeat(SIZE)}`).lineKey).toBe('1 A');
    // A long run of digit-dash pairs before a half, and a long dashed last word.
    expect(parseStreetLine(`${repeat('1-')}1/2 MAIN ST`).houseNumber).toBe('1-1');
    expect(parseStreetLine(`1 MAIN ST ${repeat('A-')}1`).unitKey).toBe('');
    expect(parseStreetLine(`1 MAIN ST N-${'0'.repeat(SIZE)}1`).unitKey).toBe('1');
    // A long word of letters with no digit after a route's number.
    expect(parseStreetLine(`1 ROUTE 9 ${'A'.repeat(SIZE)}`).unitKey).toBe('');
    expect(parseStreetLine(`1 ROUTE 9 ${'0'.repeat(SIZE)}B`).unitKey === `${'0'.repeat(SIZE)}B`).toBe(true);
  });

  it('city, name, county, ZIP and APN normalisers', () => {
    expect(normalizeCity(repeat('St. ')).startsWith('SAINT ST ST')).toBe(true);
    expect(nameKey(repeat("O'")) === 'O'.repeat(SIZE / 2)).toBe(true);
    expect(countyKey(`${repeat('A ')}X COUNTY`).endsWith('A X')).toBe(true);
    expect(countyKey(repeat('COUNTY')) === 'COUNTY'.repeat(Math.ceil(SIZE / 6))).toBe(true);
    expect(countyKey(`${repeat('CITY AND ')}BOROUGH`).endsWith('CITY AND')).toBe(true);
    expect(splitZip(repeat('9-'))).toEqual({ zip5: '99999', zip4: '9999' });
    expect(apnKey(repeat('1-a ')) === '1A'.repeat(SIZE / 4)).toBe(true);
  });
});

describe('what the linear rewrite kept (the keys stored with every record do not change)', () => {
  it('county words after a word boundary only, the longest first', () => {
    expect(countyKey('Juneau City and Borough')).toBe('JUNEAU');
    expect(countyKey('Bethel Census Area')).toBe('BETHEL');
    expect(countyKey('Anchorage Municipality')).toBe('ANCHORAGE');
    expect(countyKey('XCOUNTY')).toBe('XCOUNTY');
    expect(countyKey('County')).toBe('');
    expect(countyKey('A-County')).toBe('A');
  });
  it('"NORTH EAST" joins unless the two are the whole street', () => {
    expect(parseStreetLine('10 North East St').lineKey).toBe('10 NORTHEAST ST');
    expect(parseStreetLine('10 North East').lineKey).toBe('10 N E');
    expect(parseStreetLine('10 North East North West Ave').lineKey).toBe('10 NE NORTHWEST AVE');
  });
  it('a unit is the ids after the first designator that has one after it', () => {
    expect(parseStreetLine('1 Main St Apt # 4')).toMatchObject({ unitDesignator: 'APT', unitKey: '4' });
    expect(parseStreetLine('1 Main St # Rear')).toMatchObject({ lineKey: '1 MAIN ST', unitKey: 'REAR' });
    expect(parseStreetLine('1 Main St Apt Ste')).toMatchObject({ lineKey: '1 MAIN ST', unitKey: '' });
  });
});
