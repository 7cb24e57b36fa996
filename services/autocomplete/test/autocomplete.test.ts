// The PostgreSQL adapter against the contract, always; Typesense whenever TYPESENSE_URL is set. Then the service:
// validation, authentication, no charge, and every suggestion resolving through /property/detail.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ErrorResponse, PropertyResponse } from '@pra/core/contracts';
import { createPool, type Pool } from '@pra/platform';
import { startApp, type RunningApp } from '@pra/platform/testing';
import { billingFixture, type BillingFixture } from '@pra/account-billing/testing';
import { insertProperties, makeProperty, uniqueStreet } from '@pra/ingest/testing';
import { createLookupApp } from '@pra/lookup/app';
import { createAutocompleteApp } from '../src/app.js';
import { PostgresSearchIndex, uncoveredPrefixes } from '../src/data/postgres-index.js';
import { migrateSearch } from '../src/data/migrate.js';
import { applyChanges, withFeedLock } from '../src/indexing/change-feed.js';
import { searchIndexContract } from './search-contract.js';

let pool: Pool;
let billing: BillingFixture;
let ac: RunningApp;
let lookup: RunningApp;
let auth: Record<string, string>;
let index: PostgresSearchIndex;
/** Applies the feed, waiting for another file's catch-up on this shared store to finish rather than skipping. */
const catchUp = async () => (await withFeedLock(pool, true, (c) => applyChanges(index, c))) ?? 0;
const street = `QZ${randomBytes(3).toString('hex').toUpperCase().replace(/[0-9]/g, 'X')}`;

beforeAll(async () => {
  pool = createPool(inject('databaseUrl'), 4);
  await migrateSearch(pool);
  index = new PostgresSearchIndex(pool);
  billing = await billingFixture(pool, inject('redisUrl'), inject('redisPrefix'));
  const { key } = await billing.fundedAccount(1_000);
  auth = { authorization: `Bearer ${key}` };
  ac = await startApp(
    createAutocompleteApp({
      index,
      meter: billing.meter,
      calls: billing.calls,
      auth: { development: true, keys: billing.keys },
    }),
  );
  lookup = await startApp(
    createLookupApp({
      pool,
      meter: billing.meter,
      calls: billing.calls,
      auth: { development: true, keys: billing.keys },
    }),
  );
});
afterAll(async () => {
  await ac.close();
  await lookup.close();
  await billing.close();
  await pool.end();
});

// The contract runs on its own table, so its documents never mix with the service's index.
searchIndexContract(
  'postgres',
  async () => {
    await pool.query(
      'CREATE TABLE IF NOT EXISTS search.address_suggestions_contract (LIKE search.address_suggestions INCLUDING ALL)',
    );
    return new PostgresSearchIndex(pool, 'search.address_suggestions_contract');
  },
  9_000_000_000_000 + Number.parseInt(randomBytes(2).toString('hex'), 16) * 100,
  street,
);

if (process.env.TYPESENSE_URL) {
  const { TypesenseSearchIndex } = await import('../src/data/typesense-index.js');
  searchIndexContract(
    'typesense',
    async () => TypesenseSearchIndex.forTests(process.env.TYPESENSE_URL!, process.env.TYPESENSE_API_KEY ?? 'xyz'),
    9_100_000_000_000,
    street,
  );
} else {
  console.info('[autocomplete] SKIP: Typesense contract suite (set TYPESENSE_URL, and TYPESENSE_API_KEY, to run it)');
  describe.skip('SearchIndex contract: typesense (TYPESENSE_URL not set)', () => {
    it('runs when TYPESENSE_URL is set', () => {});
  });
}

describe('autocomplete service', () => {
  it('every suggestion of a typed address resolves through /property/detail to that property', async () => {
    const s = uniqueStreet();
    const ids = await insertProperties(pool, [
      makeProperty({ line1: `4521 N ${s} AVE`, line2: 'APT 2', zip: '95814' }),
      makeProperty({ line1: `4521 N ${s} AVE`, line2: 'APT 3', zip: '95814' }),
      makeProperty({ line1: `4529 N ${s} AVE`, zip: '95814' }),
    ]);
    await catchUp();
    let last: number[] = [];
    for (const typed of ['452', '4521', `4521 n`, `4521 north ${s.slice(0, 4).toLowerCase()}`, `4521 N ${s} Avenue`]) {
      const res = await ac.get(`/api/v1/property/autocomplete?q=${encodeURIComponent(typed)}&zip=95814`, auth);
      expect(res.status, typed).toBe(200);
      last = res.body.property.map((p: any) => p.identifier.Id);
    }
    expect(last).toEqual([ids[0], ids[1]]);
    const res = await ac.get(
      `/api/v1/property/autocomplete?q=${encodeURIComponent(`4521 N ${s} AVE`)}&zip=95814`,
      auth,
    );
    for (const suggestion of res.body.property) {
      const a = suggestion.address;
      const detail = await lookup.get(
        `/api/v1/property/detail?address=${encodeURIComponent(`${a.line1} ${a.line2}`)}&zip=${a.postal1}`,
        auth,
      );
      expect(detail.status).toBe(200);
      expect(detail.body.property.map((p: any) => p.identifier.Id)).toEqual([suggestion.identifier.Id]);
    }
  });

  it('status.total counts every matching suggestion (SPEC 2.2), not the `limit` returned', async () => {
    const s = uniqueStreet();
    await insertProperties(
      pool,
      Array.from({ length: 13 }, (_, i) => makeProperty({ line1: `77 ${s} ST`, line2: `APT ${i + 1}`, zip: '95814' })),
    );
    await catchUp();
    const res = await ac.get(`/api/v1/property/autocomplete?q=${encodeURIComponent(`77 ${s}`)}&limit=3`, auth);
    expect(res.status).toBe(200);
    expect(res.body.property).toHaveLength(3);
    expect(res.body.status).toMatchObject({ total: 13, pagesize: 3, records_returned: 3 });
  });

  it('counts each matching prefix once: covered prefixes are dropped, so the parts never overlap', () => {
    expect(uncoveredPrefixes(['123 ', '123'])).toEqual(['123']);
    expect(uncoveredPrefixes(['123 N MAIN ST', '123 N MAIN STRE', '123 N MAIN STRA'])).toEqual(['123 N MAIN ST']);
    expect(uncoveredPrefixes(['12 A', '12 B', '12 A'])).toEqual(['12 A', '12 B']);
  });

  it('is authenticated, not metered, and answers an empty list when nothing matches', async () => {
    const before = await billing.meter.balance(
      Number((await pool.query('SELECT max(id) AS id FROM billing.accounts')).rows[0].id),
    );
    const none = await ac.get(`/api/v1/property/autocomplete?q=${encodeURIComponent('99999 Qqzzxx St')}`, auth);
    expect(none.status).toBe(200);
    const body = PropertyResponse.pick({ status: true }).parse(none.body);
    expect(none.body.property).toEqual([]);
    expect(body.status).toMatchObject({
      code: 0,
      total: 0,
      pagesize: 8,
      records_returned: 0,
      truncated_by_credits: false,
    });
    expect(body.status.credits_remaining).toBe(before);
    expect((await ac.get('/api/v1/property/autocomplete?q=123%20Main')).status).toBe(401);
  });

  it('always carries credits_remaining: while balances are being reloaded it is a 503 with Retry-After', async () => {
    await billing.redis.del(billing.layout.shards[0]!.loaded);
    try {
      const res = await ac.get(`/api/v1/property/autocomplete?q=${encodeURIComponent('99999 Qqzzxx St')}`, auth);
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(res.body.status.msg).toMatch(/balances are being reloaded/);
    } finally {
      await billing.redis.set(billing.layout.shards[0]!.loaded, 'test');
    }
  });

  it.each([
    ['q=12', /'q'.*at least 3/],
    ['', /Missing required parameter 'q'/],
    ['q=Main%20Street', /house number, or give 'zip'/],
    ['q=123%20Main&limit=11', /'limit'.*at most 10/],
    ['q=123%20Main&limit=0', /'limit'.*at least 1/],
    ['q=123%20Main&zip=abc', /'zip'/],
    ['q=123%20Main&state=Cal', /'state'/],
  ])('400 for %s', async (qs, msg) => {
    const res = await ac.get(`/api/v1/property/autocomplete?${qs}`, auth);
    expect(res.status).toBe(400);
    expect(ErrorResponse.parse(res.body).status.msg).toMatch(msg);
  });

  it('indexes records written since, through the change feed (catch-up)', async () => {
    const s = uniqueStreet();
    const [id] = await insertProperties(pool, [makeProperty({ line1: `808 ${s} WAY`, zip: '95814' })]);
    expect(await catchUp()).toBeGreaterThanOrEqual(1);
    const res = await ac.get(`/api/v1/property/autocomplete?q=${encodeURIComponent(`808 ${s}`)}`, auth);
    expect(res.body.property.map((p: any) => p.identifier.Id)).toEqual([id]);
  });
});
