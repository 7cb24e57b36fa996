// Thin handlers: validate the query, call the domain, send the rendered page.
import type { Express } from 'express';
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

/** Routes are registered with their full paths on the app: a nested router costs a prefix trim on every request. */
export function mountRecordRoutes(app: Express, base: string, store: RecordStore): void {
  const send = (res: Parameters<typeof sendJson>[0], page: RecordPage, requestId: string) =>
    sendJson(res, 200, renderPropertyResponse(page, requestId, { recordsReturned: page.rows.length, truncatedByCredits: false }), requestId);

  app.get(
    ADDRESS_PATHS.map((p) => base + p),
    route(async (req, res) => send(res, await findByAddress(store, parseQuery(AddressQuery, req.query)), req.requestId)),
  );
  app.get(`${base}/property/owner`, route(async (req, res) => send(res, await findByOwner(store, parseQuery(OwnerQuery, req.query)), req.requestId)));
  app.get(`${base}/property/parcel`, route(async (req, res) => send(res, await findByParcel(store, parseQuery(ParcelQuery, req.query)), req.requestId)));
  app.get(
    `${base}/sale/history`,
    route(async (req, res) => send(res, await findHistory(store, parseQuery(PropertyIdQuery, req.query).id, 'sale'), req.requestId)),
  );
  app.get(
    `${base}/assessment/detail`,
    route(async (req, res) => send(res, await findHistory(store, parseQuery(PropertyIdQuery, req.query).id, 'assessment'), req.requestId)),
  );
}
