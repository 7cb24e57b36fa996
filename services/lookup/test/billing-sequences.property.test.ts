// The money invariant over generated sequences (issue 22), and every call counted once in /usage (issue 35):
// whatever calls any accounts make, keyed or not, with any
// mix of outcomes (200, truncated, 400, 402, 404, 503), with grants, forgotten idempotency records, records rewritten,
// ledger writes and reconciliations between them: once the pipeline has drained and reconcile has run, for every
// account the ledger's used credits = the records returned to it = Redis's debit, and /usage agrees; a repeat is
// answered with the records it paid for; an account that cannot pay learns nothing about the store. Calls may be free
// previews (issue 27: never charged, the page's cost told) or capped with max_credits (never charged past the cap).
//
// Real lookup app on port 0, real Redis (a prefix of this file's own; once on this run's Redis, once on a Redis
// Cluster of this file's own) and PostgreSQL, the real ledger writer and reconcile. The outbox's high-water mark is 8 entries and the ledger writer runs only at `drain` steps, so the
// outbox fills and charges are refused with 503 in many sequences, as in a PostgreSQL outage.
import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createPool, keyedTransactionId, type Pool } from '@pra/platform';
import { startApp, startRedisCluster, type RunningApp } from '@pra/platform/testing';
import { rewriteBody } from '@pra/ingest/testing';
import { billingFixture, type BillingFixture } from '@pra/account-billing/testing';
import { RedisCallCounter, RedisCreditMeter } from '@pra/account-billing/client';
import { grantCredits } from '@pra/account-billing/domain';
import { LEDGER_GROUP, LedgerWriter } from '@pra/account-billing/ledger-writer';
import { reconcile } from '@pra/account-billing/reconcile';
import { usageReport } from '@pra/account-billing/usage-report';
import { CallFlusher } from '@pra/account-billing/call-flusher';
import { insertProperties, makeProperty, uniqueStreet, uniqueSurname } from '@pra/ingest/testing';
import { createLookupApp } from '../src/app.js';

const OUTBOX_LIMIT = 8;
const KEYS = ['k1', 'k2', 'k3'] as const;
// The owner endpoints of issue 37 are billed the same way: an owner's detail (1), its properties (1 a record), owners
// by name (1 an owner).
const REQUESTS = [
  'building',
  'owner',
  'history',
  'missing',
  'bad',
  'ownerDetail',
  'ownerParcels',
  'ownerSearch',
] as const;
/** How a call treats its cost: as usual, a free preview, or capped at 1 or 3 credits. */
const COSTS = ['plain', 'preview', 'cap1', 'cap3'] as const;
type Cost = (typeof COSTS)[number];
const COST_QUERY: Record<Cost, string> = {
  plain: '',
  preview: '&preview=true',
  cap1: '&max_credits=1',
  cap3: '&max_credits=3',
};

type Step =
  | {
      kind: 'call';
      account: number;
      request: (typeof REQUESTS)[number];
      key: string | null;
      pagesize: number;
      cost: Cost;
    }
  | { kind: 'grant'; account: number; amount: number }
  | { kind: 'forget'; account: number; key: string }
  | { kind: 'rewrite' }
  | { kind: 'drain' }
  | { kind: 'reconcile' };

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.record({
      kind: fc.constant('call' as const),
      account: fc.nat(2),
      request: fc.constantFrom(...REQUESTS),
      key: fc.option(fc.constantFrom(...KEYS), { nil: null, freq: 2 }),
      pagesize: fc.constantFrom(2, 5),
      cost: fc.constantFrom<Cost>('plain', 'plain', 'plain', 'preview', 'cap1', 'cap3'),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('grant' as const),
      account: fc.nat(2),
      amount: fc.integer({ min: 1, max: 6 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('forget' as const), account: fc.nat(2), key: fc.constantFrom(...KEYS) }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'rewrite' as const }) },
  { weight: 2, arbitrary: fc.constant({ kind: 'drain' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'reconcile' as const }) },
);
const run = fc.record({
  credits: fc.tuple(fc.nat(8), fc.nat(8), fc.nat(8)),
  steps: fc.array(step, { minLength: 1, maxLength: 16 }),
});
type Run = { credits: [number, number, number]; steps: Step[] };

let pool: Pool;
let f: BillingFixture;
let app: RunningApp;
let writer: LedgerWriter;
const paths = {} as Record<(typeof REQUESTS)[number], (pagesize: number) => string>;
/** The records the page of each request holds at a page size: what it costs. */
const PAGE_RECORDS: Record<(typeof REQUESTS)[number], (pagesize: number) => number> = {
  building: (n) => Math.min(n, 6),
  owner: (n) => Math.min(n, 4),
  history: () => 1,
  missing: () => 0,
  bad: () => 0,
  ownerDetail: () => 1,
  ownerParcels: (n) => Math.min(n, 4),
  ownerSearch: () => 1,
};
let unitIds: number[] = [];
let rewrites = 0;

beforeAll(async () => {
  pool = createPool(inject('databaseUrl'), 4);
  const street = uniqueStreet();
  const owner = uniqueSurname('ZQ');
  unitIds = await insertProperties(
    pool,
    Array.from({ length: 6 }, (_, i) =>
      makeProperty({ line1: `10 ${street} ST`, line2: `APT ${i + 1}`, zip: '95814' }),
    ),
  );
  const owned = await insertProperties(
    pool,
    Array.from({ length: 4 }, (_, i) =>
      makeProperty({
        line1: `${20 + i} ${street} ST`,
        zip: '95814',
        owner1: { firstName: 'PAT', lastName: owner, fullName: `PAT ${owner}`, type: 'Individual' },
        // One mailing address: the four are one owner entity.
        mailing: { line1: `1 ${street} ST`, city: 'SACRAMENTO', state: 'CA', zip: '95814' },
        sales: [
          {
            date: '2020-01-02',
            price: 100_000 + i,
            documentType: 'GRANT DEED',
            recordingDate: '2020-01-03',
            buyerName: `PAT ${owner}`,
            sellerName: 'SELLER',
            documentNumber: null,
          },
        ],
      }),
    ),
  );
  const address = encodeURIComponent(`10 ${street} ST`);
  paths.building = (n) => `/api/v1/property/address?address=${address}&zip=95814&pagesize=${n}`;
  paths.owner = (n) => `/api/v1/property/owner?lastName=${owner}&state=CA&pagesize=${n}`;
  paths.history = () => `/api/v1/sale/history?id=${owned[0]}`;
  paths.missing = () => `/api/v1/property/address?address=${encodeURIComponent(`99 ${street} ST`)}&zip=95814`;
  paths.bad = () => `/api/v1/property/owner?state=CA`;
  const { rows } = await pool.query('SELECT owner_id FROM records.owner_mentions WHERE property_id = $1', [owned[0]]);
  const ownerId = rows[0].owner_id as string;
  paths.ownerDetail = () => `/api/v1/owner/detail?id=${ownerId}`;
  paths.ownerParcels = (n) => `/api/v1/property/owner?ownerId=${ownerId}&pagesize=${n}`;
  paths.ownerSearch = (n) => `/api/v1/owner/search?name=${owner}&pagesize=${n}`;
}, 60_000);

afterAll(async () => {
  await pool.end();
});

/**
 * The billing of one Redis topology for the sequences: its fixture (a prefix of its own: reconcile and the outbox
 * here are this file's alone), a ledger writer driven by the `drain` steps, and the lookup app.
 */
async function startBilling(target: string): Promise<void> {
  const prefix = `${inject('redisPrefix')}seq${randomBytes(3).toString('hex')}:`;
  f = await billingFixture(pool, target, prefix);
  for (const s of f.layout.shards) await f.redis.xgroup('CREATE', s.outbox, LEDGER_GROUP, '0', 'MKSTREAM');
  writer = new LedgerWriter({ pool, redis: f.redis, layout: f.layout, log: () => {}, blockMs: 1 });
  app = await startApp(
    createLookupApp({
      pool,
      // The mark is the whole outbox's: in a cluster each of its 16 streams gets a part of it (1 here).
      meter: new RedisCreditMeter(f.redis, prefix, { outboxLimit: OUTBOX_LIMIT }),
      calls: new RedisCallCounter(f.redis, prefix),
      auth: { development: true, keys: f.keys },
    }),
  );
}

async function stopBilling(): Promise<void> {
  await app?.close();
  await f?.close();
}

async function drain(): Promise<void> {
  // Charges are in the outbox before their response is sent; a call counted after it may land later, and takes no
  // credit either way.
  for (let i = 0; i < 1_000; i++) {
    const lengths = await Promise.all(f.layout.shards.map((s) => f.redis.xlen(s.outbox)));
    if (lengths.every((n) => n === 0)) return;
    await writer.writeOnce();
  }
  throw new Error('the outbox did not drain');
}

/** Reconcile finds nothing to repair on these accounts (drift would be money created or lost). */
async function reconcileClean(accountIds: number[]): Promise<void> {
  const { drift } = await reconcile(pool, f.redis, f.layout);
  expect(drift.filter((d) => accountIds.includes(d.accountId))).toEqual([]);
}

type Item = { identifier?: { Id: number }; id?: number };
/** What a 200 returned: records, owners (owner search) or the owner (owner detail; null in a preview). */
const itemsOf = (body: { property?: Item[]; owners?: Item[]; owner?: Item | null }): Item[] =>
  body.property ?? body.owners ?? (body.owner ? [body.owner] : []);
const idsOf = (body: Parameters<typeof itemsOf>[0]) => itemsOf(body).map((p) => p.identifier?.Id ?? p.id!);

async function play(r: Run): Promise<void> {
  const accounts = await Promise.all(r.credits.map((c) => f.fundedAccount(c)));
  const ids = accounts.map((a) => a.accountId);
  const granted = [...r.credits];
  const returned = [0, 0, 0];
  // Calls made per account, whatever their status: /usage counts each once (issue 35), repeats and previews too.
  const made = [0, 0, 0];
  // What each transaction paid for, as its first answer gave it: a repeat must give the same.
  const paid = new Map<string, { ids: number[]; recordsReturned: number; records: string }>();

  for (const s of r.steps) {
    if (s.kind === 'grant') {
      await grantCredits(f.deps, ids[s.account]!, { amount: s.amount });
      granted[s.account]! += s.amount;
    } else if (s.kind === 'forget') {
      // What 24 h does to an idempotency record (or an eviction): the key then starts a new transaction.
      const tx = keyedTransactionId(ids[s.account]!, s.key);
      await f.redis.del(f.layout.charged(ids[s.account]!, tx));
      paid.delete(tx);
    } else if (s.kind === 'rewrite') {
      // A re-import rewrites one of the building's records in place.
      rewrites++;
      await rewriteBody(pool, unitIds[rewrites % unitIds.length]!, (json) =>
        json.replace(/"yearbuilt":\d+/, `"yearbuilt":${1900 + (rewrites % 100)}`),
      );
    } else if (s.kind === 'drain') {
      await drain();
    } else if (s.kind === 'reconcile') {
      await reconcileClean(ids);
    } else {
      const a = accounts[s.account]!;
      const balance = granted[s.account]! - returned[s.account]!;
      const headers: Record<string, string> = { authorization: `Bearer ${a.key}` };
      if (s.key) headers['idempotency-key'] = s.key;
      const res = await app.get(paths[s.request](s.pagesize) + COST_QUERY[s.cost], headers);
      made[s.account]!++;
      const txid = res.body.status.transactionID as string;
      expect([200, 400, 402, 404, 503], JSON.stringify(res.body.status)).toContain(res.status);
      if (s.request === 'bad') expect(res.status).toBe(400);
      const known = s.key ? paid.get(keyedTransactionId(a.accountId, s.key)) : undefined;
      const cost = PAGE_RECORDS[s.request](s.pagesize);
      const cap = s.cost === 'cap1' ? 1 : s.cost === 'cap3' ? 3 : Number.POSITIVE_INFINITY;
      if (s.cost === 'preview') {
        // Free whatever the key: the cost told, nothing returned, nothing charged; a 402 for an account that cannot
        // pay, before any search (it learns nothing, not even a 404).
        if (s.request === 'bad') expect(res.status).toBe(400);
        else if (balance === 0) expect(res.status).toBe(402);
        else if (s.request === 'missing') expect(res.status).toBe(404);
        else {
          expect(res.status, JSON.stringify(res.body.status)).toBe(200);
          expect(itemsOf(res.body)).toEqual([]);
          expect(res.body.status).toMatchObject({
            records_returned: 0,
            credits_required: cost,
            credits_remaining: balance,
          });
        }
      } else if (res.status === 200) {
        const got = {
          ids: idsOf(res.body),
          recordsReturned: res.body.status.records_returned as number,
          records: JSON.stringify(itemsOf(res.body)),
        };
        expect(got.ids).toHaveLength(got.recordsReturned);
        const first = paid.get(txid);
        if (first) {
          expect(got).toEqual(first); // a repeat: the records it paid for, as they were, charged nothing more
        } else {
          expect(got.recordsReturned).toBeGreaterThan(0);
          expect(got.recordsReturned).toBeLessThanOrEqual(balance);
          expect(cost).toBeLessThanOrEqual(cap); // a page costing more than its cap is never answered
          expect(res.body.status.credits_required).toBeUndefined();
          expect(res.body.status.credits_remaining).toBe(balance - got.recordsReturned);
          paid.set(txid, got);
          returned[s.account]! += got.recordsReturned;
        }
      } else if (!known && s.request !== 'bad') {
        // No data before money: an account that cannot pay hears 402 (or 503), never whether the search would find.
        if (balance === 0) expect([402, 503]).toContain(res.status);
        else if (s.request === 'missing') expect([404, 503]).toContain(res.status);
        else if (cost > cap) {
          expect([402, 503]).toContain(res.status);
          if (res.status === 402)
            expect(res.body.status.msg).toMatch(new RegExp(`would cost ${cost} ${cost === 1 ? 'credit' : 'credits'} `));
        } else expect(res.status).toBe(503);
      }
    }
  }

  await drain();
  await reconcileClean(ids);
  // Every call counted once in /usage: charged ones by their charge, the others by the call counters once flushed
  // (a call is counted once its response is sent: the last may still be on its way).
  const flusher = new CallFlusher({ pool, redis: f.redis, layout: f.layout, log: () => {}, consumer: 'seq' });
  const callsNow = () => Promise.all(ids.map(async (id) => (await usageReport(pool, id)).calls.total));
  for (let i = 0; i < 100; i++) {
    await flusher.flushOnce();
    if ((await callsNow()).every((n, j) => n >= made[j]!)) break;
    await new Promise((r) => setTimeout(r, 20));
  }
  expect(await callsNow()).toEqual(made);
  for (const [i, accountId] of ids.entries()) {
    const { rows } = await pool.query<{ used: number; charged_events: number }>(
      `SELECT (SELECT coalesce(-sum(amount), 0)::int FROM billing.ledger_entries WHERE account_id = $1 AND kind IN ('charge', 'refund')) AS used,
              (SELECT coalesce(sum(credits), 0)::int FROM billing.usage_events WHERE account_id = $1) AS charged_events`,
      [accountId],
    );
    const usage = await usageReport(pool, accountId);
    const money = {
      ledgerUsed: rows[0]!.used,
      eventCredits: rows[0]!.charged_events,
      redisDebit: granted[i]! - (await f.meter.balance(accountId))!,
      usageUsed: usage.credits.used,
      usageBalance: usage.credits.balance,
    };
    const r0 = returned[i]!;
    expect(money, `account ${i}`).toEqual({
      ledgerUsed: r0,
      eventCredits: r0,
      redisDebit: r0,
      usageUsed: r0,
      usageBalance: granted[i]! - r0,
    });
  }
}

// The sequences the review found, as they were reported, run first.
const call = (
  account: number,
  request: (typeof REQUESTS)[number],
  key: string | null,
  pagesize = 5,
  cost: Cost = 'plain',
): Step => ({
  kind: 'call',
  account,
  request,
  key,
  pagesize,
  cost,
});
const EXAMPLES: [Run][] = [
  // A free 400 then a paid call under one Idempotency-Key: the records must be paid for.
  [
    {
      credits: [8, 0, 0],
      steps: [
        call(0, 'bad', 'k1'),
        { kind: 'drain' },
        call(0, 'owner', 'k1'),
        { kind: 'drain' },
        { kind: 'reconcile' },
      ],
    },
  ],
  // A 402, credits bought, then the retry with the same key.
  [
    {
      credits: [0, 0, 0],
      steps: [
        call(0, 'building', 'k1'),
        { kind: 'drain' },
        { kind: 'grant', account: 0, amount: 4 },
        call(0, 'building', 'k1'),
      ],
    },
  ],
  // A 404 under a key, then a search that finds under the same key.
  [{ credits: [5, 0, 0], steps: [call(0, 'missing', 'k2'), { kind: 'drain' }, call(0, 'building', 'k2', 2)] }],
  // A key whose record expired, used again for another request.
  [
    {
      credits: [8, 0, 0],
      steps: [
        call(0, 'building', 'k1', 2),
        { kind: 'drain' },
        { kind: 'forget', account: 0, key: 'k1' },
        call(0, 'owner', 'k1', 2),
      ],
    },
  ],
  // A replay after the record it paid for was rewritten: a 400, never newer data free, never a 500.
  [{ credits: [8, 0, 0], steps: [call(0, 'building', 'k3', 5), { kind: 'rewrite' }, call(0, 'building', 'k3', 5)] }],
  // A preview on an empty balance, a capped call refused, then the same capped at its cost under one key.
  [
    {
      credits: [0, 6, 0],
      steps: [
        call(0, 'building', 'k1', 5, 'preview'),
        call(1, 'building', 'k1', 5, 'cap3'),
        call(1, 'building', 'k2', 2, 'cap3'),
        call(1, 'building', 'k2', 2, 'cap3'),
        call(1, 'owner', 'k1', 5, 'preview'),
      ],
    },
  ],
  // Polling a history with one key: the same answer, charged once.
  [{ credits: [3, 0, 0], steps: [call(0, 'history', 'k1'), call(0, 'history', 'k1'), call(0, 'history', 'k1')] }],
  // The outbox past its mark (the ledger away): refused, then written and accepted again.
  [
    {
      credits: [8, 8, 8],
      steps: [
        ...Array.from({ length: 10 }, (_, i) => call(i % 3, 'history', null)),
        { kind: 'drain' },
        call(0, 'history', null),
      ],
    },
  ],
];

/** Where the sequences run: the single Redis of this run, and a Redis Cluster of this file's own. */
const TOPOLOGIES = [
  { name: 'one Redis', start: async () => ({ target: inject('redisUrl'), stop: async () => {} }) },
  {
    name: 'a Redis Cluster',
    start: async () => {
      const cluster = await startRedisCluster();
      return { target: cluster.target, stop: () => cluster.stop() };
    },
  },
];

describe.each(TOPOLOGIES)('billing over generated sequences of calls, on $name', (topology) => {
  let stopRedis: () => Promise<void> = async () => {};
  beforeAll(async () => {
    const redis = await topology.start();
    stopRedis = redis.stop;
    await startBilling(redis.target);
  }, 60_000);
  afterAll(async () => {
    await stopBilling();
    await stopRedis();
  });

  it('ledger used = records returned = Redis debit = /usage, per account, for any sequence', async () => {
    await fc.assert(
      fc.asyncProperty(run, (r) => play(r as Run)),
      { numRuns: 40, examples: EXAMPLES, endOnFailure: true },
    );
  }, 300_000);
});
