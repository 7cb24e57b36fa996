// Client retries without double charges (the Stripe convention): a metered request may carry an Idempotency-Key.
// The key, scoped to the account, chooses the transaction id, so a retry of the same request with the same key is
// charged once and answered with the records the first call paid for (same transactionID, same records_returned);
// the same key on another request is refused; the charge's idempotency record of a keyed request is kept for 24
// hours. A keyed call that was not charged (400, 402, 404, 503) stores nothing: the key may be used again.
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { badRequest } from '@pra/core/errors';
import { IDEMPOTENCY_KEY_HEADER } from '@pra/core/auth';

/** How long a keyed request's charge is remembered: a retry within this window is charged nothing more. */
export const IDEMPOTENCY_KEY_TTL_SECONDS = 24 * 3600;

/** The client's Idempotency-Key (1 to 255 visible ASCII characters), or undefined; anything else is a 400. */
export function idempotencyKeyOf(req: IncomingMessage): string | undefined {
  const v = req.headers[IDEMPOTENCY_KEY_HEADER];
  if (v === undefined) return undefined;
  if (typeof v !== 'string' || !/^[\x21-\x7e]{1,255}$/.test(v)) {
    throw badRequest(
      "Invalid header 'Idempotency-Key': give 1 to 255 visible ASCII characters, e.g. a UUID, once per logical request",
      'invalid_header',
    );
  }
  return v;
}

/** The transaction id of an account's keyed request: a UUID made from a hash of the account and the key. */
export function keyedTransactionId(accountId: number, key: string): string {
  const h = createHash('sha256').update(`${accountId}\n${key}`).digest('hex');
  const variant = ((parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
