// A free preview while balances are being reloaded (Redis restarted empty): the balance it would report is unknown,
// so the preview is a 503, never a guessed balance and never a charge. The single page and the batch share that rule
// (metering-rules.ts previewBalance); both are held to it here, with a meter that cannot tell a balance.
import { describe, expect, it, vi } from 'vitest';
import type { CreditMeter } from '@pra/account-billing/client';
import { ApiError } from '@pra/core/errors';
import { answerBatch } from '../src/domain/batch.js';
import { answerMeteredPage } from '../src/domain/metered-page.js';
import type { MeteredRequest } from '../src/domain/metering-rules.js';
import type { RecordPage } from '../src/domain/record-page.js';

const row = { body: '{"identifier":{"Id":1}}', demo: null, total: 1 };
const page: RecordPage = { rows: [row], total: 1, page: 1, pagesize: 25 };

function reloadingMeter() {
  return {
    balance: vi.fn(async () => null),
    precheck: vi.fn(async () => {
      throw new Error('a preview never pre-checks');
    }),
    charge: vi.fn(async () => {
      throw new Error('a preview never charges');
    }),
  } satisfies CreditMeter;
}

const request: MeteredRequest = {
  who: { accountId: 1, tier: 'free', keyId: 1 },
  transactionId: 't',
  endpoint: '/property/address',
  fingerprint: 'f',
  preview: true,
};

async function refusal(p: Promise<unknown>): Promise<ApiError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ApiError);
  return err as ApiError;
}

describe('a preview while balances are being reloaded', () => {
  it('of a page is a 503 saying so; nothing is charged', async () => {
    const meter = reloadingMeter();
    const err = await refusal(answerMeteredPage(meter, request, { find: async () => page, rereads: [] }));
    expect(err.status).toBe(503);
    expect(err.message).toMatch(/Balances are being reloaded; the preview was not answered/);
    expect(meter.charge).not.toHaveBeenCalled();
  });

  it('of a batch is the same 503; nothing is charged', async () => {
    const meter = reloadingMeter();
    const inputs = [{ id: 'a', lookup: { address: '1 MAIN ST', zip: '60604', page: 1, pagesize: 25 } }];
    const err = await refusal(answerBatch(meter, request, inputs, async () => page, []));
    expect(err.status).toBe(503);
    expect(err.message).toMatch(/Balances are being reloaded; the preview was not answered/);
    expect(meter.charge).not.toHaveBeenCalled();
  });
});
