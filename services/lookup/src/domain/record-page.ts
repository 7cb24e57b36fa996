// A page of records and its PropertyResponse text. Bodies are spliced as stored: the tract's demographics
// (and a history, for /sale/history and /assessment/detail) are appended to the pre-rendered record.
import { type AddressMatch, renderEnvelope } from '@pra/core/contracts';
import type { PageBilling } from '@pra/account-billing/client';
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
}

export function renderRecord(row: RecordRow, historyField?: string): string {
  const open = row.body.slice(0, -1);
  const history = historyField ? `,"${historyField}":${row.hist ?? '[]'}` : '';
  return `${open},"demographics":${row.demo ?? 'null'}${history}}`;
}

/** Renders the PropertyResponse of the first `recordsReturned` rows of a page. */
export function renderPropertyResponse(
  p: RecordPage,
  transactionId: string,
  billing: PageBilling & { creditsRequired?: number },
): string {
  const n = billing.recordsReturned;
  const parts = new Array<string>(n);
  for (let i = 0; i < n; i++) parts[i] = renderRecord(p.rows[i]!, p.historyField);
  return renderEnvelope(parts, {
    total: p.total,
    page: p.page,
    pagesize: p.pagesize,
    transactionId,
    ...billing,
    matchJson: p.match && JSON.stringify(p.match),
  });
}
