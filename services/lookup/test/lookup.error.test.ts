// Bad input gets a 4xx ErrorResponse that names the problem; never a 5xx.
import { describe, expect, it } from 'vitest';
import { ErrorResponse } from '@pra/shared/contracts';
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
    ['/api/v1/property/address?address=Main%20St&zip=89501', /'address'.*house number/],
    ['/api/v1/property/address?address=1%20Main%20St&zip=89501&number=2', /'number'.*conflicts/],
    ['/api/v1/property/address?address=1%20Main%20St&zip=89501&postal1=89502', /'postal1'.*conflicts/],
    ['/api/v1/property/address?address=1%20Main%20St&zip=89501&zip=89502', /'zip' was given more than once/],
    ['/api/v1/property/address?address=&zip=89501', /'address'.*empty/],
    ['/api/v1/property/owner', /Missing required parameter 'lastName'/],
    ['/api/v1/property/owner?lastName=%27%27', /'lastName'.*letters/],
    ['/api/v1/property/owner?lastName=Smith&state=XYZ', /'state'/],
    ['/api/v1/property/parcel', /Missing required parameter 'apn'/],
    ['/api/v1/property/parcel?apn=---', /'apn'.*letters or digits/],
    ['/api/v1/sale/history', /Missing required parameter 'id'/],
    ['/api/v1/sale/history?id=abc', /'id'.*property ID/],
    ['/api/v1/assessment/detail?id=-5', /'id'.*property ID/],
  ])('%s', (path, msg) => expectError(path, 400, msg));
});

describe('404 and other refusals', () => {
  it('answers 404 when nothing matches', async () => {
    await expectError('/api/v1/property/address?address=1%20Nowhere%20Xyzzy%20St&zip=89501', 404, /No properties found/);
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
  });
});

describe('malformed query strings never give a 5xx', () => {
  const junk = [
    '%', '%ZZ', '%00', '\u0000', "' OR 1=1 --", '"><script>', 'a'.repeat(5000), '🏠', '\\', '%E0%A4%A', '[]', '{}', '-1', '1e400', 'NaN',
  ];
  const paths = ['/api/v1/property/address', '/api/v1/property/owner', '/api/v1/property/parcel', '/api/v1/sale/history', '/api/v1/assessment/detail'];
  const params = ['address', 'zip', 'city', 'state', 'number', 'page', 'pagesize', 'lastName', 'firstName', 'apn', 'county', 'id', 'postal1', 'locality'];
  it('answers every combination with 2xx or 4xx and an ErrorResponse on 4xx', async () => {
    let n = 0;
    for (const path of paths) {
      for (const value of junk) {
        const pairs = params.map((p, i) => `${p}=${i % 3 === 0 ? encodeURIComponent(value) : value.replace(/[#&]/g, '')}`);
        for (const qs of [pairs.join('&'), `${params[n % params.length]}=${value}`, `address=1%20Main%20St&zip=89501&${params[n % params.length]}[]=${value}`]) {
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
