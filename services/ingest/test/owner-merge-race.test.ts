// An owner merged by a batch's resolver (owner-registry.ts rule 3) while an earlier batch's write that names the
// merged-away owner is still uncommitted (the import pipeline keeps up to two writes in flight): the merge's UPDATE
// of owner_mentions cannot see the rows that write is copying. The merge lock and the write's settling
// (settleMergedOwnersStatement) leave no mention naming an owner that only answers through a redirect.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { createPool, dropDatabase, ensureDatabase, type Pool, withDatabase } from '@pra/platform';
import type {} from '@pra/platform/testing';
import { buildCopyChunks } from '../src/data/copy-rows.js';
import { writeBatch } from '../src/data/loader.js';
import { migrateRecords } from '../src/data/migrate.js';
import { mergeOwnerIds } from '../src/data/owner-registry.js';
import { parcelRefOf, registerParcels } from '../src/data/parcels.js';
import { importCsv } from '../src/importer/import-csv.js';
import { loadMapping } from '../src/importer/mapping.js';
import { insertProperties, makeProperty, uniqueStreet, uniqueSurname } from './make-property.js';

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
    const name = `JOHN ${uniqueSurname('ABCDEFGHIJ'[round]!)}`;
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

it('a write waits for a merge in progress before it holds any row, then names the owner merged into', async () => {
  // A write that first deleted a record's mentions and only then waited for the merge lock deadlocked with a merge
  // whose UPDATE waited for those rows. The write takes the lock before anything else.
  const street = uniqueStreet();
  const item = makeProperty({
    line1: `1 ${street}`,
    apn: `${street.slice(-6)}-1`,
    owner1: { firstName: 'ANA', lastName: 'MERGEX', fullName: 'ANA MERGEX', type: 'Individual' },
  });
  const other = makeProperty({
    line1: `2 ${street}`,
    apn: `${street.slice(-6)}-2`,
    owner1: { firstName: 'BEA', lastName: 'MERGEY', fullName: 'BEA MERGEY', type: 'Individual' },
  });
  const [p, q] = await insertProperties(pool, [item, other]);
  const ownerOf = async (id: number) =>
    Number(
      (await pool.query('SELECT owner_id FROM records.owner_mentions WHERE property_id = $1 AND seq = 1', [id])).rows[0]
        .owner_id,
    );
  const [x, y] = [await ownerOf(p!), await ownerOf(q!)];
  // A merge of x into y, held open.
  const merger = await pool.connect();
  let seen: string[] = [];
  let write: Promise<void> = Promise.resolve();
  try {
    await merger.query('BEGIN');
    await mergeOwnerIds(merger, [[x, y]]);
    // A re-import's write of p, its owner resolved as x before the merge.
    const parcelIds = await registerParcels(pool, [parcelRefOf(item)]);
    write = writeBatch(pool, buildCopyChunks([p!], [item], parcelIds, 'test', [[x, null, null, null]]), 0, {
      replaceIds: [p!],
      ownerIds: [x, null, null, null],
    });
    write.catch(() => {});
    const waits = async () =>
      (
        await pool.query<{ wait: string }>(
          `SELECT wait_event AS wait FROM pg_stat_activity
            WHERE datname = current_database() AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()`,
        )
      ).rows.map((r) => r.wait);
    // Up to 10 s: on a loaded machine the write may take a while to reach its lock.
    for (let i = 0; i < 500 && seen.length === 0; i++) {
      await new Promise((r) => setTimeout(r, 20));
      seen = await waits();
    }
  } finally {
    // Whatever the outcome, the merge ends: a transaction left open would hold the pool (and the database) for ever.
    await merger.query('COMMIT').catch(() => {});
    merger.release();
  }
  // The write waited for the advisory lock, not for a row of p's the merge updated.
  expect(seen).toEqual(['advisory']);
  await write;
  expect(await ownerOf(p!)).toBe(y);
}, 30_000);
