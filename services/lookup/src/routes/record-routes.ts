// Thin handlers: who is calling, which transaction, validate the query, answer the metered page, send.
import type { RequestHandler } from 'express';
import type { z } from 'zod';
import { canonicalTarget } from '@pra/core/auth';
import { ENDPOINTS } from '@pra/core/contracts';
import { heldEntityTags, parseQuery, route, sendJson, type EndpointHandlers } from '@pra/platform';
import { RecordCountStore } from '../data/record-counts.js';
import type { RecordRow } from '../data/record-queries.js';
import { findByAddress, findByOwner, findByParcel, findHistory } from '../domain/find-records.js';
import { areaSource } from '../domain/find-area.js';
import { answerMeteredPage, type PageSource } from '../domain/metered-page.js';
import { FREE_WORK_LANE_WIDTH, FREE_WORK_MAX_WAIT_MS, FREE_WORK_SHARE, WorkLane } from '../domain/work-lane.js';
import type { RecordPage } from '../domain/record-page.js';
import type { ReportedBilling } from '../domain/metering-rules.js';
import { OwnerStore } from '../data/owner-queries.js';
import { findByOwnerId, findOwnerDetail, findOwners } from '../domain/find-owners.js';
import { batchHandler } from './batch-route.js';
import { changesHandler } from './changes-route.js';
import {
  type MeteredQuery,
  meteredCaller,
  meteredRequest,
  type RecordRouteDeps,
  sendNotModified,
} from './metered-call.js';
import { renderOwnerDetailResponse, renderOwnerSearchResponse, renderPropertyResponse } from './render-responses.js';

/** The metered endpoints of the lookup, by their key in the endpoint table. */
export function recordHandlers(d: RecordRouteDeps): Omit<EndpointHandlers<'lookup'>, 'health'> {
  // Stored records by id from each place a repeat may find them, in order: what an address page's repeat and a
  // batch's repeat read again.
  const rereads: PageSource['rereads'] = d.rereadFrom.map((s) => (ids: number[]) => s.recordsByIds(ids));
  // Free work (previews): counted on the same reads, never a body, one at a time, waiting at most
  // FREE_WORK_MAX_WAIT_MS. The counts also serve a paid call's max_credits check (outside the lane).
  const free = {
    counts: new RecordCountStore(d.store.pool, d.store.deadlineMs),
    lane: new WorkLane(FREE_WORK_LANE_WIDTH, FREE_WORK_SHARE, FREE_WORK_MAX_WAIT_MS),
  };
  /** A preview's source: its count (or, without one, its bounded page) run in the free work lane. */
  const laned = (s: PageSource): PageSource => {
    const work = s.count ?? s.find;
    return { ...s, count: () => free.lane.run(work) };
  };
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
        // The tags the client holds (a preview returns no records: it has no tag and takes none).
        const held = query.preview ? undefined : heldEntityTags(req);
        const fingerprint = canonicalTarget({ method: 'GET', url: req.url });
        const { transactionId } = caller;
        const answer = await answerMeteredPage(
          d.meter,
          meteredRequest(caller, endpoint, fingerprint, query),
          query.preview ? laned(source(query)) : source(query),
          { tags: d.tags, held },
        );
        if ('notModified' in answer) return sendNotModified(req, res, endpoint, answer.notModified, transactionId);
        const { page, billing, charged, etag } = answer;
        // A preview or a repeat charged nothing: the call counter counts it as a call.
        req.charged = charged;
        sendJson(res, 200, render(page, transactionId, billing), transactionId, etag ? { etag } : {});
      });
  const pages = (find: PageSource['find'], count?: PageSource['count']): PageSource => ({
    find,
    ...(count ? { count } : {}),
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
    propertyAddress: metered(ENDPOINTS.propertyAddress.query, (q) =>
      pages(
        () => findByAddress(d.store, q),
        () => findByAddress(free.counts, q),
      ),
    ),
    propertyBatch: batchHandler(d, rereads, free),
    propertyOwner: metered(ENDPOINTS.propertyOwner.query, (q) =>
      q.ownerId !== undefined
        ? pages(() => findByOwnerId(owners, { ...q, ownerId: q.ownerId as number }, ms))
        : pages(
            () => findByOwner(d.store, q),
            () => findByOwner(free.counts, q),
          ),
    ),
    propertyParcel: metered(ENDPOINTS.propertyParcel.query, (q) => pages(() => findByParcel(d.store, q))),
    propertyRadius: metered(ENDPOINTS.propertyRadius.query, (q) => areaSource(d.store, rereads, q)),
    propertyArea: metered(ENDPOINTS.propertyArea.query, (q) => areaSource(d.store, rereads, q)),
    saleHistory: metered(ENDPOINTS.saleHistory.query, (q) => history(q.id, 'sale')),
    assessmentDetail: metered(ENDPOINTS.assessmentDetail.query, (q) => history(q.id, 'assessment')),
    changes: changesHandler(d),
  };
}
