// What a charged page remembers, so that a repeat (a retry with the same Idempotency-Key, or a gateway retry of the
// same request) is answered with the records it paid for, without searching again: no free polling of fresh
// results under one key, and never a page that shrank under a repeat.
//
// The receipt, stored with the charge in Redis (data/charge-script.ts of account-billing), is
// `total:page:pagesize:id.digest,id.digest,...[;match]`: every row of the page in order, with a short digest of its
// stored body (and history), and an address answer's status.match (base64url JSON): a repeat says how it matched
// then. A repeat reads again the rows its charge paid for (the first `granted`); if any was removed or rewritten
// since (a re-import), the repeat is a 400 asking for a new key, never newer data for free and never a 500. A row the charge did not pay for (credits ran out) is never checked.
import { createHash } from 'node:crypto';
import { AddressMatch } from '@pra/core/contracts';
import { ApiError } from '@pra/core/errors';
import type { PageBilling, PaidTransaction } from '@pra/account-billing/client';
import type { RecordRow } from '../data/record-queries.js';
import type { RecordPage } from './record-page.js';
import { recordId } from './record-body.js';

/** A short digest of one stored record (its body and history): a rewrite changes it. */
function digestOf(r: RecordRow): string {
  return createHash('sha1')
    .update(r.body)
    .update('\0')
    .update(r.hist ?? '')
    .digest('base64url')
    .slice(0, 8);
}

/** Rows as a receipt lists them: `id.digest,id.digest,...`. */
export const rowsReceipt = (rows: readonly RecordRow[]) =>
  rows.map((r) => `${recordId(r.body)}.${digestOf(r)}`).join(',');

/** The `[id, digest]` pairs of a receipt's rows. */
export const receiptRows = (text: string): [string, string][] =>
  text === '' ? [] : text.split(',').map((e) => e.split('.') as [string, string]);

/**
 * The rows paid for, read again by id from the first of `rereads` that holds every one of them as it was paid for;
 * none: a 400 asking for a new key (never newer data for free, never a 500).
 */
export async function rereadPaid(
  paidFor: readonly [string, string][],
  rereads: readonly ((ids: number[]) => Promise<RecordRow[]>)[],
): Promise<RecordRow[]> {
  const ids = paidFor.map(([id]) => Number(id));
  for (const reread of rereads) {
    const byId = new Map((await reread(ids)).map((r) => [recordId(r.body), r]));
    const rows = paidFor.map(([id]) => byId.get(Number(id))).filter((r): r is RecordRow => r !== undefined);
    if (rows.length === paidFor.length && rows.every((r, i) => digestOf(r) === paidFor[i]![1])) return rows;
  }
  throw changedSince();
}

/**
 * The receipt of a page about to be charged: every row's id and digest (the charge decides how many are paid for;
 * a repeat checks and answers only those).
 */
export function receiptOf(p: RecordPage): string {
  const rows = rowsReceipt(p.rows);
  const match = p.match ? `;${Buffer.from(JSON.stringify(p.match)).toString('base64url')}` : '';
  return `${p.total}:${p.page}:${p.pagesize}:${rows}${match}`;
}

function matchOf(encoded: string | undefined): AddressMatch | undefined {
  if (encoded === undefined) return undefined;
  try {
    return AddressMatch.parse(JSON.parse(Buffer.from(encoded, 'base64url').toString()));
  } catch {
    throw cannotRepeat();
  }
}

export const cannotRepeat = () =>
  new ApiError(
    'repeat_unavailable',
    'The answer this Idempotency-Key (or request id) was charged for cannot be sent again (it was charged before ' +
      'this service kept what a charge returned): send the request with a new Idempotency-Key',
  );

const changedSince = () =>
  new ApiError(
    'repeat_unavailable',
    'The records this Idempotency-Key (or request id) paid for have changed or been removed since it was charged: ' +
      'send the request with a new Idempotency-Key to get them as they are now',
  );

/**
 * The page a repeat is answered with: the records the first call paid for, read again by id, with its billing.
 * Each of `rereads` returns the stored rows of those ids, in any order, from one place the first call may have read
 * (the primary, a replica): the first that holds every one of them as it was paid for answers; none: a 400.
 */
export async function repaidPage(
  paid: PaidTransaction,
  rereads: readonly ((ids: number[]) => Promise<RecordRow[]>)[],
  historyField: RecordPage['historyField'],
): Promise<{ page: RecordPage; billing: PageBilling }> {
  const m = /^(\d+):(\d+):(\d+):((?:\d+\.[\w-]+,)*\d+\.[\w-]+)(?:;([\w-]+))?$/.exec(paid.receipt);
  if (!m) throw cannotRepeat(); // charged before receipts were kept (an upgrade): nothing to answer it with
  const entries = receiptRows(m[4]!);
  if (entries.length < paid.granted) throw cannotRepeat(); // cannot happen: a charge never grants more than its rows
  const match = matchOf(m[5]);
  const rows = await rereadPaid(entries.slice(0, paid.granted), rereads);
  return {
    page: { rows, total: Number(m[1]), page: Number(m[2]), pagesize: Number(m[3]), historyField, match },
    billing: {
      creditsRemaining: paid.remaining,
      recordsReturned: paid.granted,
      truncatedByCredits: paid.granted < entries.length,
    },
  };
}
