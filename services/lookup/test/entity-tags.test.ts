// Issue 38, "Unchanged is free", through the real lookup app on PostgreSQL and Redis: every record answer carries a
// strong ETag over the records it returned; a request whose If-None-Match holds it is a 304 with no body, charged
// nothing, counted as a call in /usage; anything else (another tag, page or account, a changed record, a page that
// credits cut) is the usual 200, charged. Keyed repeats, previews, refusals and the batch keep their rules.
import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { grantCredits } from '@pra/account-billing/domain';
import { LEDGER_GROUP, LedgerWriter } from '@pra/account-billing/ledger-writer';
import { CallFlusher } from '@pra/account-billing/call-flusher';
import { usageReport } from '@pra/account-billing/usage-report';
import { keyedTransactionId } from '@pra/platform';
import { insertProperties, makeProperty, rewriteProperties, uniqueStreet, uniqueSurname } from '@pra/ingest/testing';
import { useLookupApp } from './lookup-harness.js';

const ctx = useLookupApp();
let writer: LedgerWriter;
let flusher: CallFlusher;

beforeAll(async () => {
  const f = ctx.billing;
  for (const s of f.layout.shards) await f.redis.xgroup('CREATE', s.outbox, LEDGER_GROUP, '0', 'MKSTREAM');
  writer = new LedgerWriter({ pool: ctx.pool, redis: f.redis, layout: f.layout, log: () => {}, blockMs: 1 });
  flusher = new CallFlusher({ pool: ctx.pool, redis: f.redis, layout: f.layout, log: () => {}, consumer: 'etag' });
});

/** `/usage` of an account once its charges are written and its calls flushed (`calls` of them made). */
async function usage(accountId: number, calls: number) {
  const f = ctx.billing;
  for (let i = 0; i < 1_000; i++) {
    const lengths = await Promise.all(f.layout.shards.map((s) => f.redis.xlen(s.outbox)));
    if (lengths.every((n) => n === 0)) break;
    await writer.writeOnce();
  }
  // A call is counted once its response is sent: the last may still be on its way.
  for (let i = 0; i < 100; i++) {
    await flusher.flushOnce();
    if ((await usageReport(ctx.pool, accountId)).calls.total >= calls) break;
    await new Promise((r) => setTimeout(r, 20));
  }
  return usageReport(ctx.pool, accountId);
}

async function account(credits: number) {
  const a = await ctx.billing.fundedAccount(credits);
  return { ...a, headers: { authorization: `Bearer ${a.key}` } as Record<string, string> };
}

const balance = (accountId: number) => ctx.billing.meter.balance(accountId);

/** GET with If-None-Match (when given): status, ETag, the body as text. */
async function conditional(path: string, headers: Record<string, string>, ifNoneMatch?: string) {
  const res = await fetch(ctx.app.url + path, {
    headers: { ...headers, ...(ifNoneMatch !== undefined ? { 'if-none-match': ifNoneMatch } : {}) },
  });
  const text = await res.text();
  return {
    status: res.status,
    etag: res.headers.get('etag'),
    text,
    headers: res.headers,
    json: () => JSON.parse(text),
  };
}

async function postBatch(headers: Record<string, string>, requests: object[], ifNoneMatch?: string) {
  const res = await fetch(`${ctx.app.url}/api/v1/property/batch`, {
    method: 'POST',
    headers: {
      ...headers,
      'content-type': 'application/json',
      ...(ifNoneMatch ? { 'if-none-match': ifNoneMatch } : {}),
    },
    body: JSON.stringify({ requests }),
  });
  const text = await res.text();
  return { status: res.status, etag: res.headers.get('etag'), text, json: () => JSON.parse(text) };
}

/** A building of `units` records at a street of its own, with its query. */
async function building(units: number) {
  const street = uniqueStreet();
  const items = Array.from({ length: units }, (_, i) =>
    makeProperty({ line1: `10 ${street} ST`, line2: `APT ${i + 1}`, zip: '95814' }),
  );
  const ids = await insertProperties(ctx.pool, items);
  return { ids, items, path: `/api/v1/property/address?address=${encodeURIComponent(`10 ${street} ST`)}&zip=95814` };
}

const STRONG_TAG = /^"[\w-]{22}"$/;

describe('ETag on every record answer', () => {
  it('is strong, and the same for the same request over the same records, on every metered endpoint', async () => {
    // Records of every kind of answer: a building, an owner's parcels with a sale, a spot far from everyone's.
    const street = uniqueStreet();
    const owner = uniqueSurname('ZE');
    const ids = await insertProperties(ctx.pool, [
      ...[1, 2].map((n) =>
        makeProperty({
          line1: `${n} ${street} ST`,
          zip: '95814',
          apn: `ET-${street}-${n}`,
          latitude: -44.1 + n / 1000,
          longitude: -133.2,
          owner1: { firstName: 'ETTA', lastName: owner, fullName: `ETTA ${owner}`, type: 'Individual' },
          mailing: { line1: `9 ${street} ST`, city: 'SACRAMENTO', state: 'CA', zip: '95814' },
          sales: [
            {
              date: '2021-03-04',
              price: 250_000 + n,
              documentType: 'GRANT DEED',
              recordingDate: '2021-03-05',
              buyerName: `ETTA ${owner}`,
              sellerName: 'SELLER',
              documentNumber: null,
            },
          ],
        }),
      ),
    ]);
    const { rows } = await ctx.pool.query('SELECT owner_id FROM records.owner_mentions WHERE property_id = $1', [
      ids[0],
    ]);
    const ownerId = rows[0].owner_id as string;
    const a = await account(1_000);
    const paths = [
      `/api/v1/property/address?address=${encodeURIComponent(`1 ${street} ST`)}&zip=95814`,
      `/api/v1/property/detail?address=${encodeURIComponent(`1 ${street} ST`)}&zip=95814`,
      `/api/v1/property/owner?lastName=${owner}`,
      `/api/v1/property/owner?ownerId=${ownerId}`,
      `/api/v1/owner/detail?id=${ownerId}`,
      `/api/v1/owner/search?name=${owner}`,
      `/api/v1/property/parcel?apn=${encodeURIComponent(`ET-${street}-1`)}`,
      '/api/v1/property/radius?latitude=-44.1&longitude=-133.2&radius=1',
      `/api/v1/property/area?bbox=${[-133.21, -44.11, -133.19, -44.09].join(',')}`,
      `/api/v1/sale/history?id=${ids[0]}`,
      `/api/v1/assessment/detail?id=${ids[0]}`,
    ];
    const tags: string[] = [];
    for (const path of paths) {
      const first = await conditional(path, a.headers);
      const second = await conditional(path, a.headers);
      expect([first.status, second.status], path).toEqual([200, 200]);
      expect(first.etag, path).toMatch(STRONG_TAG);
      expect(second.etag, path).toBe(first.etag);
      // The records are not all it covers: the status fields of each call differ, the tag does not.
      expect(second.json().status.transactionID).not.toBe(first.json().status.transactionID);
      tags.push(first.etag!);
    }
    const batch = [{ id: 'x', address: `2 ${street} ST`, zip: '95814' }];
    const b1 = await postBatch(a.headers, batch);
    const b2 = await postBatch(a.headers, batch);
    expect([b1.status, b2.status]).toEqual([200, 200]);
    expect(b1.etag).toMatch(STRONG_TAG);
    expect(b2.etag).toBe(b1.etag);
    tags.push(b1.etag!);
    // Every request has its own tag, even where two answer the same records (an alias, a radius and a box).
    expect(new Set(tags).size).toBe(tags.length);
  });

  it('is not sent with a preview (no records), nor with an error', async () => {
    const { path } = await building(2);
    const a = await account(10);
    const preview = await conditional(`${path}&preview=true`, a.headers);
    expect(preview.status).toBe(200);
    expect(preview.etag).toBeNull();
    const missing = await conditional('/api/v1/property/address?address=1%20Nowhere%20Xyzzy%20St&zip=89501', a.headers);
    expect(missing.status).toBe(404);
    expect(missing.etag).toBeNull();
  });
});

describe('If-None-Match', () => {
  it('holding the current tag: 304, no body, the tag repeated, nothing charged, counted as a call in /usage', async () => {
    const { path } = await building(2);
    const a = await account(20);
    const first = await conditional(path, a.headers);
    expect(first.status).toBe(200);
    expect(first.json().status).toMatchObject({ records_returned: 2, credits_remaining: 18 });
    const tag = first.etag!;
    // The tag as sent, weak (a proxy that compresses makes it so), or among others.
    for (const held of [tag, `W/${tag}`, `"stale", ${tag}`, `W/"x", W/${tag} , "y"`]) {
      const again = await conditional(path, a.headers, held);
      expect(again.status, held).toBe(304);
      expect(again.text).toBe('');
      expect(again.etag).toBe(tag);
      expect(again.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
      expect(again.headers.get('content-length')).toBeNull();
    }
    expect(await balance(a.accountId)).toBe(18);
    // Five calls: one charged (2 credits), four free 304s; each counted once.
    const u = await usage(a.accountId, 5);
    expect(u.calls.total).toBe(5);
    expect(u.credits).toMatchObject({ used: 2, balance: 18 });
  });

  it("another tag, another page, another account's tag: the usual 200, charged", async () => {
    const { path } = await building(3);
    const a = await account(30);
    const b = await account(30);
    const page1 = await conditional(`${path}&pagesize=1`, a.headers);
    const page2 = await conditional(`${path}&pagesize=1&page=2`, a.headers);
    expect(page2.etag).not.toBe(page1.etag);
    // Page 2 asked with page 1's tag, and a tag never given: each a new answer, charged.
    expect((await conditional(`${path}&pagesize=1&page=2`, a.headers, page1.etag!)).status).toBe(200);
    expect((await conditional(`${path}&pagesize=1`, a.headers, '"AAAAAAAAAAAAAAAAAAAAAA"')).status).toBe(200);
    expect(await balance(a.accountId)).toBe(26);
    // A tag is its account's: the same records for another account have another tag, and A's tells B nothing.
    const other = await conditional(`${path}&pagesize=1`, b.headers, page1.etag!);
    expect(other.status).toBe(200);
    expect(other.etag).not.toBe(page1.etag);
    expect(await balance(b.accountId)).toBe(29);
  });

  it('a record changed by a re-import changes the tag; re-imported unchanged, it stays', async () => {
    const { ids, items, path } = await building(2);
    const a = await account(20);
    const first = await conditional(path, a.headers);
    // A re-import of the same content rewrites the rows and leaves the records as they were: still free.
    await rewriteProperties(ctx.pool, ids, items);
    expect((await conditional(path, a.headers, first.etag!)).status).toBe(304);
    // A re-import that changes one record (its year built): the tag held is no longer current.
    await rewriteProperties(
      ctx.pool,
      [ids[1]!],
      [{ ...items[1]!, yearBuilt: 1931, lastModified: new Date().toISOString() }],
    );
    const changed = await conditional(path, a.headers, first.etag!);
    expect(changed.status).toBe(200);
    expect(changed.etag).not.toBe(first.etag);
    expect(changed.json().property.map((p: { summary: { yearbuilt: number } }) => p.summary.yearbuilt)).toContain(1931);
    expect(await balance(a.accountId)).toBe(16);
    expect((await conditional(path, a.headers, changed.etag!)).status).toBe(304);
  });

  it("a history's tag covers the history: a sale added changes it", async () => {
    const street = uniqueStreet();
    const sale = (date: string, price: number) => ({
      date,
      price,
      documentType: 'GRANT DEED',
      recordingDate: date,
      buyerName: 'B',
      sellerName: 'S',
      documentNumber: null,
    });
    const item = makeProperty({ line1: `7 ${street} ST`, sales: [sale('2019-01-02', 300_000)] });
    const [id] = await insertProperties(ctx.pool, [item]);
    const a = await account(10);
    const path = `/api/v1/sale/history?id=${id}`;
    const first = await conditional(path, a.headers);
    expect((await conditional(path, a.headers, first.etag!)).status).toBe(304);
    await rewriteProperties(ctx.pool, [id!], [{ ...item, sales: [sale('2024-06-07', 410_000), ...item.sales] }]);
    const after = await conditional(path, a.headers, first.etag!);
    expect(after.status).toBe(200);
    expect(after.json().property[0].saleHistory).toHaveLength(2);
    expect(await balance(a.accountId)).toBe(8);
  });

  it('a page cut by credits has a tag of its own: holding it, the whole page is answered and charged', async () => {
    const { path } = await building(2);
    const a = await account(1);
    const cut = await conditional(path, a.headers);
    expect(cut.json().status).toMatchObject({ records_returned: 1, truncated_by_credits: true });
    await grantCredits(ctx.billing.deps, a.accountId, { amount: 5 });
    const whole = await conditional(path, a.headers, cut.etag!);
    expect(whole.status).toBe(200);
    expect(whole.json().status).toMatchObject({
      records_returned: 2,
      truncated_by_credits: false,
      credits_remaining: 3,
    });
    expect(whole.etag).not.toBe(cut.etag);
    expect((await conditional(path, a.headers, whole.etag!)).status).toBe(304);
    expect(await balance(a.accountId)).toBe(3);
  });

  it('an account that cannot pay is answered 402 before any read, tag or not', async () => {
    const { path } = await building(2);
    const a = await account(2);
    const spent = await conditional(path, a.headers);
    expect(spent.json().status.credits_remaining).toBe(0);
    const refused = await conditional(path, a.headers, spent.etag!);
    expect(refused.status).toBe(402);
    expect(refused.json().status.reason).toBe('insufficient_credits');
  });

  it('keyed: a repeat carries the first tag, is a 304 holding it; a new key holding it is a 304 and stays unused', async () => {
    const { path } = await building(2);
    const a = await account(20);
    const key = `k-${randomBytes(6).toString('hex')}`;
    const first = await conditional(path, { ...a.headers, 'idempotency-key': key });
    const repeat = await conditional(path, { ...a.headers, 'idempotency-key': key });
    expect(repeat.status).toBe(200);
    expect(repeat.etag).toBe(first.etag);
    expect(repeat.json().status.transactionID).toBe(first.json().status.transactionID);
    const held = await conditional(path, { ...a.headers, 'idempotency-key': key }, first.etag!);
    expect(held.status).toBe(304);
    expect(held.headers.get('x-request-id')).toBe(first.json().status.transactionID);
    expect(await balance(a.accountId)).toBe(18);
    // A new key holding the tag: a 304, nothing charged, and the key stores nothing (as a 404 or a 402 would not).
    const fresh = `k-${randomBytes(6).toString('hex')}`;
    expect((await conditional(path, { ...a.headers, 'idempotency-key': fresh }, first.etag!)).status).toBe(304);
    const later = await conditional(path, { ...a.headers, 'idempotency-key': fresh });
    expect(later.status).toBe(200);
    expect(later.json().status).toMatchObject({
      transactionID: keyedTransactionId(a.accountId, fresh),
      records_returned: 2,
      credits_remaining: 16,
    });
  });

  it('a preview ignores it (a preview is free and has no tag); * and a malformed value are 400s, uncharged', async () => {
    const { path } = await building(2);
    const a = await account(10);
    const { etag } = await conditional(path, a.headers);
    for (const held of [etag!, '*', 'garbage']) {
      const preview = await conditional(`${path}&preview=true`, a.headers, held);
      expect(preview.status, held).toBe(200);
      expect(preview.json().status).toMatchObject({ records_returned: 0, credits_required: 2 });
    }
    const star = await conditional(path, a.headers, '*');
    expect(star.status).toBe(400);
    expect(star.json().status).toMatchObject({ code: 400, reason: 'invalid_header' });
    expect(star.json().status.msg).toMatch(/If-None-Match: \* is not taken/);
    const bad = await conditional(path, a.headers, `${etag!.slice(1)}`);
    expect(bad.status).toBe(400);
    expect(bad.json().status.msg).toMatch(/Invalid header 'If-None-Match'/);
    expect(await balance(a.accountId)).toBe(8);
  });

  it('the batch: tagged over every entry; holding it, a 304 counted by its entries and charged nothing', async () => {
    const one = await building(2);
    const two = await building(1);
    const a = await account(20);
    const entries = Array.from({ length: 12 }, (_, i) => ({
      id: `e${i}`,
      address: decodeURIComponent(/address=([^&]+)/.exec(i % 2 ? one.path : two.path)![1]!),
      zip: '95814',
    }));
    entries[11] = { id: 'missing', address: `404 ${uniqueStreet()} ST`, zip: '95814' };
    const first = await postBatch(a.headers, entries);
    expect(first.status).toBe(200);
    // 5 entries of 2 records and 6 of 1: 16 credits.
    expect(first.json().status.records_returned).toBe(16);
    const again = await postBatch(a.headers, entries, first.etag!);
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    expect(again.etag).toBe(first.etag);
    expect(await balance(a.accountId)).toBe(4);
    // Another entry list is another request: its own tag.
    const fewer = await postBatch(a.headers, entries.slice(0, 1), first.etag!);
    expect(fewer.status).toBe(200);
    expect(fewer.etag).not.toBe(first.etag);
    // 12 entries count 2 calls each time (the 304 too), 1 entry 1 call.
    const u = await usage(a.accountId, 5);
    expect(u.calls.total).toBe(5);
    expect(u.credits.used).toBe(17);
  });
});
