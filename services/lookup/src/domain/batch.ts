// A batch of address lookups (issue 27), billed as its single calls would be under one transaction: every entry is
// searched, the records found are charged at once (1 credit each), and the credits granted go to the entries in
// order. Where they run out, that entry is truncated and every later one answered 402, a 404 among them too (an
// account out of credits learns nothing about the store). The batch is one call; its receipt keeps every entry's
// outcome, so a repeat under its Idempotency-Key is answered with what it paid for, entry by entry.
import { type AddressMatch, AddressMatch as AddressMatchSchema } from '@pra/core/contracts';
import { ApiError } from '@pra/core/errors';
import { chargePage, type CreditMeter, type PaidTransaction } from '@pra/account-billing/client';
import type { RecordRow } from '../data/record-queries.js';
import type { AddressLookup } from './find-records.js';
import { type MeteredRequest, type ReportedBilling, overCap, countRefusal } from './metered-page.js';
import { cannotRepeat, receiptRows, rereadPaid, rowsReceipt } from './paid-page.js';
import type { RecordPage } from './record-page.js';

/** One entry as read from the body: its lookup, or why it cannot be read (a 400 in its result). */
export interface BatchInput {
  id: string | null;
  lookup?: AddressLookup;
  invalid?: string;
}

/** What an entry's search gave, before billing: records found, or a 400 / 404. */
type Outcome =
  | { code: 0; page: RecordPage; found: number; match: AddressMatch | null }
  | { code: 400 | 404; msg: string; total: number; match: null };

/** One entry's answer. */
export interface BatchEntryResult {
  id: string | null;
  code: number;
  msg: string;
  total: number;
  page?: number;
  pagesize?: number;
  /** The records returned (and billed) for this entry. */
  rows: RecordRow[];
  truncatedByCredits: boolean;
  creditsRequired?: number;
  match: AddressMatch | null;
}

export interface BatchAnswer {
  results: BatchEntryResult[];
  billing: ReportedBilling;
  /** False when nothing was charged (a preview, or no entry found a record): the call counter counts the call. */
  charged: boolean;
}

/** Entries searched at once (each is one statement or a few on the read pool). */
export const BATCH_CONCURRENCY = 6;

export async function answerBatch(
  meter: CreditMeter,
  r: MeteredRequest,
  inputs: readonly BatchInput[],
  find: (q: AddressLookup) => Promise<RecordPage>,
  rereads: readonly ((ids: number[]) => Promise<RecordRow[]>)[],
): Promise<BatchAnswer> {
  if (r.preview) return previewBatch(meter, r, inputs, find);
  const before = await meter
    .precheck({ transactionId: r.transactionId, accountId: r.who.accountId, fingerprint: r.fingerprint })
    .catch(countRefusal(r.endpoint));
  if (before.kind === 'repeat') return repaidBatch(inputs, before.paid, rereads);
  const outcomes = await searchAll(inputs, find);
  const records = outcomes.reduce((n, o) => n + (o.code === 0 ? o.found : 0), 0);
  if (records === 0) {
    // Nothing to charge: 404s and 400s only; as for a single call, a 402 when the balance ran out meanwhile.
    const balance = await meter.balance(r.who.accountId).catch(() => null);
    if (balance === 0) countRefusal(r.endpoint)(noCredits());
    return {
      results: distribute(inputs, outcomes, 0),
      billing: { creditsRemaining: balance ?? 0, recordsReturned: 0, truncatedByCredits: false },
      charged: false,
    };
  }
  if (r.maxCredits !== undefined && records > r.maxCredits) {
    countRefusal(r.endpoint)(overCap(records, `${records} records in ${inputs.length} entries`, r.maxCredits));
  }
  const billing = await chargePage(meter, {
    who: r.who,
    transactionId: r.transactionId,
    endpoint: r.endpoint,
    query: r.fingerprint,
    records,
    keepSeconds: r.keepSeconds,
    receipt: batchReceipt(outcomes),
  });
  if (billing.repeat) return repaidBatch(inputs, billing.repeat, rereads);
  return { results: distribute(inputs, outcomes, billing.recordsReturned), billing, charged: true };
}

const noCredits = () => new ApiError('PAYMENT_REQUIRED', 'No credits remaining, or every credit grant has expired');

/** Every entry searched, BATCH_CONCURRENCY at a time; a 5xx of any fails the batch (uncharged: retry it). */
async function searchAll(
  inputs: readonly BatchInput[],
  find: (q: AddressLookup) => Promise<RecordPage>,
): Promise<Outcome[]> {
  const outcomes = new Array<Outcome>(inputs.length);
  let next = 0;
  const worker = async () => {
    while (next < inputs.length) {
      const i = next++;
      outcomes[i] = await searchOne(inputs[i]!, find);
    }
  };
  await Promise.all(Array.from({ length: Math.min(BATCH_CONCURRENCY, inputs.length) }, worker));
  return outcomes;
}

async function searchOne(input: BatchInput, find: (q: AddressLookup) => Promise<RecordPage>): Promise<Outcome> {
  if (input.lookup === undefined) return { code: 400, msg: input.invalid ?? 'Invalid entry', total: 0, match: null };
  try {
    const page = await find(input.lookup);
    return { code: 0, page, found: page.rows.length, match: page.match ?? null };
  } catch (err) {
    if (err instanceof ApiError && (err.status === 400 || err.status === 404)) {
      return { code: err.status, msg: err.message, total: err.total, match: null };
    }
    throw err;
  }
}

/**
 * The entries' answers once `granted` credits were charged for their records: given in order; the entry where
 * they ran out is truncated, every later one with records or a 404 answered 402 with none.
 */
function distribute(inputs: readonly BatchInput[], outcomes: readonly Outcome[], granted: number): BatchEntryResult[] {
  let left = granted;
  let ranOut = false;
  return outcomes.map((o, i) => {
    const id = inputs[i]!.id;
    if (o.code !== 0) {
      if (ranOut && o.code === 404) return outOfCredits(id);
      return { id, code: o.code, msg: o.msg, total: o.total, rows: [], truncatedByCredits: false, match: null };
    }
    const take = Math.min(left, o.found);
    left -= take;
    if (take === 0) {
      ranOut = true;
      return outOfCredits(id);
    }
    const truncated = take < o.found;
    ranOut ||= truncated;
    return {
      id,
      code: 0,
      msg: 'SuccessWithResult',
      total: o.page.total,
      page: o.page.page,
      pagesize: o.page.pagesize,
      rows: o.page.rows.slice(0, take),
      truncatedByCredits: truncated,
      match: o.match,
    };
  });
}

const outOfCredits = (id: string | null): BatchEntryResult => ({
  id,
  code: 402,
  msg: 'No credits remaining for this entry: they ran out earlier in the batch',
  total: 0,
  rows: [],
  truncatedByCredits: false,
  match: null,
});

/** A free preview of the batch: every entry searched, its cost and the sum told, nothing returned or charged. */
async function previewBatch(
  meter: CreditMeter,
  r: MeteredRequest,
  inputs: readonly BatchInput[],
  find: (q: AddressLookup) => Promise<RecordPage>,
): Promise<BatchAnswer> {
  const outcomes = await searchAll(inputs, find);
  const balance = await meter.balance(r.who.accountId);
  if (balance === null) {
    throw new ApiError('UNAVAILABLE', 'Balances are being reloaded; the preview was not answered. Retry shortly.');
  }
  const results = distribute(inputs, outcomes, Number.MAX_SAFE_INTEGER).map((e, i) => {
    const o = outcomes[i]!;
    return o.code === 0 ? { ...e, rows: [], creditsRequired: o.found } : e;
  });
  return {
    results,
    billing: {
      creditsRemaining: balance,
      recordsReturned: 0,
      truncatedByCredits: false,
      creditsRequired: results.reduce((n, e) => n + (e.creditsRequired ?? 0), 0),
    },
    charged: false,
  };
}

// The receipt of a batch: `B` and the base64url JSON of each entry's outcome, records as `id.digest` lists.
interface ReceiptEntry {
  c: 0 | 400 | 404;
  m?: string;
  t: number;
  p?: number;
  s?: number;
  r?: string;
  x?: AddressMatch | null;
}

function batchReceipt(outcomes: readonly Outcome[]): string {
  const entries: ReceiptEntry[] = outcomes.map((o) =>
    o.code === 0
      ? { c: 0, t: o.page.total, p: o.page.page, s: o.page.pagesize, r: rowsReceipt(o.page.rows), x: o.match }
      : { c: o.code, m: o.msg, t: o.total },
  );
  return `B${Buffer.from(JSON.stringify(entries)).toString('base64url')}`;
}

function readReceipt(receipt: string, count: number): ReceiptEntry[] {
  let entries: ReceiptEntry[];
  try {
    entries = JSON.parse(Buffer.from(receipt.slice(1), 'base64url').toString()) as ReceiptEntry[];
  } catch {
    throw cannotRepeat();
  }
  if (!receipt.startsWith('B') || !Array.isArray(entries) || entries.length !== count) throw cannotRepeat();
  return entries;
}

/**
 * A repeat of a charged batch: each entry as the first call answered it, its paid records read again by id (a 400
 * asking for a new key when any changed since).
 */
async function repaidBatch(
  inputs: readonly BatchInput[],
  paid: PaidTransaction,
  rereads: readonly ((ids: number[]) => Promise<RecordRow[]>)[],
): Promise<BatchAnswer> {
  const entries = readReceipt(paid.receipt, inputs.length);
  const rowsOf = entries.map((e) => receiptRows(e.r ?? ''));
  // The paid rows, in entry order: the first `granted` of all.
  const paidFor = rowsOf.flat().slice(0, paid.granted);
  const rows = await rereadPaid(paidFor, rereads);
  let at = 0;
  const outcomes: Outcome[] = entries.map((e, i) => {
    if (e.c !== 0) return { code: e.c, msg: e.m ?? '', total: e.t, match: null };
    const found = rowsOf[i]!.length;
    // The paid rows of this entry (the rows past the paid ones are never read again, nor given: see distribute).
    const paidRows = rows.slice(at, at + found);
    at += paidRows.length;
    const page: RecordPage = { rows: paidRows, total: e.t, page: e.p ?? 1, pagesize: e.s ?? found };
    return { code: 0, page, found, match: e.x ? AddressMatchSchema.parse(e.x) : null };
  });
  return {
    results: distribute(inputs, outcomes, paid.granted),
    billing: {
      creditsRemaining: paid.remaining,
      recordsReturned: paid.granted,
      truncatedByCredits: paid.granted < rowsOf.flat().length,
    },
    charged: true,
  };
}
