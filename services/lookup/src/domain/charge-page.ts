// SPEC 4.10 for one page: 1 credit per record returned, at most the balance; 402 when there is none.
import { ApiError, type Identity } from '@pra/shared/platform';
import type { CreditCharger } from '@pra/account-billing/billing';
import type { Billing, RecordPage } from './record-page.js';

export async function chargeForPage(
  charger: CreditCharger,
  r: { who: Identity; transactionId: string; endpoint: string; query: string; page: RecordPage },
): Promise<Billing> {
  const result = await charger.charge({
    transactionId: r.transactionId,
    accountId: r.who.accountId,
    keyId: r.who.keyId,
    endpoint: r.endpoint,
    wanted: r.page.rows.length,
    fingerprint: r.query,
  });
  if (result.granted === 0) throw new ApiError('PAYMENT_REQUIRED', 'No credits remaining, or every credit grant has expired');
  return {
    creditsRemaining: result.remaining,
    recordsReturned: result.granted,
    truncatedByCredits: result.granted < r.page.rows.length,
  };
}
