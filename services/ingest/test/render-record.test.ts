// What a record says that is computed, not read: equity is never a guess (issue 26).
import { describe, expect, it } from 'vitest';
import { equityOf } from '../src/domain/render-record.js';
import { makeProperty } from './make-property.js';

const valued = (mortgages: { amount: number | null; date: string | null; lender: string | null }[]) =>
  makeProperty({
    assessment: {
      taxYear: 2025,
      taxAmount: 3_000,
      land: 100_000,
      improvements: 200_000,
      total: 300_000,
      marketTotal: 400_000,
      avmValue: 410_000,
      avmDate: '2025-01-01',
      rentalEstimate: null,
      rentalSource: null,
    },
    mortgages,
  });

describe('equity', () => {
  it('is the value less the current mortgage', () => {
    expect(equityOf(valued([{ amount: 250_000.4, date: '2020-01-01', lender: 'A BANK' }]))).toBe(160_000);
  });

  it('is unknown (null) without a mortgage on record, not the whole value', () => {
    expect(equityOf(valued([]))).toBeNull();
  });

  it('is unknown (null) when the mortgage on record has no amount, or there is no value', () => {
    expect(equityOf(valued([{ amount: null, date: '2020-01-01', lender: 'A BANK' }]))).toBeNull();
    expect(equityOf(makeProperty({ mortgages: [{ amount: 1, date: null, lender: null }] }))).toBeNull();
  });
});
