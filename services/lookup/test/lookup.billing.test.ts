// SPEC 4.10 through the real lookup app: 1 credit per record returned, never below 0 under concurrency,
// once per transaction id, 0 for errors, truncation when credits run out, 402 when none are left or all expired.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ErrorResponse, PropertyResponse } from '@pra/core/contracts';
import { insertProperties, makeProperty, rewriteBody, uniqueStreet } from '@pra/ingest/testing';
import { grantCredits, setKeyStatus } from '@pra/account-billing/domain';
import type { CreditMeter } from '@pra/account-billing/client';
import { countingPool, startApp } from '@pra/platform/testing';
import { createLookupApp } from '../src/app.js';
import { useLookupApp } from './lookup-harness.js';

const ctx = useLookupApp();

/** An address with `units` records, and the query that returns all of them. */
async function building(units: number): Promise<string> {
  const street = uniqueStreet();
  await insertProperties(
    ctx.pool,
    Array.from({ length: units }, (_, i) =>
      makeProperty({ line1: `10 ${street} ST`, line2: `APT ${i + 1}`, zip: '95814' }),
    ),
  );
  return `/api/v1/property/address?address=${encodeURIComponent(`10 ${street} ST`)}&zip=95814`;
}

async function account(credits: number, opts?: Parameters<typeof ctx.billing.fundedAccount>[1]) {
  const a = await ctx.billing.fundedAccount(credits, opts);
  return { ...a, headers: { authorization: `Bearer ${a.key}` } };
}

describe('charging', () => {
  it('200 concurrent requests on a balance of 50 return exactly 50 records in total and leave 0', async () => {
    const path = await building(4);
    const a = await account(50);
    const responses = await Promise.all(Array.from({ length: 200 }, () => ctx.app.get(path, a.headers)));
    const ok = responses.filter((r) => r.status === 200);
    const total = ok.reduce((s, r) => s + r.body.property.length, 0);
    expect(total).toBe(50);
    expect(ok.reduce((s, r) => s + r.body.status.records_returned, 0)).toBe(50);
    expect(responses.filter((r) => r.status === 402)).toHaveLength(200 - ok.length);
    expect(responses.every((r) => r.status === 200 || r.status === 402)).toBe(true);
    expect(Math.min(...ok.map((r) => r.body.status.credits_remaining))).toBe(0);
    expect(await ctx.billing.meter.balance(a.accountId)).toBe(0);
  });

  it('3 credits left and 10 matches return 3 records with truncated_by_credits', async () => {
    const path = await building(10);
    const a = await account(3);
    const res = await ctx.app.get(path, a.headers);
    expect(res.status).toBe(200);
    const body = PropertyResponse.parse(res.body);
    expect(body.property).toHaveLength(3);
    expect(body.status).toMatchObject({
      total: 10,
      records_returned: 3,
      truncated_by_credits: true,
      credits_remaining: 0,
    });
    const next = await ctx.app.get(path, a.headers);
    expect(next.status).toBe(402);
    expect(ErrorResponse.parse(next.body).status.code).toBe(402);
  });

  it('charges a repeated transaction id once, and refuses it for a different request', async () => {
    const path = await building(2);
    const other = await building(2);
    const a = await account(10);
    const id = randomUUID();
    const first = await ctx.app.get(path, { ...a.headers, 'x-request-id': id });
    const again = await ctx.app.get(path, { ...a.headers, 'x-request-id': id });
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.body.status).toMatchObject({ transactionID: id, records_returned: 2, credits_remaining: 8 });
    expect(await ctx.billing.meter.balance(a.accountId)).toBe(8);
    const reused = await ctx.app.get(other, { ...a.headers, 'x-request-id': id });
    expect(reused.status).toBe(400);
    expect(reused.body.status.msg).toMatch(/already used for a different request/);
    expect(await ctx.billing.meter.balance(a.accountId)).toBe(8);
  });

  it('charges 0 for any error', async () => {
    const a = await account(5);
    for (const path of [
      '/api/v1/property/address?address=1%20Main%20St',
      '/api/v1/property/address?address=1%20Nowhere%20Xyzzy%20St&zip=89501',
      '/api/v1/property/owner?lastName=Qwxzzyv',
      '/api/v1/sale/history?id=999999999999',
      '/api/v1/property/parcel?apn=---',
    ]) {
      const res = await ctx.app.get(path, a.headers);
      expect(res.status, path).toBeGreaterThanOrEqual(400);
    }
    expect(await ctx.billing.meter.balance(a.accountId)).toBe(5);
  });

  it('answers 402 when every grant has expired, and when there never were credits', async () => {
    const path = await building(1);
    const expired = await account(100, { grantedAt: new Date(Date.now() - 3 * 86_400_000), validDays: 1 });
    const res = await ctx.app.get(path, expired.headers);
    expect(res.status).toBe(402);
    expect(res.body.status.msg).toMatch(/No credits remaining|expired/);
    const none = await account(0);
    expect((await ctx.app.get(path, none.headers)).status).toBe(402);
  });

  it('answers an account that cannot pay 402 before any store read: found or not, it learns nothing', async () => {
    const found = await building(2);
    const missing = `/api/v1/property/address?address=${encodeURIComponent(`10 ${uniqueStreet()} ST`)}&zip=95814`;
    const statements: string[] = [];
    const app = await startApp(
      createLookupApp({
        pool: countingPool(ctx.pool, statements),
        meter: ctx.billing.meter,
        calls: ctx.billing.calls,
        auth: { development: true, keys: ctx.billing.keys },
      }),
    );
    try {
      const none = await account(0);
      for (const path of [found, missing, '/api/v1/property/owner?lastName=SMITH', '/api/v1/sale/history?id=1']) {
        const res = await app.get(path, none.headers);
        expect(res.status, path).toBe(402);
      }
      expect(statements).toEqual([]);
      // With credits, the same two requests are a 200 and a 404.
      const some = await account(5);
      expect((await app.get(found, some.headers)).status).toBe(200);
      expect((await app.get(missing, some.headers)).status).toBe(404);
    } finally {
      await app.close();
    }
  });
  it('an account on its last credit cannot learn from many searches at once which exist: a 404 once it is spent is a 402', async () => {
    const found = await building(1);
    const missing = `/api/v1/property/address?address=${encodeURIComponent(`10 ${uniqueStreet()} ST`)}&zip=95814`;
    // The search for the missing address is held in the store until another call has spent the last credit.
    let hold: Promise<void> | undefined;
    let release = () => {};
    let held = 0;
    const app = await startApp(
      createLookupApp({
        pool: countingPool(ctx.pool, [], async () => {
          if (!hold) return;
          held++;
          await hold;
        }),
        meter: ctx.billing.meter,
        calls: ctx.billing.calls,
        auth: { development: true, keys: ctx.billing.keys },
      }),
    );
    try {
      const a = await account(1);
      hold = new Promise((resolve) => {
        release = resolve;
      });
      const probe = app.get(missing, a.headers);
      for (let i = 0; i < 500 && held === 0; i++) await new Promise((r) => setTimeout(r, 10));
      expect(held).toBeGreaterThan(0);
      hold = undefined;
      expect((await app.get(found, a.headers)).status).toBe(200); // the last credit
      release();
      const res = await probe;
      expect(res.status).toBe(402); // not 404: "402 = found, 404 = not" would tell it for free
    } finally {
      release();
      await app.close();
    }
  });
});

describe('repeats of a charged request (Idempotency-Key)', () => {
  it('answer with the records paid for, as they were, whatever was added since; charged once', async () => {
    const street = uniqueStreet();
    const unit = (i: number) => makeProperty({ line1: `12 ${street} ST`, line2: `APT ${i}`, zip: '95814' });
    await insertProperties(ctx.pool, [1, 2, 3].map(unit));
    const path = `/api/v1/property/address?address=${encodeURIComponent(`12 ${street} ST`)}&zip=95814&pagesize=10`;
    const a = await account(100);
    const headers = { ...a.headers, 'idempotency-key': `poll-${street}` };
    const first = await ctx.app.get(path, headers);
    expect(first.status).toBe(200);
    expect(first.body.status).toMatchObject({ total: 3, records_returned: 3 });
    await insertProperties(ctx.pool, [4, 5].map(unit));
    const again = await ctx.app.get(path, headers);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body); // the same records, total and billing: no fresh search for free
    expect(await ctx.billing.meter.balance(a.accountId)).toBe(97);
    // Without the key the search is new (and charged).
    expect((await ctx.app.get(path, a.headers)).body.status).toMatchObject({ total: 5, records_returned: 5 });
  });

  it('answers the records paid for when credits were granted between the pre-check and the charge', async () => {
    const street = uniqueStreet();
    await insertProperties(
      ctx.pool,
      [1, 2, 3, 4, 5].map((i) => makeProperty({ line1: `16 ${street} ST`, line2: `APT ${i}`, zip: '95814' })),
    );
    const path = `/api/v1/property/address?address=${encodeURIComponent(`16 ${street} ST`)}&zip=95814`;
    const a = await account(2);
    // A top-up lands right after this request's pre-check (which saw 2 credits): its charge takes 5.
    let topUp = true;
    const meter: CreditMeter = {
      precheck: async (r) => {
        const answer = await ctx.billing.meter.precheck(r);
        if (topUp) await grantCredits(ctx.billing.deps, a.accountId, { amount: 10 });
        topUp = false;
        return answer;
      },
      charge: (r) => ctx.billing.meter.charge(r),
      balance: (id) => ctx.billing.meter.balance(id),
    };
    const app = await startApp(
      createLookupApp({
        pool: ctx.pool,
        meter,
        calls: ctx.billing.calls,
        auth: { development: true, keys: ctx.billing.keys },
      }),
    );
    try {
      const headers = { ...a.headers, 'idempotency-key': `topup-${street}` };
      const first = await app.get(path, headers);
      expect(first.body.status).toMatchObject({ records_returned: 5, truncated_by_credits: false });
      const again = await app.get(path, headers);
      expect(again.status).toBe(200);
      expect(again.body).toEqual(first.body);
    } finally {
      await app.close();
    }
  });

  it('is a 400 naming the change, never a 500 or newer data, when a paid record was removed or rewritten', async () => {
    const street = uniqueStreet();
    const ids = await insertProperties(
      ctx.pool,
      [1, 2, 3].map((i) => makeProperty({ line1: `14 ${street} ST`, line2: `APT ${i}`, zip: '95814' })),
    );
    const path = `/api/v1/property/address?address=${encodeURIComponent(`14 ${street} ST`)}&zip=95814`;
    const a = await account(100);
    const shrunk = { ...a.headers, 'idempotency-key': `shrink-${street}` };
    const rewritten = { ...a.headers, 'idempotency-key': `rewrite-${street}` };
    expect((await ctx.app.get(path, shrunk)).status).toBe(200);
    expect((await ctx.app.get(path, rewritten)).status).toBe(200);
    await rewriteBody(ctx.pool, ids[1]!, (json) => json.replace('"APT 2"', '"APT 2B"'));
    const changed = await ctx.app.get(path, rewritten);
    expect(changed.status).toBe(400);
    expect(changed.body.status.msg).toMatch(/changed or been removed since it was charged.*new Idempotency-Key/);
    expect(changed.body.status.reason).toBe('repeat_unavailable');
    await ctx.pool.query('DELETE FROM records.properties WHERE id = $1', [ids[2]]);
    const gone = await ctx.app.get(path, shrunk);
    expect(gone.status).toBe(400);
    expect(gone.body.status.reason).toBe('repeat_unavailable');
    expect(await ctx.billing.meter.balance(a.accountId)).toBe(94);
  });
});

describe('authentication', () => {
  it('401 without a key or with an unknown key, 403 with a disabled key; none of them charges', async () => {
    const path = await building(1);
    const noKey = await ctx.app.get(path);
    expect(noKey.status).toBe(401);
    expect(ErrorResponse.parse(noKey.body).status.code).toBe(401);
    expect((await ctx.app.get(path, { authorization: 'Bearer pra_live_nope' })).status).toBe(401);
    const a = await account(5);
    await setKeyStatus(ctx.billing.deps, a.keyId, 'disabled');
    const disabled = await ctx.app.get(path, a.headers);
    expect(disabled.status).toBe(403);
    expect(disabled.body.status.msg).toMatch(/disabled/);
    await setKeyStatus(ctx.billing.deps, a.keyId, 'active');
    expect((await ctx.app.get(path, a.headers)).status).toBe(200);
    expect(await ctx.billing.meter.balance(a.accountId)).toBe(4);
  });
});
