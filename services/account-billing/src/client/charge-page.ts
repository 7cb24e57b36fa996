// SPEC 4.10 for one page of any metered endpoint: 1 credit per record returned, at most the balance; a 402 when
// there is none. The next metered endpoint calls this rather than repeating the rule.
import { annotateRequest, telemetryMetrics } from '@pra/platform/telemetry';
import {
  type ChargedPage,
  type ChargeRequest,
  type CreditMeter,
  noCreditsLeft,
  type PaidTransaction,
} from './credit-meter.js';

/** What the response says of billing: the balance left, the records billed (= returned), whether credits cut the page. */
export interface PageBilling {
  creditsRemaining: number;
  recordsReturned: number;
  truncatedByCredits: boolean;
}

/**
 * Charges for a page; the caller returns the first `recordsReturned` records. `repeat` is set when the transaction
 * was charged before (a retry racing its first call): the caller answers with what that charge paid for.
 */
export async function chargePage(
  meter: CreditMeter,
  r: ChargeRequest,
  page: ChargedPage,
): Promise<PageBilling & { repeat?: PaidTransaction }> {
  const result = await meter.charge({ ...r, ...page });
  if (result.repeated) {
    annotateRequest({ 'pra.endpoint': r.endpoint, 'pra.charge.repeated': true, 'pra.credits.charged': 0 });
    return { creditsRemaining: result.remaining, recordsReturned: 0, truncatedByCredits: false, repeat: result };
  }
  const truncated = result.granted < page.records;
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
