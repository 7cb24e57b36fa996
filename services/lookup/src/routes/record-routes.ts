// Thin handlers: who is calling, which transaction, validate the query, answer the metered page, send.
import type { RequestHandler } from 'express';
import type { z } from 'zod';
import { canonicalTarget } from '@pra/core/auth';
import { ENDPOINTS } from '@pra/core/contracts';
import { parseQuery, route, sendJson, type CallerAuth, type EndpointHandlers } from '@pra/platform';
import type { CreditMeter } from '@pra/account-billing/client';
import type { RecordRow, RecordStore } from '../data/record-queries.js';
import { findByAddress, findByOwner, findByParcel, findHistory } from '../domain/find-records.js';
import { areaSource } from '../domain/find-area.js';
import { answerMeteredPage, type PageSource } from '../domain/metered-page.js';
import {
  type RecordPage,
  renderOwnerDetailResponse,
  renderOwnerSearchResponse,
  renderPropertyResponse,
} from '../domain/record-page.js';
import type { ReportedBilling } from '../domain/metered-page.js';
import { OwnerStore } from '../data/owner-queries.js';
import { findByOwnerId, findOwnerDetail, findOwners } from '../domain/find-owners.js';
import { batchHandler } from './batch-route.js';
import { type MeteredQuery, meteredCaller, meteredRequest } from './metered-call.js';

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

/** The metered endpoints of the lookup, by their key in the endpoint table. */
export function recordHandlers(d: RecordRouteDeps): Omit<EndpointHandlers<'lookup'>, 'health'> {
  // Stored records by id from each place a repeat may find them, in order: what an address page's repeat and a
  // batch's repeat read again.
  const rereads: PageSource['rereads'] = d.rereadFrom.map((s) => (ids: number[]) => s.recordsByIds(ids));
  const metered =
    <S extends z.ZodType<MeteredQuery>>(
      schema: S,
      source: (q: z.infer<S>) => PageSource,
      render: (p: RecordPage, transactionId: string, b: ReportedBilling) => string = renderPropertyResponse,
    ) =>
    (endpoint: string): RequestHandler =>
      route(async (req, res) => {
        const caller = await meteredCaller(req, d.auth);
        const query = parseQuery(schema, req.query);
        const fingerprint = canonicalTarget({ method: 'GET', url: req.url });
        const { transactionId } = caller;
        const { page, billing } = await answerMeteredPage(
          d.meter,
          meteredRequest(caller, endpoint, fingerprint, query),
          source(query),
        );
        // A preview is not charged: the call counter counts it as a call.
        req.charged = !query.preview;
        sendJson(res, 200, render(page, transactionId, billing), transactionId);
      });
  const pages = (find: PageSource['find']): PageSource => ({
    find,
    rereads,
  });
  const history = (id: number, kind: 'sale' | 'assessment'): PageSource => ({
    find: () => findHistory(d.store, id, kind),
    rereads: d.rereadFrom.map(({ store }) => async (ids: number[]) => {
      const read = (i: number) => (kind === 'sale' ? store.saleHistory(i) : store.assessmentHistory(i));
      return (await Promise.all(ids.map(read))).filter((r): r is RecordRow => r !== undefined);
    }),
    historyField: kind === 'sale' ? 'saleHistory' : 'assessmentHistory',
  });
  // The owner endpoints (issue 37) read the owner registry where the searches read; a repeat reads an owner again
  // from each place the first call may have read it, as records.
  const owners = new OwnerStore(d.store.pool);
  const ownerRereads = d.rereadFrom.map(({ store }) => new OwnerStore(store.pool));
  const ms = d.store.deadlineMs;
  return {
    ownerDetail: metered(
      ENDPOINTS.ownerDetail.query,
      (q) => ({
        find: () => findOwnerDetail(owners, q.id, ms),
        rereads: ownerRereads.map((o) => (ids: number[]) => o.details(ids)),
      }),
      renderOwnerDetailResponse,
    ),
    ownerSearch: metered(
      ENDPOINTS.ownerSearch.query,
      (q) => ({
        find: () => findOwners(owners, q, ms),
        rereads: ownerRereads.map((o) => (ids: number[]) => o.summaries(ids, q.state ?? null)),
      }),
      renderOwnerSearchResponse,
    ),
    propertyAddress: metered(ENDPOINTS.propertyAddress.query, (q) => pages(() => findByAddress(d.store, q))),
    propertyBatch: batchHandler(d, rereads),
    propertyOwner: metered(ENDPOINTS.propertyOwner.query, (q) =>
      pages(() =>
        q.ownerId !== undefined ? findByOwnerId(owners, { ...q, ownerId: q.ownerId }, ms) : findByOwner(d.store, q),
      ),
    ),
    propertyParcel: metered(ENDPOINTS.propertyParcel.query, (q) => pages(() => findByParcel(d.store, q))),
    propertyRadius: metered(ENDPOINTS.propertyRadius.query, (q) => areaSource(d.store, rereads, q)),
    propertyArea: metered(ENDPOINTS.propertyArea.query, (q) => areaSource(d.store, rereads, q)),
    saleHistory: metered(ENDPOINTS.saleHistory.query, (q) => history(q.id, 'sale')),
    assessmentDetail: metered(ENDPOINTS.assessmentDetail.query, (q) => history(q.id, 'assessment')),
  };
}
