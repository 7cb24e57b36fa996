// Pages (address, owner, parcel, a repeat's re-read) serve a record's body only, and read it from a stored value
// that holds the body and then both histories (@pra/core/stored). A property's sale history has no bound (an import
// merges every row of a parcel into it), so a page must not decode it: decoding a row decodes the body, not what
// follows it.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeRecordDoc } from '@pra/core/stored';
import { decodeRecordRow } from '../src/data/record-queries.js';

const row = (body: Buffer) => ({ body, demo: null, total: 1 });
const raw = (text: string) => Buffer.concat([Buffer.from([0]), Buffer.from(text, 'utf8')]);

describe('a page row decoded from its stored value', () => {
  it('is the body, whatever the body and histories hold, compressed or raw', () => {
    const json = fc.jsonValue().map((v) => JSON.stringify({ identifier: { Id: 1 }, v }));
    fc.assert(
      fc.property(json, fc.option(fc.tuple(json, json)), (body, h) => {
        const histories = h && { sales: h[0], assessments: h[1] };
        expect(decodeRecordRow(row(encodeRecordDoc(body, histories))).body).toBe(body);
        const text = histories ? `${body}\n${histories.sales}\n${histories.assessments}` : body;
        expect(decodeRecordRow(row(raw(text))).body).toBe(body);
      }),
    );
  });

  it('does not decode the histories after the body (a property with 200,000 sales)', () => {
    const body = JSON.stringify({ identifier: { Id: 7 }, address: { line1: '1 MAIN ST', note: 'é\u2028"\\n' } });
    const sales = JSON.stringify(
      Array.from({ length: 200_000 }, (_, i) => ({
        date: `19${String(i % 100).padStart(2, '0')}-01-01`,
        price: (i * 7919) % 1_000_003,
        documentType: 'DEED',
        recordingDate: '2000-01-01',
        buyerName: `BUYER ${i}`,
        sellerName: null,
      })),
    );
    const stored = encodeRecordDoc(body, { sales, assessments: '[]' });
    expect(stored.length).toBeGreaterThan(200_000);
    expect(decodeRecordRow(row(stored)).body).toBe(body);
    // Only the start of the value is read: the same value cut short after its first 32 KB gives the same body (the
    // whole value decoded would be ~25 MB of text, on the event loop for every page that lists it). zstd decodes
    // whole blocks (up to 128 KB of text each, under 8 KB of this value), so the cut is past the first.
    expect(decodeRecordRow(row(stored.subarray(0, 32_768))).body).toBe(body);
    // And the next value decodes (the body's read left its zstd context mid-frame: it was given up).
    expect(decodeRecordRow(row(encodeRecordDoc(body, null))).body).toBe(body);
  });
});
