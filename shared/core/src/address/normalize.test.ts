import { describe, expect, it } from 'vitest';
import { apnKey, countyKey, nameKey, normalizeCity, parseStreetLine, splitZip } from './index.js';

const key = (s: string) => {
  const p = parseStreetLine(s);
  return `${p.lineKey}|${p.unitKey}`;
};

describe('parseStreetLine: variants of one address meet on one key', () => {
  it.each([
    ['123 North Main Street Apt 4', '123 N MAIN ST|4'],
    ['123 N MAIN ST #4', '123 N MAIN ST|4'],
    ['123 n. main st., apt. 4', '123 N MAIN ST|4'],
    ['123 N Main St, Apartment 4', '123 N MAIN ST|4'],
    ['123 N Main St Unit 04', '123 N MAIN ST|4'],
    ['123 N MAIN ST # 4', '123 N MAIN ST|4'],
    ['123 N MAIN ST 4', '123 N MAIN ST|4'],
    ['  123   NORTH  MAIN   ST  ', '123 N MAIN ST|'],
  ])('%s', (input, expected) => expect(key(input)).toBe(expected));

  it.each([
    ['500 Fifth Avenue', '500 5TH AVE'],
    ['500 5th Ave', '500 5TH AVE'],
    ['500 05TH AVE', '500 5TH AVE'],
    ['77 Twenty-First Street', '77 21ST ST'],
    ['77 21st St', '77 21ST ST'],
    ['12 One Hundredth St', '12 ONE 100TH ST'],
    ['9 Second Place', '9 2ND PL'],
    ['9 2nd Pl', '9 2ND PL'],
    ['40 Eleventh Street', '40 11TH ST'],
    ['40 11th st', '40 11TH ST'],
    ['1 112th St', '1 112TH ST'],
    ['3 2d St', '3 2ND ST'],
  ])('ordinal %s', (input, expected) => expect(parseStreetLine(input).lineKey).toBe(expected));

  it.each([
    ['1600 Pennsylvania Avenue Northwest', '1600 PENNSYLVANIA AVE NW'],
    ['1600 Pennsylvania Ave NW', '1600 PENNSYLVANIA AVE NW'],
    ['1600 Pennsylvania Ave N.W.', '1600 PENNSYLVANIA AVE NW'],
    ['1600 Pennsylvania Av North West', '1600 PENNSYLVANIA AVE NW'],
    ['10 South West Temple', '10 SW TEMPLE'],
    ['10 S.W. Temple', '10 SW TEMPLE'],
    ['221 East 42nd Street', '221 E 42ND ST'],
    ['221 E 42ND ST', '221 E 42ND ST'],
  ])('directional %s', (input, expected) => expect(parseStreetLine(input).lineKey).toBe(expected));

  it('keeps a directional that is the street name itself', () => {
    expect(parseStreetLine('45 North Street').lineKey).toBe('45 NORTH ST');
    expect(parseStreetLine('45 N Street').lineKey).toBe('45 N ST');
    expect(parseStreetLine('45 N St').lineKey).not.toBe(parseStreetLine('45 North St').lineKey);
    expect(parseStreetLine('8 West Way').lineKey).toBe('8 WEST WAY');
  });

  it.each([
    ['2 Boulevard of the Allies', '2 BLVD OF THE ALLIES'],
    ['5 Park Ave', '5 PARK AVE'],
    ['5 Park Avenue', '5 PARK AVE'],
    ['5 Park Av.', '5 PARK AVE'],
    ['700 Saint Charles Avenue', '700 ST CHARLES AVE'],
    ['700 St. Charles Ave', '700 ST CHARLES AVE'],
    ['19 Mount Vernon Parkway', '19 MT VERNON PKWY'],
    ['19 Mt Vernon Pkwy', '19 MT VERNON PKWY'],
    ['88 Lake Shore Drive', '88 LK SHR DR'],
    ['88 Lk Shore Dr', '88 LK SHR DR'],
    ['3526 HIGH ST', '3526 HIGH ST'],
    ['3526 High Street', '3526 HIGH ST'],
    ['14 Elm Crt', '14 ELM CT'],
    ['14 Elm Court', '14 ELM CT'],
    ["4 O'Farrell St", '4 OFARRELL ST'],
    ['12-34 45th Ave', '12-34 45TH AVE'],
    ['12 1/2 Oak Ln', '12 1/2 OAK LN'],
    ['12 1/2 Oak Lane', '12 1/2 OAK LN'],
    ['100A Maple Rd', '100A MAPLE RD'],
  ])('suffix and name %s', (input, expected) => expect(parseStreetLine(input).lineKey).toBe(expected));

  it.each([
    ['100 Main St Suite 200', '200', 'STE'],
    ['100 Main St Ste 200', '200', 'STE'],
    ['100 Main St Bldg B', 'B', 'BLDG'],
    ['100 Main St Rear', 'REAR', 'REAR'],
    ['100 Main St Apt 4B', '4B', 'APT'],
    ['100 Main St #4-B', '4B', '#'],
    ['100 Main St Lot 12', '12', 'LOT'],
    ['100 Main St Fl 3', '3', 'FL'],
    ['100 Main St', '', null],
  ])('unit %s', (input, unitKey, designator) => {
    const p = parseStreetLine(input);
    expect(p.lineKey).toBe('100 MAIN ST');
    expect(p.unitKey).toBe(unitKey);
    expect(p.unitDesignator).toBe(designator);
  });

  it('does not take street words that are also designators for a unit', () => {
    expect(parseStreetLine('9 Pier Ave').lineKey).toBe('9 PIER AVE');
    expect(parseStreetLine('9 Pier Ave').unitKey).toBe('');
    expect(parseStreetLine('77 Key West Dr')).toMatchObject({ lineKey: '77 KY WEST DR', unitKey: '' });
  });

  it('parses a street name without a number (autocomplete with zip, lookup with `number`)', () => {
    const p = parseStreetLine('North Main Street');
    expect(p.houseNumber).toBeNull();
    expect(p.streetKey).toBe('N MAIN ST');
    expect(p.lineKey).toBe('N MAIN ST');
  });
});

describe('other normalisers', () => {
  it('normalizeCity', () => {
    expect(normalizeCity('St. Louis')).toBe('SAINT LOUIS');
    expect(normalizeCity('saint louis')).toBe('SAINT LOUIS');
    expect(normalizeCity('Ft Worth')).toBe('FORT WORTH');
    expect(normalizeCity('Winston-Salem')).toBe('WINSTON SALEM');
    expect(normalizeCity('  sacramento ')).toBe('SACRAMENTO');
  });
  it('splitZip', () => {
    expect(splitZip('95814-1234')).toEqual({ zip5: '95814', zip4: '1234' });
    expect(splitZip('958141234')).toEqual({ zip5: '95814', zip4: '1234' });
    expect(splitZip('95814')).toEqual({ zip5: '95814', zip4: '' });
  });
  it('apnKey strips special characters', () => {
    expect(apnKey('015-0123-004-0000')).toBe('01501230040000');
    expect(apnKey('015 0123 004 0000')).toBe('01501230040000');
    expect(apnKey('ab.12/3')).toBe('AB123');
  });
  it('nameKey and countyKey', () => {
    expect(nameKey("O'Brien")).toBe('OBRIEN');
    expect(nameKey('de la Cruz')).toBe('DE LA CRUZ');
    expect(countyKey('Sacramento County')).toBe('SACRAMENTO');
    expect(countyKey('Orleans Parish')).toBe('ORLEANS');
    expect(countyKey('District of Columbia')).toBe('DISTRICT OF COLUMBIA');
  });
});
