// The PropertyResponse and BatchResponse texts. Bodies are spliced as stored: the tract's demographics (and a
// history, for /sale/history and /assessment/detail) are appended to the pre-rendered record.
import { type EnvelopeStatus, renderEnvelope, renderStatus } from '@pra/core/contracts';
import type { RecordRow } from '../data/record-queries.js';
import type { BatchEntryResult } from '../domain/batch.js';
import type { ReportedBilling } from '../domain/metering-rules.js';
import type { RecordPage } from '../domain/record-page.js';

export function renderRecord(row: RecordRow, historyField?: string): string {
  const open = row.body.slice(0, -1);
  const history = historyField ? `,"${historyField}":${row.hist ?? '[]'}` : '';
  return `${open},"demographics":${row.demo ?? 'null'}${history}}`;
}

/** Renders the PropertyResponse of the first `recordsReturned` rows of a page. */
export function renderPropertyResponse(p: RecordPage, transactionId: string, billing: ReportedBilling): string {
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

/** The BatchResponse text: each entry's status, match and records (spliced as stored), then the batch's status. */
export function renderBatchResponse(
  results: readonly BatchEntryResult[],
  transactionId: string,
  billing: ReportedBilling,
): string {
  const entries = results.map((e) => {
    const paging = e.page !== undefined ? `,"page":${e.page},"pagesize":${e.pagesize}` : '';
    const required = e.creditsRequired !== undefined ? `,"credits_required":${e.creditsRequired}` : '';
    return (
      `{"id":${JSON.stringify(e.id)},"status":{"code":${e.code},"msg":${JSON.stringify(e.msg)},"total":${e.total}` +
      `${paging},"records_returned":${e.rows.length},"truncated_by_credits":${e.truncatedByCredits}${required}},` +
      `"match":${JSON.stringify(e.match)},"property":[${e.rows.map((r) => renderRecord(r)).join(',')}]}`
    );
  });
  const required = billing.creditsRequired !== undefined ? `,"credits_required":${billing.creditsRequired}` : '';
  return (
    `{"results":[${entries.join(',')}],"status":{"code":0,"msg":"SuccessWithResult","transactionID":"${transactionId}",` +
    `"credits_remaining":${billing.creditsRemaining},"records_returned":${billing.recordsReturned},` +
    `"truncated_by_credits":${billing.truncatedByCredits}${required}}}`
  );
}

/** The status of a page as the envelope writes it. */
const statusOf = (p: RecordPage, transactionId: string, billing: ReportedBilling): EnvelopeStatus => ({
  total: p.total,
  page: p.page,
  pagesize: p.pagesize,
  transactionId,
  ...billing,
});

/** The OwnerDetailResponse text: the owner's JSON as read (null in a preview, or when nothing was paid for). */
export function renderOwnerDetailResponse(p: RecordPage, transactionId: string, billing: ReportedBilling): string {
  const owner = billing.recordsReturned > 0 ? p.rows[0]!.body : 'null';
  return `{"owner":${owner},"status":${renderStatus(statusOf(p, transactionId, billing))}}`;
}

/** The OwnerSearchResponse text: the first `recordsReturned` owners of the page. */
export function renderOwnerSearchResponse(p: RecordPage, transactionId: string, billing: ReportedBilling): string {
  const owners = p.rows.slice(0, billing.recordsReturned).map((r) => r.body);
  return `{"owners":[${owners.join(',')}],"status":${renderStatus(statusOf(p, transactionId, billing))}}`;
}
