// Bad input gets a 4xx ErrorResponse that names the problem; never a 5xx.
import { describe, expect, it } from 'vitest';
import { ErrorResponse } from '@pra/core/contracts';
import type { ErrorReason } from '@pra/core/errors';
import { countingPool, startApp } from '@pra/platform/testing';
import { insertProperties, makeProperty, uniqueStreet } from '@pra/ingest/testing';
import { setKeyStatus } from '@pra/account-billing/domain';
import { createLookupApp } from '../src/app.js';
import { useLookupApp } from './lookup-harness.js';

const ctx = useLookupApp();

async function expectError(path: string, status: number, reason: ErrorReason, msg: RegExp) {
  const res = await ctx.get(path);
  expect(res.status, path).toBe(status);
  const body = ErrorResponse.parse(res.body);
  expect(body.status.code).toBe(status);
  expect(body.status.reason, path).toBe(reason);
  expect(body.property).toEqual([]);
  expect(body.status.msg).toMatch(msg);
  expect(res.headers.get('x-request-id')).toBe(body.status.transactionID);
}

describe('400: the message names the bad parameter', () => {
  it.each([
    ['/api/v1/property/address', 'missing_parameter', /Missing required parameter 'address'|'address' is required/],
    ['/api/v1/property/address?address=1%20Main%20St', 'missing_parameter', /'city' is required/],
    ['/api/v1/property/address?address=1%20Main%20St&city=Reno', 'missing_parameter', /'state' is required/],
    ['/api/v1/property/address?address=1%20Main%20St&zip=123', 'invalid_parameter', /'zip'.*5-digit/],
    [
      '/api/v1/property/address?address=1%20Main%20St&city=Reno&state=Nevada',
      'invalid_parameter',
      /'state'.*two-letter/,
    ],
    [
      '/api/v1/property/address?address=1%20Main%20St&zip=89501&pagesize=101',
      'invalid_parameter',
      /'pagesize'.*at most 100/,
    ],
    [
      '/api/v1/property/address?address=1%20Main%20St&zip=89501&pagesize=0',
      'invalid_parameter',
      /'pagesize'.*at least 1/,
    ],
    ['/api/v1/property/address?address=1%20Main%20St&zip=89501&page=0', 'invalid_parameter', /'page'.*at least 1/],
    ['/api/v1/property/address?address=1%20Main%20St&zip=89501&page=abc', 'invalid_parameter', /'page'.*integer/],
    ['/api/v1/property/address?address=1%20Main%20St&zip=89501&page=1.5', 'invalid_parameter', /'page'.*integer/],
    // Deep paging is bounded: page x pagesize <= 10,000.
    [
      '/api/v1/property/address?address=1%20Main%20St&zip=89501&page=101&pagesize=100',
      'invalid_parameter',
      /'page': page 101 x pagesize 100 is 10,100 records deep, past the deepest allowed \(10,000\)/,
    ],
    [
      '/api/v1/property/owner?lastName=SMITH&page=401',
      'invalid_parameter',
      /'page': page 401 x pagesize 25 is 10,025 records deep/,
    ],
    [
      '/api/v1/property/owner?lastName=SMITH&page=1000000',
      'invalid_parameter',
      /^Invalid parameter 'page': must be at most 10,000$/,
    ],
    // One message for one parameter, whatever the number: never a float's exponent.
    [
      '/api/v1/property/owner?lastName=SMITH&page=25000000000000000000000',
      'invalid_parameter',
      /^Invalid parameter 'page': must be at most 10,000$/,
    ],
    [
      '/api/v1/property/owner?lastName=SMITH&max_credits=5000000',
      'invalid_parameter',
      /^Invalid parameter 'max_credits': must be at most 1,000,000$/,
    ],
    ['/api/v1/property/address?address=Main%20St&zip=89501', 'invalid_parameter', /'address'.*house number/],
    ['/api/v1/property/address?address=1%20Main%20St&zip=89501&number=2', 'invalid_parameter', /'number'.*conflicts/],
    [
      '/api/v1/property/address?address=1%20Main%20St&zip=89501&postal1=89502',
      'invalid_parameter',
      /'postal1'.*conflicts/,
    ],
    [
      '/api/v1/property/address?address=1%20Main%20St&zip=89501&zip=89502',
      'invalid_parameter',
      /'zip' was given more than once/,
    ],
    ['/api/v1/property/address?address=&zip=89501', 'invalid_parameter', /'address'.*empty/],
    // lastName, or ownerId (an owner entity, issue 37).
    ['/api/v1/property/owner', 'missing_parameter', /'lastName' is required \(or give ownerId\)/],
    [
      '/api/v1/property/owner?lastName=SMITH&ownerId=4',
      'invalid_parameter',
      /'ownerId': cannot be given with lastName/,
    ],
    ['/api/v1/owner/search?name=A', 'invalid_parameter', /'name': must hold at least 3 letters/],
    ['/api/v1/owner/detail?id=x', 'invalid_parameter', /'id': must be an owner ID/],
    ['/api/v1/property/owner?lastName=%27%27', 'invalid_parameter', /'lastName'.*letters/],
    ['/api/v1/property/owner?lastName=Smith&state=XYZ', 'invalid_parameter', /'state'/],
    ['/api/v1/property/parcel', 'missing_parameter', /Missing required parameter 'apn'/],
    ['/api/v1/property/parcel?apn=---', 'invalid_parameter', /'apn'.*letters or digits/],
    ['/api/v1/sale/history', 'missing_parameter', /Missing required parameter 'id'/],
    ['/api/v1/sale/history?id=abc', 'invalid_parameter', /'id'.*property ID/],
    ['/api/v1/assessment/detail?id=-5', 'invalid_parameter', /'id'.*property ID/],
    // A parameter the endpoint does not take is named, with the ones it takes (dropped, it widened the search).
    [
      '/api/v1/property/owner?lastName=SMITH&postal1=89501',
      'unknown_parameter',
      /Unknown parameter 'postal1': this endpoint takes lastName, ownerId, firstName, state, city, page, pagesize/,
    ],
    [
      '/api/v1/property/parcel?apn=123&zip=89501&foo=1',
      'unknown_parameter',
      /Unknown parameters 'zip', 'foo'.*takes apn, state, county/,
    ],
    ['/api/v1/sale/history?id=5&pagesize=3', 'unknown_parameter', /Unknown parameter 'pagesize'.*takes id/],
    // The cost parameters (issue 27).
    ['/api/v1/property/owner?lastName=SMITH&preview=yes', 'invalid_parameter', /'preview'.*'true' or 'false'/],
    ['/api/v1/property/owner?lastName=SMITH&max_credits=-1', 'invalid_parameter', /'max_credits'.*at least 0/],
    ['/api/v1/sale/history?id=5&max_credits=two', 'invalid_parameter', /'max_credits'.*integer/],
  ] as const)('%s', (path, reason: ErrorReason, msg) => expectError(path, 400, reason, msg));

  it("charges nothing for an unknown parameter, and the spec's alternative names stay accepted", async () => {
    const { key, accountId } = await ctx.billing.fundedAccount(10);
    const headers = { authorization: `Bearer ${key}` };
    const refused = await ctx.app.get('/api/v1/property/owner?lastName=SMITH&postal1=89501', headers);
    expect(refused.status).toBe(400);
    expect(refused.body.status.reason).toBe('unknown_parameter');
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
      'not_found',
      /No properties found/,
    );
    await expectError('/api/v1/property/owner?lastName=Qwxzzyv', 404, 'not_found', /No properties found/);
    await expectError('/api/v1/property/parcel?apn=000-NOPE-000', 404, 'not_found', /No properties found/);
    await expectError('/api/v1/sale/history?id=999999999999', 404, 'not_found', /No property with id/);
    await expectError('/api/v1/assessment/detail?id=999999999999', 404, 'not_found', /No property with id/);
  });
  it('answers 404 for an unknown path and 405 for another method', async () => {
    await expectError('/api/v1/property/nothing', 404, 'no_such_endpoint', /No such endpoint/);
    const res = await fetch(`${ctx.app.url}/api/v1/property/address`, { method: 'POST' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET');
    const body = (await res.json()) as ErrorResponse;
    expect(body.status.msg).toBe('Method POST not allowed here: use GET');
    expect(body.status.reason).toBe('method_not_allowed');
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
      // A HEAD's answer has no body: its reason is the 405's, checked on the other paths.
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
        expect(res.body.status.reason).toBe('page_out_of_range');
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

describe('status.reason tells refusals of one status apart', () => {
  const reasonOf = async (res: Response) => ErrorResponse.parse(await res.json()).status.reason;

  it('402: no credits (insufficient_credits) is not over max_credits (over_max_credits)', async () => {
    const street = uniqueStreet();
    await insertProperties(
      ctx.pool,
      [1, 2, 3].map((i) => makeProperty({ line1: `5 ${street} ST`, line2: `UNIT ${i}`, zip: '95814' })),
    );
    const path = `/api/v1/property/address?address=5%20${street}%20ST&zip=95814`;
    const broke = await ctx.billing.fundedAccount(0);
    const none = await ctx.app.get(path, { authorization: `Bearer ${broke.key}` });
    expect(none.status).toBe(402);
    expect(ErrorResponse.parse(none.body).status.reason).toBe('insufficient_credits');
    const capped = await ctx.get(`${path}&max_credits=1`);
    expect(capped.status).toBe(402);
    expect(ErrorResponse.parse(capped.body).status.reason).toBe('over_max_credits');
  });

  it('401 unauthorized, 403 forbidden', async () => {
    const path = '/api/v1/property/owner?lastName=SMITH';
    expect(await reasonOf(await fetch(ctx.app.url + path))).toBe('unauthorized');
    const a = await ctx.billing.fundedAccount(1);
    await setKeyStatus(ctx.billing.deps, a.keyId, 'disabled');
    const res = await fetch(ctx.app.url + path, { headers: { authorization: `Bearer ${a.key}` } });
    expect(res.status).toBe(403);
    expect(await reasonOf(res)).toBe('forbidden');
  });

  it('400s of the Idempotency-Key: invalid_header, idempotency_key_reused', async () => {
    const bad = await ctx.get('/api/v1/property/owner?lastName=Qwxzzyv', { 'idempotency-key': 'two words' });
    expect(bad.status).toBe(400);
    expect(ErrorResponse.parse(bad.body).status.reason).toBe('invalid_header');
    const key = `reused-${uniqueStreet()}`;
    const street = uniqueStreet();
    await insertProperties(ctx.pool, [makeProperty({ line1: `7 ${street} ST`, zip: '95814' })]);
    const first = await ctx.get(`/api/v1/property/address?address=7%20${street}%20ST&zip=95814`, {
      'idempotency-key': key,
    });
    expect(first.status).toBe(200);
    const other = await ctx.get(`/api/v1/property/address?address=7%20${street}%20ST&zip=95814&pagesize=5`, {
      'idempotency-key': key,
    });
    expect(other.status).toBe(400);
    expect(ErrorResponse.parse(other.body).status.reason).toBe('idempotency_key_reused');
  });

  it("400 invalid_body for a batch body it cannot read, 405 method_not_allowed for the batch's GET", async () => {
    const post = (body: string) =>
      fetch(`${ctx.app.url}/api/v1/property/batch`, {
        method: 'POST',
        headers: { ...ctx.auth, 'content-type': 'application/json' },
        body,
      });
    for (const body of ['', 'not json', '{"requests": 5}', '{"other": []}']) {
      const res = await post(body);
      expect(res.status, body).toBe(400);
      expect(await reasonOf(res), body).toBe('invalid_body');
    }
    const get = await fetch(`${ctx.app.url}/api/v1/property/batch`, { headers: ctx.auth });
    expect(get.status).toBe(405);
    expect(await reasonOf(get)).toBe('method_not_allowed');
  });
});
