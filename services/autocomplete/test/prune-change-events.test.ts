// The change feed's retention (issue 38) is enforced by the indexer's scheduled job: events past the retention period
// are deleted as a prefix of the feed and the watermark that tells an expired cursor moves with them; newer ones stay.
// A database of its own: the prune deletes every event up to the newest expired one, and would take another test
// file's with it.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createPool, dropDatabase, ensureDatabase, type Pool, withDatabase, withTransaction } from '@pra/platform';
import { migrateRecords } from '@pra/ingest/migrate';
import { appendChangeEvents, CHANGE_RETENTION_DAYS, readChangeFeed } from '@pra/ingest/change-events';
import { migrateSearch } from '../src/data/migrate.js';
import { PostgresSearchIndex } from '../src/data/postgres-index.js';
import { Indexer } from '../src/indexing/index-queue.js';

const url = withDatabase(inject('databaseUrl'), `pra_prune_${randomBytes(4).toString('hex')}`);
let pool: Pool;
beforeAll(async () => {
  await ensureDatabase(url);
  pool = createPool(url, 6);
  await migrateRecords(pool);
  await migrateSearch(pool);
}, 60_000);
afterAll(async () => {
  await pool?.end();
  await dropDatabase(url);
});

const event = (propertyId: number) => ({
  propertyId,
  parts: ['sale' as const],
  zip: '95814',
  state: 'CA',
  fips: '06067',
  countyKey: 'SACRAMENTO',
  ownerIds: [],
  detail: {},
});

describe('the retention of change events', () => {
  it('the scheduled prune deletes the events past the retention period, and only those', async () => {
    await withTransaction(pool, (c) => appendChangeEvents(c, 'test:old', [1, 2, 3].map(event)));
    await withTransaction(pool, (c) => appendChangeEvents(c, 'test:new', [4, 5].map(event)));
    // The first three were written past the retention period ago.
    await pool.query(
      `UPDATE records.change_events SET changed_at = now() - make_interval(days => $1) WHERE source = 'test:old'`,
      [CHANGE_RETENTION_DAYS + 1],
    );
    const before = await readChangeFeed(pool, { after: '0', limit: 10 });
    expect(before.events).toHaveLength(5);
    const lastOld = before.events[2]!.position;

    const indexer = new Indexer({
      pool,
      index: new PostgresSearchIndex(pool),
      redisUrl: inject('redisUrl'),
      queuePrefix: `${inject('redisPrefix')}prune${randomBytes(3).toString('hex')}`,
      log: () => {},
      catchUpEveryMs: 600_000,
      pruneEveryMs: 100,
    });
    await indexer.start();
    try {
      for (;;) {
        const { rows } = await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM records.change_events');
        if (rows[0]!.n === 2) break;
        await new Promise((r) => setTimeout(r, 50));
      }
    } finally {
      await indexer.stop();
    }
    const after = await readChangeFeed(pool, { after: '0', limit: 10 });
    expect(after.events.map((e) => e.propertyId)).toEqual([4, 5]);
    expect(after.prunedThrough).toBe(lastOld);
    // A cursor from before the pruned events is now behind the watermark: GET /changes answers it cursor_expired.
    expect(BigInt(before.events[0]!.position)).toBeLessThan(BigInt(after.prunedThrough));
  });
});
