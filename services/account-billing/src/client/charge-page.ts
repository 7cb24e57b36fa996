// SPEC 4.10 for one page of any metered endpoint: 1 credit per record returned, at most the balance; a 402 when
// there is none. The next metered endpoint calls this rather than repeating the rule.
import type { Identity } from '@pra/core/auth';
import { annotateRequest, telemetryMetrics } from '@pra/platform/telemetry';
import { type CreditMeter, noCreditsLeft, type PaidTransaction } from './credit-meter.js';

/** What the response says of billing: the balance left, the records billed (= returned), whether credits cut the page. */
export interface PageBilling {
  creditsRemaining: number;
  recordsReturned: number;
  truncatedByCredits: boolean;
}

export interface PageCharge {
  who: Identity;
  transactionId: string;
  /** The call's own request id (see ChargeRequest; default: the transaction id). */
  requestId?: string;
  /** The path served (an alias is billed under its own path). */
  endpoint: string;
  /** What was asked (path and query): a transaction id repeated for another request is refused. */
  query: string;
  /** Records found for this page: the most that can be charged. */
  records: number;
  /** How long the charge is remembered for retries (keyed requests: 24 h). */
  keepSeconds?: number;
  /** What a repeat needs to answer with the records paid for (stored with the charge). */
  receipt?: string;
  /** The calls the call counts for (a batch: by its entries); default 1. */
  calls?: number;
}

/**
 * Charges for a page; the caller returns the first `recordsReturned` records. `repeat` is set when the transaction
 * was charged before (a retry racing its first call): the caller answers with what that charge paid for.
 */
export async function chargePage(
  meter: CreditMeter,
  r: PageCharge,
): Promise<PageBilling & { repeat?: PaidTransaction }> {
  const result = await meter.charge({
    transactionId: r.transactionId,
    requestId: r.requestId,
    accountId: r.who.accountId,
    keyId: r.who.keyId,
    endpoint: r.endpoint,
    wanted: r.records,
    fingerprint: r.query,
    keepSeconds: r.keepSeconds,
    receipt: r.receipt,
    calls: r.calls,
  });
  if (result.repeated) {
    annotateRequest({ 'pra.endpoint': r.endpoint, 'pra.charge.repeated': true, 'pra.credits.charged': 0 });
    return { creditsRemaining: result.remaining, recordsReturned: 0, truncatedByCredits: false, repeat: result };
  }
  const truncated = result.granted < r.records;
  annotateRequest({
    'pra.endpoint': r.endpoint,
    'pra.records.returned': result.granted,
    'pra.credits.charged': result.granted,
    'pra.credits.remaining': result.remaining,
    'pra.truncated': truncated,
    'pra.charge.repeated': false,
  });
  telemetryMetrics.charged(result.granted, { endpoint: r.endpoint, tier: r.who.tier });
  if (result.granted === 0) {
    telemetryMetrics.refused('credits', { endpoint: r.endpoint });
    throw noCreditsLeft();
  }
  if (truncated) telemetryMetrics.truncated(r.endpoint);
  return { creditsRemaining: result.remaining, recordsReturned: result.granted, truncatedByCredits: truncated };
}
