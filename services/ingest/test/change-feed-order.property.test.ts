// The change feed never skips or repeats an event, whatever the order writers commit in (issue 38). Positions are
// drawn under a transaction-level lock held to the commit (data/change-events.ts): a writer that would draw a later
// position waits until the earlier one has committed or rolled back, so a reader that sees position N+1 has seen N.
// Shown three ways, on a database of this file's own (the feed then holds only what this file writes):
// - two writers committing out of order: the later draws its positions only once the earlier has ended;
// - a property over generated interleavings of writers (append, commit or roll back) and readers paging by cursor:
//   what the readers collect is exactly the committed events, in order, once each;
// - two real imports running at once, many batches each, with a reader paging meanwhile.
import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createPool, dropDatabase, ensureDatabase, type Pool, type PoolClient, withDatabase } from '@pra/platform';
import {
  appendChangeEvents,
  type ChangeEventDraft,
  type ChangeFilter,
  readChangeFeed,
} from '../src/data/change-events.js';
import { migrateRecords } from '../src/data/migrate.js';
import { type RollRow, TestRolls } from './change-fixtures.js';

const url = withDatabase(inject('databaseUrl'), `pra_feed_order_${randomBytes(4).toString('hex')}`);
let pool: Pool;
beforeAll(async () => {
  await ensureDatabase(url);
  pool = createPool(url, 12, 'feed-order-test');
  await migrateRecords(pool);
}, 60_000);
afterAll(async () => {
  await pool?.end();
  await dropDatabase(url);
});

const draft = (propertyId: number): ChangeEventDraft => ({
  propertyId,
  parts: ['owner'],
  zip: '95814',
  state: 'CA',
  fips: '06067',
  countyKey: 'SACRAMENTO',
  ownerIds: [],
  detail: {},
});

/** A transaction of its own on a connection of its own, with its backend pid (to see it wait for a lock). */
async function writer(): Promise<{ client: PoolClient; pid: number }> {
  const client = await pool.connect();
  const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
  await client.query('BEGIN');
  return { client, pid: rows[0]!.pid };
}

/** Settles with the statement's end, or 'waiting' once its backend waits for a lock. */
async function endOrLockWait<T>(work: Promise<T>, pid: number): Promise<T | 'waiting'> {
  const done = work.then((v) => ({ v }));
  for (;;) {
    const tick = new Promise<null>((r) => setTimeout(() => r(null), 10));
    const first = await Promise.race([done, tick]);
    if (first) return first.v;
    const { rows } = await pool.query<{ w: string | null }>(
      'SELECT wait_event_type AS w FROM pg_stat_activity WHERE pid = $1',
      [pid],
    );
    if (rows[0]?.w === 'Lock') return 'waiting';
  }
}

/** A reader with a cursor: every page from its cursor on (pages of `pagesize`), its cursor moved past them. */
class Reader {
  after = '0';
  readonly seen: { id: string; propertyId: number }[] = [];
  constructor(
    private readonly pagesize: number,
    private readonly filter: ChangeFilter = {},
  ) {}
  /** Starts at the feed's head: what was written before is not this reader's. */
  async fromHead(): Promise<this> {
    this.after = (await readChangeFeed(pool, { after: '0', limit: 0 })).next;
    return this;
  }
  async catchUp(): Promise<void> {
    for (;;) {
      const page = await readChangeFeed(pool, { after: this.after, limit: this.pagesize, filter: this.filter });
      this.seen.push(...page.events.map((e) => ({ id: e.id, propertyId: e.propertyId })));
      expect(BigInt(page.next)).toBeGreaterThanOrEqual(BigInt(this.after)); // a cursor never goes back
      this.after = page.next;
      if (page.events.length < this.pagesize) return;
    }
  }
}

let nextProperty = 1;

describe('the change feed under concurrent writers', () => {
  it('a writer that would take later positions waits for the one before it to end; a reader meanwhile skips nothing', async () => {
    const reader = await new Reader(10).fromHead();
    const a = await writer();
    const b = await writer();
    try {
      const pa = nextProperty++;
      const pb = nextProperty++;
      // A appends (it holds the feed's lock from here to its end), B then tries to: it waits.
      await appendChangeEvents(a.client, 'test:a', [draft(pa)]);
      const bAppend = appendChangeEvents(b.client, 'test:b', [draft(pb)]);
      expect(await endOrLockWait(bAppend, b.pid)).toBe('waiting');
      await reader.catchUp();
      expect(reader.seen).toEqual([]); // nothing committed yet: nothing to skip past
      // A rolled back instead would leave a gap in positions, never a skipped event; here it commits.
      await a.client.query('COMMIT');
      await bAppend;
      await reader.catchUp();
      expect(reader.seen.map((e) => e.propertyId)).toEqual([pa]);
      await b.client.query('COMMIT');
      await reader.catchUp();
      expect(reader.seen.map((e) => e.propertyId)).toEqual([pa, pb]);
    } finally {
      a.client.release();
      b.client.release();
    }
  });

  it('the import that began later and committed first is read first; the other after it, nothing skipped', async () => {
    const reader = await new Reader(10).fromHead();
    const early = await writer();
    const late = await writer();
    try {
      const [pe, pl] = [nextProperty++, nextProperty++];
      // The early one writes its rows (not yet its events); the late one writes and commits entirely.
      await early.client.query('SELECT 1');
      await appendChangeEvents(late.client, 'test:late', [draft(pl)]);
      await late.client.query('COMMIT');
      await reader.catchUp();
      await appendChangeEvents(early.client, 'test:early', [draft(pe)]);
      await early.client.query('COMMIT');
      await reader.catchUp();
      expect(reader.seen.map((e) => e.propertyId)).toEqual([pl, pe]);
      expect(BigInt(reader.seen[1]!.id)).toBeGreaterThan(BigInt(reader.seen[0]!.id));
    } finally {
      early.client.release();
      late.client.release();
    }
  });

  it('for any interleaving of writers and readers, each reader reads exactly the committed events, in order', async () => {
    // A step: writer w's next operation (append its events, then commit or roll back), or reader r catching up.
    const scenario = fc.record({
      writers: fc.array(fc.record({ events: fc.integer({ min: 1, max: 3 }), commit: fc.boolean() }), {
        minLength: 1,
        maxLength: 4,
      }),
      readers: fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 1, maxLength: 3 }),
      steps: fc.array(fc.nat(), { minLength: 4, maxLength: 24 }),
    });
    await fc.assert(
      fc.asyncProperty(scenario, async (s) => {
        const { rows: before } = await pool.query<{ head: string }>(
          'SELECT coalesce(max(position), 0)::text AS head FROM records.change_events',
        );
        const readers = s.readers.map((pagesize) => new Reader(pagesize));
        // A reader of a watch list (every other property this run writes): a filtered cursor moves on too.
        const watched: string[] = [];
        const filtered = new Reader(2, { propertyIds: watched });
        for (const r of [...readers, filtered]) r.after = before[0]!.head;
        const ws = await Promise.all(
          s.writers.map(async (w) => {
            const ids = Array.from({ length: w.events }, () => nextProperty++);
            for (const id of ids) if (id % 2 === 0) watched.push(String(id));
            return { ...w, ids, conn: await writer(), step: 0, appended: false, append: Promise.resolve() };
          }),
        );
        /** Writer w's next operation; false when it cannot take it now (its append waits for another's lock). */
        const advance = async (w: (typeof ws)[number]): Promise<boolean> => {
          if (w.step === 0) {
            w.step = 1;
            w.append = appendChangeEvents(w.conn.client, 'test:prop', w.ids.map(draft)).then(() => {
              w.appended = true;
            });
            // Blocked behind another writer's lock, it goes on when that one ends.
            await endOrLockWait(w.append, w.conn.pid);
            return true;
          }
          if (w.step === 1 && w.appended) {
            w.step = 2;
            await w.conn.client.query(w.commit ? 'COMMIT' : 'ROLLBACK');
            return true;
          }
          return false;
        };
        try {
          for (const n of s.steps) {
            const k = n % (ws.length + readers.length + 1);
            if (k < ws.length) await advance(ws[k]!);
            else await (readers[k - ws.length] ?? filtered).catchUp();
          }
          // Every writer ends; one whose append waits goes on once the holder of the lock has ended.
          while (ws.some((w) => w.step < 2)) {
            let moved = false;
            for (const w of ws) if (w.step < 2) moved = (await advance(w)) || moved;
            if (!moved) await Promise.race(ws.filter((w) => w.step === 1).map((w) => w.append));
          }
        } finally {
          for (const w of ws) w.conn.client.release();
        }
        for (const r of [...readers, filtered]) await r.catchUp();
        const committed = ws.filter((w) => w.commit).flatMap((w) => w.ids);
        const { rows } = await pool.query<{ id: string; property_id: string }>(
          'SELECT position::text AS id, property_id FROM records.change_events WHERE position > $1 ORDER BY position',
          [before[0]!.head],
        );
        // The table holds exactly the committed writers' events.
        expect(rows.map((r) => Number(r.property_id)).sort((a, b) => a - b)).toEqual(committed.sort((a, b) => a - b));
        const all = rows.map((r) => ({ id: r.id, propertyId: Number(r.property_id) }));
        for (const r of readers) expect(r.seen).toEqual(all);
        expect(filtered.seen).toEqual(all.filter((e) => watched.includes(String(e.propertyId))));
      }),
      { numRuns: 40 },
    );
  }, 180_000);

  it('two imports running at once, many batches each, with a reader paging meanwhile: every event once, in order', async () => {
    const rolls = new TestRolls(pool);
    try {
      const roll = (book: number, tag: string, suffix: string): RollRow[] =>
        Array.from({ length: 120 }, (_, i) => ({
          book,
          page: i + 1,
          street: `ORDER ${tag}`,
          zip: '95814',
          owner: `OWNER${i} ${suffix}`,
        }));
      await Promise.all([rolls.import('order-a', roll(1, 'A', 'X')), rolls.import('order-b', roll(2, 'B', 'X'))]);
      const reader = await new Reader(7).fromHead();
      let importing = true;
      const polling = (async () => {
        while (importing) await reader.catchUp();
      })();
      // Every parcel's owner changes: 240 events from two imports of 10-row batches committing in any order.
      await Promise.all([
        importSmallBatches(rolls, 'order-a', roll(1, 'A', 'Y')),
        importSmallBatches(rolls, 'order-b', roll(2, 'B', 'Y')),
      ]);
      importing = false;
      await polling;
      await reader.catchUp();
      const seen = reader.seen;
      const { rows } = await pool.query<{ id: string }>(
        `SELECT position::text AS id FROM records.change_events WHERE source IN ('import:order-a', 'import:order-b')
          ORDER BY position`,
      );
      expect(rows).toHaveLength(240);
      expect(seen.map((e) => e.id)).toEqual(rows.map((r) => r.id));
    } finally {
      rolls.close();
    }
  }, 120_000);
});

/** An import of `rows` in batches of 10 rows (a transaction each). */
function importSmallBatches(rolls: TestRolls, name: string, rows: RollRow[]) {
  return rolls.import(name, rows, { batchSize: 10 });
}
