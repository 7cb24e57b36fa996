// An owner merged by a batch's resolver (owner-registry.ts rule 3) while an earlier batch's write that names the
// merged-away owner is still uncommitted (the import pipeline keeps up to two writes in flight): the merge's UPDATE
// of owner_mentions cannot see the rows that write is copying. The merge lock and the write's settling
// (settleMergedOwners) leave no mention naming an owner that only answers through a redirect.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { createPool, dropDatabase, ensureDatabase, type Pool, withDatabase } from '@pra/platform';
import type {} from '@pra/platform/testing';
import { migrateRecords } from '../src/data/migrate.js';
import { importCsv } from '../src/importer/import-csv.js';
import { loadMapping } from '../src/importer/mapping.js';

const url = withDatabase(inject('databaseUrl'), `pra_owner_merge_race_${randomBytes(4).toString('hex')}`);
let pool: Pool;
beforeAll(async () => {
  await ensureDatabase(url);
  pool = createPool(url, 6, 'owner-merge-race');
  await migrateRecords(pool);
}, 60_000);
afterAll(async () => {
  await pool.end();
  await dropDatabase(url);
  rmSync(dir, { recursive: true, force: true });
});

const dir = mkdtempSync(join(tmpdir(), 'pra-merge-race-'));
const HEADER = 'BOOK,PAGE,SITUS,ZIP,OWNER,MAIL,MAILCITY,MAILSTATE,MAILZIP,SALE DATE,SALE PRICE';
const mappingFile = join(dir, 'm.json');
writeFileSync(
  mappingFile,
  JSON.stringify({
    kind: 'property',
    name: 'owner-merge-race',
    fields: {
      apn: { template: '{BOOK}-{PAGE:03}', required: true },
      line1: { column: 'SITUS', format: 'upper', required: true },
      zip: { column: 'ZIP', format: 'zip5', required: true },
      ownerName: { column: 'OWNER', order: 'first-last' },
      mailingLine1: { column: 'MAIL' },
      mailingCity: { column: 'MAILCITY' },
      mailingState: { column: 'MAILSTATE' },
      mailingZip: { column: 'MAILZIP' },
      saleDate: { column: 'SALE DATE', format: 'date-us' },
      salePrice: { column: 'SALE PRICE', format: 'integer' },
    },
  }),
);
const mapping = loadMapping(mappingFile);
let files = 0;
const file = (rows: string[]) => {
  const f = join(dir, `f${++files}.csv`);
  writeFileSync(f, [HEADER, ...rows].join('\n'));
  return f;
};

it('leaves no owner mention pointing at an owner merged away during the import', async () => {
  for (let round = 0; round < 8; round++) {
    const name = `JOHN ${'ABCDEFGHIJ'[round]}${randomBytes(3).toString('hex').replace(/\d/g, 'Q').toUpperCase()}`;
    const page = 10 + round * 2;
    // Q is first mailed at an old address: owner B.
    await importCsv(
      pool,
      mapping,
      file([`7,${page + 1},${page + 1} ELM ST,95814,${name},1 OLD RD,SACRAMENTO,CA,95814,1/2/2010,100000`]),
      { workers: 0 },
    );
    // P (new, batch 0) and Q (batch 1) both mailed at a new address: P makes owner A by the new key; Q's key names A
    // and its place named B before, so A is merged into B while P's write may not be committed.
    await importCsv(
      pool,
      mapping,
      file([
        `7,${page},${page} ELM ST,95814,${name},9 NEW RD,SACRAMENTO,CA,95814,1/2/2011,200000`,
        `7,${page + 1},${page + 1} ELM ST,95814,${name},9 NEW RD,SACRAMENTO,CA,95814,1/2/2010,100000`,
      ]),
      { workers: 0, batchSize: 1 },
    );
  }
  const { rows } = await pool.query(
    `SELECT m.property_id, m.owner_id FROM records.owner_mentions m
      WHERE m.owner_id IN (SELECT from_id FROM records.owner_redirects)`,
  );
  expect(rows).toEqual([]);
}, 120_000);
