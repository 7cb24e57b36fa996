// Bad input gets a 4xx ErrorResponse that names the problem; never a 5xx.
import { describe, expect, it } from 'vitest';
import { ErrorResponse } from '@pra/core/contracts';
import { countingPool, startApp } from '@pra/platform/testing';
import { insertProperties, makeProperty, uniqueStreet } from '@pra/ingest/testing';
import { createLookupApp } from '../src/app.js';
import { useLookupApp } from './lookup-harness.js';

const ctx = useLookupApp();

async function expectError(path: string, status: number, msg: RegExp) {
  const res = await ctx.get(path);
  expect(res.status, path).toBe(status);
  const body = ErrorResponse.parse(res.body);
  expect(body.status.code).toBe(status);
  expect(body.property).toEqual([]);
  expect(body.status.msg).toMatch(msg);
  expect(res.headers.get('x-request-id')).toBe(body.status.transactionID);
}

describe('400: the message names the bad parameter', () => {
  it.each([
    ['/api/v1/property/address', /Missing required parameter 'address'|'address' is required/],
    ['/api/v1/property/address?address=1%20Main%20St', /'city' is required/],
    ['/api/v1/property/address?address=1%20Main%20St&city=Reno', /'state' is required/],
    ['/api/v1/property/address?address=1%20Main%20St&zip=123', /'zip'.*5-digit/],
    ['/api/v1/property/address?address=1%20Main%20St&city=Reno&state=Nevada', /'state'.*two-letter/],
    ['/api/v1/property/address?address=1%20Main%20St&zip=89501&pagesize=101', /'pagesize'.*at most 100/],
    ['/api/v1/property/address?address=1%20Main%20St&zip=89501&pagesize=0', /'pagesize'.*at least 1/],
    ['/api/v1/property/address?address=1%20Main%20St&zip=89501&page=0', /'page'.*at least 1/],
    ['/api/v1/property/address?address=1%20Main%20St&zip=89501&page=abc', /'page'.*integer/],
    ['/api/v1/property/address?address=1%20Main%20St&zip=89501&page=1.5', /'page'.*integer/],
    // Deep paging is bounded: page x pagesize <= 10,000.
    [
      '/api/v1/property/address?address=1%20Main%20St&zip=89501&page=101&pagesize=100',
      /'page'.*page x pagesize is 10100.*10000/,
    ],
    ['/api/v1/property/owner?lastName=SMITH&page=401', /'page'.*page x pagesize is 10025/],
    ['/api/v1/property/owner?lastName=SMITH&page=1000000', /'page'.*at most 10000/],
    ['/api/v1/property/address?address=Main%20St&zip=89501', /'address'.*house number/],
    ['/api/v1/property/address?address=1%20Main%20St&zip=89501&number=2', /'number'.*conflicts/],
    ['/api/v1/property/address?address=1%20Main%20St&zip=89501&postal1=89502', /'postal1'.*conflicts/],
    ['/api/v1/property/address?address=1%20Main%20St&zip=89501&zip=89502', /'zip' was given more than once/],
    ['/api/v1/property/address?address=&zip=89501', /'address'.*empty/],
    // lastName, or ownerId (an owner entity, issue 37).
    ['/api/v1/property/owner', /'lastName' is required \(or give ownerId\)/],
    ['/api/v1/property/owner?lastName=SMITH&ownerId=4', /'ownerId': cannot be given with lastName/],
    ['/api/v1/owner/search?name=A', /'name': must hold at least 3 letters/],
    ['/api/v1/owner/detail?id=x', /'id': must be an owner ID/],
    ['/api/v1/property/owner?lastName=%27%27', /'lastName'.*letters/],
    ['/api/v1/property/owner?lastName=Smith&state=XYZ', /'state'/],
    ['/api/v1/property/parcel', /Missing required parameter 'apn'/],
    ['/api/v1/property/parcel?apn=---', /'apn'.*letters or digits/],
    ['/api/v1/sale/history', /Missing required parameter 'id'/],
    ['/api/v1/sale/history?id=abc', /'id'.*property ID/],
    ['/api/v1/assessment/detail?id=-5', /'id'.*property ID/],
    // A parameter the endpoint does not take is named, with the ones it takes (dropped, it widened the search).
    [
      '/api/v1/property/owner?lastName=SMITH&postal1=89501',
      /Unknown parameter 'postal1': this endpoint takes lastName, ownerId, firstName, state, city, page, pagesize/,
    ],
    ['/api/v1/property/parcel?apn=123&zip=89501&foo=1', /Unknown parameters 'zip', 'foo'.*takes apn, state, county/],
    ['/api/v1/sale/history?id=5&pagesize=3', /Unknown parameter 'pagesize'.*takes id/],
    // The cost parameters (issue 27).
    ['/api/v1/property/owner?lastName=SMITH&preview=yes', /'preview'.*'true' or 'false'/],
    ['/api/v1/property/owner?lastName=SMITH&max_credits=-1', /'max_credits'.*at least 0/],
    ['/api/v1/sale/history?id=5&max_credits=two', /'max_credits'.*integer/],
  ])('%s', (path, msg) => expectError(path, 400, msg));

  it("charges nothing for an unknown parameter, and the spec's alternative names stay accepted", async () => {
    const { key, accountId } = await ctx.billing.fundedAccount(10);
    const headers = { authorization: `Bearer ${key}` };
    const refused = await ctx.app.get('/api/v1/property/owner?lastName=SMITH&postal1=89501', headers);
    expect(refused.status).toBe(400);
    expect(await ctx.billing.meter.balance(accountId)).toBe(10);
    // locality, countrySubd and postal1 name city, state and zip on the address endpoints (SPEC 4.1).
    const aliased = await ctx.app.get('/api/v1/property/address?address=1%20Nowhere%20St&postal1=89501', headers);
    expect(aliased.status).toBe(404);
  });
});

describe('404 and other refusals', () => {
  it('answers 404 when nothing matches', async () => {
    await expectError(
      '/api/v1/property/address?address=1%20Nowhere%20Xyzzy%20St&zip=89501',
      404,
      /No properties found/,
    );
    await expectError('/api/v1/property/owner?lastName=Qwxzzyv', 404, /No properties found/);
    await expectError('/api/v1/property/parcel?apn=000-NOPE-000', 404, /No properties found/);
    await expectError('/api/v1/sale/history?id=999999999999', 404, /No property with id/);
    await expectError('/api/v1/assessment/detail?id=999999999999', 404, /No property with id/);
  });
  it('answers 404 for an unknown path and 405 for another method', async () => {
    await expectError('/api/v1/property/nothing', 404, /No such endpoint/);
    const res = await fetch(`${ctx.app.url}/api/v1/property/address`, { method: 'POST' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET');
    expect(((await res.json()) as any).status.msg).toBe('Method POST not allowed here: use GET');
  });
  it('answers HEAD on every metered path 405 with Allow: GET, and charges nothing', async () => {
    const a = await ctx.billing.fundedAccount(10);
    const id = (await ctx.pool.query<{ id: number }>('SELECT id FROM records.properties LIMIT 1')).rows[0]!.id;
    for (const path of [
      '/api/v1/property/address?address=1%20Main%20St&zip=95814',
      '/api/v1/property/owner?lastName=SMITH',
      '/api/v1/property/parcel?apn=1',
      `/api/v1/sale/history?id=${id}`,
      `/api/v1/assessment/detail?id=${id}`,
    ]) {
      const res = await fetch(ctx.app.url + path, { method: 'HEAD', headers: { authorization: `Bearer ${a.key}` } });
      expect(res.status, path).toBe(405);
      expect(res.headers.get('allow')).toBe('GET');
    }
    expect(await ctx.billing.meter.balance(a.accountId)).toBe(10);
    expect((await fetch(`${ctx.app.url}/api/v1/health`, { method: 'HEAD' })).status).toBe(200);
  });
});

describe('a page past the end', () => {
  it('is a 404 with the total, from one statement (not a second count)', async () => {
    const statements: string[] = [];
    const counted = countingPool(ctx.pool, statements);
    const app = await startApp(
      createLookupApp({
        pool: counted,
        meter: ctx.billing.meter,
        calls: ctx.billing.calls,
        auth: { development: true, keys: ctx.billing.keys },
      }),
    );
    try {
      const street = uniqueStreet();
      await insertProperties(
        ctx.pool,
        [1, 2, 3].map((i) => makeProperty({ line1: `9 ${street} ST`, line2: `UNIT ${i}`, zip: '95814' })),
      );
      const owner = (
        await ctx.pool.query<{ last_name_key: string }>(
          'SELECT last_name_key FROM records.owners WHERE last_name_key IS NOT NULL LIMIT 1',
        )
      ).rows[0]!.last_name_key;
      for (const path of [
        `/api/v1/property/address?address=9%20${street}%20ST&zip=95814&pagesize=2&page=5`,
        `/api/v1/property/owner?lastName=${owner}&page=400`,
      ]) {
        statements.length = 0;
        const res = await app.get(path, ctx.auth);
        expect(res.status, path).toBe(404);
        expect(ErrorResponse.parse(res.body).status.total, path).toBeGreaterThan(0);
        expect(res.body.status.msg).toMatch(/past the last page/);
        expect(statements, path).toHaveLength(1);
      }
    } finally {
      await app.close();
    }
  });
});

describe('malformed query strings never give a 5xx', () => {
  const junk = [
    '%',
    '%ZZ',
    '%00',
    '\u0000',
    "' OR 1=1 --",
    '"><script>',
    'a'.repeat(5000),
    '🏠',
    '\\',
    '%E0%A4%A',
    '[]',
    '{}',
    '-1',
    '1e400',
    'NaN',
  ];
  const paths = [
    '/api/v1/property/address',
    '/api/v1/property/owner',
    '/api/v1/property/parcel',
    '/api/v1/sale/history',
    '/api/v1/assessment/detail',
  ];
  const params = [
    'address',
    'zip',
    'city',
    'state',
    'number',
    'page',
    'pagesize',
    'lastName',
    'firstName',
    'apn',
    'county',
    'id',
    'postal1',
    'locality',
  ];
  it('answers every combination with 2xx or 4xx and an ErrorResponse on 4xx', async () => {
    let n = 0;
    for (const path of paths) {
      for (const value of junk) {
        const pairs = params.map(
          (p, i) => `${p}=${i % 3 === 0 ? encodeURIComponent(value) : value.replace(/[#&]/g, '')}`,
        );
        for (const qs of [
          pairs.join('&'),
          `${params[n % params.length]}=${value}`,
          `address=1%20Main%20St&zip=89501&${params[n % params.length]}[]=${value}`,
        ]) {
          n++;
          const res = await fetch(`${ctx.app.url}${path}?${qs}`, { headers: ctx.auth }).catch(() => null);
          if (!res) continue; // the client itself refused to send it
          expect(res.status, `${path}?${qs.slice(0, 200)}`).toBeLessThan(500);
          if (res.status >= 400) ErrorResponse.parse(await res.json());
          else await res.arrayBuffer();
        }
      }
    }
    expect(n).toBeGreaterThan(200);
  });
});
