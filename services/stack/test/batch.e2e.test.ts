// The batch lookup through the local gateway (issue 27): a POST with its body reaches the lookup and is billed per
// record; it counts one call per 10 entries for the rate limit and the daily quota (3 entries: 1); another method is a 405 naming POST; a body past
// the route's size limit is refused at the edge (413), uncharged.
import { describe, expect, it } from 'vitest';
import { insertProperties, makeProperty, uniqueStreet } from '@pra/ingest/testing';
import { useSystem } from './system-harness.js';

const street = uniqueStreet();
const ctx = useSystem('bat', {
  setup: async (pool) => {
    await insertProperties(pool, [
      makeProperty({ line1: `7 ${street} ST`, line2: 'APT 1', zip: '95814' }),
      makeProperty({ line1: `7 ${street} ST`, line2: 'APT 2', zip: '95814' }),
      makeProperty({ line1: `9 ${street} ST`, zip: '95814' }),
    ]);
  },
});

const batch = (key: string, body: string, method = 'POST') =>
  fetch(`${ctx.system.gatewayUrl}/api/v1/property/batch`, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    ...(method === 'POST' ? { body } : {}),
  });

/** What the gateway's daily quota has counted for the account today. */
async function quotaCount(accountId: number): Promise<number> {
  const v = await ctx.billing.redis.get(`${ctx.billing.layout.prefix}quota:${accountId}`);
  return Number(v?.split(':')[1] ?? 0);
}

describe('POST /api/v1/property/batch through the gateway', () => {
  it('answers every entry, bills its records, and counts one call', async () => {
    const a = await ctx.billing.fundedAccount(10, { tier: 'growth' });
    const body = JSON.stringify({
      requests: [
        { id: 'a', address: `7 ${street} St`, zip: '95814' },
        { id: 'b', address: `8 ${street} St`, zip: '95814' },
        { id: 'c', address: `9 ${street} Street`, zip: 95814 },
      ],
    });
    const res = await batch(a.key, body);
    expect(res.status).toBe(200);
    const json = (await res.json()) as any;
    expect(json.results.map((r: any) => [r.id, r.status.code, r.property.length])).toEqual([
      ['a', 0, 2],
      ['b', 404, 0],
      ['c', 0, 1],
    ]);
    expect(json.results[2].match.type).toBe('standardized');
    expect(json.status).toMatchObject({ records_returned: 3, credits_remaining: 7 });
    expect(res.headers.get('ratelimit-limit')).not.toBeNull();
    expect(await quotaCount(a.accountId)).toBe(1);
  });

  it('refuses another method with 405 naming POST, and a body past the size limit with 413, uncharged', async () => {
    const a = await ctx.billing.fundedAccount(10, { tier: 'growth' });
    const get = await batch(a.key, '', 'GET');
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    expect(((await get.json()) as any).status.reason).toBe('method_not_allowed');
    const huge = JSON.stringify({ requests: [{ address: `7 ${street} St ${'X'.repeat(300_000)}`, zip: '95814' }] });
    const tooBig = await batch(a.key, huge);
    expect(tooBig.status).toBe(413);
    const refused = (await tooBig.json()) as any;
    expect(refused.status.msg).toBe('Request size limit exceeded: at most 256 KB');
    expect(refused.status.reason).toBe('payload_too_large');
    const onAddress = await fetch(`${ctx.system.gatewayUrl}/api/v1/property/address`, {
      method: 'POST',
      headers: { authorization: `Bearer ${a.key}` },
    });
    expect(onAddress.status).toBe(405);
    expect(onAddress.headers.get('allow')).toBe('GET');
    expect(await ctx.billing.meter.balance(a.accountId)).toBe(10);
  });
});
