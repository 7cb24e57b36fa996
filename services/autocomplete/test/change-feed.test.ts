// The type-ahead index follows the records store through the change feed, whatever order writes commit in: a
// concurrent import whose lower ids commit later, a re-imported (corrected) address, a removed source, writes
// committed while a full rebuild runs, and random sequences of all of them with the indexer running in between.
// A database of its own: the feed is one per store, and another test file's indexer would consume this one's rows.
import { decodeStoredJson } from '@pra/core/stored';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createPool, dropDatabase, ensureDatabase, type Pool, withDatabase } from '@pra/platform';
import type {} from '@pra/platform/testing';
import { migrateRecords } from '@pra/ingest/migrate';
import {
  holdBatchOpen,
  insertProperties,
  makeProperty,
  removeSource,
  rewriteProperties,
  uniqueStreet,
} from '@pra/ingest/testing';
import { migrateSearch } from '../src/data/migrate.js';
import { PostgresSearchIndex } from '../src/data/postgres-index.js';
import { readSuggestionDocs } from '../src/data/suggestion-source.js';
import { parseTypedQuery } from '../src/domain/typed-query.js';
import { applyChanges, withFeedLock } from '../src/indexing/change-feed.js';
import { runCatchUp, runRebuild } from '../src/indexing/index-queue.js';

const url = withDatabase(inject('databaseUrl'), `${new URL(inject('databaseUrl')).pathname.slice(1)}_feed`);
let pool: Pool;
let index: PostgresSearchIndex;

beforeAll(async () => {
  await ensureDatabase(url);
  pool = createPool(url, 8);
  await migrateRecords(pool);
  await migrateSearch(pool);
  index = new PostgresSearchIndex(pool);
});
afterAll(async () => {
  await pool.end();
  await dropDatabase(url);
});

/** One catch-up that waits for the consumer lock (a scheduled catch-up skips when another consumer holds it). */
const catchUp = async () => (await withFeedLock(pool, true, (c) => applyChanges(index, c))) ?? 0;

/** Property ids of the suggestions for a typed address in a ZIP. */
async function suggested(typed: string, zip = '95814'): Promise<number[]> {
  const { docs } = await index.search(parseTypedQuery(typed), { zip, limit: 10 }, 100);
  return docs.map((d) => JSON.parse(d).identifier.Id as number);
}

/** The index's documents and the store's, by property id: equal once the feed is applied. */
async function indexAndStore(): Promise<{ indexed: Map<number, string>; stored: Map<number, string> }> {
  const { rows } = await pool.query<{ id: number; doc: Buffer }>(
    'SELECT property_id AS id, doc FROM search.address_suggestions',
  );
  const stored = new Map<number, string>();
  for (let after = 0; ; ) {
    const docs = await readSuggestionDocs(pool, after, 5_000);
    if (docs.length === 0) break;
    for (const d of docs) stored.set(d.propertyId, d.doc);
    after = docs[docs.length - 1]!.propertyId;
  }
  return { indexed: new Map(rows.map((r) => [r.id, decodeStoredJson(r.doc)])), stored };
}

const feedRows = async () =>
  (await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM records.changes')).rows[0]!.n;

describe('the change feed', () => {
  it('indexes a concurrent import whose lower ids commit after a catch-up took later ones', async () => {
    const s = uniqueStreet();
    const held = await holdBatchOpen(pool, [makeProperty({ line1: `11 ${s} AVE` })], 'import:slow');
    await held.written;
    const [later] = await insertProperties(pool, [makeProperty({ line1: `12 ${s} AVE` })], 'import:fast');
    expect(later).toBeGreaterThan(held.ids[0]!);
    await catchUp();
    expect(await suggested(`12 ${s}`)).toEqual([later]);
    expect(await suggested(`11 ${s}`)).toEqual([]);
    await held.commit();
    // The index already holds a higher id: a catch-up from the highest indexed id would never see this one.
    await catchUp();
    expect(await suggested(`11 ${s}`)).toEqual(held.ids);
    expect(await feedRows()).toBe(0);
  });

  it('suggests a re-imported (corrected) address under its id, and no longer the old one', async () => {
    const s = uniqueStreet();
    const [id] = await insertProperties(pool, [makeProperty({ line1: `401 ${s} ST` })], 'import:corrected');
    await catchUp();
    expect(await suggested(`401 ${s}`)).toEqual([id]);
    await rewriteProperties(pool, [id!], [makeProperty({ line1: `410 ${s} ST` })], 'import:corrected');
    await catchUp();
    expect(await suggested(`410 ${s}`)).toEqual([id]);
    expect(await suggested(`401 ${s}`)).toEqual([]);
    const [doc] = (await index.search(parseTypedQuery(`410 ${s}`), { zip: '95814', limit: 1 }, 100)).docs;
    expect(JSON.parse(doc!).address.line1).toBe(`410 ${s} ST`);
  });

  it('drops the suggestions of a removed source', async () => {
    const s = uniqueStreet();
    const source = `import:removed-${s.toLowerCase()}`;
    const ids = await insertProperties(
      pool,
      [makeProperty({ line1: `7 ${s} CT` }), makeProperty({ line1: `9 ${s} CT` })],
      source,
    );
    const [kept] = await insertProperties(pool, [makeProperty({ line1: `8 ${s} CT` })], 'import:kept');
    await catchUp();
    expect((await suggested(`7 ${s}`)).concat(await suggested(`9 ${s}`))).toEqual(ids);
    expect(await removeSource(pool, source)).toBe(2);
    await catchUp();
    expect(await suggested(`7 ${s}`)).toEqual([]);
    expect(await suggested(`9 ${s}`)).toEqual([]);
    expect(await suggested(`8 ${s}`)).toEqual([kept]);
  });

  it('loses no write committed while a full rebuild runs: the rebuild leaves them in the feed', async () => {
    const s = uniqueStreet();
    const source = `import:during-${s.toLowerCase()}`;
    const [rewritten, untouched] = await insertProperties(
      pool,
      [makeProperty({ line1: `20 ${s} LN` }), makeProperty({ line1: `21 ${s} LN` })],
      source,
    );
    await insertProperties(pool, [makeProperty({ line1: `22 ${s} LN` })], 'import:stays');
    // Committed before the rebuild: the rebuild reads it, and drops its feed row.
    const [before] = await insertProperties(pool, [makeProperty({ line1: `23 ${s} LN` })], 'import:before');
    const held = await holdBatchOpen(pool, [makeProperty({ line1: `24 ${s} LN` })], 'import:held');
    await held.written;
    let added = 0;
    let wrote = false;
    await runRebuild({ pool, index }, async () => {
      if (wrote) return;
      wrote = true;
      // After the rebuild read its first page (every row here): a rewrite, a removal, a new record and the commit
      // of a batch that was open when the rebuild took its snapshot.
      await rewriteProperties(pool, [rewritten!], [makeProperty({ line1: `30 ${s} LN` })], source);
      added = (await insertProperties(pool, [makeProperty({ line1: `25 ${s} LN` })], 'import:new'))[0]!;
      await held.commit();
      await removeSource(pool, 'import:stays');
    });
    // What the rebuild saw was dropped from the feed; what committed after its snapshot was not.
    const { rows } = await pool.query<{ ids: number[] }>('SELECT property_ids AS ids FROM records.changes');
    const left = new Set(rows.flatMap((r) => r.ids.map(Number)));
    expect(left.has(before!)).toBe(false);
    expect(left.has(held.ids[0]!)).toBe(true);
    expect(left.has(rewritten!)).toBe(true);
    await catchUp();
    expect(await suggested(`20 ${s}`)).toEqual([]);
    expect(await suggested(`30 ${s}`)).toEqual([rewritten]);
    expect(await suggested(`21 ${s}`)).toEqual([untouched]);
    expect(await suggested(`22 ${s}`)).toEqual([]);
    expect(await suggested(`24 ${s}`)).toEqual(held.ids);
    expect(await suggested(`25 ${s}`)).toEqual([added]);
    const { indexed, stored } = await indexAndStore();
    expect(indexed).toEqual(stored);
  });

  it('lets one consumer apply at a time: a second catch-up skips while one holds the feed', async () => {
    const s = uniqueStreet();
    await insertProperties(pool, [makeProperty({ line1: `5 ${s} PL` })]);
    let inside = 0;
    const first = withFeedLock(pool, true, async (c) => {
      inside = await runCatchUp({ pool, index });
      return applyChanges(index, c);
    });
    expect(await first).toBeGreaterThanOrEqual(1);
    expect(inside).toBe(0);
  });

  it('re-applies the same state after a crash between applying and deleting (idempotent)', async () => {
    const s = uniqueStreet();
    const [id] = await insertProperties(pool, [makeProperty({ line1: `60 ${s} DR` })]);
    await catchUp();
    // As if the consumer died after writing the index but before deleting its rows: the row is back.
    await pool.query("INSERT INTO records.changes (property_ids, id_count, origin) VALUES ($1::bigint[], 1, 'write')", [
      [id],
    ]);
    await catchUp();
    expect(await suggested(`60 ${s}`)).toEqual([id]);
    const { indexed, stored } = await indexAndStore();
    expect(indexed).toEqual(stored);
  });
});

type Op =
  | { kind: 'write'; n: number; source: number }
  | { kind: 'update'; pick: number[]; street: number }
  | { kind: 'remove'; source: number }
  | { kind: 'consume' }
  | { kind: 'late'; n: number; source: number };

describe('the index equals the store after any sequence of writes, rewrites and removals', () => {
  const op: fc.Arbitrary<Op> = fc.oneof(
    fc.record({ kind: fc.constant('write' as const), n: fc.integer({ min: 1, max: 4 }), source: fc.nat(2) }),
    fc.record({
      kind: fc.constant('update' as const),
      pick: fc.array(fc.nat(50), { minLength: 1, maxLength: 3 }),
      street: fc.nat(5),
    }),
    fc.record({ kind: fc.constant('remove' as const), source: fc.nat(2) }),
    fc.record({ kind: fc.constant('consume' as const) }),
    // A batch of lower ids that commits after a later batch and a consume.
    fc.record({ kind: fc.constant('late' as const), n: fc.integer({ min: 1, max: 3 }), source: fc.nat(2) }),
  );

  it('with catch-ups interleaved (fast-check)', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 14 }), async (ops) => {
        const tag = `${uniqueStreet()}R${++run}`;
        const source = (i: number) => `import:prop-${tag.toLowerCase()}-${i}`;
        const line = (street: number, n: number) => `${100 + n} ${tag}S${street} RD`;
        let counter = 0;
        const items = (n: number) =>
          Array.from({ length: n }, () => makeProperty({ line1: line(counter % 3, counter++) }));
        const ours = async () =>
          (
            await pool.query<{ id: number }>('SELECT id FROM records.properties WHERE source LIKE $1 ORDER BY id', [
              `import:prop-${tag.toLowerCase()}-%`,
            ])
          ).rows.map((r) => r.id);
        for (const o of ops) {
          if (o.kind === 'write') await insertProperties(pool, items(o.n), source(o.source));
          else if (o.kind === 'update') {
            const ids = await ours();
            if (ids.length === 0) continue;
            const picked = [...new Set(o.pick.map((p) => ids[p % ids.length]!))];
            const { rows } = await pool.query<{ id: number; source: string }>(
              'SELECT id, source FROM records.properties WHERE id = ANY($1) ORDER BY id',
              [picked],
            );
            for (const r of rows)
              await rewriteProperties(pool, [r.id], [makeProperty({ line1: line(o.street, counter++) })], r.source);
          } else if (o.kind === 'remove') await removeSource(pool, source(o.source));
          else if (o.kind === 'consume') await catchUp();
          else {
            const held = await holdBatchOpen(pool, items(o.n), source(o.source));
            await held.written;
            await insertProperties(pool, items(1), source((o.source + 1) % 3));
            await catchUp();
            await held.commit();
          }
        }
        await catchUp();
        const { indexed, stored } = await indexAndStore();
        expect(indexed).toEqual(stored);
        expect(await feedRows()).toBe(0);
      }),
      { numRuns: 25 },
    );
  }, 120_000);
});
