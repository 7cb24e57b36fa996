// Review of POST /property/batch (issue 27): what an account learns once its credits are gone, and a body that the
// service can parse but not fingerprint.
import { describe, expect, it } from 'vitest';
import { insertProperties, makeProperty, uniqueStreet } from '@pra/ingest/testing';
import { useLookupApp } from './lookup-harness.js';

const ctx = useLookupApp();

async function post(body: unknown, headers: Record<string, string>) {
  const res = await fetch(`${ctx.app.url}/api/v1/property/batch`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
}

describe('POST /property/batch (review)', () => {
  it('answers a 404 past the point where the credits ran out exactly 402, as the single calls would', async () => {
    const street = uniqueStreet();
    await insertProperties(ctx.pool, [makeProperty({ line1: `30 ${street} ST`, line2: '', zip: '60604' })]);
    await insertProperties(ctx.pool, [makeProperty({ line1: `40 ${street} ST`, line2: '', zip: '60604' })]);
    const at = (n: number) => ({ address: `${n} ${street} ST`, zip: '60604' });
    const a = await ctx.billing.fundedAccount(1);
    const headers = { authorization: `Bearer ${a.key}` };
    // The last credit pays for the first entry; then a probe that is stored nowhere, then one that is.
    const res = await post({ requests: [at(30), at(99), at(40)] }, headers);
    expect(res.status).toBe(200);
    expect(res.body.status).toMatchObject({ records_returned: 1, credits_remaining: 0 });
    // Single calls in that order: the second and third are refused 402 (balance 0) whatever the store holds. The
    // batch must not tell the missing one (404) from the stored one (402) for free.
    expect(res.body.results.map((r: any) => r.status.code)).toEqual([0, 402, 402]);
  });

  it('refuses a deeply nested body with a 400, never a 500', async () => {
    const a = await ctx.billing.fundedAccount(10);
    const n = 100_000;
    const body = `{"requests":[{"address":${'['.repeat(n)}${']'.repeat(n)},"zip":"60604"}]}`;
    expect(body.length).toBeLessThan(256 * 1024);
    const res = await post(body, { authorization: `Bearer ${a.key}` });
    expect(res.status).toBeLessThan(500);
    expect(await ctx.billing.meter.balance(a.accountId)).toBe(10);
  });
});

describe('preview=true (review)', () => {
  it('tells the cost, not the stored address: no status.match, nor a match in a batch entry', async () => {
    const street = uniqueStreet();
    await insertProperties(ctx.pool, [makeProperty({ line1: `77 ${street} AVE`, line2: '', zip: '60604' })]);
    // The street type is left out of the address asked.
    const a = await ctx.billing.fundedAccount(5);
    const headers = { authorization: `Bearer ${a.key}` };
    const single = await fetch(
      `${ctx.app.url}/api/v1/property/address?address=77%20${encodeURIComponent(street)}&zip=60604&preview=true`,
      { headers },
    );
    const one = (await single.json()) as any;
    expect(single.status).toBe(200);
    expect(one.status).toMatchObject({ total: 1, credits_required: 1, records_returned: 0 });
    expect(one.status.match).toBeUndefined();
    const batch = await fetch(`${ctx.app.url}/api/v1/property/batch?preview=true`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ requests: [{ address: `77 ${street}`, zip: '60604' }] }),
    });
    const many = (await batch.json()) as any;
    expect(batch.status).toBe(200);
    expect(many.results[0].status).toMatchObject({ credits_required: 1 });
    expect(many.results[0].match).toBeNull();
    expect(await ctx.billing.meter.balance(a.accountId)).toBe(5);
  });

  it('is refused (402) to an account out of credits, before any search: not even a total is told', async () => {
    const a = await ctx.billing.fundedAccount(0);
    const headers = { authorization: `Bearer ${a.key}` };
    const single = await fetch(`${ctx.app.url}/api/v1/property/owner?lastName=SMITH&preview=true`, { headers });
    expect(single.status).toBe(402);
    const batch = await fetch(`${ctx.app.url}/api/v1/property/batch?preview=true`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ requests: [{ address: '1 Main St', zip: '60604' }] }),
    });
    expect(batch.status).toBe(402);
  });
});
