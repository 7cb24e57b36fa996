// GET /changes (issue 38): a page of the change feed after the query's cursor, as a metered page of events (each
// event a row whose body is its JSON, `{"id":"<position>",...`, so that a charge's receipt names it and a repeat
// reads it again by id), and the cursor the answer continues from. No req/res here.
import { CHANGE_RETENTION_DAYS, type ChangesQuery } from '@pra/core/contracts';
import { ApiError } from '@pra/core/errors';
import { publicChangeEvent } from '@pra/ingest/change-events';
import type { ChangeEvent, ChangeFeedStore, ChangeFilter } from '../data/change-feed-store.js';
import type { RecordRow } from '../data/record-queries.js';
import { decodeCursor, encodeCursor, filterTag } from './change-cursor.js';
import { LookupDeadline } from './lookup-deadline.js';
import type { PageSource } from './metered-page.js';
import type { ReportedBilling } from './metering-rules.js';
import { recordId } from './record-body.js';
import type { RecordPage } from './record-page.js';

/** An event as GET /changes answers it (ChangeEvent of the contracts), its id first. */
export const eventJson = (e: ChangeEvent): string => JSON.stringify(publicChangeEvent(e));

const asRow = (e: ChangeEvent): RecordRow => ({ body: eventJson(e), demo: null, total: 0 });

const expired = () =>
  new ApiError(
    'cursor_expired',
    `Invalid parameter 'since': this cursor has expired: events after it were deleted after the ${CHANGE_RETENTION_DAYS}-day ` +
      'retention period, so continuing from it would skip them. Read the records you follow again (a lookup), then ' +
      'continue the feed without `since` (from the oldest event kept).',
  );

/** One GET /changes call: its page source, and the cursor an answer continues from. */
export interface ChangesCall {
  source: PageSource;
  /** The answer's status.cursor and status.more, given what was returned (and paid for). */
  next(page: RecordPage, billing: ReportedBilling): { cursor: string; more: boolean };
}

export function changesCall(
  feed: ChangeFeedStore,
  rereadFrom: readonly ChangeFeedStore[],
  q: ChangesQuery,
  deadlineMs: number,
): ChangesCall {
  const tag = filterTag(q);
  // A cursor that cannot be read, or of other filters, is refused before anything is read or charged.
  const since = q.since === undefined ? null : decodeCursor(q.since, tag);
  const filter: ChangeFilter = {
    ...(q.zip !== undefined ? { zip: q.zip } : {}),
    ...(q.state !== undefined ? { state: q.state } : {}),
    ...(q.county !== undefined ? { county: q.county } : {}),
    ...(q.ownerId !== undefined ? { ownerId: q.ownerId } : {}),
    ...(q.ids !== undefined ? { propertyIds: q.ids } : {}),
  };
  // Where the page read starts (without a cursor: the oldest event kept, as the read finds it), and the feed's head
  // when it was read (a repeat does not read it).
  let start = since ?? '0';
  let head: string | null = null;
  const source: PageSource = {
    async find() {
      const run = new LookupDeadline(deadlineMs);
      const page = await run.run(() => feed.page(start, q.pagesize, filter));
      if (since === null) start = page.prunedThrough;
      else if (BigInt(since) < BigInt(page.prunedThrough)) throw expired();
      // A cursor ahead of this store's head (one read on the primary, this read on a replica behind it) reads nothing
      // and keeps its place: next is never below the cursor.
      head = page.next;
      const rows = page.events.map(asRow);
      // Not full: the answer continues at the head read (next() below), which its tag must cover.
      const continuesAt = rows.length < q.pagesize ? page.next : undefined;
      return { rows, total: rows.length, page: 1, pagesize: q.pagesize, ...(continuesAt ? { continuesAt } : {}) };
    },
    rereads: rereadFrom.map((f) => async (ids: number[]) => (await f.byIds(ids.map(String))).map(asRow)),
  };
  return {
    source,
    next(page, billing) {
      const position = (n: number) => String(recordId(page.rows[n - 1]!.body));
      const returned = billing.recordsReturned;
      const more = billing.truncatedByCredits || returned >= q.pagesize;
      // A preview delivers nothing: the same cursor. Cut short by credits, or a full page: after the last returned.
      // Otherwise after every event committed when the page was read (a repeat, which did not read the head again:
      // after its last event).
      let at: string;
      if (billing.creditsRequired !== undefined) at = start;
      else if (more) at = returned > 0 ? position(returned) : start;
      else at = head ?? (returned > 0 ? position(returned) : start);
      return { cursor: encodeCursor(at, tag), more: billing.creditsRequired === undefined && more };
    },
  };
}
