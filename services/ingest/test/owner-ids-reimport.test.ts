// Owner ids through imports (migration 0012, owner-registry.ts): an owner whose mailing address changes between two
// files of one roll keeps its id (the place named it before: rule 2), and a parcel the second file adds, naming the
// same person at the new address, joins that owner (rule 1, by the key rule 2 made evidence). The importer tells
// the resolver which records are new (ids just reserved: nothing named an owner there), which skip rule 2: a stored
// record wrongly told new would lose rule 2 and its owner a new id, which this test catches.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createPool, type Pool } from '@pra/platform';
import type {} from '@pra/platform/testing';
import { importCsv } from '../src/importer/import-csv.js';
import { uniqueStreet } from './make-property.js';
import { useTempFiles } from './temp-files.js';

let pool: Pool;
beforeAll(() => {
  pool = createPool(inject('databaseUrl'), 4);
});
afterAll(() => pool.end());
const { write, propertyMapping } = useTempFiles('pra-owner-ids');

const HEADER = 'APN,SITUS,ZIP,OWNER,MAIL LINE,MAIL CITY STATE ZIP';

/** The owner id of each (APN, seq) of the source's records. */
async function ownerIds(source: string): Promise<Map<string, number>> {
  const { rows } = await pool.query<{ apn: string; seq: number; owner_id: string }>(
    `SELECT p.apn, m.seq, m.owner_id FROM records.owner_mentions m JOIN records.properties p ON p.id = m.property_id
      WHERE p.source = $1`,
    [source],
  );
  return new Map(rows.map((r) => [`${r.apn}:${r.seq}`, Number(r.owner_id)]));
}

describe('owner ids through a roll re-imported with new mailing addresses', () => {
  it.each([
    ['one batch', 100],
    ['a batch a row', 1],
  ])(
    'keep the owner of a place whose mailing address changed, and join a new parcel to it (%s)',
    async (_how, batchSize) => {
      const street = uniqueStreet();
      const { mapping, source } = propertyMapping('owner-ids', {
        apn: { column: 'APN', required: true },
        line1: { column: 'SITUS', format: 'upper', required: true },
        zip: { column: 'ZIP', format: 'zip5', required: true },
        city: { value: 'SACRAMENTO' },
        state: { value: 'CA' },
        ownerName: { column: 'OWNER', order: 'first-last' },
        mailingLine1: { column: 'MAIL LINE', format: 'upper' },
        mailingCityStateZip: { column: 'MAIL CITY STATE ZIP', format: 'upper' },
      });
      const first = write(
        'first.csv',
        [
          HEADER,
          `A-1,1 ${street} ST,95814,ANN QUILLFEATHER,1 ${street} ST,SACRAMENTO CA 95814`,
          `A-2,2 ${street} ST,95814,BOB ZANDERWICK,9 ${street} ST,DAVIS CA 95616`,
        ].join('\n'),
      );
      expect(await importCsv(pool, mapping, first, { batchSize })).toMatchObject({ added: 2, skipped: 0 });
      const before = await ownerIds(source);
      expect(before.size).toBe(2);

      // Both owners moved: their owner keys (name at a mailing address) are new; a new parcel names Ann at her new one.
      // Addresses of this case's own street: an owner key is the whole store's (the other case's Ann would join hers).
      const second = write(
        'second.csv',
        [
          HEADER,
          `A-1,1 ${street} ST,95814,ANN QUILLFEATHER,77 ${street} AVE,FRESNO CA 93701`,
          `A-2,2 ${street} ST,95814,BOB ZANDERWICK,5 ${street} RD,REDDING CA 96001`,
          `A-3,3 ${street} ST,95814,ANN QUILLFEATHER,77 ${street} AVE,FRESNO CA 93701`,
        ].join('\n'),
      );
      expect(await importCsv(pool, mapping, second, { batchSize })).toMatchObject({ added: 1, updated: 2, skipped: 0 });
      const after = await ownerIds(source);
      expect(after.get('A-1:1')).toBe(before.get('A-1:1'));
      expect(after.get('A-2:1')).toBe(before.get('A-2:1'));
      expect(after.get('A-3:1')).toBe(before.get('A-1:1'));
      expect(after.get('A-1:1')).not.toBe(after.get('A-2:1'));
    },
  );
});
