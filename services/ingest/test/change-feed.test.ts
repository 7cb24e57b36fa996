// The writers' side of the change feed: one row per written batch (not per property) naming every id it wrote,
// whether its records came built in this thread or as a generator worker's bytes; removals and big id lists chunked.
// A database of its own, so no indexer consumes the rows under test.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createPool, dropDatabase, ensureDatabase, type Pool, withDatabase, withTransaction } from '@pra/platform';
import type {} from '@pra/platform/testing';
import { IDS_PER_CHANGE, recordChanges } from '../src/data/change-feed.js';
import { migrateRecords } from '../src/data/migrate.js';
import { removeSource } from '../src/data/remove-source.js';
import { loadGenerated } from '../src/generator/load-generated.js';

const url = withDatabase(inject('databaseUrl'), `${new URL(inject('databaseUrl')).pathname.slice(1)}_feed_writers`);
let pool: Pool;
beforeAll(async () => {
  await ensureDatabase(url);
  pool = createPool(url, 4);
  await migrateRecords(pool);
});
afterAll(async () => {
  await pool.end();
  await dropDatabase(url);
});

const feed = async (origin: string) =>
  (
    await pool.query<{ ids: number[]; id_count: number }>(
      'SELECT property_ids AS ids, id_count FROM records.changes WHERE origin = $1 ORDER BY seq',
      [origin],
    )
  ).rows;

describe('the change feed, as writers write it', () => {
  it('gets one row per batch of a bulk load, naming every record loaded', async () => {
    await loadGenerated(pool, { seed: 5, count: 1_200, batchSize: 500, quiet: true });
    const rows = await feed('write');
    expect(rows.length).toBeLessThanOrEqual(4);
    const { rows: stored } = await pool.query<{ id: number }>('SELECT id FROM records.properties ORDER BY id');
    const fed = rows.flatMap((r) => r.ids.map(Number)).sort((a, b) => a - b);
    expect(fed).toEqual(stored.map((r) => r.id));
    for (const r of rows) expect(r.id_count).toBe(r.ids.length);
  });

  it('gets the ids of a removed source, and chunks a long id list', async () => {
    const { rows } = await pool.query<{ source: string; n: number }>(
      'SELECT source, count(*)::int AS n FROM records.properties GROUP BY source',
    );
    expect(await removeSource(pool, rows[0]!.source)).toBe(rows[0]!.n);
    expect((await feed('remove')).flatMap((r) => r.ids)).toHaveLength(rows[0]!.n);
    const many = Array.from({ length: IDS_PER_CHANGE * 2 + 5 }, (_, i) => 5_000_000 + i);
    await withTransaction(pool, (c) => recordChanges(c, [...many, ...many.slice(0, 10)], 'rekey'));
    expect((await feed('rekey')).map((r) => r.id_count)).toEqual([IDS_PER_CHANGE, IDS_PER_CHANGE, 5]);
  });
});
