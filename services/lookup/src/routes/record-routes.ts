// Thin handlers: who is calling, validate the query, find the records, charge for what is returned, send.
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
import type { RecordStore } from '../data/record-queries.js';
import { findByAddress, findByOwner, findByParcel, findHistory } from '../domain/find-records.js';
import { renderPropertyResponse, type RecordPage } from '../domain/record-page.js';

export interface RecordRouteDeps {
  store: RecordStore;
  meter: CreditMeter;
  auth: CallerAuth;
}

/** The metered endpoints of the lookup, by their key in the endpoint table. */
export function recordHandlers(d: RecordRouteDeps): Omit<EndpointHandlers<'lookup'>, 'health'> {
  const metered =
    <S extends z.ZodType>(schema: S, find: (q: z.infer<S>) => Promise<RecordPage>) =>
    (endpoint: string): RequestHandler =>
      route(async (req, res) => {
        const who = await resolveIdentity(req, d.auth);
        // A keyed request's transaction id comes from its Idempotency-Key: a retry is charged once, answered alike.
        const key = idempotencyKeyOf(req);
        if (key !== undefined) req.requestId = keyedTransactionId(who.accountId, key);
        const page = await find(parseQuery(schema, req.query));
        const keepSeconds = key !== undefined ? IDEMPOTENCY_KEY_TTL_SECONDS : undefined;
        const billing = await chargePage(d.meter, {
          who,
          transactionId: req.requestId,
          endpoint,
          query: req.url,
          records: page.rows.length,
          keepSeconds,
        });
        req.charged = true;
        sendJson(res, 200, renderPropertyResponse(page, req.requestId, billing), req.requestId);
      });
  return {
    propertyAddress: metered(ENDPOINTS.propertyAddress.query, (q) => findByAddress(d.store, q)),
    propertyOwner: metered(ENDPOINTS.propertyOwner.query, (q) => findByOwner(d.store, q)),
    propertyParcel: metered(ENDPOINTS.propertyParcel.query, (q) => findByParcel(d.store, q)),
    saleHistory: metered(ENDPOINTS.saleHistory.query, (q) => findHistory(d.store, q.id, 'sale')),
    assessmentDetail: metered(ENDPOINTS.assessmentDetail.query, (q) => findHistory(d.store, q.id, 'assessment')),
  };
}
