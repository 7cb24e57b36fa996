// SPEC 4.10 for one page: 1 credit per record returned, at most the balance; 402 when there is none.
import { ApiError, type Identity } from '@pra/shared/platform';
import type { CreditCharger } from '@pra/account-billing/billing';
import { annotateRequest, telemetryMetrics } from '@pra/shared/telemetry';
import type { Billing, RecordPage } from './record-page.js';

export async function chargeForPage(
  charger: CreditCharger,
  r: { who: Identity; transactionId: string; endpoint: string; query: string; page: RecordPage; keepSeconds?: number },
): Promise<Billing> {
  const result = await charger.charge({
    transactionId: r.transactionId,
    accountId: r.who.accountId,
    keyId: r.who.keyId,
    endpoint: r.endpoint,
    wanted: r.page.rows.length,
    fingerprint: r.query,
    keepSeconds: r.keepSeconds,
  });
  const truncated = result.granted < r.page.rows.length;
  annotateRequest({
    'pra.endpoint': r.endpoint,
    'pra.records.returned': result.granted,
    'pra.credits.charged': result.repeated ? 0 : result.granted,
    'pra.credits.remaining': result.remaining,
    'pra.truncated': truncated,
    'pra.charge.repeated': result.repeated,
  });
  if (!result.repeated) telemetryMetrics.charged(result.granted, { endpoint: r.endpoint, tier: r.who.tier });
  if (result.granted === 0) {
    telemetryMetrics.refused('credits', { endpoint: r.endpoint });
    throw new ApiError('PAYMENT_REQUIRED', 'No credits remaining, or every credit grant has expired');
  }
  if (truncated) telemetryMetrics.truncated(r.endpoint);
  return { creditsRemaining: result.remaining, recordsReturned: result.granted, truncatedByCredits: truncated };
}
