// GET /changes (issue 38): the metered page of change events after a cursor, billed 1 credit per event returned, with
// the cursor to continue from. Thin: the call is domain/find-changes.ts, the metering domain/metered-page.ts.
import type { RequestHandler } from 'express';
import { canonicalTarget } from '@pra/core/auth';
import { ENDPOINTS, renderStatus } from '@pra/core/contracts';
import { heldEntityTags, parseQuery, route, sendJson } from '@pra/platform';
import { ChangeFeedStore } from '../data/change-feed-store.js';
import { changesCall } from '../domain/find-changes.js';
import { answerMeteredPage } from '../domain/metered-page.js';
import type { ReportedBilling } from '../domain/metering-rules.js';
import type { RecordPage } from '../domain/record-page.js';
import { meteredCaller, meteredRequest, type RecordRouteDeps, sendNotModified } from './metered-call.js';

/** The ChangesResponse text: the first `recordsReturned` events of the page, the status with its cursor. */
export function renderChangesResponse(
  p: RecordPage,
  transactionId: string,
  billing: ReportedBilling,
  next: { cursor: string; more: boolean },
): string {
  const events = p.rows.slice(0, billing.recordsReturned).map((r) => r.body);
  const status = renderStatus({ total: p.total, page: p.page, pagesize: p.pagesize, transactionId, ...billing });
  return `{"changes":[${events.join(',')}],"status":${status.slice(0, -1)},"cursor":"${next.cursor}","more":${next.more}}}`;
}

export function changesHandler(d: RecordRouteDeps): (endpoint: string) => RequestHandler {
  const feed = new ChangeFeedStore(d.store.pool);
  const rereadFrom = d.rereadFrom.map((s) => new ChangeFeedStore(s.store.pool));
  return (endpoint) =>
    route(async (req, res) => {
      const caller = await meteredCaller(req, d.auth);
      const query = parseQuery(ENDPOINTS.changes.query, req.query);
      const call = changesCall(feed, rereadFrom, query, d.store.deadlineMs);
      const fingerprint = canonicalTarget({ method: 'GET', url: req.url });
      // A page of events after a cursor never changes once read (the feed is append-only), so a client polling with
      // the tag of its last empty or unchanged page is answered 304 like any record answer (issue 38).
      const held = query.preview ? undefined : heldEntityTags(req);
      const answer = await answerMeteredPage(
        d.meter,
        meteredRequest(caller, endpoint, fingerprint, query),
        call.source,
        { tags: d.tags, held },
      );
      if ('notModified' in answer) return sendNotModified(req, res, endpoint, answer.notModified, caller.transactionId);
      const { page, billing, charged, etag } = answer;
      req.charged = charged;
      const body = renderChangesResponse(page, caller.transactionId, billing, call.next(page, billing));
      sendJson(res, 200, body, caller.transactionId, etag ? { etag } : {});
    });
}
