// Every message built from a number reads as English: grouped counts, one of a thing singular, no exponent, one
// message per parameter. The helpers, then the query schemas and the area geometry that use them.
import { describe, expect, it } from 'vitest';
import { OwnerQuery, parseBox, parsePolygon, RadiusQuery } from './contracts/index.js';
import { bytes, count, counted, decimal, miles, pastLastPage } from './wording.js';

const messages = (r: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  r.success ? [] : r.error!.issues.map((i) => `${String(i.path[0])}: ${i.message}`);

describe('wording', () => {
  it('groups counts, says one of a thing in the singular, and never prints an exponent', () => {
    expect(count(1075)).toBe('1,075');
    expect(count(2.5e22)).toBe('25,000,000,000,000,000,000,000');
    expect(counted(1, 'record')).toBe('1 record');
    expect(counted(0, 'record')).toBe('0 records');
    expect(counted(1075, 'property', 'properties')).toBe('1,075 properties');
    expect(decimal(1e-7)).toBe('0.0000001');
    expect(decimal(-73.9857)).toBe('-73.9857');
    expect(decimal(-0.5)).toBe('-0.5');
    expect(miles(1)).toBe('1 mile');
    expect(miles(0.25)).toBe('0.25 miles');
    expect(miles(24855.44, 1)).toBe('24,855.4 miles');
    expect(bytes(256 * 1024)).toBe('256 KB');
    expect(bytes(1000)).toBe('1,000 bytes');
  });

  it('says a page past the end, and how many pages there are, in words', () => {
    expect(pastLastPage({ page: 44, pagesize: 25, total: 1075 })).toBe(
      'Page 44 is past the last page (page 43: 1,075 properties at 25 a page)',
    );
    expect(pastLastPage({ page: 2, pagesize: 25, total: 1 })).toBe(
      'Page 2 is past the last page (page 1: 1 property at 25 a page)',
    );
    expect(pastLastPage({ page: 401, pagesize: 25, total: 10_000, capped: true })).toBe(
      'Page 401 is past the last page (page 400: the nearest 10,000 properties at 25 a page; pages reach no deeper)',
    );
  });
});

describe('the query messages built from numbers', () => {
  const radius = (extra: Record<string, string>) =>
    messages(RadiusQuery.safeParse({ latitude: '40', longitude: '-73', radius: '1', ...extra }));

  it('names one problem per paging parameter, with grouped numbers', () => {
    // The review's case: a page number so large that page x pagesize printed 2.4999999999999997e+24.
    expect(radius({ page: '25000000000000000000000', pagesize: '100' })).toEqual(['page: must be at most 10,000']);
    expect(radius({ page: '1.5' })).toEqual(['page: must be an integer']);
    expect(radius({ page: '0' })).toEqual(['page: must be at least 1']);
    expect(radius({ page: 'abc' })).toEqual(['page: must be an integer']);
    expect(radius({ pagesize: '1000' })).toEqual(['pagesize: must be at most 100']);
    expect(radius({ page: '300', pagesize: '100' })).toEqual([
      'page: page 300 x pagesize 100 is 30,000 records deep, past the deepest allowed (10,000): narrow the search instead of paging deeper',
    ]);
    // A bad page size is named alone, not also multiplied.
    expect(radius({ page: '300', pagesize: '1000' })).toEqual(['pagesize: must be at most 100']);
    expect(radius({ max_credits: '5000000' })).toEqual(['max_credits: must be at most 1,000,000']);
    expect(messages(OwnerQuery.safeParse({ lastName: 'SMITH', page: '1e30' }))).toEqual([
      'page: must be at most 10,000',
    ]);
  });

  it('states a coordinate or radius range as a range', () => {
    expect(radius({ latitude: '91' })).toEqual(['latitude: must be from -90 to 90']);
    expect(radius({ radius: '0' })).toEqual(['radius: must be more than 0 and at most 10']);
    expect(radius({ radius: '10.5' })).toEqual(['radius: must be more than 0 and at most 10']);
  });

  it('echoes coordinates as written and spans in miles, never with an exponent', () => {
    expect(parseBox('0.000000000000001,40,0,40.1')).toBe('minLon (0.000000000000001) must be less than maxLon (0)');
    expect(parseBox('-100,40,-99,41')).toMatch(
      /^spans 52\.\d miles east-west and 69\.1 miles north-south: at most 20 miles each way$/,
    );
    const ring = [
      [0, 0],
      [1e-7, 0],
      [1e-7, 0],
      [0, 0.01],
      [0, 0],
    ];
    expect(parsePolygon(JSON.stringify({ type: 'Polygon', coordinates: [ring] }))).toBe(
      'its ring repeats position 2 (0.0000001,0)',
    );
  });
});
