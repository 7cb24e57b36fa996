// What a charged page remembers, so that a repeat (a retry with the same Idempotency-Key, or a gateway retry of the
// same request) is answered with the records it paid for, without searching again: no free polling of fresh
// results under one key, and never a page that shrank under a repeat.
//
// The receipt, stored with the charge in Redis (data/charge-script.ts of account-billing), is
// `total:page:pagesize:rows:digest:id,id,...`: the rows the search found for the page, and of those the balance
// paid for, their ids in order and a digest of their stored bodies (and histories). A repeat reads those ids again;
// if any was removed or rewritten since (a re-import), the repeat is a 400 asking for a new key, never newer data
// for free and never a 500.
import { createHash } from 'node:crypto';
import { ApiError } from '@pra/core/errors';
import type { PageBilling, PaidTransaction } from '@pra/account-billing/client';
import type { RecordRow } from '../data/record-queries.js';
import type { RecordPage } from './record-page.js';

/** A stored record's id: its body starts `{"identifier":{"Id":N` (render-record.ts in ingest). */
export function recordId(body: string): number {
  const m = /^\{"identifier":\{"Id":(\d{1,15})[,}]/.exec(body);
  if (m) return Number(m[1]);
  return Number((JSON.parse(body) as { identifier: { Id: number } }).identifier.Id);
}

function digestOf(rows: readonly RecordRow[]): string {
  const h = createHash('sha1');
  for (const r of rows)
    h.update(r.body)
      .update('\0')
      .update(r.hist ?? '')
      .update('\0');
  return h.digest('base64url').slice(0, 16);
}

/** The receipt of a page about to be charged for its first `paying` rows (those the balance pays for). */
export function receiptOf(p: RecordPage, paying: number): string {
  const rows = p.rows.slice(0, paying);
  const ids = rows.map((r) => recordId(r.body)).join(',');
  return `${p.total}:${p.page}:${p.pagesize}:${p.rows.length}:${digestOf(rows)}:${ids}`;
}

const cannotRepeat = () =>
  new ApiError(
    'BAD_REQUEST',
    'The answer this Idempotency-Key (or request id) was charged for cannot be sent again (it was charged before ' +
      'this service kept what a charge returned): send the request with a new Idempotency-Key',
  );

const changedSince = () =>
  new ApiError(
    'BAD_REQUEST',
    'The records this Idempotency-Key (or request id) paid for have changed or been removed since it was charged: ' +
      'send the request with a new Idempotency-Key to get them as they are now',
  );

/**
 * The page a repeat is answered with: the records the first call paid for, read again by id, with its billing.
 * `reread` returns the stored rows of those ids, in any order.
 */
export async function repaidPage(
  paid: PaidTransaction,
  reread: (ids: number[]) => Promise<RecordRow[]>,
  historyField: RecordPage['historyField'],
): Promise<{ page: RecordPage; billing: PageBilling }> {
  const m = /^(\d+):(\d+):(\d+):(\d+):([\w-]+):([\d,]+)$/.exec(paid.receipt);
  if (!m) throw cannotRepeat(); // charged before receipts were kept (an upgrade): nothing to answer it with
  const ids = m[6]!.split(',').map(Number);
  // A grant that arrived between the pre-check and the charge paid for more than the receipt holds.
  if (ids.length < paid.granted) throw cannotRepeat();
  const byId = new Map((await reread(ids)).map((r) => [recordId(r.body), r]));
  const rows = ids.map((id) => byId.get(id)).filter((r): r is RecordRow => r !== undefined);
  if (rows.length !== ids.length || digestOf(rows) !== m[5]) throw changedSince();
  return {
    page: { rows, total: Number(m[1]), page: Number(m[2]), pagesize: Number(m[3]), historyField },
    billing: {
      creditsRemaining: paid.remaining,
      recordsReturned: paid.granted,
      truncatedByCredits: paid.granted < Number(m[4]),
    },
  };
}
