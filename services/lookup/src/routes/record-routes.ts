// Thin handlers: validate the query, call the domain, send the rendered page.
import type { Router } from 'express';
import { AddressQuery, OwnerQuery, ParcelQuery, PropertyIdQuery } from '@pra/shared/contracts';
import { parseQuery, route, sendJson } from '@pra/shared/platform';
import type { RecordStore } from '../data/record-queries.js';
import { findByAddress, findByOwner, findByParcel, findHistory } from '../domain/find-records.js';
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

export function mountRecordRoutes(router: Router, store: RecordStore): void {
  const send = (res: Parameters<typeof sendJson>[0], page: RecordPage, requestId: string) =>
    sendJson(res, 200, renderPropertyResponse(page, requestId, { recordsReturned: page.rows.length, truncatedByCredits: false }), requestId);

  router.get(
    [...ADDRESS_PATHS],
    route(async (req, res) => send(res, await findByAddress(store, parseQuery(AddressQuery, req.query)), req.requestId)),
  );
  router.get('/property/owner', route(async (req, res) => send(res, await findByOwner(store, parseQuery(OwnerQuery, req.query)), req.requestId)));
  router.get('/property/parcel', route(async (req, res) => send(res, await findByParcel(store, parseQuery(ParcelQuery, req.query)), req.requestId)));
  router.get(
    '/sale/history',
    route(async (req, res) => send(res, await findHistory(store, parseQuery(PropertyIdQuery, req.query).id, 'sale'), req.requestId)),
  );
  router.get(
    '/assessment/detail',
    route(async (req, res) => send(res, await findHistory(store, parseQuery(PropertyIdQuery, req.query).id, 'assessment'), req.requestId)),
  );
}
