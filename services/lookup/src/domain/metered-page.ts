// One metered page, start to end, as SPEC 4.10 and issue 22 want it: no data before money, a repeat answered with
// what it paid for, 1 credit per record returned. The route gives who asks and what; this returns the page to send.
import type { Identity } from '@pra/core/auth';
import { ApiError } from '@pra/core/errors';
import { telemetryMetrics } from '@pra/platform/telemetry';
import { chargePage, type CreditMeter, type PageBilling } from '@pra/account-billing/client';
import type { RecordRow } from '../data/record-queries.js';
import { receiptOf, repaidPage } from './paid-page.js';
import type { RecordPage } from './record-page.js';

export interface MeteredRequest {
  who: Identity;
  /** The transaction it is charged under (from its Idempotency-Key, or its request id). */
  transactionId: string;
  /** The path served (an alias is billed under its own path). */
  endpoint: string;
  /** What was asked, canonical: the same transaction id for another request is refused. */
  fingerprint: string;
  /** How long the charge is remembered for repeats (keyed requests: 24 h). */
  keepSeconds?: number;
}

export interface PageSource {
  /** Searches the store: a page, or an ApiError (404, 400 ...). */
  find(): Promise<RecordPage>;
  /**
   * Stored records by id, in any order, from each place the first call may have read them (to answer a repeat):
   * tried in order until one holds exactly what was paid for.
   */
  rereads: readonly ((ids: number[]) => Promise<RecordRow[]>)[];
  historyField?: RecordPage['historyField'];
}

export async function answerMeteredPage(
  meter: CreditMeter,
  r: MeteredRequest,
  source: PageSource,
): Promise<{ page: RecordPage; billing: PageBilling }> {
  // Before any store read: a repeat, a 402 (balance 0), a 503, or a transaction id used for another request.
  const before = await meter
    .precheck({ transactionId: r.transactionId, accountId: r.who.accountId, fingerprint: r.fingerprint })
    .catch(countRefusal(r.endpoint));
  if (before.kind === 'repeat') return repaidPage(before.paid, source.rereads, source.historyField);
  const page = await findUnlessBroke(meter, r.who.accountId, source).catch(countRefusal(r.endpoint));
  const billing = await chargePage(meter, {
    who: r.who,
    transactionId: r.transactionId,
    endpoint: r.endpoint,
    query: r.fingerprint,
    records: page.rows.length,
    keepSeconds: r.keepSeconds,
    // Every row: the charge decides how many are paid for (a grant or a concurrent call may change the balance).
    receipt: receiptOf(page),
  });
  // A repeat racing its first call: answered with what that call paid for.
  if (billing.repeat) return repaidPage(billing.repeat, source.rereads, source.historyField);
  return { page, billing };
}

/** Counts a 402 refused here (the charge counts its own) in pra_requests_refused_total, and rethrows. */
const countRefusal =
  (endpoint: string) =>
  (err: unknown): never => {
    if (err instanceof ApiError && err.status === 402) telemetryMetrics.refused('credits', { endpoint });
    throw err;
  };

/**
 * The search; a 404 is answered 402 when the balance has run out meanwhile (concurrent calls took it): otherwise
 * an account could send many searches at once on its last credit and read 402 = found, 404 = not for free.
 */
async function findUnlessBroke(meter: CreditMeter, accountId: number, source: PageSource): Promise<RecordPage> {
  try {
    return await source.find();
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) {
      const balance = await meter.balance(accountId).catch(() => null);
      if (balance === 0)
        throw new ApiError('PAYMENT_REQUIRED', 'No credits remaining, or every credit grant has expired');
    }
    throw err;
  }
}
