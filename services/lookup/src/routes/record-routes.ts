// Thin handlers: who is calling, validate the query, find the records, charge for what is returned, send.
import type { Express, Request, Response } from 'express';
import type { z } from 'zod';
import { AddressQuery, OwnerQuery, ParcelQuery, PropertyIdQuery } from '@pra/shared/contracts';
import {
  IDEMPOTENCY_KEY_TTL_SECONDS, idempotencyKeyOf, keyedTransactionId, meteredHeadNotAllowed, parseQuery, resolveIdentity, route, sendJson, type CallerAuth,
} from '@pra/shared/platform';
import type { CreditCharger } from '@pra/account-billing/billing';
import type { RecordStore } from '../data/record-queries.js';
import { findByAddress, findByOwner, findByParcel, findHistory } from '../domain/find-records.js';
import { chargeForPage } from '../domain/charge-page.js';
import { renderPropertyResponse, type RecordPage } from '../domain/record-page.js';

/** SPEC 4.1: /property/address and its five compatibility aliases answer alike. */
export const ADDRESS_PATHS = [
  '/property/address',
  '/property/detail',
  '/property/detailowner',
  '/property/detailmortgage',
  '/property/detailmortgageowner',
  '/sale/detail',
] as const;

export interface RecordRouteDeps {
  store: RecordStore;
  charger: CreditCharger;
  auth: CallerAuth;
}

/** Routes are registered with their full paths on the app: a nested router costs a prefix trim on every request. */
export function mountRecordRoutes(app: Express, base: string, d: RecordRouteDeps): void {
  const metered = <S extends z.ZodType>(endpoint: string, schema: S, find: (q: z.infer<S>) => Promise<RecordPage>) =>
    route(async (req: Request, res: Response) => {
      const who = await resolveIdentity(req, d.auth);
      // A keyed request's transaction id comes from its Idempotency-Key: a retry is charged once, answered alike.
      const key = idempotencyKeyOf(req);
      if (key !== undefined) req.requestId = keyedTransactionId(who.accountId, key);
      const page = await find(parseQuery(schema, req.query));
      const keepSeconds = key !== undefined ? IDEMPOTENCY_KEY_TTL_SECONDS : undefined;
      const billing = await chargeForPage(d.charger, { who, transactionId: req.requestId, endpoint, query: req.url, page, keepSeconds });
      sendJson(res, 200, renderPropertyResponse(page, req.requestId, billing), req.requestId);
    });

  // A HEAD would be charged and return no records: metered paths answer it 405 (express routes HEAD to GET).
  const get = (path: string, handler: ReturnType<typeof metered>) => app.head(base + path, meteredHeadNotAllowed).get(base + path, handler);
  for (const path of ADDRESS_PATHS) get(path, metered(path, AddressQuery, (q) => findByAddress(d.store, q)));
  get('/property/owner', metered('/property/owner', OwnerQuery, (q) => findByOwner(d.store, q)));
  get('/property/parcel', metered('/property/parcel', ParcelQuery, (q) => findByParcel(d.store, q)));
  get('/sale/history', metered('/sale/history', PropertyIdQuery, (q) => findHistory(d.store, q.id, 'sale')));
  get('/assessment/detail', metered('/assessment/detail', PropertyIdQuery, (q) => findHistory(d.store, q.id, 'assessment')));
}
