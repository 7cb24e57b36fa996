// One metered page, start to end, as SPEC 4.10 and issue 22 want it: no data before money, a repeat answered with
// what it paid for, 1 credit per record returned. The route gives who asks and what; this returns the page to send.
import type { Identity } from '@pra/core/auth';
import { ApiError } from '@pra/core/errors';
import { telemetryMetrics } from '@pra/platform/telemetry';
import { chargePage, type CreditMeter, noCreditsLeft, type PageBilling } from '@pra/account-billing/client';
import type { RecordRow } from '../data/record-queries.js';
import { receiptOf, repaidPage } from './paid-page.js';
import type { RecordPage } from './record-page.js';

export interface MeteredRequest {
  who: Identity;
  /** The transaction it is charged under (from its Idempotency-Key, or its request id). */
  transactionId: string;
  /**
   * The call's own id (X-Request-Id): its charge is its own to reverse (a lost answer) and counts the call. Default:
   * the transaction id.
   */
  requestId?: string;
  /** The path served (an alias is billed under its own path). */
  endpoint: string;
  /** What was asked, canonical: the same transaction id for another request is refused. */
  fingerprint: string;
  /** How long the charge is remembered for repeats (keyed requests: 24 h). */
  keepSeconds?: number;
  /** `preview=true`: answer what the call would cost, charge nothing. */
  preview?: boolean;
  /** `max_credits`: a page costing more is refused (402) before any charge. */
  maxCredits?: number;
}

/** The billing a response reports; `creditsRequired` only for a preview. */
export type ReportedBilling = PageBilling & { creditsRequired?: number };

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
): Promise<{ page: RecordPage; billing: ReportedBilling }> {
  if (r.preview) return previewPage(meter, r, source);
  // Before any store read: a repeat, a 402 (balance 0), a 503, or a transaction id used for another request.
  const before = await meter
    .precheck({
      transactionId: r.transactionId,
      requestId: r.requestId,
      accountId: r.who.accountId,
      fingerprint: r.fingerprint,
    })
    .catch(countRefusal(r.endpoint));
  if (before.kind === 'repeat') return repaidPage(before.paid, source.rereads, source.historyField);
  const page = await findUnlessBroke(meter, r.who.accountId, source).catch(countRefusal(r.endpoint));
  if (r.maxCredits !== undefined && page.rows.length > r.maxCredits) {
    countRefusal(r.endpoint)(
      overCap(costOf(page), `${costOf(page)} records on page ${page.page} of ${page.total} found`, r.maxCredits),
    );
  }
  const billing = await chargePage(meter, {
    who: r.who,
    transactionId: r.transactionId,
    requestId: r.requestId,
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

/** What a page costs: its records (a balance below that would truncate it, and cost less). */
const costOf = (page: RecordPage) => page.rows.length;

/** The 402 of a call whose cost (`what` says of what) is past its max_credits. */
export function overCap(cost: number, what: string, maxCredits: number): ApiError {
  return new ApiError(
    'PAYMENT_REQUIRED',
    `This call would cost ${cost} credits (${what}), more than max_credits=${maxCredits}; nothing was charged. ` +
      'Raise max_credits or ask for fewer records.',
  );
}

/**
 * A free preview: the balance, then the search, and no charge (no transaction either: a preview under an
 * Idempotency-Key neither uses nor takes the key). The page is sent without its records. An account that cannot pay
 * is refused (402) before the search, as a call would be: it learns nothing about the store, not even a total.
 */
async function previewPage(
  meter: CreditMeter,
  r: MeteredRequest,
  source: PageSource,
): Promise<{ page: RecordPage; billing: ReportedBilling }> {
  const balance = await previewBalance(meter, r.who.accountId).catch(countRefusal(r.endpoint));
  const page = await source.find();
  // Nor its match: `matched` is the stored address (a verification of the line asked), paid for with the records.
  return {
    page: { ...page, rows: [], match: undefined },
    billing: {
      creditsRemaining: balance,
      recordsReturned: 0,
      truncatedByCredits: false,
      creditsRequired: costOf(page),
    },
  };
}

/**
 * The balance a preview reports; a 503 while balances are being reloaded (a preview never guesses it), a 402 when
 * there is none (an account that cannot pay learns nothing about the store, as with a call).
 */
export async function previewBalance(meter: CreditMeter, accountId: number): Promise<number> {
  const balance = await meter.balance(accountId);
  if (balance === null) {
    throw new ApiError('UNAVAILABLE', 'Balances are being reloaded; the preview was not answered. Retry shortly.');
  }
  if (balance === 0) throw noCreditsLeft();
  return balance;
}

/** Counts a 402 refused here (the charge counts its own) in pra_requests_refused_total, and rethrows. */
export const countRefusal =
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
      if (balance === 0) throw noCreditsLeft();
    }
    throw err;
  }
}
