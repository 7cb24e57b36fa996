// Bounded work per request (issue 22 points 4 and 6): text parameters have a maximum length, an owner search counts
// at most OWNER_COUNT_CAP matches whatever the word, and a lookup ends within one deadline however many statements
// it runs.
import { connect, createServer, type Socket } from 'node:net';
import { describe, expect, inject, it } from 'vitest';
import { DEFAULT_REQUEST_POOL_LIMITS } from '@pra/core/config';
import { ErrorResponse, PAGING_DEPTH_MAX, TEXT_MAX } from '@pra/core/contracts';
import { ApiError } from '@pra/core/errors';
import { insertProperties, makeProperty, uniqueStreet } from '@pra/ingest/testing';
import { createPool } from '@pra/platform';
import { startApp } from '@pra/platform/testing';
import { createLookupApp } from '../src/app.js';
import { OWNER_COUNT_CAP, RecordStore } from '../src/data/record-queries.js';
import { LookupDeadline } from '../src/domain/find-records.js';
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

/** A TCP proxy to PostgreSQL that delays every answer by `delayMs`: a database that is slow, and still answers. */
async function slowProxy(delayMs: number) {
  const target = new URL(inject('databaseUrl'));
  const open = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(Number(target.port || 5432), target.hostname);
    for (const s of [client, upstream]) {
      open.add(s);
      s.on('error', () => {});
      s.on('close', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.on('data', (d) => upstream.write(d));
    // Timers of one duration fire in the order they were set: the bytes keep their order.
    upstream.on('data', (d) => setTimeout(() => client.writable && client.write(d), delayMs));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const url = new URL(target);
  url.hostname = '127.0.0.1';
  url.port = String((server.address() as { port: number }).port);
  return {
    url: url.toString(),
    close: () =>
      new Promise<void>((r) => {
        for (const s of open) s.destroy();
        server.close(() => r());
      }),
  };
}

describe('a lookup ends within one deadline, all its statements together', () => {
  it("is the pool's statement timeout (4 s unless configured)", () => {
    expect(new RecordStore(ctx.pool).deadlineMs).toBe(DEFAULT_REQUEST_POOL_LIMITS.statementTimeoutMs);
    const limited = createPool(inject('databaseUrl'), 1, 'deadline', {
      ...DEFAULT_REQUEST_POOL_LIMITS,
      statementTimeoutMs: 1_234,
    });
    expect(new RecordStore(limited).deadlineMs).toBe(1_234);
    return limited.end();
  });

  it('starts no statement past the deadline, and answers 503 with Retry-After', async () => {
    let now = 0;
    const deadline = new LookupDeadline(1_000, () => now);
    expect(await deadline.run(async () => 'in time')).toBe('in time');
    now = 1_000;
    let started = false;
    const refused = await deadline
      .run(async () => {
        started = true;
      })
      .catch((e: unknown) => e);
    expect(started).toBe(false);
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({ status: 503, headers: { 'retry-after': '2' } });
  });

  it('answers 503, uncharged, when the address fallback would pass it (each statement gets the time left)', async () => {
    // Every answer of PostgreSQL 600 ms late; the deadline (the pool's statement timeout) 2 s. The exact line is one
    // statement (in time); the fallback for a line without its street type is four (2.4 s at least: past it).
    const deadlineMs = 2_000;
    const proxy = await slowProxy(600);
    const pool = createPool(proxy.url, 2, 'slow-lookup', {
      ...DEFAULT_REQUEST_POOL_LIMITS,
      statementTimeoutMs: deadlineMs,
    });
    // Both connections opened first: the timed lookups below then pay 600 ms a statement, not the handshake too.
    await Promise.all([pool.query('SELECT 1'), pool.query('SELECT 1')]);
    const app = await startApp(
      createLookupApp({
        pool,
        meter: ctx.billing.meter,
        calls: ctx.billing.calls,
        auth: { development: true, keys: ctx.billing.keys },
      }),
    );
    try {
      const street = uniqueStreet();
      await insertProperties(ctx.pool, [makeProperty({ line1: `201 W ${street} ST`, zip: '95814' })]);
      const { accountId, key } = await ctx.billing.fundedAccount(100);
      const auth = { authorization: `Bearer ${key}` };

      const exact = await app.get(
        `/api/v1/property/address?${q({ address: `201 W ${street} ST`, zip: '95814' })}`,
        auth,
      );
      expect(exact.status).toBe(200);
      expect(await ctx.billing.meter.balance(accountId)).toBe(99);

      const fallback = await app.get(
        `/api/v1/property/address?${q({ address: `201 W ${street}`, zip: '95814' })}`,
        auth,
      );
      expect(fallback.status).toBe(503);
      expect(fallback.headers.get('retry-after')).toBe('2');
      expect(ErrorResponse.parse(fallback.body).status.msg).toMatch(
        /longer than its 2,000 ms limit; the request was not charged/,
      );
      expect(await ctx.billing.meter.balance(accountId)).toBe(99);
    } finally {
      await app.close();
      await pool.end();
      await proxy.close();
    }
  });
});
