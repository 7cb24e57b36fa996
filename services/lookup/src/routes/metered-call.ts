// What every metered route shares: its dependencies, who is calling and under which transaction, then the call's
// ChargeRequest its domain answers (the fingerprint and cost parameters of the call).
import type { Request } from 'express';
import type { Identity } from '@pra/core/auth';
import {
  IDEMPOTENCY_KEY_TTL_SECONDS,
  idempotencyKeyOf,
  keyedTransactionId,
  resolveIdentity,
  type CallerAuth,
} from '@pra/platform';
import type { ChargeRequest, CreditMeter } from '@pra/account-billing/client';
import type { RecordRow, RecordStore } from '../data/record-queries.js';

/** One place a repeat may find the records it paid for: stored records by id, and the same store's histories. */
export interface RereadSource {
  recordsByIds(ids: number[]): Promise<RecordRow[]>;
  store: RecordStore;
}

export interface RecordRouteDeps {
  /** Where searches read (the replica, when one is attached). */
  store: RecordStore;
  meter: CreditMeter;
  auth: CallerAuth;
  /**
   * Where a repeat is answered from, in order: the primary, then the replica. Its first call may have read either
   * (the replica down or lagging then, or serving): a repeat finds what it paid for in one of them.
   */
  rereadFrom: readonly RereadSource[];
}

/** What every metered query holds (meteredOptions): the cost parameters. */
export type MeteredQuery = { preview: boolean; max_credits?: number | undefined };

export interface MeteredCaller {
  who: Identity;
  /** From the Idempotency-Key when one is sent (a retry is charged once, answered alike), else the request id. */
  transactionId: string;
  /** The call's own id (X-Request-Id). */
  requestId: string;
  keyed: boolean;
}

/** Who calls (a 401/403 before anything else is read) and the transaction the call is charged under. */
export async function meteredCaller(req: Request, auth: CallerAuth): Promise<MeteredCaller> {
  const who = await resolveIdentity(req, auth);
  const key = idempotencyKeyOf(req);
  const transactionId = key !== undefined ? keyedTransactionId(who.accountId, key) : req.requestId;
  req.transactionId = transactionId;
  return { who, transactionId, requestId: req.requestId, keyed: key !== undefined };
}

/** The call as billing reads it, unchanged: `fingerprint` is what was asked, canonical (another request under the same key is a 400). */
export const meteredRequest = (
  c: MeteredCaller,
  endpoint: string,
  fingerprint: string,
  query: MeteredQuery,
): ChargeRequest => ({
  who: c.who,
  transactionId: c.transactionId,
  requestId: c.requestId,
  endpoint,
  fingerprint,
  keepSeconds: c.keyed ? IDEMPOTENCY_KEY_TTL_SECONDS : undefined,
  preview: query.preview,
  maxCredits: query.max_credits,
});
