// The compact layout (migration 0006): a store written in the old layout (a text body, a row per sale and per tax
// year) is converted without losing anything: bodies read back byte for byte, histories as the endpoints served
// them. And the stored-JSON encoding round-trips whatever the text.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { decodeRecordDoc, decodeStoredJson, encodeRecordDoc, encodeStoredJson, storedAddress } from '@pra/core/stored';
import {
  createPool,
  dropDatabase,
  ensureDatabase,
  migrate,
  readMigrations,
  type Pool,
  withDatabase,
} from '@pra/platform';
import type {} from '@pra/platform/testing';
import { RECORDS_MIGRATIONS_DIR } from '../src/data/migrate.js';

describe('stored JSON', () => {
  it('decodes what it encodes, for any text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 3000 }), (text) => {
        expect(decodeStoredJson(encodeStoredJson(text))).toBe(text);
      }),
    );
  });

  it('reads raw values (a migration writes them) and refuses an unknown encoding with a message', () => {
    expect(decodeStoredJson(Buffer.concat([Buffer.from([0]), Buffer.from('{"a":"é"}')]))).toBe('{"a":"é"}');
    expect(() => decodeStoredJson(Buffer.from([7, 1, 2]))).toThrow(/unknown encoding \(first byte 7\)/);
  });

  it('keeps a body and its histories apart in one stored value, and gives empty histories for none', () => {
    const histories = { sales: '[{"a":"x\\ny"}]', assessments: '[]' };
    expect(decodeRecordDoc(encodeRecordDoc('{"b":1}', histories))).toEqual({ body: '{"b":1}', ...histories });
    expect(decodeRecordDoc(encodeRecordDoc('{"b":1}', null))).toEqual({
      body: '{"b":1}',
      sales: '[]',
      assessments: '[]',
    });
  });

  it('reads the address of a stored record, histories or none', () => {
    const body = JSON.stringify({ identifier: { Id: 1 }, address: { line1: '1 MAIN ST', line2: '# 2C' } });
    const histories = { sales: '[{"address":{"line1":"NOT IT"}}]', assessments: '[]' };
    expect(storedAddress(encodeRecordDoc(body, histories))).toEqual({ line1: '1 MAIN ST', line2: '# 2C' });
    expect(storedAddress(encodeRecordDoc(body, null)).line1).toBe('1 MAIN ST');
  });
});

describe('migration 0006 on a store in the old layout', () => {
  const url = withDatabase(inject('databaseUrl'), `${new URL(inject('databaseUrl')).pathname.slice(1)}_compact`);
  let pool: Pool;
  const all = readMigrations(RECORDS_MIGRATIONS_DIR);
  const before = all.filter((m) => m.version < 6);
  beforeAll(async () => {
    await ensureDatabase(url);
    pool = createPool(url, 2);
    await migrate(pool, 'records', before);
  });
  afterAll(async () => {
    await pool.end();
    await dropDatabase(url);
  });

  it('keeps every body byte for byte and every sale and tax year, in the order the endpoints return them', async () => {
    const body = '{"identifier":{"Id":1},"address":{"line1":"1 MAIN ST","line2":"","note":"tab\\t and é"}}';
    await pool.query(
      `INSERT INTO records.properties (id, parcel_id, apn, apn_orig, apn_key, fips, state, county_key, city_key, zip,
         line_key, street_key, source, last_modified, body)
       VALUES (1, 9, '1-2', '12', '12', '06067', 'CA', 'SACRAMENTO', 'SACRAMENTO', '95814', '1 MAIN ST', 'MAIN ST',
         'test', now(), $1), (2, 8, '3-4', '34', '34', '06067', 'CA', 'SACRAMENTO', 'SACRAMENTO', '95814',
         '2 MAIN ST', 'MAIN ST', 'test', now(), '{"identifier":{"Id":2}}')`,
      [body],
    );
    await pool.query(`INSERT INTO records.sales VALUES
      (1, 1, '2001-05-01', 100000, 'DEED', '2001-05-03', 'A', 'B'),
      (1, 2, '2019-02-03', NULL, 'WARRANTY DEED', '2019-02-04', 'C', NULL)`);
    await pool.query(`INSERT INTO records.assessment_history VALUES
      (1, 2023, 10, 20, 30, 40, 1234.50), (1, 2024, 11, 21, 32, NULL, NULL)`);
    await migrate(pool, 'records', all);

    const { rows } = await pool.query<{ id: string; body: Buffer }>(
      'SELECT id, body FROM records.properties ORDER BY id',
    );
    const [first, second] = rows.map((r) => decodeRecordDoc(r.body));
    expect(first!.body).toBe(body);
    expect(second).toEqual({ body: '{"identifier":{"Id":2}}', sales: '[]', assessments: '[]' });
    const { sales, assessments } = first!;
    expect(JSON.parse(sales)).toEqual([
      {
        date: '2019-02-03',
        price: null,
        documentType: 'WARRANTY DEED',
        recordingDate: '2019-02-04',
        buyerName: 'C',
        sellerName: null,
      },
      {
        date: '2001-05-01',
        price: 100000,
        documentType: 'DEED',
        recordingDate: '2001-05-03',
        buyerName: 'A',
        sellerName: 'B',
      },
    ]);
    expect(JSON.parse(assessments)).toEqual([
      {
        taxYear: 2024,
        assessed: { land: 11, improvements: 21, total: 32 },
        market: { total: null },
        tax: { amount: null },
      },
      {
        taxYear: 2023,
        assessed: { land: 10, improvements: 20, total: 30 },
        market: { total: 40 },
        tax: { amount: 1234.5 },
      },
    ]);
  });
});
