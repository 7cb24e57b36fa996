// Component tests: the real lookup app on port 0 against this run's PostgreSQL database.
import { describe, expect, it } from 'vitest';
import { PropertyResponse, servedPaths } from '@pra/core/contracts';
import { insertProperties, makeProperty, uniqueStreet } from '@pra/ingest/testing';
import { useLookupApp } from './lookup-harness.js';

const ctx = useLookupApp();
const ADDRESS_PATHS = servedPaths()
  .filter((p) => p.key === 'propertyAddress')
  .map((p) => p.path);

it('serves /property/address and its five aliases (SPEC 4.1)', () => expect(ADDRESS_PATHS).toHaveLength(6));
const q = (params: Record<string, string | number | undefined>) =>
  new URLSearchParams(
    Object.entries(params).flatMap(([k, v]): [string, string][] => (v === undefined ? [] : [[k, String(v)]])),
  ).toString();

describe('address lookup', () => {
  it('finds one unit from any spelling of its address, on every alias', async () => {
    const street = uniqueStreet();
    const [id] = await insertProperties(ctx.pool, [
      makeProperty({ line1: `123 N ${street} ST`, line2: 'APT 4', zip: '95814' }),
      makeProperty({ line1: `123 N ${street} ST`, line2: 'APT 5', zip: '95814' }),
    ]);
    for (const address of [
      `123 North ${street} Street Apt 4`,
      `123 N ${street} ST #4`,
      `123 n. ${street} st., unit 04`,
    ]) {
      for (const path of ADDRESS_PATHS) {
        const res = await ctx.get(`/api/v1${path}?${q({ address, zip: '95814' })}`);
        expect(res.status, `${path} ${address}`).toBe(200);
        expect(res.body.property.map((p: any) => p.identifier.Id)).toEqual([id]);
      }
    }
  });

  it('returns a body that matches the PropertyResponse schema, with the spec envelope', async () => {
    const street = uniqueStreet();
    await insertProperties(ctx.pool, [makeProperty({ line1: `9 ${street} AVE`, zip: '95814' })]);
    const res = await ctx.get(
      `/api/v1/property/address?${q({ address: `9 ${street} Avenue`, city: 'Sacramento', state: 'ca' })}`,
    );
    expect(res.status).toBe(200);
    const parsed = PropertyResponse.parse(res.body);
    expect(parsed.status).toMatchObject({
      code: 0,
      total: 1,
      page: 1,
      pagesize: 25,
      records_returned: 1,
      truncated_by_credits: false,
    });
    expect(parsed.status.transactionID).toBe(res.headers.get('x-request-id'));
    expect(res.body.property[0].demographics).toBeNull();
    expect(Object.keys(res.body.property[0])).toEqual(
      expect.arrayContaining([
        'identifier',
        'address',
        'location',
        'summary',
        'lot',
        'building',
        'owner',
        'assessment',
        'sale',
        'mortgage',
        'demographics',
        'vintage',
      ]),
    );
  });

  it('accepts the alternative parameter names locality, countrySubd and postal1, and ZIP+4', async () => {
    const street = uniqueStreet();
    const [id] = await insertProperties(ctx.pool, [makeProperty({ line1: `77 ${street} RD`, zip: '95814' })]);
    for (const params of [
      { address: `77 ${street} Road`, locality: 'sacramento', countrySubd: 'CA' },
      { address: `77 ${street} Road`, postal1: '95814' },
      { address: `77 ${street} Road`, zip: '95814-1234' },
      { address: `${street} Road`, number: '77', zip: '95814' },
    ]) {
      const res = await ctx.get(`/api/v1/property/address?${q(params)}`);
      expect(res.status, JSON.stringify(params)).toBe(200);
      expect(res.body.property[0].identifier.Id).toBe(id);
    }
  });

  it('returns every unit of an address without a unit, paginated with the right total', async () => {
    const street = uniqueStreet();
    const units = Array.from({ length: 7 }, (_, i) =>
      makeProperty({ line1: `500 ${street} BLVD`, line2: `UNIT ${i + 1}`, zip: '95814' }),
    );
    const ids = await insertProperties(ctx.pool, units);
    const seen: number[] = [];
    for (const page of [1, 2, 3]) {
      const res = await ctx.get(
        `/api/v1/property/address?${q({ address: `500 ${street} Boulevard`, zip: '95814', pagesize: 3, page })}`,
      );
      expect(res.status).toBe(200);
      expect(res.body.status).toMatchObject({ total: 7, page, pagesize: 3 });
      seen.push(...res.body.property.map((p: any) => p.identifier.Id));
    }
    expect(seen.sort()).toEqual([...ids].sort());
    const past = await ctx.get(
      `/api/v1/property/address?${q({ address: `500 ${street} Boulevard`, zip: '95814', pagesize: 3, page: 4 })}`,
    );
    expect(past.status).toBe(404);
    expect(past.body.status).toMatchObject({ code: 404, total: 7 });
    expect(past.body.status.msg).toBe('Page 4 is past the last page (page 3: 7 properties at 3 a page)');
  });

  it('attaches the tract demographics (DC tract file) to a property in that tract', async () => {
    const street = uniqueStreet();
    await insertProperties(ctx.pool, [
      makeProperty({
        line1: `1 ${street} ST NW`,
        zip: '20001',
        state: 'DC',
        city: 'WASHINGTON',
        fips: '11001',
        censusTract: '11001000100',
      }),
    ]);
    const res = await ctx.get(
      `/api/v1/property/address?${q({ address: `1 ${street} Street Northwest`, zip: '20001' })}`,
    );
    expect(res.status).toBe(200);
    const d = res.body.property[0].demographics;
    expect(d.source).toMatch(/2016/); // the latest vintage of the file
    expect(d.totalPopulation).toBeGreaterThan(0);
    expect(d.ownerOccupiedRate).toBeGreaterThan(0);
  });

  it('finds an address given without its street suffix, and names the streets when several fit', async () => {
    const street = uniqueStreet();
    const [ave] = await insertProperties(ctx.pool, [makeProperty({ line1: `42 W ${street} AVE`, zip: '95814' })]);
    const one = await ctx.get(`/api/v1/property/address?${q({ address: `42 West ${street}`, zip: '95814' })}`);
    expect(one.status).toBe(200);
    expect(one.body.property.map((p: any) => p.identifier.Id)).toEqual([ave]);
    await insertProperties(ctx.pool, [makeProperty({ line1: `42 W ${street} ST`, zip: '95814' })]);
    const two = await ctx.get(`/api/v1/property/address?${q({ address: `42 W ${street}`, zip: '95814' })}`);
    expect(two.status).toBe(404);
    expect(two.body.status.msg).toMatch(new RegExp(`did you mean '42 W ${street} AVE', '42 W ${street} ST'`));
    const city = await ctx.get(
      `/api/v1/property/address?${q({ address: `42 W ${street} Avenue`, city: 'Sacramento', state: 'CA' })}`,
    );
    expect(city.body.property.map((p: any) => p.identifier.Id)).toEqual([ave]);
  });

  it('finds an imported Sacramento sale by its real address', async () => {
    const res = await ctx.get(
      `/api/v1/sale/detail?${q({ address: '3526 High Street', city: 'Sacramento', state: 'CA' })}`,
    );
    expect(res.status).toBe(200);
    expect(res.body.property[0].sale.lastSale).toEqual({ date: '2008-05-21', price: 59222 });
    expect(res.body.property[0].building.rooms.beds).toBe(2);
  });
});

describe('real spellings: found when the address is one, a 404 with candidates when in doubt', () => {
  const ids = (res: { body: any }) => res.body.property?.map((p: any) => p.identifier.Id);
  const at = (address: string, zip = '95814') => ctx.get(`/api/v1/property/address?${q({ address, zip })}`);

  /** A house number no other test uses, for real street names ("W 15TH ST") that other tests may also use. */
  const uniqueNumber = () => String(100_000 + Math.floor(Math.random() * 899_999));

  it('numbered streets written bare, spelled or as ordinals meet', async () => {
    const [n, m] = [uniqueNumber(), uniqueNumber()];
    const [a, b] = await insertProperties(ctx.pool, [
      makeProperty({ line1: `${n} WEST 15 STREET` }),
      makeProperty({ line1: `${m} 7 AVENUE` }),
    ]);
    for (const address of [`${n} W 15TH ST`, `${n} West Fifteenth Street`, `${n} W. 15 St.`, `${n} WEST 15`])
      expect(ids(await at(address)), address).toEqual([a]);
    for (const address of [`${m} SEVENTH AVENUE`, `${m} 7th Ave`]) expect(ids(await at(address))).toEqual([b]);
  });

  it('a street type missing on the stored side is filled when the name has that one type in the ZIP', async () => {
    const name = uniqueStreet();
    const [id] = await insertProperties(ctx.pool, [makeProperty({ line1: `201 W ${name}` })]);
    expect(ids(await at(`201 WEST ${name} STREET`))).toEqual([id]);
    // Another street of that name with another type appears in the ZIP: the untyped record is no longer sure.
    await insertProperties(ctx.pool, [
      makeProperty({ line1: `9 W ${name} AVE` }),
      makeProperty({ line1: `8 W ${name} ST` }),
    ]);
    const doubt = await at(`201 WEST ${name} STREET`);
    expect(doubt.status).toBe(404);
    expect(doubt.body.status.msg).toMatch(new RegExp(`did you mean '201 W ${name}'`));
  });

  it('a different street type is another street: a 404 that names the stored one', async () => {
    const name = uniqueStreet();
    await insertProperties(ctx.pool, [makeProperty({ line1: `7 ${name} ST` })]);
    const res = await at(`7 ${name} AVENUE`);
    expect(res.status).toBe(404);
    expect(res.body.status.msg).toMatch(new RegExp(`did you mean '7 ${name} ST'`));
  });

  it('ranges, glued names and one-letter slips of long names are found; short names are never guessed', async () => {
    const name = uniqueStreet();
    const n = uniqueNumber();
    const [range, slip, short] = await insertProperties(ctx.pool, [
      makeProperty({ line1: `223-225 EAST ${name} STREET` }),
      makeProperty({ line1: `10 ${name}BEVERLY ROAD` }),
      makeProperty({ line1: `${n} ELK ST` }),
    ]);
    expect(ids(await at(`223 E ${name} ST`))).toEqual([range]);
    expect(ids(await at(`10 ${name}BEVERLEY RD`))).toEqual([slip]);
    expect(ids(await at(`10 ${name} BEVERLY RD`))).toEqual([slip]); // the name written in two words
    expect((await at(`${n} ELM ST`)).status).toBe(404);
    expect(ids(await at(`${n} ELK STREET`))).toEqual([short]);
  });

  it('a unit after a comma narrows to it; a unit of a building without unit records gives the building', async () => {
    const name = uniqueStreet();
    const [a2c, b3a, coop] = await insertProperties(ctx.pool, [
      makeProperty({ line1: `345 W ${name} ST`, line2: '# 2C' }),
      makeProperty({ line1: `345 W ${name} ST`, line2: '# 3A' }),
      makeProperty({ line1: `131 ${name} ST` }),
    ]);
    expect(ids(await at(`345 WEST ${name} STREET, 2C`))).toEqual([a2c]);
    expect(ids(await at(`345 W ${name} ST APT 3A`))).toEqual([b3a]);
    expect(ids(await at(`131 ${name} STREET, 2L`))).toEqual([coop]);
    const none = await at(`345 W ${name} ST, 9Z`);
    expect(none.status).toBe(404);
    expect(none.body.status.msg).toMatch(/No unit '9Z' at .*; units there: 2C, 3A/);
  });
});

describe('owner, parcel and id lookups', () => {
  it('matches owner1 and owner2 by last name; first name, city and state narrow', async () => {
    const last = uniqueStreet();
    const ids = await insertProperties(ctx.pool, [
      makeProperty({ owner1: { firstName: 'ANN', lastName: last, fullName: `ANN ${last}`, type: 'Individual' } }),
      makeProperty({
        owner1: { firstName: 'BOB', lastName: 'OTHER', fullName: 'BOB OTHER', type: 'Individual' },
        owner2: { firstName: 'CAT', lastName: last, fullName: `CAT ${last}`, type: 'Individual' },
      }),
      makeProperty({
        state: 'NV',
        city: 'RENO',
        zip: '89501',
        owner1: { firstName: 'ANN', lastName: last, fullName: `ANN ${last}`, type: 'Individual' },
      }),
    ]);
    const all = await ctx.get(`/api/v1/property/owner?${q({ lastName: last.toLowerCase() })}`);
    expect(all.status).toBe(200);
    expect(all.body.status.total).toBe(3);
    expect(all.body.property.map((p: any) => p.identifier.Id)).toEqual(ids);
    const narrowed = await ctx.get(
      `/api/v1/property/owner?${q({ lastName: last, firstName: 'ann', state: 'CA', city: 'Sacramento' })}`,
    );
    expect(narrowed.body.property.map((p: any) => p.identifier.Id)).toEqual([ids[0]]);
    const page2 = await ctx.get(`/api/v1/property/owner?${q({ lastName: last, pagesize: 2, page: 2 })}`);
    expect(page2.body.property.map((p: any) => p.identifier.Id)).toEqual([ids[2]]);
    expect(page2.body.status.total).toBe(3);
  });

  it('finds companies, trusts, government and full-name owners by a word of their name through lastName', async () => {
    const word = uniqueStreet();
    const [acme, trust, city, imported, reno] = await insertProperties(ctx.pool, [
      makeProperty({
        owner1: { firstName: null, lastName: null, fullName: `${word} HOLDINGS LLC`, type: 'Corporation' },
      }),
      makeProperty({
        owner1: { firstName: null, lastName: 'LEE', fullName: `LEE ${word} FAMILY TRUST`, type: 'Trust' },
      }),
      makeProperty({ owner1: { firstName: null, lastName: null, fullName: `CITY OF ${word}`, type: 'Government' } }),
      makeProperty({ owner1: { firstName: null, lastName: null, fullName: `JOHN Q ${word}`, type: 'Individual' } }),
      makeProperty({
        state: 'NV',
        city: 'RENO',
        zip: '89501',
        owner1: { firstName: null, lastName: null, fullName: `${word} HOLDINGS LLC`, type: 'Corporation' },
      }),
    ]);
    const owner = (params: Record<string, string>) => ctx.get(`/api/v1/property/owner?${q(params)}`);
    const ids = (res: { body: any }) =>
      res.body.property.map((p: any) => p.identifier.Id).sort((a: number, b: number) => a - b);
    expect(ids(await owner({ lastName: word }))).toEqual([acme, trust, city, imported, reno]);
    expect(ids(await owner({ lastName: `${word} holdings` }))).toEqual([acme, reno]);
    expect(ids(await owner({ lastName: word, state: 'NV' }))).toEqual([reno]);
    expect(ids(await owner({ lastName: word, state: 'CA', city: 'Sacramento' }))).toEqual([
      acme,
      trust,
      city,
      imported,
    ]);
    // A first name asks for a person: entities do not answer it.
    expect((await owner({ lastName: word, firstName: 'JOHN' })).status).toBe(404);
  });

  it('matches an APN with or without special characters, and the tax parcel id', async () => {
    const tag = String(Date.now()).slice(-7);
    const [id] = await insertProperties(ctx.pool, [
      makeProperty({ apn: `915-${tag}-001`, apnOrig: `915${tag}001`, taxParcelId: `TX-${tag}-9` }),
    ]);
    for (const apn of [`915-${tag}-001`, `915${tag}001`, `915 ${tag} 001`, `TX${tag}9`]) {
      const res = await ctx.get(`/api/v1/property/parcel?${q({ apn })}`);
      expect(res.status, apn).toBe(200);
      expect(res.body.property.map((p: any) => p.identifier.Id)).toEqual([id]);
    }
    const narrowed = await ctx.get(
      `/api/v1/property/parcel?${q({ apn: `915${tag}001`, state: 'CA', county: 'Sacramento County' })}`,
    );
    expect(narrowed.status).toBe(200);
    const wrongState = await ctx.get(`/api/v1/property/parcel?${q({ apn: `915${tag}001`, state: 'NV' })}`);
    expect(wrongState.status).toBe(404);
  });

  it('narrows an APN by county: a bare name is the county or the independent city of that name', async () => {
    const tag = String(Date.now()).slice(-7);
    const va = { state: 'VA', fips: '51540', zip: '22902', city: 'CHARLOTTESVILLE' };
    const [city, county, charles, richmond] = await insertProperties(ctx.pool, [
      makeProperty({ ...va, apn: `77${tag}`, apnOrig: `77${tag}`, county: 'CHARLOTTESVILLE CITY' }),
      makeProperty({ ...va, apn: `78${tag}`, apnOrig: `78${tag}`, county: 'ALBEMARLE', fips: '51003' }),
      makeProperty({ ...va, apn: `79${tag}`, apnOrig: `79${tag}`, county: 'Charles City', fips: '51036' }),
      // As GeoNames names Richmond, VA (the generator's records).
      makeProperty({ ...va, apn: `76${tag}`, apnOrig: `76${tag}`, county: 'City of Richmond', fips: '51760' }),
    ]);
    const ids = async (apn: string, county: string) => {
      const res = await ctx.get(`/api/v1/property/parcel?${q({ apn, state: 'VA', county })}`);
      return res.status === 200 ? res.body.property.map((p: any) => p.identifier.Id) : res.status;
    };
    for (const name of ['Charlottesville', 'charlottesville city', 'Charlottesville (city)'])
      expect(await ids(`77${tag}`, name), name).toEqual([city]);
    // The county's own designator means the county: Charlottesville's parcel is not in a Charlottesville County.
    expect(await ids(`77${tag}`, 'Charlottesville County')).toBe(404);
    expect(await ids(`77${tag}`, 'Albemarle')).toBe(404);
    expect(await ids(`78${tag}`, 'Albemarle County')).toEqual([county]);
    expect(await ids(`78${tag}`, 'Albemarle city')).toBe(404);
    // A county whose name ends in City.
    for (const name of ['Richmond', 'Richmond city', 'City of Richmond'])
      expect(await ids(`76${tag}`, name), name).toEqual([richmond]);
    expect(await ids(`76${tag}`, 'Richmond County')).toBe(404);
    for (const name of ['Charles City', 'Charles City County'])
      expect(await ids(`79${tag}`, name), name).toEqual([charles]);
  });

  it('returns sale history newest first and assessment history newest year first, by id', async () => {
    const SALES = [
      {
        date: '2020-03-01',
        price: 400000,
        documentType: 'GRANT DEED',
        recordingDate: '2020-03-09',
        buyerName: 'JANE DOE',
        sellerName: 'JOHN ROE',
        documentNumber: null,
      },
      {
        date: '2011-07-15',
        price: 210000,
        documentType: 'GRANT DEED',
        recordingDate: '2011-07-20',
        buyerName: 'JOHN ROE',
        sellerName: 'ACME LLC',
        documentNumber: null,
      },
    ];
    const [id] = await insertProperties(ctx.pool, [
      makeProperty({
        sales: SALES,
        assessment: {
          taxYear: 2025,
          land: 100,
          improvements: 200,
          total: 300,
          marketTotal: 500,
          taxAmount: 3.5,
          avmValue: null,
          avmDate: null,
          rentalEstimate: null,
          rentalSource: null,
        },
        assessmentHistory: [
          { taxYear: 2024, land: 90, improvements: 190, total: 280, marketTotal: 480, taxAmount: 3.25 },
        ],
      }),
    ]);
    const sales = await ctx.get(`/api/v1/sale/history?id=${id}`);
    expect(sales.status).toBe(200);
    expect(sales.body.property[0].saleHistory).toEqual(SALES);
    expect(sales.body.property[0].sale.lastSale).toEqual({ date: '2020-03-01', price: 400000 });
    const assessment = await ctx.get(`/api/v1/assessment/detail?id=${id}`);
    expect(assessment.status).toBe(200);
    expect(assessment.body.property[0].assessmentHistory).toEqual([
      {
        taxYear: 2025,
        assessed: { land: 100, improvements: 200, total: 300 },
        market: { total: 500 },
        tax: { amount: 3.5 },
      },
      {
        taxYear: 2024,
        assessed: { land: 90, improvements: 190, total: 280 },
        market: { total: 480 },
        tax: { amount: 3.25 },
      },
    ]);
    expect(assessment.body.status).toMatchObject({ code: 0, total: 1, records_returned: 1 });
  });

  it('reports health with the exact record count and version 2.0.0', async () => {
    const { rows } = await ctx.pool.query('SELECT count(*)::int AS n FROM records.properties');
    const res = await ctx.get('/api/v1/health');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'ok', db: 'connected', version: '2.0.0' });
    // Other tests insert concurrently; the cached count is at most a second old.
    expect(res.body.records).toBeGreaterThan(3_000);
    expect(res.body.records).toBeLessThanOrEqual(rows[0].n + 100);
  });
});
