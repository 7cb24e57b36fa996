// Free work is bounded like paid work (issue 35): a preview, and a call refused by its max_credits, count on the index
// and never read a record body; a batch of 100 previews at an address of 48 units costs the store 100 counts, run a
// few at a time per process (the free work lane), however many such previews are in flight. Through the real app,
// with a pool that counts the body rows each statement returns and the count statements running at once.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createPool, type Pool } from '@pra/platform';
import { insertProperties, makeProperty, uniqueStreet, uniqueSurname } from '@pra/ingest/testing';
import { FREE_WORK_LANE_WIDTH } from '../src/domain/work-lane.js';
import { useLookupApp } from './lookup-harness.js';

let base: Pool;
/** Rows with a record body returned to the app, and the count statements running now and at most. */
const seen = { bodyRows: 0, countsRunning: 0, countsAtOnce: 0, counts: 0 };

/** The pool, counting what comes back: any row with a `body` is a record body read from the store. */
function bodyCountingPool(pool: Pool): Pool {
  return new Proxy(pool, {
    get(target, prop) {
      if (prop === 'query') {
        return async (q: string | { name?: string; text: string }, ...rest: unknown[]) => {
          const name = typeof q === 'string' ? q : (q.name ?? q.text);
          const counting = /_count/.test(name);
          if (counting) {
            seen.counts++;
            seen.countsAtOnce = Math.max(seen.countsAtOnce, ++seen.countsRunning);
          }
          try {
            const result = (await (target.query as (...a: unknown[]) => Promise<{ rows: unknown[] }>)(q, ...rest)) as {
              rows: Record<string, unknown>[];
            };
            seen.bodyRows += result.rows.filter((r) => r.body !== undefined && r.body !== null).length;
            return result;
          } finally {
            if (counting) seen.countsRunning--;
          }
        };
      }
      const v = Reflect.get(target, prop);
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
}

beforeAll(() => {
  base = createPool(inject('databaseUrl'), 8);
});
const ctx = useLookupApp(1, () => bodyCountingPool(base));
afterAll(async () => {
  await base.end();
});

let address: string;
let owner: string;
beforeAll(async () => {
  const street = uniqueStreet();
  owner = uniqueSurname('ZQ');
  address = `48 ${street} ST`;
  await insertProperties(
    base,
    Array.from({ length: 48 }, (_, i) =>
      makeProperty({
        line1: address,
        line2: `APT ${i + 1}`,
        zip: '95814',
        owner1: { firstName: 'ANN', lastName: owner, fullName: `ANN ${owner}`, type: 'Individual' },
      }),
    ),
  );
});

const reset = () => {
  seen.bodyRows = 0;
  seen.countsAtOnce = 0;
  seen.counts = 0;
};
/** The worst case: 100 copies of the 48-unit address at pagesize 100; `distinct`: 100 different pages of it. */
const batch = (query: string, distinct = false) =>
  fetch(`${ctx.app.url}/api/v1/property/batch?${query}`, {
    method: 'POST',
    headers: { ...ctx.auth, 'content-type': 'application/json' },
    body: JSON.stringify({
      requests: Array.from({ length: 100 }, (_, i) => ({
        address,
        zip: '95814',
        pagesize: distinct ? String(i + 1) : '100',
      })),
    }),
  });

describe('free work reads no record body', () => {
  it('a worst-case batch preview (100 entries x pagesize 100 at 48 units, 1 credit) counts, reads nothing', async () => {
    reset();
    const res = await batch('preview=true');
    const body = (await res.json()) as any;
    expect(res.status).toBe(200);
    expect(body.status.credits_required).toBe(4800);
    expect(body.results[99].status.credits_required).toBe(48);
    expect(seen.bodyRows).toBe(0);
    // 100 copies of one lookup: counted once.
    expect(seen.counts).toBe(1);
    reset();
    const distinct = await batch('preview=true', true);
    // pagesize 1 to 100 at 48 units: 1 + 2 + ... + 48, then 48 for each of the 52 others.
    expect(((await distinct.json()) as any).status.credits_required).toBe((48 * 49) / 2 + 52 * 48);
    expect(seen.counts).toBe(100);
    expect(seen.bodyRows).toBe(0);
  });

  it('max_credits refuses on counts: the 402 reads no body', async () => {
    reset();
    const res = await batch('max_credits=0');
    expect(res.status).toBe(402);
    expect(((await res.json()) as any).status.msg).toMatch(/4,800 records/);
    reset();
    const single = await ctx.get(
      `/api/v1/property/address?address=${encodeURIComponent(address)}&zip=95814&pagesize=100&max_credits=3`,
    );
    expect(single.status).toBe(402);
    expect(seen.bodyRows).toBe(0);
  });

  it('single previews (address, owner) read no body', async () => {
    reset();
    const a = await ctx.get(
      `/api/v1/property/address?address=${encodeURIComponent(address)}&zip=95814&pagesize=100&preview=true`,
    );
    expect(a.body.status.credits_required).toBe(48);
    const o = await ctx.get(`/api/v1/property/owner?lastName=${owner}&pagesize=100&preview=true`);
    expect(o.body.status.credits_required).toBe(48);
    expect(seen.bodyRows).toBe(0);
  });

  it(`eight worst-case previews at once run at most ${FREE_WORK_LANE_WIDTH} count at a time`, async () => {
    reset();
    const answers = await Promise.all(Array.from({ length: 8 }, () => batch('preview=true', true)));
    // Each answered, or (a machine too slow for all eight within the lane's longest wait, 10 s) refused with the
    // lane's uncharged 503 before its counts ran: the bound holds either way.
    const answered = answers.filter((r) => r.status === 200).length;
    for (const r of answers.filter((r) => r.status !== 200)) {
      expect(r.status).toBe(503);
      expect(((await r.json()) as any).status.msg).toMatch(/Too many free previews are waiting/);
    }
    expect(answered).toBeGreaterThan(0);
    expect(seen.counts).toBeGreaterThanOrEqual(100 * answered);
    expect(seen.countsAtOnce).toBeLessThanOrEqual(FREE_WORK_LANE_WIDTH);
    expect(seen.bodyRows).toBe(0);
    // What the counter sees of a paid call (the account's 1 credit): its body.
    const paid = await ctx.get(`/api/v1/property/address?address=${encodeURIComponent(address)}&zip=95814&pagesize=5`);
    expect(paid.status).toBe(200);
    expect(seen.bodyRows).toBeGreaterThanOrEqual(1);
  }, 60_000);
});
