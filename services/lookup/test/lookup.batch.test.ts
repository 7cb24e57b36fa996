// POST /property/batch (issue 27) through the real app: one result per entry in order, billed as the single calls
// would be under one transaction, truncated in order when credits run out (and nothing learnt past that point),
// repeats under an Idempotency-Key answered alike, bad bodies refused uncharged. Over generated batches too.
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { grantCredits } from '@pra/account-billing/domain';
import { insertProperties, makeProperty, uniqueStreet } from '@pra/ingest/testing';
import { useLookupApp } from './lookup-harness.js';

const ctx = useLookupApp();

async function post(body: unknown, o: { key?: string; headers?: Record<string, string>; query?: string } = {}) {
  const res = await fetch(`${ctx.app.url}/api/v1/property/batch${o.query ?? ''}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(o.headers ?? ctx.auth),
      ...(o.key ? { 'idempotency-key': o.key } : {}),
    },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any, headers: res.headers };
}

/** Four buildings: two of 2 units, one of 1 record, one of 3 units; and an address stored nowhere. */
let street: string;
let ids: Record<'two' | 'twoB' | 'one' | 'three', number[]>;
const entry = (what: 'two' | 'twoB' | 'one' | 'three' | 'missing' | 'invalid', id?: string) => {
  const number = { two: 10, twoB: 20, one: 30, three: 40, missing: 99, invalid: 1 }[what];
  if (what === 'invalid') return { id, address: `${number} ${street} ST` }; // no zip, no city
  return { id, address: `${number} ${street} ST`, zip: 60604 };
};

beforeAll(async () => {
  street = uniqueStreet();
  const at = (n: number, units: number) =>
    Array.from({ length: units }, (_, i) =>
      makeProperty({ line1: `${n} ${street} ST`, line2: units > 1 ? `APT ${i + 1}` : '', zip: '60604' }),
    );
  ids = {
    two: await insertProperties(ctx.pool, at(10, 2)),
    twoB: await insertProperties(ctx.pool, at(20, 2)),
    one: await insertProperties(ctx.pool, at(30, 1)),
    three: await insertProperties(ctx.pool, at(40, 3)),
  };
});

const idsOf = (r: any) => r.property.map((p: any) => p.identifier.Id).sort((a: number, b: number) => a - b);

describe('POST /property/batch', () => {
  it('answers each entry in order with its id, status, match and records; charges the records returned', async () => {
    const a = await ctx.billing.fundedAccount(100);
    const res = await post(
      { requests: [entry('two', 'a1'), entry('missing', 'a2'), entry('invalid', 'a3'), entry('one')] },
      { headers: { authorization: `Bearer ${a.key}` } },
    );
    expect(res.status).toBe(200);
    const [two, missing, invalid, one] = res.body.results;
    expect(two).toMatchObject({ id: 'a1', status: { code: 0, total: 2, records_returned: 2 } });
    expect(idsOf(two)).toEqual(ids.two);
    expect(two.match).toMatchObject({ type: 'exact' });
    expect(missing).toMatchObject({ id: 'a2', status: { code: 404, records_returned: 0 }, match: null, property: [] });
    expect(invalid.status.code).toBe(400);
    expect(invalid.status.msg).toMatch(/requests\[2\].*(city|zip)/);
    expect(one).toMatchObject({ id: null, status: { code: 0, records_returned: 1 } });
    expect(res.body.status).toMatchObject({ code: 0, records_returned: 3, credits_remaining: 97 });
    expect(res.headers.get('x-request-id')).toBe(res.body.status.transactionID);
    expect(await ctx.billing.meter.balance(a.accountId)).toBe(97);
  });

  it('truncates in order when the credits run out, and answers every later entry 402, a 404 too', async () => {
    const a = await ctx.billing.fundedAccount(3);
    const res = await post(
      { requests: [entry('two'), entry('twoB'), entry('missing'), entry('one'), entry('invalid')] },
      { headers: { authorization: `Bearer ${a.key}` } },
    );
    expect(res.status).toBe(200);
    const codes = res.body.results.map((r: any) => [r.status.code, r.status.records_returned]);
    expect(codes).toEqual([
      [0, 2],
      [0, 1],
      [402, 0],
      [402, 0],
      [400, 0],
    ]);
    expect(res.body.results[1].status.truncated_by_credits).toBe(true);
    expect(res.body.status).toMatchObject({ records_returned: 3, credits_remaining: 0, truncated_by_credits: true });
    // Out of credits: the whole batch is a 402, and says nothing of what it would find.
    const broke = await post(
      { requests: [entry('missing'), entry('one')] },
      { headers: { authorization: `Bearer ${a.key}` } },
    );
    expect(broke.status).toBe(402);
  });

  it('a repeat under its Idempotency-Key is answered as the first call, charged once; another body is a 400', async () => {
    const a = await ctx.billing.fundedAccount(4);
    const headers = { authorization: `Bearer ${a.key}` };
    const key = randomUUID();
    // A building of this test's own, which grows after the first call.
    await insertProperties(ctx.pool, [
      makeProperty({ line1: `50 ${street} ST`, line2: 'APT 1', zip: '60604' }),
      makeProperty({ line1: `50 ${street} ST`, line2: 'APT 2', zip: '60604' }),
    ]);
    const grows = { address: `50 ${street} ST`, zip: '60604', id: 'x' };
    const body = { requests: [grows, entry('missing', 'y'), entry('three', 'z')] };
    const first = await post(body, { key, headers });
    expect(first.body.status.records_returned).toBe(4);
    expect(first.body.results[2].status.truncated_by_credits).toBe(true);
    await grantCredits(ctx.billing.deps, a.accountId, { amount: 10 });
    // A building's records grow after the first call: the repeat still answers what was paid for.
    await insertProperties(ctx.pool, [makeProperty({ line1: `50 ${street} ST`, line2: 'APT 9', zip: '60604' })]);
    const again = await post(body, { key, headers });
    expect(again.body).toEqual(first.body);
    expect(await ctx.billing.meter.balance(a.accountId)).toBe(10);
    const other = await post({ requests: [entry('one')] }, { key, headers });
    expect(other.status).toBe(400);
    expect(other.body.status.msg).toMatch(/Idempotency-Key/);
  });

  it('preview=true tells each entry and the whole batch its cost, charges nothing; max_credits caps the batch', async () => {
    const a = await ctx.billing.fundedAccount(10);
    const headers = { authorization: `Bearer ${a.key}` };
    const body = { requests: [entry('two'), entry('missing'), entry('three')] };
    const preview = await post(body, { headers, query: '?preview=true' });
    expect(preview.status).toBe(200);
    expect(preview.body.results.map((r: any) => r.status.credits_required ?? null)).toEqual([2, null, 3]);
    expect(preview.body.results.every((r: any) => r.property.length === 0)).toBe(true);
    expect(preview.body.status).toMatchObject({ credits_required: 5, records_returned: 0, credits_remaining: 10 });
    const capped = await post(body, { headers, query: '?max_credits=4' });
    expect(capped.status).toBe(402);
    expect(capped.body.status.msg).toMatch(/would cost 5 credits.*max_credits=4/);
    expect(await ctx.billing.meter.balance(a.accountId)).toBe(10);
    expect((await post(body, { headers, query: '?max_credits=5' })).body.status.records_returned).toBe(5);
  });

  it('refuses a body it cannot read with a 400 naming the problem, and any other method with a 405', async () => {
    const a = await ctx.billing.fundedAccount(10);
    const headers = { authorization: `Bearer ${a.key}` };
    const cases: [unknown, RegExp][] = [
      ['{"requests": [', /not JSON/],
      ['', /empty/],
      [[1, 2], /must be a JSON object/],
      [{}, /Missing field 'requests'/],
      [{ requests: 'x' }, /must be a list/],
      [{ requests: [] }, /at least one entry/],
      [
        { requests: Array.from({ length: 101 }, () => entry('one')) },
        /'requests' \(101 entries\): must hold at most 100/,
      ],
      [{ requests: [entry('one')], extra: 1 }, /Unknown field 'extra'/],
      [
        { requests: [entry('one')], ...Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`k${i}`, 1])) },
        /^Unknown fields 'k0', .*'k9', \.\.\. in the body/,
      ],
      [`{"requests":[{"address":"${'9'.repeat(300_000)}"}]}`, /more than the 256 KB allowed/],
      // Costly to parse (~100 ms of JSON.parse for 256 KB of nested arrays): refused unparsed.
      [`{"requests":${'['.repeat(100_000)}${']'.repeat(100_000)}}`, /nests deeper than 8 levels/],
    ];
    for (const [body, msg] of cases) {
      const res = await post(body, { headers });
      expect(res.status, String(msg)).toBe(400);
      expect(res.body.status.msg).toMatch(msg);
    }
    const unknownField = await post({ requests: [{ ...entry('one'), postal2: '1' }] }, { headers });
    expect(unknownField.body.results[0].status).toMatchObject({ code: 400 });
    expect(unknownField.body.results[0].status.msg).toMatch(/Unknown parameter 'postal2'/);
    const get = await fetch(`${ctx.app.url}/api/v1/property/batch`, { headers });
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    expect(await ctx.billing.meter.balance(a.accountId)).toBe(10);
  });

  it('for any batch and balance: records returned = min(balance, found), given in order; the balance drops by it', async () => {
    const kinds = ['two', 'twoB', 'one', 'three', 'missing', 'invalid'] as const;
    const found = { two: 2, twoB: 2, one: 1, three: 3, missing: 0, invalid: 0 };
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom(...kinds), { minLength: 1, maxLength: 12 }),
        fc.nat(12),
        fc.boolean(),
        async (batch, credits, keyed) => {
          const a = await ctx.billing.fundedAccount(credits);
          const headers = { authorization: `Bearer ${a.key}` };
          const key = keyed ? randomUUID() : undefined;
          const body = { requests: batch.map((k, i) => entry(k, String(i))) };
          const res = await post(body, { headers, key });
          const total = batch.reduce((n, k) => n + found[k], 0);
          if (credits === 0) {
            // An account that cannot pay: the whole batch is a 402 (its pre-check), whatever its entries.

            expect(res.status).toBe(402);
            return;
          }
          expect(res.status).toBe(200);
          const returned = Math.min(credits, total);
          expect(res.body.status.records_returned).toBe(returned);
          expect(await ctx.billing.meter.balance(a.accountId)).toBe(credits - returned);
          let left = returned;
          let ranOut = false;
          for (const [i, r] of (res.body.results as any[]).entries()) {
            const k = batch[i]!;
            expect(r.id).toBe(String(i));
            expect(r.property).toHaveLength(r.status.records_returned);
            if (k === 'invalid') {
              expect(r.status.code).toBe(400);
              continue;
            }
            const take = Math.min(left, found[k]);
            left -= take;
            if (k === 'missing') {
              expect(r.status.code).toBe(ranOut ? 402 : 404);
              continue;
            }
            if (take === 0) {
              ranOut = true;
              expect(r.status.code).toBe(402);
              continue;
            }
            expect(r.status.records_returned).toBe(take);
            // The last credit paid for this entry's last record: a later single call would be a 402 too.
            ranOut ||= take < found[k] || (left === 0 && credits === returned);
          }
          if (key) {
            const again = await post(body, { headers, key });
            expect(again.body).toEqual(res.body);
            expect(await ctx.billing.meter.balance(a.accountId)).toBe(credits - returned);
          }
        },
      ),
      // The case a run once drew: only invalid entries, from an account that cannot pay.
      { numRuns: 30, examples: [[['invalid'], 0, false]] },
    );
  });
});
