// The metering rules a single page and a batch share: the billing a response reports, the 402 of a call past its
// max_credits, a preview's balance, and the refusal counter (the call itself is account-billing's ChargeRequest).
// Both metered paths (metered-page.ts, batch.ts) import them from here, so neither imports the other.
import { counted } from '@pra/core/wording';
import { ApiError } from '@pra/core/errors';
import { telemetryMetrics } from '@pra/platform/telemetry';
import { type CreditMeter, noCreditsLeft, type PageBilling } from '@pra/account-billing/client';

/** The billing a response reports; `creditsRequired` only for a preview. */
export type ReportedBilling = PageBilling & { creditsRequired?: number };

/** The 402 of a call whose cost (`what` says of what) is past its max_credits. */
export function overCap(cost: number, what: string, maxCredits: number): ApiError {
  return new ApiError(
    'over_max_credits',
    `This call would cost ${counted(cost, 'credit')} (${what}), more than max_credits=${maxCredits}; nothing was charged. ` +
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
