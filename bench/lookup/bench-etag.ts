// npm run bench:etag [-- --rounds 2000 --records 1,25,100]
// What the ETag of issue 38 adds to a record answer, in the lookup process: the tag of a page (an HMAC-SHA256 over
// every record returned as sent), beside two costs every charged 200 already had, measured in the same run on the
// same pages: the page's receipt (a digest of each record, kept with the charge) and the PropertyResponse's rendering
// (with its byte length, as sendJson takes it).
// Pages of stored records as the ingest renders them (~2 KB each) with a tract's demographics. Each figure is the
// median of the rounds, after a warm-up; the ratios are the tag's time over each baseline's.
import { parseArgs } from 'node:util';
import { makeProperty } from '@pra/ingest/testing';
import { renderRecord as renderStored } from '../../services/ingest/src/domain/render-record.js';
import { EntityTags, entityTagKey } from '../../services/lookup/src/domain/entity-tags.js';
import { receiptOf } from '../../services/lookup/src/domain/receipts.js';
import type { RecordPage } from '../../services/lookup/src/domain/record-page.js';
import { renderPropertyResponse } from '../../services/lookup/src/routes/render-responses.js';

const { values } = parseArgs({
  options: { rounds: { type: 'string', default: '2000' }, records: { type: 'string', default: '1,25,100' } },
});
const rounds = Number(values.rounds);
const SIZES = values.records.split(',').map(Number);

const DEMOGRAPHICS = JSON.stringify({
  medianAge: 38.2,
  medianGrossRent: 1450,
  medianHomeValue: 412000,
  medianHouseholdIncome: 78250,
  ownerOccupiedRate: 61.4,
  povertyRate: 11.2,
  source: 'ACS 2019-2023 5-year',
  totalPopulation: 4521,
  unemploymentRate: 4.1,
  vacancyRate: 6.3,
});

function pageOf(records: number): RecordPage {
  const rows = Array.from({ length: records }, (_, i) => {
    const p = makeProperty({
      line1: `${100 + i} BENCHMARK AVE`,
      line2: `APT ${i + 1}`,
      owner1: { firstName: 'ALEX', lastName: `OWNER${i}`, fullName: `ALEX OWNER${i}`, type: 'Individual' },
      mailing: { line1: `${i} ELSEWHERE RD`, city: 'RENO', state: 'NV', zip: '89501' },
      assessment: {
        taxYear: 2024,
        land: 100_000 + i,
        improvements: 200_000,
        total: 300_000 + i,
        marketTotal: 350_000 + i,
        taxAmount: 3_500,
        avmValue: 360_000 + i,
        avmDate: '2025-01-02',
        rentalEstimate: 2_100,
        rentalSource: 'property',
      },
      sales: [
        {
          date: '2020-05-06',
          price: 310_000 + i,
          documentType: 'GRANT DEED',
          recordingDate: '2020-05-07',
          buyerName: 'A',
          sellerName: 'B',
          documentNumber: null,
        },
      ],
    });
    return { body: JSON.stringify(renderStored(50_000 + i, 90_000 + i, p)), demo: DEMOGRAPHICS, total: records };
  });
  return { rows, total: records, page: 1, pagesize: Math.max(records, 25) };
}

/** Median microseconds of `work` over the rounds, after a warm-up of a tenth of them. */
function median(work: () => unknown): number {
  for (let i = 0; i < rounds / 10; i++) work();
  const times: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const t = performance.now();
    work();
    times.push((performance.now() - t) * 1000);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

const tags = new EntityTags(entityTagKey('bench-gateway-key-0123456789abcdef0123'));
const scope = { accountId: 42, fingerprint: 'GET /api/v1/property/address?address=100%20BENCHMARK%20AVE&zip=95814' };
const billing = { creditsRemaining: 1000, recordsReturned: 0, truncatedByCredits: false };

console.log(`bench:etag, ${rounds} rounds, median microseconds per page`);
console.log('| records | body KB | tag | receipt | render | tag / receipt | tag / render |');
console.log('|---|---|---|---|---|---|---|');
for (const records of SIZES) {
  const page = pageOf(records);
  const b = { ...billing, recordsReturned: records };
  const body = renderPropertyResponse(page, '00000000-0000-4000-8000-000000000000', b);
  const tag = median(() => tags.page(scope, page, records, false));
  const receipt = median(() => receiptOf(page));
  // As sendJson writes it: rendered, and measured for Content-Length (which flattens the concatenated string).
  const render = median(() =>
    Buffer.byteLength(renderPropertyResponse(page, '00000000-0000-4000-8000-000000000000', b)),
  );
  console.log(
    `| ${records} | ${(body.length / 1024).toFixed(1)} | ${tag.toFixed(1)} | ${receipt.toFixed(1)} | ${render.toFixed(1)} | ` +
      `${(tag / receipt).toFixed(2)} | ${(tag / render).toFixed(2)} |`,
  );
}
