// Renders the sale and assessment histories as /sale/history and /assessment/detail return them (SPEC 2.1): the
// store keeps them as this JSON beside the body (@pra/core/stored), so the endpoints read one row instead of a row
// per event.
// Values are the ones the columns they replaced held: whole dollars, tax to the cent, dates without a time.
import type { PropertyInput } from './property-input.js';

const whole = (n: number | null) => (n === null ? null : Math.round(n));
const cents = (n: number | null) => (n === null ? null : Math.round(n * 100) / 100);
const day = (d: string) => d.slice(0, 10);

/** Newest first; sales of one date in the order the input lists them. Null when there are none. */
export function renderSaleHistory(p: Pick<PropertyInput, 'sales'>): string | null {
  if (p.sales.length === 0) return null;
  const sales = p.sales
    .map((s, seq) => ({ s, seq }))
    .sort((a, b) => (a.s.date < b.s.date ? 1 : a.s.date > b.s.date ? -1 : a.seq - b.seq))
    .map(({ s }) => ({
      date: day(s.date),
      price: whole(s.price),
      documentType: s.documentType,
      recordingDate: s.recordingDate === null ? null : day(s.recordingDate),
      buyerName: s.buyerName,
      sellerName: s.sellerName,
      documentNumber: s.documentNumber ?? null,
    }));
  return JSON.stringify(sales);
}

/** An assessment's tax year for the order of the history: one without a year is the current one (an import's). */
const yearOrder = (h: { taxYear: number | null }) => h.taxYear ?? Number.MAX_SAFE_INTEGER;

/** The current assessment and the earlier years, newest first. Null when there are none. */
export function renderAssessmentHistory(p: Pick<PropertyInput, 'assessment' | 'assessmentHistory'>): string | null {
  const years = [...(p.assessment ? [p.assessment] : []), ...p.assessmentHistory];
  if (years.length === 0) return null;
  const rows = years
    .sort((a, b) => yearOrder(b) - yearOrder(a))
    .map((h) => ({
      taxYear: h.taxYear,
      assessed: { land: whole(h.land), improvements: whole(h.improvements), total: whole(h.total) },
      market: { total: whole(h.marketTotal) },
      tax: { amount: cents(h.taxAmount) },
    }));
  return JSON.stringify(rows);
}

/** Both histories, or null when the property has neither (its stored document is then the body alone). */
export function renderHistories(
  p: Pick<PropertyInput, 'sales' | 'assessment' | 'assessmentHistory'>,
): { sales: string; assessments: string } | null {
  const sales = renderSaleHistory(p);
  const assessments = renderAssessmentHistory(p);
  return sales === null && assessments === null ? null : { sales: sales ?? '[]', assessments: assessments ?? '[]' };
}
