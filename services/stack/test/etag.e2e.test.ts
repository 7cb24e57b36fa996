// Issue 38 through the local gateway (kong.yml's routes, the pra-gateway plugin, the services in gateway mode) with
// the real usage pipeline: an unchanged record asked with its ETag is a free 304 that the gateway forwards and passes
// back, rate-limits and counts toward the daily quota like any call, and /usage counts; the typed client keeps its own
// cache when asked and hands a kept answer back on a 304.
import { describe, expect, it } from 'vitest';
import { setAccountLimits } from '@pra/account-billing/domain';
import { UsageResponse } from '@pra/core/contracts';
import { insertProperties, makeProperty, rewriteProperties, uniqueStreet } from '@pra/ingest/testing';
import { AnswerCache, batchLookup, createPropertyRecordsClient, isNotModified } from '@pra/client';
import { useSystem } from './system-harness.js';

const ctx = useSystem('etg', { only: ['lookup', 'account-billing'], usagePipeline: true });

/** A building of `units` records, its ids, what was stored and its address query. */
async function building(units: number) {
  const street = uniqueStreet();
  const items = Array.from({ length: units }, (_, i) =>
    makeProperty({ line1: `4 ${street} ST`, line2: `UNIT ${i + 1}`, zip: '95814' }),
  );
  const ids = await insertProperties(ctx.pool, items);
  return { ids, items, street, query: `address=${encodeURIComponent(`4 ${street} ST`)}&zip=95814` };
}

const get = (key: string, path: string, headers: Record<string, string> = {}) =>
  fetch(`${ctx.system.gatewayUrl}/api/v1${path}`, { headers: { authorization: `Bearer ${key}`, ...headers } });

/** /usage through the gateway once the pipeline has written (at least) `calls` calls of today. */
async function usageOnceWritten(key: string, calls: number) {
  for (let i = 0; i < 100; i++) {
    const usage = UsageResponse.parse(await (await get(key, '/usage')).json());
    if (usage.calls.today >= calls) return usage;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`the pipeline did not write ${calls} calls`);
}

/** What the gateway's daily quota has counted for the account today. */
async function quotaCount(accountId: number): Promise<number> {
  const v = await ctx.billing.redis.get(`${ctx.billing.layout.prefix}quota:${accountId}`);
  return Number(v?.split(':')[1] ?? 0);
}

describe('through the local gateway', () => {
  it('an unchanged record asked with its ETag is a free 304, rate-limited, quota-counted and in /usage like any call', async () => {
    const { query } = await building(2);
    const a = await ctx.billing.fundedAccount(10, { tier: 'growth' });
    await setAccountLimits(ctx.billing.deps, a.accountId, { ratePerMinute: 4, dailyQuota: 100 });
    const first = await get(a.key, `/property/address?${query}`);
    expect(first.status).toBe(200);
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^"[\w-]{22}"$/);
    expect(first.headers.get('ratelimit-remaining')).toBe('3');
    await first.arrayBuffer();
    for (const remaining of ['2', '1', '0']) {
      const again = await get(a.key, `/property/address?${query}`, { 'if-none-match': etag! });
      expect(again.status).toBe(304);
      expect(await again.text()).toBe('');
      expect(again.headers.get('etag')).toBe(etag);
      expect(again.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
      // Admitted by the plugin like any call: it took a slot of the minute.
      expect(again.headers.get('ratelimit-remaining')).toBe(remaining);
    }
    // The minute is used up: a conditional request is refused like any other.
    const limited = await get(a.key, `/property/address?${query}`, { 'if-none-match': etag! });
    expect(limited.status).toBe(429);
    expect(((await limited.json()) as { status: { reason: string } }).status.reason).toBe('rate_limited');
    expect(await ctx.billing.meter.balance(a.accountId)).toBe(8);
    // Four calls reached the lookup (the 429 did not): the quota and /usage count four, 2 credits used.
    expect(await quotaCount(a.accountId)).toBe(4);
    const usage = await usageOnceWritten(a.key, 4);
    expect(usage.calls.today).toBe(4);
    expect(usage.credits).toMatchObject({ used: 2, balance: 8 });
  });

  it('a changed record is a new answer, charged, with a new tag', async () => {
    const { ids, items, query } = await building(1);
    const a = await ctx.billing.fundedAccount(10, { tier: 'growth' });
    const first = await get(a.key, `/property/address?${query}`);
    const etag = first.headers.get('etag')!;
    await first.arrayBuffer();
    await rewriteProperties(ctx.pool, ids, [{ ...items[0]!, beds: 7, lastModified: new Date().toISOString() }]);
    const changed = await get(a.key, `/property/address?${query}`, { 'if-none-match': etag });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(etag);
    const body = (await changed.json()) as { property: { building: { rooms: { beds: number } } }[] };
    expect(body.property[0]!.building.rooms.beds).toBe(7);
    expect(await ctx.billing.meter.balance(a.accountId)).toBe(8);
  });
});

describe('@pra/client with its cache', () => {
  const baseUrl = () => `${ctx.system.gatewayUrl}/api/v1`;

  it('sends the tag it holds and hands back its kept answer on a 304, for 0 credits; a change is fetched anew', async () => {
    const { ids, items, street } = await building(2);
    const a = await ctx.billing.fundedAccount(20, { tier: 'growth' });
    const cache = new AnswerCache();
    const api = createPropertyRecordsClient({ baseUrl: baseUrl(), apiKey: a.key, cache });
    const ask = () => api.GET('/property/address', { params: { query: { address: `4 ${street} ST`, zip: '95814' } } });
    const first = await ask();
    expect(first.response.status).toBe(200);
    expect(isNotModified(first.response)).toBe(false);
    expect(cache.size).toBe(1);
    const second = await ask();
    expect(isNotModified(second.response)).toBe(true);
    expect(second.data).toEqual(first.data);
    // This call's own id and limits; the body's status is the first answer's.
    expect(second.response.headers.get('x-request-id')).not.toBe(first.data!.status.transactionID);
    expect(second.response.headers.get('ratelimit-remaining')).not.toBeNull();
    expect(await ctx.billing.meter.balance(a.accountId)).toBe(18);
    // Re-imported with a change: the tag held is stale, the new records are fetched, charged and kept.
    await rewriteProperties(
      ctx.pool,
      [ids[0]!],
      [{ ...items[0]!, yearBuilt: 1905, lastModified: new Date().toISOString() }],
    );
    const third = await ask();
    expect(isNotModified(third.response)).toBe(false);
    expect(third.data!.property[0]!.summary.yearbuilt).toBe(1905);
    expect(await ctx.billing.meter.balance(a.accountId)).toBe(16);
    const fourth = await ask();
    expect(isNotModified(fourth.response)).toBe(true);
    expect(fourth.data).toEqual(third.data);
    expect(await ctx.billing.meter.balance(a.accountId)).toBe(16);
    const usage = await usageOnceWritten(a.key, 4);
    expect(usage.calls.today).toBe(4);
    expect(usage.credits.used).toBe(4);
  });

  it('without the option nothing is kept: every call is a new answer, charged', async () => {
    const { street } = await building(1);
    const a = await ctx.billing.fundedAccount(5, { tier: 'growth' });
    const api = createPropertyRecordsClient({ baseUrl: baseUrl(), apiKey: a.key });
    for (let i = 0; i < 2; i++) {
      const { response } = await api.GET('/property/address', {
        params: { query: { address: `4 ${street} ST`, zip: '95814' } },
      });
      expect(response.status).toBe(200);
      expect(isNotModified(response)).toBe(false);
    }
    expect(await ctx.billing.meter.balance(a.accountId)).toBe(3);
  });

  it('a batch list asked again is answered from the cache, chunk by chunk, for 0 credits', async () => {
    const one = await building(2);
    const two = await building(1);
    const a = await ctx.billing.fundedAccount(50, { tier: 'growth' });
    const api = createPropertyRecordsClient({ baseUrl: baseUrl(), apiKey: a.key, cache: { maxEntries: 10 } });
    const entries = Array.from({ length: 5 }, (_, i) => ({
      id: `e${i}`,
      address: `4 ${(i % 2 ? one : two).street} ST`,
      zip: '95814',
    }));
    const first = await batchLookup(api, entries, { chunkSize: 2 });
    expect(first.recordsReturned).toBe(7);
    expect(await ctx.billing.meter.balance(a.accountId)).toBe(43);
    const again = await batchLookup(api, entries, { chunkSize: 2 });
    expect(again.results).toEqual(first.results);
    expect(await ctx.billing.meter.balance(a.accountId)).toBe(43);
  });
});
