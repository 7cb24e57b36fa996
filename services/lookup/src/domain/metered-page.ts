// One metered page, start to end, as SPEC 4.10 and issue 22 want it: no data before money, a repeat answered with
// what it paid for, 1 credit per record returned. The route gives who asks and what; this returns the page to send.
import { ApiError } from '@pra/core/errors';
import {
  type ChargeRequest,
  chargePage,
  type CreditMeter,
  noCreditsLeft,
  type PaidTransaction,
} from '@pra/account-billing/client';
import { count, counted } from '@pra/core/wording';
import type { RecordRow } from '../data/record-queries.js';
import { countRefusal, overCap, previewBalance, type ReportedBilling } from './metering-rules.js';
import { receiptOf, repaidPage } from './receipts.js';
import type { RecordPage } from './record-page.js';
import { holdsEntityTag, type Revalidation, type TagScope } from './entity-tags.js';

export interface PageSource {
  /** Searches the store: a page, or an ApiError (404, 400 ...). */
  find(): Promise<RecordPage>;
  /**
   * The same search counted, not read (data/record-counts.ts: `counted`, no rows, no body read), through the free
   * work lane: what a preview and a max_credits check run. A source without it (a history: one record) finds.
   * `forCap`: the max_credits check of a call that is charged if it passes (it goes ahead of previews waiting).
   */
  count?(forCap?: boolean): Promise<RecordPage>;
  /**
   * Stored records by id, in any order, from each place the first call may have read them (to answer a repeat):
   * tried in order until one holds exactly what was paid for.
   */
  rereads: readonly ((ids: number[]) => Promise<RecordRow[]>)[];
  historyField?: RecordPage['historyField'];
}

/**
 * What a metered call answers: a page to send with its billing and (but for a preview) its ETag, or a 304 when the
 * client holds the current tag (nothing charged).
 */
export type MeteredAnswer =
  | { page: RecordPage; billing: ReportedBilling; charged: boolean; etag?: string }
  | { notModified: string };

export async function answerMeteredPage(
  meter: CreditMeter,
  r: ChargeRequest,
  source: PageSource,
  revalidation?: Revalidation,
): Promise<MeteredAnswer> {
  // `charged`: this call was charged (its charge event counts it in /usage); a preview, a repeat or a 304 was not.
  // A preview returns no records, so it has no tag and takes no If-None-Match (docs/api.md).
  if (r.preview) return { ...(await previewPage(meter, r, source)), charged: false };
  const scope: TagScope = { accountId: r.who.accountId, fingerprint: r.fingerprint };
  /** The answer of a page (its tag over the rows returned), or a 304 when the client holds that tag. */
  const answer = (page: RecordPage, billing: ReportedBilling, charged: boolean): MeteredAnswer => {
    if (!revalidation) return { page, billing, charged };
    const etag = revalidation.tags.page(scope, page, billing.recordsReturned, billing.truncatedByCredits);
    if (!charged && holdsEntityTag(revalidation.held, etag)) return { notModified: etag };
    return { page, billing, charged, etag };
  };
  const repeat = async (paid: PaidTransaction) => {
    const { page, billing } = await repaidPage(paid, source.rereads, source.historyField);
    return answer(page, billing, false);
  };
  // Before any store read: a repeat, a 402 (balance 0), a 503, or a transaction id used for another request. A
  // client holding a tag is no exception: a 304 is answered only to an account that could pay for the 200.
  const before = await meter.precheck(r).catch(countRefusal(r.endpoint));
  if (before.kind === 'repeat') return repeat(before.paid);
  const countOnIndex = source.count;
  if (r.maxCredits !== undefined && countOnIndex) {
    // Refused on a count, before any body is read: a call refused by its cap costs the store what a preview does.
    // (A page past the cap never holds a tag's records: under this very request, a page answered was within it.)
    const countedPage = await findUnlessBroke(meter, r.who.accountId, () => countOnIndex(true)).catch(
      countRefusal(r.endpoint),
    );
    if (costOf(countedPage) > r.maxCredits)
      countRefusal(r.endpoint)(
        overCap(
          costOf(countedPage),
          `${counted(costOf(countedPage), 'record')} on page ${count(countedPage.page)} of the ${count(countedPage.total)} found`,
          r.maxCredits,
        ),
      );
  }
  const page = await findUnlessBroke(meter, r.who.accountId, source.find).catch(countRefusal(r.endpoint));
  // Checked again on the page read: the store may have changed since the count (or the source has no count).
  if (r.maxCredits !== undefined && page.rows.length > r.maxCredits) {
    countRefusal(r.endpoint)(
      overCap(
        costOf(page),
        `${counted(costOf(page), 'record')} on page ${count(page.page)} of the ${count(page.total)} found`,
        r.maxCredits,
      ),
    );
  }
  // Unchanged is free (issue 38): the page read, its tag is the one the client holds, so nothing is charged. The
  // tag of the whole page: a client holding a page that credits cut holds another tag, and pays for the rest.
  if (revalidation?.held) {
    const etag = revalidation.tags.page(scope, page, page.rows.length, false);
    if (holdsEntityTag(revalidation.held, etag)) return { notModified: etag };
  }
  // A page with nothing on it (the change feed between changes; a search answers 404 instead): nothing to charge,
  // and a call all the same.
  if (page.rows.length === 0) {
    const billing = { creditsRemaining: before.balance, recordsReturned: 0, truncatedByCredits: false };
    return answer(page, billing, false);
  }
  // Every row: the charge decides how many are paid for (a grant or a concurrent call may change the balance).
  const billing = await chargePage(meter, r, { records: page.rows.length, receipt: receiptOf(page) });
  // A repeat racing its first call: answered with what that call paid for.
  if (billing.repeat) return repeat(billing.repeat);
  return answer(page, billing, true);
}

/** What a page costs: its records, read or counted (a balance below that would truncate it, and cost less). */
const costOf = (page: RecordPage) => page.counted ?? page.rows.length;

/**
 * A free preview: the balance, then the search, and no charge (no transaction either: a preview under an
 * Idempotency-Key neither uses nor takes the key). The page is sent without its records. An account that cannot pay
 * is refused (402) before the search, as a call would be: it learns nothing about the store, not even a total.
 */
async function previewPage(
  meter: CreditMeter,
  r: ChargeRequest,
  source: PageSource,
): Promise<{ page: RecordPage; billing: ReportedBilling }> {
  const balance = await previewBalance(meter, r.who.accountId).catch(countRefusal(r.endpoint));
  // Counted, not read, where the source has a count (address, owner); parcel, area and history previews read their
  // bounded page. The route runs either in the free work lane.
  const page = await (source.count ?? source.find)();
  // Nor its match: `matched` is the stored address (a verification of the line asked), paid for with the records.
  return {
    page: { ...page, rows: [], match: undefined },
    billing: {
      creditsRemaining: balance,
      recordsReturned: 0,
      truncatedByCredits: false,
      creditsRequired: costOf(page),
    },
  };
}

/**
 * The search; a 404 is answered 402 when the balance has run out meanwhile (concurrent calls took it): otherwise
 * an account could send many searches at once on its last credit and read 402 = found, 404 = not for free.
 */
async function findUnlessBroke(
  meter: CreditMeter,
  accountId: number,
  find: () => Promise<RecordPage>,
): Promise<RecordPage> {
  try {
    return await find();
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) {
      const balance = await meter.balance(accountId).catch(() => null);
      if (balance === 0) throw noCreditsLeft();
    }
    throw err;
  }
}
