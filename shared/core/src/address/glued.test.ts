// A type glued to its directional is parted only where it is one: a common type's abbreviation, a whole directional
// word, and no type after it (the importer's lines and a lookup's line asked both read so).
import { describe, expect, it } from 'vitest';
import { parseStreetLine } from './normalize.js';
import { unglued } from './glued.js';

describe('unglued', () => {
  it.each([
    ['7 GREEN STWEST', '7 GREEN ST WEST'],
    ['12 Winter Stwest', '12 Winter St west'],
    ['5 OAK AVENORTH 3', '5 OAK AVE NORTH 3'],
    ['9 ELM RDSOUTH, APT 2', '9 ELM RD SOUTH, APT 2'],
  ])('parts %s', (line, parted) => {
    expect(unglued(line)).toBe(parted);
    expect(parseStreetLine(unglued(line)).postDirectional).not.toBe('');
  });

  it.each([
    '1 BANKNORTH PLZ',
    '2 NORTHEAST DR',
    '3 KEYWEST AVE',
    '4 BREAST LN',
    '100 PARKWEST DR',
    '40 STWEST DR.',
    '9 GREEN STWESTERN',
    '12 KEYWEST',
    '',
  ])('leaves %s as written', (line) => {
    expect(unglued(line)).toBe(line);
  });

  it('keeps null and undefined', () => {
    expect(unglued(null)).toBeNull();
    expect(unglued(undefined)).toBeUndefined();
  });
});
