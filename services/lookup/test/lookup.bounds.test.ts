// Bounded work per request (issue 22 point 4): text parameters have a maximum length, and an owner search counts
// at most OWNER_COUNT_CAP matches whatever the word.
import { describe, expect, it } from 'vitest';
import { ErrorResponse, PAGING_DEPTH_MAX, TEXT_MAX } from '@pra/core/contracts';
import { insertProperties, makeProperty, uniqueStreet } from '@pra/ingest/testing';
import { OWNER_COUNT_CAP } from '../src/data/record-queries.js';
import { useLookupApp } from './lookup-harness.js';

const ctx = useLookupApp();
const q = (params: Record<string, string | number>) =>
  new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, String(v)])).toString();
const ids = (res: { body: any }): number[] => res.body.property.map((p: any) => p.identifier.Id);

describe('text parameters past their maximum length', () => {
  const long = (n: number) => 'A'.repeat(n);
  it.each([
    ['/property/address', 'address', { address: `1 ${long(TEXT_MAX.address)}`, zip: '95814' }, TEXT_MAX.address],
    ['/property/detail', 'city', { address: '1 Main St', city: long(TEXT_MAX.city + 1), state: 'CA' }, TEXT_MAX.city],
    ['/property/owner', 'lastName', { lastName: long(TEXT_MAX.lastName + 1) }, TEXT_MAX.lastName],
    [
      '/property/owner',
      'firstName',
      { lastName: 'SMITH', firstName: long(TEXT_MAX.firstName + 1) },
      TEXT_MAX.firstName,
    ],
    ['/property/parcel', 'apn', { apn: '1'.repeat(TEXT_MAX.apn + 1) }, TEXT_MAX.apn],
    ['/property/parcel', 'county', { apn: '1', county: long(TEXT_MAX.county + 1) }, TEXT_MAX.county],
  ] as const)('%s: %s past its maximum is a 400 naming it and the maximum', async (path, name, params, max) => {
    const res = await ctx.get(`/api/v1${path}?${q(params)}`);
    expect(res.status).toBe(400);
    expect(ErrorResponse.parse(res.body).status.msg).toContain(
      `Invalid parameter '${name}': must be at most ${max} characters`,
    );
  });

  it('takes an address of the maximum length (with spaces around it) as any other: a 404 when nothing is there', async () => {
    const address = `1 ${'A'.repeat(TEXT_MAX.address - 5)} ST`;
    expect(address).toHaveLength(TEXT_MAX.address);
    const res = await ctx.get(`/api/v1/property/address?${q({ address: `  ${address}  `, zip: '95814' })}`);
    expect(res.status).toBe(404);
  });

  it('answers an address of unit designators up to the limit like any other', async () => {
    const res = await ctx.get(
      `/api/v1/property/address?${q({ address: `1 MAIN ST ${'# '.repeat(90)}`, zip: '95814' })}`,
    );
    expect(res.status).toBe(404);
  });
});

describe('owner searches count at most OWNER_COUNT_CAP matches', () => {
  it('caps the total when more properties match, and pages the first matches by id', async () => {
    expect(OWNER_COUNT_CAP).toBe(PAGING_DEPTH_MAX);
    const word = uniqueStreet();
    const count = OWNER_COUNT_CAP + 150;
    const inserted = await insertProperties(
      ctx.pool,
      Array.from({ length: count }, (_, i) =>
        makeProperty({
          ...(i % 100 === 7 ? { state: 'NV', city: 'RENO', zip: '89501' } : {}),
          owner1: { firstName: null, lastName: null, fullName: `${word} HOLDINGS LLC`, type: 'Corporation' },
          // Every third property is matched twice (owner1 by a word of its name, owner2 by last name): once counted.
          owner2:
            i % 3 === 0 ? { firstName: 'ZED', lastName: word, fullName: `ZED ${word}`, type: 'Individual' } : null,
        }),
      ),
    );
    const owner = (params: Record<string, string | number>) =>
      ctx.get(`/api/v1/property/owner?${q({ lastName: word, ...params })}`);

    const first = await owner({ pagesize: 100 });
    expect(first.status).toBe(200);
    expect(first.body.status.total).toBe(OWNER_COUNT_CAP);
    expect(ids(first)).toEqual(inserted.slice(0, 100));

    const last = await owner({ pagesize: 100, page: PAGING_DEPTH_MAX / 100 });
    expect(last.status).toBe(200);
    expect(last.body.status.total).toBe(OWNER_COUNT_CAP);
    expect(ids(last)).toEqual(inserted.slice(OWNER_COUNT_CAP - 100, OWNER_COUNT_CAP));

    // Narrowed below the cap, the total is exact again.
    const nv = await owner({ state: 'NV', pagesize: 100 });
    expect(nv.body.status.total).toBe(inserted.filter((_, i) => i % 100 === 7).length);
    expect(ids(nv)).toEqual(inserted.filter((_, i) => i % 100 === 7).slice(0, 100));
    const people = await owner({ firstName: 'zed', pagesize: 10 });
    expect(people.body.status.total).toBe(Math.ceil(count / 3));
    expect(ids(people)).toEqual(inserted.filter((_, i) => i % 3 === 0).slice(0, 10));
  });
});
