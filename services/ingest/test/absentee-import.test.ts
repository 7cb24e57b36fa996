// A county file with the owner's mailing columns gives real absentee values (issue 26); one without them leaves
// absentee ownership unknown (null), not "owner-occupied".
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createPool, type Pool } from '@pra/platform';
import type {} from '@pra/platform/testing';
import { importCsv } from '../src/importer/import-csv.js';
import { uniqueStreet } from './make-property.js';
import { recordsOf } from './stored-records.js';
import { useTempFiles } from './temp-files.js';

let pool: Pool;
beforeAll(() => {
  pool = createPool(inject('databaseUrl'), 2);
});
afterAll(async () => {
  await pool.end();
});
const { write, propertyMapping } = useTempFiles('pra-absentee');

const HEADER = 'PARCEL,SITUS,UNIT,ZIP,OWNER,MAIL ADDR,MAIL CITY,MAIL STATE,MAIL ZIP';
const fields = {
  apn: { column: 'PARCEL', required: true },
  line1: { column: 'SITUS', format: 'upper', required: true },
  unit: { column: 'UNIT' },
  zip: { column: 'ZIP', format: 'zip5', required: true },
  ownerName: { column: 'OWNER', order: 'first-last' },
};
const mailingFields = {
  mailingLine1: { column: 'MAIL ADDR', format: 'upper' },
  mailingCity: { column: 'MAIL CITY', format: 'upper' },
  mailingState: { column: 'MAIL STATE', format: 'state' },
  mailingZip: { column: 'MAIL ZIP' },
};
const mappingOf = (f: object) => propertyMapping('mail', f).mapping;

describe('owner mailing columns in a mapping', () => {
  it('give N for an owner mailed at the unit, Y for one mailed elsewhere, null when the file has none', async () => {
    const street = uniqueStreet();
    const mapping = mappingOf({ ...fields, ...mailingFields });
    const source = `import:${mapping.name}`;
    const rows = [
      `P-1,500 ${street} BLVD,3,95814,ANN LEE,"500 ${street} Boulevard, Apt 3",Sacramento,ca,95814-1234`,
      `P-2,500 ${street} BLVD,4,95814,BOB ROE,PO BOX 12,SAN FRANCISCO,CA,94105`,
      `P-3,500 ${street} BLVD,5,95814,CY DOE,,,,`,
      `P-4,500 ${street} BLVD,6,95814,DI FOX,500 ${street} BLVD UNIT 6,SACRAMENTO,CA,`,
    ];
    const s = await importCsv(pool, mapping, write('first.csv', [HEADER, ...rows].join('\n')));
    expect(s).toMatchObject({ added: 4, skipped: 0 });
    const records = await recordsOf(pool, source);
    expect(records.map((r) => [r.identifier.apn, r.summary.absenteeInd])).toEqual([
      ['P-1', 'N'],
      ['P-2', 'Y'],
      ['P-3', null],
      // Without its ZIP the mailing address cannot be compared like with like: unknown, shown as written.
      ['P-4', null],
    ]);
    // A ZIP+4 is the ZIP and its +4 (issue 36).
    expect(records[0].owner.mailingAddress).toEqual({
      line1: `500 ${street} BOULEVARD, APT 3`,
      locality: 'SACRAMENTO',
      countrySubd: 'CA',
      postal1: '95814',
      postal2: '1234',
    });
    expect(records[2].owner.mailingAddress).toEqual({ line1: null, locality: null, countrySubd: null, postal1: null });
    expect(records[3].owner.mailingAddress.line1).toBe(`500 ${street} BLVD UNIT 6`);

    // A newer file speaks for the mailing columns it maps: P-2's owner now lives there; P-1's mailing cell is empty.
    const again = [
      `P-1,500 ${street} BLVD,3,95814,ANN LEE,,,,`,
      `P-2,500 ${street} BLVD,4,95814,BOB ROE,500 ${street} BLVD #4,SACRAMENTO,CA,95814`,
    ];
    const s2 = await importCsv(pool, mapping, write('second.csv', [HEADER, ...again].join('\n')));
    expect(s2).toMatchObject({ added: 0, updated: 2, skipped: 0 });
    const after = await recordsOf(pool, source);
    expect(after.map((r) => [r.identifier.apn, r.summary.absenteeInd])).toEqual([
      ['P-1', null],
      ['P-2', 'N'],
      ['P-3', null],
      ['P-4', null],
    ]);
  });

  it('read nothing when the mapping maps none: absentee ownership is unknown', async () => {
    const street = uniqueStreet();
    const mapping = mappingOf(fields);
    const row = `Q-1,7 ${street} ST,,95814,ANN LEE,7 ${street} ST,SACRAMENTO,CA,95814`;
    await importCsv(pool, mapping, write('plain.csv', [HEADER, row].join('\n')));
    const [r] = await recordsOf(pool, `import:${mapping.name}`);
    expect(r.summary.absenteeInd).toBeNull();
    expect(r.owner.mailingAddress.line1).toBeNull();
  });
});
