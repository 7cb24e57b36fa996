// A batch of address lookups (issue 27), billed as its single calls would be under one transaction: every entry is
// searched, the records found are charged at once (1 credit each), and the credits granted go to the entries in
// order. Where they run out, that entry is truncated and every later one answered 402, a 404 among them too (an
// account out of credits learns nothing about the store). The batch counts one call per 10 entries
// (batchCallWeight); its receipt keeps every entry's
// outcome, so a repeat under its Idempotency-Key is answered with what it paid for, entry by entry.
import { z } from 'zod';
import { AddressMatch } from '@pra/core/contracts';
import { ApiError } from '@pra/core/errors';
import {
  type ChargeRequest,
  chargePage,
  type CreditMeter,
  noCreditsLeft,
  type PaidTransaction,
} from '@pra/account-billing/client';
import { counted } from '@pra/core/wording';
import type { RecordRow } from '../data/record-queries.js';
import type { AddressLookup } from './find-records.js';
import { countRefusal, overCap, previewBalance, type ReportedBilling } from './metering-rules.js';
import { cannotRepeat, receiptRows, rereadPaid, rowsReceipt } from './receipts.js';
import type { RecordPage } from './record-page.js';
import { countedOnce } from './work-lane.js';
import { holdsEntityTag, type Revalidation, type TagScope } from './entity-tags.js';

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
  /**
   * False when this call charged nothing (a preview, a repeat, a 304, or no entry found a record): the call counter
   * counts the call.
   */
  charged: boolean;
  /** The answer's ETag (but for a preview): over every entry as answered. */
  etag?: string;
  /** Set when the client holds the current tag: a 304 with this tag, nothing charged. */
  notModified?: string;
}

/** Entries searched at once (each is one statement or a few on the read pool). */
export const BATCH_CONCURRENCY = 6;

export async function answerBatch(
  meter: CreditMeter,
  r: ChargeRequest,
  inputs: readonly BatchInput[],
  find: (q: AddressLookup) => Promise<RecordPage>,
  rereads: readonly ((ids: number[]) => Promise<RecordRow[]>)[],
  /**
   * An entry's search counted, not read (no body: data/record-counts.ts), through the free work lane: what a
   * preview and a max_credits check run.
   */
  countEntry: (q: AddressLookup) => Promise<RecordPage> = find,
  /** The tags the client holds and the tagger (issue 38); none: no ETag. A preview takes none. */
  revalidation?: Revalidation,
): Promise<BatchAnswer> {
  // Entries asking the same thing are counted once.
  const count = countedOnce(countEntry);
  if (r.preview) return previewBatch(meter, r, inputs, count);
  const scope: TagScope = { accountId: r.who.accountId, fingerprint: r.fingerprint };
  /** The answer with its tag, or a 304 (an uncharged answer whose tag the client holds). */
  const tagged = (a: BatchAnswer): BatchAnswer => {
    if (!revalidation) return a;
    const etag = revalidation.tags.batch(scope, a.results);
    if (!a.charged && holdsEntityTag(revalidation.held, etag)) return { ...a, notModified: etag };
    return { ...a, etag };
  };
  const before = await meter.precheck(r).catch(countRefusal(r.endpoint));
  if (before.kind === 'repeat') return tagged(await repaidBatch(inputs, before.paid, rereads));
  if (r.maxCredits !== undefined) {
    // Refused on counts, before any body is read (a refusal costs the store what a preview does).
    const counts = await searchAll(inputs, count);
    const cost = counts.reduce((n, o) => n + (o.code === 0 ? o.found : 0), 0);
    if (cost > r.maxCredits)
      countRefusal(r.endpoint)(
        overCap(cost, `${counted(cost, 'record')} in ${counted(inputs.length, 'entry', 'entries')}`, r.maxCredits),
      );
  }
  const outcomes = await searchAll(inputs, find);
  const records = outcomes.reduce((n, o) => n + (o.code === 0 ? o.found : 0), 0);
  if (records === 0) {
    // Nothing to charge: 404s and 400s only; as for a single call, a 402 when the balance ran out meanwhile.
    const balance = await meter.balance(r.who.accountId).catch(() => null);
    if (balance === 0) countRefusal(r.endpoint)(noCreditsLeft());
    return tagged({
      results: distribute(inputs, outcomes, 0, balance ?? 0),
      billing: { creditsRemaining: balance ?? 0, recordsReturned: 0, truncatedByCredits: false },
      charged: false,
    });
  }
  if (r.maxCredits !== undefined && records > r.maxCredits) {
    countRefusal(r.endpoint)(
      overCap(records, `${counted(records, 'record')} in ${counted(inputs.length, 'entry', 'entries')}`, r.maxCredits),
    );
  }
  // Unchanged is free (issue 38): every entry answered in full is the answer whose tag the client holds. (Credits
  // that run out at the last record turn later 404s into 402s: that answer has a tag of its own, never this one.)
  if (revalidation?.held) {
    const whole = distribute(inputs, outcomes, records, Number.MAX_SAFE_INTEGER);
    const etag = revalidation.tags.batch(scope, whole);
    if (holdsEntityTag(revalidation.held, etag)) {
      return {
        results: whole,
        billing: { creditsRemaining: before.balance, recordsReturned: 0, truncatedByCredits: false },
        charged: false,
        notModified: etag,
      };
    }
  }
  const billing = await chargePage(meter, r, { records, receipt: batchReceipt(outcomes) });
  if (billing.repeat) return tagged(await repaidBatch(inputs, billing.repeat, rereads));
  return tagged({
    results: distribute(inputs, outcomes, billing.recordsReturned, billing.creditsRemaining),
    billing,
    charged: true,
  });
}

/**
 * Every entry searched, `concurrency` at a time (BATCH_CONCURRENCY; a preview's counts one at a time); a 5xx of any
 * fails the batch (uncharged: retry it).
 */
async function searchAll(
  inputs: readonly BatchInput[],
  find: (q: AddressLookup) => Promise<RecordPage>,
  concurrency = BATCH_CONCURRENCY,
): Promise<Outcome[]> {
  const outcomes = new Array<Outcome>(inputs.length);
  let next = 0;
  const worker = async () => {
    while (next < inputs.length) {
      const i = next++;
      outcomes[i] = await searchOne(inputs[i]!, find);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, inputs.length) }, worker));
  return outcomes;
}

async function searchOne(input: BatchInput, find: (q: AddressLookup) => Promise<RecordPage>): Promise<Outcome> {
  if (input.lookup === undefined) return { code: 400, msg: input.invalid ?? 'Invalid entry', total: 0, match: null };
  try {
    const page = await find(input.lookup);
    return { code: 0, page, found: page.counted ?? page.rows.length, match: page.match ?? null };
  } catch (err) {
    if (err instanceof ApiError && (err.status === 400 || err.status === 404)) {
      return { code: err.status, msg: err.message, total: err.total, match: null };
    }
    throw err;
  }
}

/**
 * The entries' answers once `granted` credits were charged for their records (`remaining` left after the charge):
 * given in order; the entry where they ran out is truncated, every later one with records or a 404 answered 402
 * with none. They ran out too where the last credit paid for the last record of an entry (`remaining` 0): a single
 * call after it would be refused 402 whatever the store holds, so a later 404 is a 402 here too (else the batch
 * tells missing from stored for free).
 */
function distribute(
  inputs: readonly BatchInput[],
  outcomes: readonly Outcome[],
  granted: number,
  remaining: number,
): BatchEntryResult[] {
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
    ranOut ||= truncated || (left === 0 && remaining === 0);
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

/**
 * A free preview of the batch: every entry counted (no body read), its cost and the sum told, nothing returned or
 * charged.
 */
async function previewBatch(
  meter: CreditMeter,
  r: ChargeRequest,
  inputs: readonly BatchInput[],
  count: (q: AddressLookup) => Promise<RecordPage>,
): Promise<BatchAnswer> {
  const balance = await previewBalance(meter, r.who.accountId).catch(countRefusal(r.endpoint));
  // One count at a time: the route runs a preview whole in the free work lane, one preview at a time.
  const outcomes = await searchAll(inputs, count, 1);
  const results = distribute(inputs, outcomes, Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER).map((e, i) => {
    const o = outcomes[i]!;
    // Nor its match: `matched` is the stored address, paid for with the records (as for a single preview).
    return o.code === 0 ? { ...e, rows: [], match: null, creditsRequired: o.found } : e;
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
// Read back through its schema: a receipt it does not describe (an older format, after an upgrade) is the 400
// asking for a new key that a page's repeat gives, never a 500.
const ReceiptEntry = z.object({
  /** The entry's code: 0 (records found) or the 400 / 404 it was answered. */
  c: z.union([z.literal(0), z.literal(400), z.literal(404)]),
  /** A 400's or a 404's message. */
  m: z.string().optional(),
  /** status.total. */
  t: z.number().int(),
  /** page and pagesize of an entry with records. */
  p: z.number().int().optional(),
  s: z.number().int().optional(),
  /** Its rows, as rowsReceipt lists them. */
  r: z
    .string()
    .regex(/^(\d+\.[\w-]+(,\d+\.[\w-]+)*)?$/)
    .optional(),
  /** How its address matched. */
  x: AddressMatch.nullable().optional(),
});
type ReceiptEntry = z.infer<typeof ReceiptEntry>;

function batchReceipt(outcomes: readonly Outcome[]): string {
  const entries: ReceiptEntry[] = outcomes.map((o) =>
    o.code === 0
      ? { c: 0, t: o.page.total, p: o.page.page, s: o.page.pagesize, r: rowsReceipt(o.page.rows), x: o.match }
      : { c: o.code, m: o.msg, t: o.total },
  );
  return `B${Buffer.from(JSON.stringify(entries)).toString('base64url')}`;
}

function readReceipt(receipt: string, count: number): ReceiptEntry[] {
  if (!receipt.startsWith('B')) throw cannotRepeat();
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(receipt.slice(1), 'base64url').toString());
  } catch {
    throw cannotRepeat();
  }
  const entries = z.array(ReceiptEntry).length(count).safeParse(json);
  if (!entries.success) throw cannotRepeat();
  return entries.data;
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
    return { code: 0, page, found, match: e.x ?? null };
  });
  return {
    results: distribute(inputs, outcomes, paid.granted, paid.remaining),
    billing: {
      creditsRemaining: paid.remaining,
      recordsReturned: paid.granted,
      truncatedByCredits: paid.granted < rowsOf.flat().length,
    },
    // Answered from the first call's charge: this call charged nothing, and counts as a call of its own.
    charged: false,
  };
}
