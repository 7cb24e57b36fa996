// What every metered route shares: its dependencies, who is calling and under which transaction, then the call's
// ChargeRequest its domain answers (the fingerprint and cost parameters of the call).
import type { Request, Response } from 'express';
import type { Identity } from '@pra/core/auth';
import {
  IDEMPOTENCY_KEY_TTL_SECONDS,
  idempotencyKeyOf,
  keyedTransactionId,
  resolveIdentity,
  sendNotModified as send304,
  type CallerAuth,
} from '@pra/platform';
import { annotateRequest } from '@pra/platform/telemetry';
import type { ChargeRequest, CreditMeter } from '@pra/account-billing/client';
import type { RecordRow, RecordStore } from '../data/record-queries.js';
import type { EntityTags } from '../domain/entity-tags.js';

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
  /** Makes the ETag of every record answer (issue 38). */
  tags: EntityTags;
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

/**
 * A 304 (issue 38): the client holds the current tag. Nothing was charged; it is a call like any other (the call
 * counter counts it in /usage, the gateway counted it in the rate limit and the quota).
 */
export function sendNotModified(req: Request, res: Response, endpoint: string, etag: string, transactionId: string) {
  req.charged = false;
  annotateRequest({ 'pra.endpoint': endpoint, 'pra.not_modified': true, 'pra.credits.charged': 0 });
  send304(res, etag, transactionId);
}
