// A batch's repeat reads its receipt back through the receipt's schema (domain/batch.ts): a receipt it cannot read
// (none kept, another format after an upgrade, a match of another shape) is the 400 asking for a new key that a
// page's repeat gives, never a 500 and never a store read. A receipt it can read answers the entries as first answered.
import { describe, expect, it, vi } from 'vitest';
import type { CreditMeter, PaidTransaction } from '@pra/account-billing/client';
import { ApiError } from '@pra/core/errors';
import { answerBatch, type BatchAnswer, type BatchInput } from '../src/domain/batch.js';
import type { MeteredRequest } from '../src/domain/metering-rules.js';

const request: MeteredRequest = {
  who: { accountId: 1, tier: 'free', keyId: 1 },
  transactionId: 't',
  endpoint: '/property/batch',
  fingerprint: 'f',
};
const inputs: BatchInput[] = [{ id: 'a', lookup: { address: '1 MAIN ST', zip: '60604', page: 1, pagesize: 25 } }];
const receiptOf = (entries: unknown) => `B${Buffer.from(JSON.stringify(entries)).toString('base64url')}`;

function repeating(paid: PaidTransaction) {
  return {
    precheck: vi.fn(async () => ({ kind: 'repeat' as const, paid })),
    balance: vi.fn(async () => 0),
    charge: vi.fn(async () => {
      throw new Error('a repeat is never charged again');
    }),
  } satisfies CreditMeter;
}

async function repeatOf(receipt: string, granted = 0) {
  const find = vi.fn(async () => {
    throw new Error('a repeat never searches again');
  });
  const reread = vi.fn(async () => []);
  let answer: BatchAnswer | undefined;
  let err: unknown;
  try {
    answer = await answerBatch(repeating({ granted, remaining: 5, receipt }), request, inputs, find, [reread]);
  } catch (e) {
    err = e;
  }
  return { answer, err, find, reread };
}

describe("a batch's repeat and its receipt", () => {
  it.each([
    ['no receipt kept', ''],
    ["a page's receipt", '1:1:25:7.abcdefgh'],
    ['not base64url JSON', 'B!!!'],
    ['another number of entries', receiptOf([])],
    ['an unknown entry code', receiptOf([{ c: 500, t: 0 }])],
    ['rows in another format', receiptOf([{ c: 0, t: 1, r: '7;abc' }])],
    ['a match of another shape', receiptOf([{ c: 0, t: 1, r: '', x: { type: 'fuzzy' } }])],
  ])('%s: a 400 asking for a new key, nothing read', async (_what, receipt) => {
    const { err, reread, find } = await repeatOf(receipt, 1);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(400);
    expect((err as ApiError).message).toMatch(/new Idempotency-Key/);
    expect(reread).not.toHaveBeenCalled();
    expect(find).not.toHaveBeenCalled();
  });

  it('a receipt it can read answers the entries as first answered', async () => {
    const { answer, err } = await repeatOf(receiptOf([{ c: 404, m: 'No properties found', t: 0 }]));
    expect(err).toBeUndefined();
    expect(answer!.results).toMatchObject([{ id: 'a', code: 404, msg: 'No properties found', rows: [] }]);
    expect(answer!.billing).toMatchObject({ recordsReturned: 0, creditsRemaining: 5 });
  });
});
