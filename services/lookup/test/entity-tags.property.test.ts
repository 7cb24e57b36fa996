// Issue 38 over generated sequences: accounts ask pages, histories and batches, holding the tag they were last given,
// a stale one, another account's, or none, while records are rewritten (changed, changed back, re-imported as they
// are) and credits granted. Whatever the sequence: a call is a 304 exactly when it holds the tag of an answer given to
// this account for this request over records as they are now (never for a page credits cut); a 304 has no body and
// costs nothing; once the pipeline drains, every account's credits used (ledger, Redis and /usage) = the records it
// received in 200s, and /usage's calls = every request it made, 304s and 402s included.
//
// The real lookup app on port 0, PostgreSQL and Redis (this file's prefix), rewrites through the ingest's own writer,
// the real ledger writer and call flusher.
import fc from 'fast-check';
import { beforeAll, expect, it } from 'vitest';
import { grantCredits } from '@pra/account-billing/domain';
import { LEDGER_GROUP, LedgerWriter } from '@pra/account-billing/ledger-writer';
import { CallFlusher } from '@pra/account-billing/call-flusher';
import { usageReport } from '@pra/account-billing/usage-report';
import { insertProperties, makeProperty, rewriteProperties, uniqueStreet } from '@pra/ingest/testing';
import { useLookupApp } from './lookup-harness.js';

const ctx = useLookupApp();

/** What each request answers: the building's records it covers (by unit), and how it is sent. */
const REQUESTS = {
  page1: { units: [0, 1], kind: 'get' },
  page2: { units: [2, 3], kind: 'get' },
  whole: { units: [0, 1, 2, 3], kind: 'get' },
  history: { units: [0], kind: 'get' },
  batch: { units: [0, 1, 2, 3], kind: 'batch' },
} as const;
type RequestName = keyof typeof REQUESTS;
const YEARS = [1990, 1991, 1992] as const;
/** When a record of that year built was written: content and vintage.lastModified change together. */
const writtenAt = (year: number) => `2025-0${year - 1988}-01T00:00:00.000Z`;

type Step =
  | { kind: 'call'; account: number; request: RequestName; hold: 'none' | 'last' | 'any' | 'bogus'; pick: number }
  | { kind: 'change'; unit: number; year: (typeof YEARS)[number] }
  | { kind: 'reimport' }
  | { kind: 'grant'; account: number; amount: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.record({
      kind: fc.constant('call' as const),
      account: fc.nat(1),
      request: fc.constantFrom(...(Object.keys(REQUESTS) as RequestName[])),
      hold: fc.constantFrom('none' as const, 'last' as const, 'last' as const, 'any' as const, 'bogus' as const),
      pick: fc.nat(),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('change' as const),
      unit: fc.nat(3),
      year: fc.constantFrom(...YEARS),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'reimport' as const }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('grant' as const),
      account: fc.nat(1),
      amount: fc.integer({ min: 1, max: 6 }),
    }),
  },
);
const run = fc.record({
  credits: fc.tuple(fc.nat(10), fc.nat(10)),
  steps: fc.array(step, { minLength: 1, maxLength: 20 }),
});
type Run = { credits: [number, number]; steps: Step[] };

let ids: number[] = [];
/** The building as stored now (a rewrite changes it here and in the store). */
let stored: ReturnType<typeof makeProperty>[] = [];
let address = '';
let writer: LedgerWriter;
let flusher: CallFlusher;

beforeAll(async () => {
  const street = uniqueStreet();
  address = `10 ${street} ST`;
  stored = [0, 1, 2, 3].map((i) =>
    makeProperty({
      line1: address,
      line2: `APT ${i + 1}`,
      zip: '95814',
      yearBuilt: YEARS[0],
      lastModified: writtenAt(YEARS[0]),
      sales: [
        {
          date: '2022-02-02',
          price: 200_000 + i,
          documentType: 'GRANT DEED',
          recordingDate: '2022-02-03',
          buyerName: 'B',
          sellerName: 'S',
          documentNumber: null,
        },
      ],
    }),
  );
  ids = await insertProperties(ctx.pool, stored);
  const f = ctx.billing;
  for (const s of f.layout.shards) await f.redis.xgroup('CREATE', s.outbox, LEDGER_GROUP, '0', 'MKSTREAM');
  writer = new LedgerWriter({ pool: ctx.pool, redis: f.redis, layout: f.layout, log: () => {}, blockMs: 1 });
  flusher = new CallFlusher({ pool: ctx.pool, redis: f.redis, layout: f.layout, log: () => {}, consumer: 'etagseq' });
}, 60_000);

/** Sends one request holding `held` (if any): its status, tag, body text. */
async function send(request: RequestName, key: string, held: string | undefined) {
  const headers: Record<string, string> = {
    authorization: `Bearer ${key}`,
    ...(held ? { 'if-none-match': held } : {}),
  };
  const addr = encodeURIComponent(address);
  const url = {
    page1: `/api/v1/property/address?address=${addr}&zip=95814&pagesize=2`,
    page2: `/api/v1/property/address?address=${addr}&zip=95814&pagesize=2&page=2`,
    whole: `/api/v1/property/address?address=${addr}&zip=95814`,
    history: `/api/v1/sale/history?id=${ids[0]}`,
    batch: '/api/v1/property/batch',
  }[request];
  const res =
    REQUESTS[request].kind === 'batch'
      ? await fetch(ctx.app.url + url, {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json' },
          body: JSON.stringify({
            requests: [
              { id: 'all', address, zip: '95814' },
              { id: 'none', address: `404 ${address}`, zip: '95814' },
            ],
          }),
        })
      : await fetch(ctx.app.url + url, { headers });
  return { status: res.status, etag: res.headers.get('etag'), text: await res.text() };
}

/** The stored content a request's answer stands on: its records' year built, in order. */
const contentOf = (request: RequestName) => REQUESTS[request].units.map((u) => stored[u]!.yearBuilt).join(',');

const rewrite = (units: number[]) =>
  rewriteProperties(
    ctx.pool,
    units.map((u) => ids[u]!),
    units.map((u) => stored[u]!),
  );

async function play(r: Run): Promise<void> {
  const accounts = await Promise.all(r.credits.map((c) => ctx.billing.fundedAccount(c)));
  const granted = [...r.credits];
  const received = [0, 0];
  const made = [0, 0];
  /** Every tag given: to whom, for which request, over which content, and whether for the whole answer. */
  const issued = new Map<string, { account: number; request: RequestName; content: string; whole: boolean }>();
  const last = new Map<string, string>();

  for (const s of r.steps) {
    if (s.kind === 'change') {
      stored[s.unit] = { ...stored[s.unit]!, yearBuilt: s.year, lastModified: writtenAt(s.year) };
      await rewrite([s.unit]);
    } else if (s.kind === 'reimport') {
      await rewrite([0, 1, 2, 3]); // the same content written again: no tag changes
    } else if (s.kind === 'grant') {
      await grantCredits(ctx.billing.deps, accounts[s.account]!.accountId, { amount: s.amount });
      granted[s.account]! += s.amount;
    } else {
      const all = [...issued.keys()];
      const held =
        s.hold === 'last'
          ? last.get(`${s.account}:${s.request}`)
          : s.hold === 'any'
            ? all[s.pick % Math.max(1, all.length)]
            : s.hold === 'bogus'
              ? `"${'A'.repeat(22)}"`
              : undefined;
      const balance = granted[s.account]! - received[s.account]!;
      const res = await send(s.request, accounts[s.account]!.key, held);
      made[s.account]!++;
      const tagged = held !== undefined ? issued.get(held) : undefined;
      const current =
        tagged !== undefined &&
        tagged.account === s.account &&
        tagged.request === s.request &&
        tagged.content === contentOf(s.request) &&
        tagged.whole;
      const why = JSON.stringify({ step: s, held, tagged, now: contentOf(s.request), balance });
      if (balance === 0) {
        // No data before money: a 402 before any read, tag or not.
        expect(res.status, why).toBe(402);
        continue;
      }
      if (current) {
        expect(res.status, why).toBe(304);
        expect(res.text).toBe('');
        expect(res.etag).toBe(held);
        continue;
      }
      expect(res.status, `${why} ${res.text.slice(0, 300)}`).toBe(200);
      const body = JSON.parse(res.text);
      const records: number = body.status.records_returned;
      const cost = REQUESTS[s.request].units.length;
      expect(records, why).toBe(Math.min(cost, balance));
      expect(body.status.credits_remaining).toBe(balance - records);
      received[s.account]! += records;
      expect(res.etag).toMatch(/^"[\w-]{22}"$/);
      issued.set(res.etag!, {
        account: s.account,
        request: s.request,
        content: contentOf(s.request),
        whole: records === cost,
      });
      last.set(`${s.account}:${s.request}`, res.etag!);
    }
  }

  // Drained: the ledger, Redis and /usage agree with what the accounts received, and every call is counted once.
  const f = ctx.billing;
  for (let i = 0; i < 1_000; i++) {
    const lengths = await Promise.all(f.layout.shards.map((s) => f.redis.xlen(s.outbox)));
    if (lengths.every((n) => n === 0)) break;
    await writer.writeOnce();
  }
  const reports = async () => Promise.all(accounts.map((a) => usageReport(ctx.pool, a.accountId)));
  for (let i = 0; i < 100; i++) {
    await flusher.flushOnce();
    if ((await reports()).every((u, j) => u.calls.total >= made[j]!)) break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const usage = await reports();
  for (const [j, a] of accounts.entries()) {
    expect(
      {
        calls: usage[j]!.calls.total,
        used: usage[j]!.credits.used,
        redisDebit: granted[j]! - (await f.meter.balance(a.accountId))!,
      },
      `account ${j}`,
    ).toEqual({ calls: made[j], used: received[j], redisDebit: received[j] });
  }
}

const call = (
  account: number,
  request: RequestName,
  hold: 'none' | 'last' | 'any' | 'bogus' = 'last',
  pick = 0,
): Step => ({
  kind: 'call',
  account,
  request,
  hold,
  pick,
});
/** Sequences worth running every time, then the generated ones. */
const EXAMPLES: [Run][] = [
  // A page credits cut, credits bought, the same page asked holding the cut page's tag: the whole page, charged.
  [{ credits: [3, 0], steps: [call(0, 'whole'), { kind: 'grant', account: 0, amount: 5 }, call(0, 'whole')] }],
  [{ credits: [5, 0], steps: [call(0, 'batch'), { kind: 'grant', account: 0, amount: 5 }, call(0, 'batch')] }],
  // A record changed and changed back: the first tag is current again.
  [
    {
      credits: [20, 0],
      steps: [
        call(0, 'page1', 'none'),
        { kind: 'change', unit: 1, year: 1992 },
        call(0, 'page1', 'any', 0),
        { kind: 'change', unit: 1, year: 1990 },
        call(0, 'page1', 'any', 0),
        call(0, 'page2'),
      ],
    },
  ],
  // A re-import of the same content, then another account holding the first's tag.
  [
    {
      credits: [9, 9],
      steps: [call(0, 'history', 'none'), { kind: 'reimport' }, call(0, 'history'), call(1, 'history', 'any', 0)],
    },
  ],
];

it('304 exactly for a current tag of this account and request; credits = records received in 200s; every call counted', async () => {
  await fc.assert(
    fc.asyncProperty(run, (r) => play(r as Run)),
    { numRuns: 30, examples: EXAMPLES, endOnFailure: true },
  );
}, 300_000);
