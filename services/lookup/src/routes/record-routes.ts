// Thin handlers: who is calling, validate the query, make sure they can pay, find the records, charge for what is
// returned, send.
import type { RequestHandler } from 'express';
import type { z } from 'zod';
import { ENDPOINTS } from '@pra/core/contracts';
import {
  IDEMPOTENCY_KEY_TTL_SECONDS,
  idempotencyKeyOf,
  keyedTransactionId,
  parseQuery,
  resolveIdentity,
  route,
  sendJson,
  type CallerAuth,
  type EndpointHandlers,
} from '@pra/platform';
import { chargePage, type CreditMeter } from '@pra/account-billing/client';
import type { RecordRow, RecordStore } from '../data/record-queries.js';
import { findByAddress, findByOwner, findByParcel, findHistory } from '../domain/find-records.js';
import { renderPropertyResponse, type RecordPage } from '../domain/record-page.js';
import { receiptOf, repaidPage } from '../domain/paid-page.js';

export interface RecordRouteDeps {
  store: RecordStore;
  meter: CreditMeter;
  auth: CallerAuth;
  /** Stored records by id (a repeat is answered with the records it paid for). */
  recordsByIds(ids: number[]): Promise<RecordRow[]>;
}

/** The metered endpoints of the lookup, by their key in the endpoint table. */
export function recordHandlers(d: RecordRouteDeps): Omit<EndpointHandlers<'lookup'>, 'health'> {
  const metered =
    <S extends z.ZodType>(
      schema: S,
      find: (q: z.infer<S>) => Promise<RecordPage>,
      reread: (ids: number[]) => Promise<RecordRow[]> = (ids) => d.recordsByIds(ids),
      historyField?: RecordPage['historyField'],
    ) =>
    (endpoint: string): RequestHandler =>
      route(async (req, res) => {
        const who = await resolveIdentity(req, d.auth);
        // A keyed request's transaction id comes from its Idempotency-Key: a retry is charged once, answered alike.
        const key = idempotencyKeyOf(req);
        const transactionId = key !== undefined ? keyedTransactionId(who.accountId, key) : req.requestId;
        req.transactionId = transactionId;
        const query = parseQuery(schema, req.query);
        // No data before money: a repeat, a 402, a 503 and a key used for another request are known before any read.
        const paid = await d.meter.precheck({ transactionId, accountId: who.accountId, fingerprint: req.url });
        let answer: Awaited<ReturnType<typeof repaidPage>>;
        if (paid) {
          answer = await repaidPage(paid, reread, historyField);
        } else {
          const page = await find(query);
          const billing = await chargePage(d.meter, {
            who,
            transactionId,
            endpoint,
            query: req.url,
            records: page.rows.length,
            keepSeconds: key !== undefined ? IDEMPOTENCY_KEY_TTL_SECONDS : undefined,
            receipt: receiptOf(page),
          });
          answer = billing.repeat ? await repaidPage(billing.repeat, reread, historyField) : { page, billing };
        }
        req.charged = true;
        sendJson(res, 200, renderPropertyResponse(answer.page, transactionId, answer.billing), transactionId);
      });
  const history = async (ids: number[], read: (id: number) => Promise<RecordRow | undefined>) =>
    (await Promise.all(ids.map(read))).filter((r): r is RecordRow => r !== undefined);
  return {
    propertyAddress: metered(ENDPOINTS.propertyAddress.query, (q) => findByAddress(d.store, q)),
    propertyOwner: metered(ENDPOINTS.propertyOwner.query, (q) => findByOwner(d.store, q)),
    propertyParcel: metered(ENDPOINTS.propertyParcel.query, (q) => findByParcel(d.store, q)),
    saleHistory: metered(
      ENDPOINTS.saleHistory.query,
      (q) => findHistory(d.store, q.id, 'sale'),
      (ids) => history(ids, (id) => d.store.saleHistory(id)),
      'saleHistory',
    ),
    assessmentDetail: metered(
      ENDPOINTS.assessmentDetail.query,
      (q) => findHistory(d.store, q.id, 'assessment'),
      (ids) => history(ids, (id) => d.store.assessmentHistory(id)),
      'assessmentHistory',
    ),
  };
}
