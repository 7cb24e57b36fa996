import { describe, expect, it } from 'vitest';
import { AddressQuery, buildOpenApiDocument, OwnerQuery } from './index.js';

describe('OpenAPI document', () => {
  const doc = buildOpenApiDocument() as any;
  const specPaths = [
    '/property/address',
    '/property/detail',
    '/property/detailowner',
    '/property/detailmortgage',
    '/property/detailmortgageowner',
    '/sale/detail',
    '/property/owner',
    '/property/parcel',
    '/sale/history',
    '/assessment/detail',
    '/property/autocomplete',
    '/usage',
    '/health',
    '/plans',
  ];
  it('is OpenAPI 3.0.3, version 2.0.0, with every path of SPEC 4', () => {
    expect(doc.openapi).toBe('3.0.3');
    expect(doc.info.version).toBe('2.0.0');
    expect(Object.keys(doc.paths).sort()).toEqual([...specPaths].sort());
  });
  it('declares the auth schemes, public endpoints and error responses', () => {
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual([
      'bearerAuth',
      'marketplaceKey',
      'marketplaceSecret',
    ]);
    expect(doc.paths['/health'].get.security).toEqual([]);
    expect(doc.paths['/plans'].get.security).toEqual([]);
    for (const p of specPaths.filter((x) => x.startsWith('/property/') && x !== '/property/autocomplete')) {
      const responses = Object.keys(doc.paths[p].get.responses);
      expect(responses, p).toEqual(expect.arrayContaining(['200', '400', '401', '402', '403', '404', '429', '503']));
      expect(Object.keys(doc.paths[p].get.responses['503'].headers), p).toEqual(['Retry-After']);
      expect(Object.keys(doc.paths[p].get.responses['200'].headers), p).toEqual(
        expect.arrayContaining(['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset']),
      );
    }
    expect(Object.keys(doc.paths['/usage'].get.responses)).toEqual(['200', '401', '403', '429', '503']);
    const page = doc.paths['/property/owner'].get.parameters.find((x: any) => x.name === 'page');
    expect(page.schema).toMatchObject({ minimum: 1, maximum: 10000 });
    expect(page.description).toMatch(/page x pagesize may be at most 10,000/);
    const params = doc.paths['/property/address'].get.parameters.map((x: any) => x.name);
    expect(params).toEqual(
      expect.arrayContaining([
        'address',
        'city',
        'locality',
        'state',
        'countrySubd',
        'zip',
        'postal1',
        'number',
        'page',
        'pagesize',
      ]),
    );
  });
});

describe('query schemas', () => {
  it('applies defaults and the required combinations', () => {
    expect(AddressQuery.parse({ address: '1 Main St', zip: '95814' })).toMatchObject({ page: 1, pagesize: 25 });
    expect(AddressQuery.parse({ address: '1 Main St', city: 'Reno', state: 'nv' }).state).toBe('NV');
    expect(AddressQuery.safeParse({ address: '1 Main St', city: 'Reno' }).success).toBe(false);
    expect(AddressQuery.safeParse({ zip: '95814' }).success).toBe(false);
    expect(AddressQuery.safeParse({ address: '1 Main St', zip: '95814', pagesize: '100' }).success).toBe(true);
    expect(AddressQuery.safeParse({ address: '1 Main St', zip: '95814', pagesize: '101' }).success).toBe(false);
    expect(OwnerQuery.safeParse({}).success).toBe(false);
  });
});
