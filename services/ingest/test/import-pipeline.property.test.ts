// The importer's pipeline (import-csv.ts) works a batch's front (state, ids, owner mentions) while the batch before it
// is resolved, built and written, and closes a batch only where a parcel's rows end. Whatever the rows and however
// they fall into batches, that must change nothing: a roll whose rows come by parcel, imported in batches of 1 to 3
// rows, leaves the store and the counts as the same roll imported in one batch, then again with changes, then once
// more unchanged. Rows in any order: the first load, and every re-import, leaves the store and the counts one batch
// leaves too (a re-import reads first which parcels' rows are apart and holds all their rows: held-rows.ts,
// docs/data.md). Owners shared by parcels of different
// batches (one owner entity), rows refused. Each side has a database of its own, so that the owner registry of one
// cannot answer for the other.
import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { createPool, dropDatabase, ensureDatabase, type Pool, withDatabase } from '@pra/platform';
import type {} from '@pra/platform/testing';
import { migrateRecords } from '../src/data/migrate.js';
import type { HeldLimits } from '../src/importer/held-rows.js';
import type { ImportSummary } from '../src/importer/import-csv.js';
import { type RollRow, TestRolls } from './change-fixtures.js';
import { recordsOf } from './stored-records.js';

const tag = randomBytes(4).toString('hex');
const urls = ['whole', 'batched'].map((side) => withDatabase(inject('databaseUrl'), `pra_pipe_${side}_${tag}`));
let pools: Pool[] = [];
let rolls: TestRolls[] = [];
/** The same rolls with their APN read from one cell (PAGE): rows of a parcel apart in the file are held to its end. */
let heldRolls: TestRolls[] = [];
beforeAll(async () => {
  pools = await Promise.all(
    urls.map(async (url) => {
      await ensureDatabase(url);
      const pool = createPool(url, 6, 'pipeline-test');
      await migrateRecords(pool);
      return pool;
    }),
  );
  rolls = pools.map((p) => new TestRolls(p));
  heldRolls = pools.map((p) => new TestRolls(p, { apn: { column: 'PAGE', required: true } }));
}, 60_000);
afterAll(async () => {
  for (const r of [...rolls, ...heldRolls]) r.close();
  await Promise.all(pools.map((p) => p.end()));
  for (const url of urls) await dropDatabase(url);
});

const OWNERS = ['JOHN SMITH', 'MARY SMITH', 'ANA LOPEZ', 'RIVERSIDE HOLDINGS LLC'];
const row = fc.record({
  parcel: fc.integer({ min: 1, max: 8 }),
  owner: fc.integer({ min: 0, max: OWNERS.length - 1 }),
  year: fc.integer({ min: 2001, max: 2024 }),
  price: fc.integer({ min: 50_000, max: 900_000 }),
  assessed: fc.integer({ min: 10_000, max: 800_000 }),
  /** A price the mapping refuses: the row is reported by its line and skipped. */
  bad: fc.integer({ min: 0, max: 6 }).map((n) => n === 0),
});
type Row = typeof row extends fc.Arbitrary<infer T> ? T : never;

/** Owners of this run's own names (a run's owner entities are not another run's). */
const rollRows = (rows: readonly Row[], run: string): RollRow[] =>
  rows.map((r) => ({
    book: 7,
    page: r.parcel,
    street: `PIPELINE ${run}`,
    zip: '95814',
    owner: `${OWNERS[r.owner]!} ${run}`.replace(/ LLC (\w+)$/, ' $1 LLC'),
    assessed: r.assessed,
    saleDate: `3/${(r.parcel % 27) + 1}/${r.year}`,
    salePrice: r.bad ? 99_999_999_999 : r.price,
  }));

/**
 * Records of a source as the two sides can agree on: ids drawn from each database's sequences (records, parcels,
 * owners) as the order they first appear in, so that what shares an id on one side shares it on the other.
 */
async function storeOf(pool: Pool, source: string) {
  const records = await recordsOf(pool, source);
  const indexer = () => {
    const seen = new Map<number, number>();
    return (id: number) => {
      if (!seen.has(id)) seen.set(id, seen.size);
      return seen.get(id)!;
    };
  };
  const [ownerIndex, parcelIndex] = [indexer(), indexer()];
  const owner = (o: { id: number | null } | null) => (!o || o.id === null ? o : { ...o, id: ownerIndex(o.id) });
  return records.map((r) => ({
    ...r,
    id: 0,
    modified: '',
    identifier: { ...r.identifier, Id: 0, parcelId: parcelIndex(r.identifier.parcelId) },
    vintage: {},
    owner: { ...r.owner, owner1: owner(r.owner.owner1), owner2: owner(r.owner.owner2) },
  }));
}

const counts = (s: ImportSummary) => ({ ...s, mapping: '' });

let runs = 0;
/** A run's own name (letters only: a name word with digits is not a name). */
const nextRun = () =>
  `${tag}${(++runs).toString(16)}`.replace(/[0-9a-f]/g, (c) => 'ABCDEFGHIJKLMNOP'[parseInt(c, 16)]!);
const side = (i: number) => ({ pool: pools[i]!, rolls: rolls[i]! });
/** Imports `files` one after the other on both sides, the batched side in batches of `batchSize` rows. */
async function bothSides(
  files: readonly Row[][],
  batchSize: number,
  /** Checks a pass's summaries; false where the two stores may differ. */
  check: (whole: ImportSummary, batched: ImportSummary, pass: number) => boolean,
  /** The rolls' APN read from one cell: rows of a parcel apart in the file held to its end. */
  held = false,
  /** The batched side's rows held in memory at most (the rest wait on disk). */
  heldLimits?: HeldLimits,
) {
  const run = nextRun();
  const name = `pipeline-${run.toLowerCase()}`;
  const [whole, batched] = held ? heldRolls : rolls;
  for (const [pass, rows] of files.entries()) {
    const roll = rollRows(rows, run);
    const a = await whole!.import(name, roll, { batchSize: 100_000 });
    const b = await batched!.import(name, roll, { batchSize, ...(heldLimits ? { held: { limits: heldLimits } } : {}) });
    if (!check(a, b, pass)) continue;
    expect(await storeOf(pools[1]!, `import:${name}`)).toEqual(await storeOf(pools[0]!, `import:${name}`));
  }
}

/** A first file, then a newer one (some of its rows, changed rows and new ones), then that one again. */
const files = fc
  .tuple(fc.array(row, { minLength: 1, maxLength: 24 }), fc.array(row, { minLength: 1, maxLength: 24 }))
  .map(([first, changes]) => {
    const second = [...first.slice(0, Math.ceil(first.length / 2)), ...changes];
    return [first, second, second];
  });
const byParcel = (rows: readonly Row[]) => [...rows].sort((a, b) => a.parcel - b.parcel);

it('leaves the store and the counts as one batch would, for a roll whose rows come by parcel, in batches of 1 to 3', async () => {
  await fc.assert(
    fc.asyncProperty(files, fc.integer({ min: 1, max: 3 }), async (rolls, batchSize) => {
      await bothSides(rolls.map(byParcel), batchSize, (a, b) => {
        expect(counts(b)).toEqual(counts(a));
        return true;
      });
    }),
    { numRuns: 120 },
  );
}, 240_000);

it('works rows in any order as one batch would, an APN built by a template: a first load, and re-imports counting each parcel once', async () => {
  // Rows of one parcel apart in the file fall in batches of their own, each merged over what the one before wrote: a
  // re-import may so leave a store unlike one batch's (docs/data.md), but no parcel is counted twice or lost.
  await fc.assert(
    fc.asyncProperty(files, fc.integer({ min: 1, max: 3 }), async (rolls, batchSize) => {
      await bothSides(rolls, batchSize, (a, b, pass) => {
        if (pass === 0) {
          expect(counts(b)).toEqual(counts(a));
          return true;
        }
        const { updated, unchanged, ...rest } = counts(b);
        const { updated: u, unchanged: n, ...expected } = counts(a);
        expect(rest).toEqual(expected);
        expect(updated + unchanged).toBe(u + n);
        return false;
      });
    }),
    { numRuns: 120 },
  );
}, 240_000);

it('works rows in any order as one batch would, an APN read from one cell: a first load and every re-import', async () => {
  // A first load holds a parcel's rows met again to the file's end (its first rows merged before the rest: the same
  // parcel, as its rows are new); a re-import reads first which parcels' rows are apart, holds all of theirs, and
  // merges each parcel once over its stored state. Store and counts are then one batch's, whatever the order, and
  // whether the held rows stay in memory or, past one to three rows held there, wait on disk to the file's end
  // (before, what was held past the limits was sent as it was, and a parcel whose rows fell on both sides was merged
  // in two steps).
  await fc.assert(
    fc.asyncProperty(
      files,
      fc.integer({ min: 1, max: 3 }),
      fc.option(fc.integer({ min: 1, max: 3 }), { nil: undefined }),
      async (rolls, batchSize, heldRows) => {
        await bothSides(
          rolls,
          batchSize,
          (a, b) => {
            expect(counts(b)).toEqual(counts(a));
            return true;
          },
          true,
          heldRows === undefined ? undefined : { rows: heldRows, chars: 1e9 },
        );
      },
    ),
    { numRuns: 180 },
  );
}, 360_000);

it('cuts a parcel of more rows than a batch holds, and still counts it once', async () => {
  // 150 rows of parcel 3 between others: past the reader's cap for batches of 2 rows (64), so cut.
  const many: Row[] = Array.from({ length: 150 }, (_, i) => ({
    parcel: 3,
    owner: 0,
    year: 2001 + (i % 20),
    price: 100_000 + i,
    assessed: 50_000,
    bad: false,
  }));
  const rows = [{ ...many[0]!, parcel: 1 }, ...many, { ...many[0]!, parcel: 5 }];
  await bothSides([rows, rows], 2, (a, b, pass) => {
    const { updated, unchanged, ...rest } = counts(b);
    const { updated: u, unchanged: n, ...expected } = counts(a);
    expect(rest).toEqual(expected);
    expect(updated + unchanged).toBe(u + n);
    expect(b.added + updated + unchanged).toBe(3);
    return pass === 0;
  });
}, 60_000);

it('a dry run in batches counts what the import then does, and writes nothing', async () => {
  await fc.assert(
    fc.asyncProperty(files, fc.integer({ min: 1, max: 3 }), async (rolls, batchSize) => {
      const [first, second] = rolls.map(byParcel);
      const run = nextRun();
      const name = `pipeline-${run.toLowerCase()}`;
      const batched = side(1);
      await batched.rolls.import(name, rollRows(first!, run), { batchSize });
      const before = await storeOf(batched.pool, `import:${name}`);
      const dry = await batched.rolls.import(name, rollRows(second!, run), { batchSize, dryRun: true });
      expect(await storeOf(batched.pool, `import:${name}`)).toEqual(before);
      const real = await batched.rolls.import(name, rollRows(second!, run), { batchSize });
      expect({ ...counts(dry), dryRun: false }).toEqual(counts(real));
    }),
    { numRuns: 40 },
  );
}, 240_000);

it('stops at a batch whose write fails: the batches before it are stored, none after, and the import can run again', async () => {
  const run = nextRun();
  const name = `pipeline-${run.toLowerCase()}`;
  const rows: Row[] = Array.from({ length: 8 }, (_, i) => ({
    parcel: i + 1,
    owner: i % OWNERS.length,
    year: 2010 + i,
    price: 100_000 + i,
    assessed: 50_000,
    bad: false,
  }));
  const { pool, rolls: roll } = side(1);
  // Page 5's import state is refused: its batch's transaction fails, after the batches of pages 1-4 were sent.
  const fn = `fail_${run.toLowerCase()}`;
  await pool.query(`CREATE FUNCTION records.${fn}() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN IF NEW.source = 'import:${name}' AND NEW.identity LIKE '%:7005' THEN RAISE EXCEPTION 'refused by the test';
    END IF; RETURN NEW; END $$`);
  await pool.query(
    `CREATE TRIGGER ${fn} BEFORE INSERT ON records.import_state FOR EACH ROW EXECUTE FUNCTION records.${fn}()`,
  );
  try {
    await expect(roll.import(name, rollRows(rows, run), { batchSize: 1 })).rejects.toThrow(/refused by the test/);
  } finally {
    await pool.query(`DROP TRIGGER ${fn} ON records.import_state`);
    await pool.query(`DROP FUNCTION records.${fn}()`);
  }
  const stored = (await storeOf(pool, `import:${name}`)).map((r) => r.identifier.apn);
  expect(stored).toEqual(['7-001', '7-002', '7-003', '7-004']);
  // The source's lock was let go, and the rest is imported as if nothing had happened.
  expect(await roll.import(name, rollRows(rows, run), { batchSize: 1 })).toMatchObject({ added: 4, unchanged: 4 });
  await side(0).rolls.import(name, rollRows(rows, run), { batchSize: 100_000 });
  expect(await storeOf(pool, `import:${name}`)).toEqual(await storeOf(side(0).pool, `import:${name}`));
}, 60_000);
