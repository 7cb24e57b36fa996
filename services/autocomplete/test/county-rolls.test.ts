// Issue 36: a roll without site ZIPs (Lebanon, NH, from the hand-out) loaded with its shipped mapping appears in the
// type-ahead with its state: typed within the state, a parcel is suggested with the ZIP its record has (found from
// evidence) or none, never an invented one; typed within a ZIP the evidence gave, its parcels are suggested. The
// index follows the store through the change feed, as the autocomplete service runs it. A database of its own: the
// feed is one per store.
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { createPool, dropDatabase, ensureDatabase, type Pool, withDatabase } from '@pra/platform';
import type {} from '@pra/platform/testing';
import { migrateRecords } from '@pra/ingest/migrate';
import { COUNTY_ROLLS, importCsv, loadMapping } from '@pra/ingest/import';
import { decodeStoredJson } from '@pra/core/stored';
import { migrateSearch } from '../src/data/migrate.js';
import { PostgresSearchIndex } from '../src/data/postgres-index.js';
import { parseTypedQuery } from '../src/domain/typed-query.js';
import { applyChanges, withFeedLock } from '../src/indexing/change-feed.js';

const url = withDatabase(inject('databaseUrl'), `${new URL(inject('databaseUrl')).pathname.slice(1)}_rolls`);
let pool: Pool;
let index: PostgresSearchIndex;

/** A suggestion (and the part of a stored record) this test reads. */
interface Suggested {
  identifier: { Id: number; apn?: string };
  address: { line1: string; line2: string; countrySubd: string; postal1: string };
}

beforeAll(async () => {
  await ensureDatabase(url);
  pool = createPool(url, 6);
  await migrateRecords(pool);
  await migrateSearch(pool);
  index = new PostgresSearchIndex(pool);
  const { mapping, file } = COUNTY_ROLLS.lebanon[0]!;
  const s = await importCsv(pool, loadMapping(mapping), file);
  expect(s.added).toBeGreaterThan(5_000);
  // Catch-ups until the feed is drained (each applies a bounded number of changes).
  while (((await withFeedLock(pool, true, (c) => applyChanges(index, c))) ?? 0) > 0);
}, 120_000);
afterAll(async () => {
  await pool.end();
  await dropDatabase(url);
});

/** The stored record of each parcel of the roll, by property id: its APN, line and ZIP. */
async function stored(): Promise<Map<number, { apn: string; line1: string; postal1: string }>> {
  const { rows } = await pool.query<{ body: Buffer }>('SELECT body FROM records.properties');
  return new Map(
    rows.map((r) => {
      const rec = JSON.parse(decodeStoredJson(r.body).split('\n')[0]!) as Suggested;
      return [rec.identifier.Id, { apn: rec.identifier.apn!, line1: rec.address.line1, postal1: rec.address.postal1 }];
    }),
  );
}

const suggest = async (typed: string, scope: { state?: string; zip?: string }) =>
  (await index.search(parseTypedQuery(typed), { ...scope, limit: 10 }, 100)).docs.map(
    (d) => JSON.parse(d) as Suggested,
  );

it('suggests the roll parcels within the state, each with the ZIP its record has or none', async () => {
  const records = await stored();
  // Parcels with a house number: a street typed without one is looked up within a ZIP only.
  const numbered = [...records].filter(([, r]) => /^\d/.test(r.line1));
  const withZip = numbered.find(([, r]) => r.postal1 !== '');
  const withoutZip = numbered.find(([, r]) => r.postal1 === '');
  expect(withZip).toBeDefined();
  expect(withoutZip).toBeDefined();
  for (const [id, r] of [withZip!, withoutZip!]) {
    const found = (await suggest(r.line1, { state: 'NH' })).find((s) => s.identifier.Id === id);
    expect(found, `${r.line1} (APN ${r.apn}) suggested within NH`).toBeDefined();
    expect(found!.address.countrySubd).toBe('NH');
    expect(found!.address.postal1).toBe(r.postal1);
  }
  // Typed within the ZIP the evidence gave: found too; within another state: not.
  const [id, r] = withZip!;
  expect((await suggest(r.line1, { zip: r.postal1 })).map((s) => s.identifier.Id)).toContain(id);
  expect((await suggest(r.line1, { state: 'VT' })).map((s) => s.identifier.Id)).not.toContain(id);
}, 60_000);
