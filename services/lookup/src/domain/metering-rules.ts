// The metering rules a single page and a batch share: what a metered request is, the billing a response reports, the
// 402 of a call past its max_credits, a preview's balance, and the refusal counter. Both metered paths
// (metered-page.ts, batch.ts) import them from here, so neither imports the other.
import type { Identity } from '@pra/core/auth';
import { ApiError } from '@pra/core/errors';
import { telemetryMetrics } from '@pra/platform/telemetry';
import { type CreditMeter, noCreditsLeft, type PageBilling } from '@pra/account-billing/client';

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
  /** The calls the call counts for in /usage, as the gateway's quota counted it (a batch: by its entries). */
  calls?: number;
}

/** The billing a response reports; `creditsRequired` only for a preview. */
export type ReportedBilling = PageBilling & { creditsRequired?: number };

/** The 402 of a call whose cost (`what` says of what) is past its max_credits. */
export function overCap(cost: number, what: string, maxCredits: number): ApiError {
  return new ApiError(
    'over_max_credits',
    `This call would cost ${cost} credits (${what}), more than max_credits=${maxCredits}; nothing was charged. ` +
      'Raise max_credits or ask for fewer records.',
  );
}

/**
 * The balance a preview reports; a 503 while balances are being reloaded (a preview never guesses it), a 402 when
 * there is none (an account that cannot pay learns nothing about the store, as with a call).
 */
export async function previewBalance(meter: CreditMeter, accountId: number): Promise<number> {
  const balance = await meter.balance(accountId);
  if (balance === null) {
    throw new ApiError('unavailable', 'Balances are being reloaded; the preview was not answered. Retry shortly.');
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
