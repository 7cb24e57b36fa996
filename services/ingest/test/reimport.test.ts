// A newer file over what an import stored: an empty cell clears what its column mapped, a corrected sale price
// replaces the sale, a normaliser change (rekey) leaves re-imports finding their parcels, and a remove never
// interleaves with an import of its source. Issue 22, point 8.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createPool, dropDatabase, ensureDatabase, type Pool, withDatabase } from '@pra/platform';
import type {} from '@pra/platform/testing';
import { migrateRecords } from '../src/data/migrate.js';
import { rekeyAddresses } from '../src/data/rekey.js';
import { importCsv } from '../src/importer/import-csv.js';
import { loadMapping } from '../src/importer/mapping.js';
import { uniqueStreet } from './make-property.js';

let pool: Pool;
beforeAll(() => {
  pool = createPool(inject('databaseUrl'), 4);
});
afterAll(() => pool.end());

const dir = mkdtempSync(join(tmpdir(), 'pra-reimport-'));
let files = 0;
const write = (lines: string[]) => {
  const file = join(dir, `f${++files}.csv`);
  writeFileSync(file, lines.join('\n'));
  return file;
};
const tagged = () =>
  uniqueStreet()
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');
/** A mapping file with a name of its own (and so a source of its own). */
const mappingNamed = (base: object, name: string) => {
  const file = join(dir, `${name}-${++files}.json`);
  writeFileSync(file, JSON.stringify({ ...base, name }));
  return loadMapping(file);
};

describe('a normaliser change (ADDRESS_KEYS_VERSION) between two imports of a mapping without an APN', () => {
  const url = withDatabase(inject('databaseUrl'), `${new URL(inject('databaseUrl')).pathname.slice(1)}_rekey`);
  let own: Pool;
  beforeAll(async () => {
    await ensureDatabase(url);
    own = createPool(url, 3);
    await migrateRecords(own);
  });
  afterAll(async () => {
    await own.end();
    await dropDatabase(url);
  });

  it('leaves the re-import finding its parcels: no duplicate, reported unchanged or updated', async () => {
    const mapping = mappingNamed(
      {
        kind: 'property',
        fields: {
          line1: { column: 'ADDRESS', format: 'upper', required: true },
          zip: { column: 'ZIP', format: 'zip5', required: true },
          ownerName: { column: 'OWNER' },
          saleDate: { column: 'DATE', format: 'date-us' },
          salePrice: { column: 'PRICE', format: 'integer' },
        },
      },
      `noapn-${tagged()}`,
    );
    const source = `import:${mapping.name}`;
    const file = write([
      'ADDRESS,ZIP,OWNER,DATE,PRICE',
      '131 74 STREET,11209,ANN LEE,1/2/2020,800000',
      '9 OCEAN AVE,11209,BOB RAY,2/3/2020,700000',
    ]);
    expect(await importCsv(own, mapping, file)).toMatchObject({ added: 2 });
    // As a store written by an older normaliser holds it: "74" was not read as "74TH" then, in the record's keys
    // and in the identity the import stored for the parcel.
    await own.query(
      "UPDATE records.properties SET line_key = '131 74 ST', loose_key = '' WHERE line_key = '131 74TH ST'",
    );
    const { rowCount } = await own.query(
      "UPDATE records.import_state SET identity = 'addr:131 74 ST|11209|' WHERE identity = 'addr:131 74TH ST|11209|'",
    );
    expect(rowCount).toBe(1);
    await own.query('UPDATE records.dataset_stats SET address_keys_version = 0');
    const count = async () =>
      (await own.query('SELECT count(*)::int AS n FROM records.properties WHERE source = $1', [source])).rows[0].n;

    await rekeyAddresses(own);
    expect(await importCsv(own, mapping, file)).toMatchObject({ added: 0, updated: 0, unchanged: 2 });
    expect(await count()).toBe(2);
    const sold = write(['ADDRESS,ZIP,OWNER,DATE,PRICE', '131 74TH ST,11209,CAT POE,5/6/2021,900000']);
    expect(await importCsv(own, mapping, sold)).toMatchObject({ added: 0, updated: 1 });
    expect(await count()).toBe(2);
    const stats = await own.query('SELECT property_count::int AS n FROM records.dataset_stats');
    expect(stats.rows[0].n).toBe(2);
  });
});
