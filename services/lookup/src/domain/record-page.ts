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
   * Where a change-feed answer that is not full continues (the feed's head when it was read: its status.cursor). The
   * tag covers it, so that a poll whose cursor has moved on past events it does not match is answered the new cursor,
   * not a 304 that keeps it behind.
   */
  continuesAt?: string;
  /**
   * A page counted, not read (a preview, a max_credits check: data/record-counts.ts): the records it would hold.
   * `rows` is empty then.
   */
  counted?: number;
}
