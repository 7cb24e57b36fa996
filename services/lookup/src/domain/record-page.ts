// A page of records as found, before billing and rendering (routes/render-responses.ts renders it): the lowest type
// of the lookup's domain, importing none of it.
import type { AddressMatch } from '@pra/core/contracts';
import type { RecordRow } from '../data/record-queries.js';

export interface RecordPage {
  rows: RecordRow[];
  total: number;
  page: number;
  pagesize: number;
  /** Name of the history array appended to each record, if any. */
  historyField?: 'saleHistory' | 'assessmentHistory';
  /** How an address answer matched (status.match); kept in the receipt so that a repeat says the same. */
  match?: AddressMatch;
  /**
   * A page counted, not read (a preview, a max_credits check: data/record-counts.ts): the records it would hold.
   * `rows` is empty then.
   */
  counted?: number;
  /**
   * GET /changes, a page with no event: where its answer continues (the feed's head when read). Its tag covers it, so
   * that a client holding the tag of an empty page is answered 304 only while that cursor is still the one it would
   * get: else a free 200 moves it on (a 304 would keep it behind the feed until the retention period expired it).
   */
  emptyFeedCursor?: string;
}
