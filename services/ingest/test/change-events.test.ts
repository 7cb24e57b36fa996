// The change events an import emits (issue 38): a re-import that changes a record emits one event naming the parts
// it changed with the old and new owners and sale; an unchanged re-import, and a first load, emit none; a parcel a
// later import adds is 'created'; a source's removal emits 'removed'. Read back through readChangeEvents and its
// filters.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createPool, type Pool } from '@pra/platform';
import { type ChangeEvent, readChangeEvents, readChangeFeed } from '../src/data/change-events.js';
import { removeSource } from '../src/data/remove-source.js';
import { importCsv } from '../src/importer/import-csv.js';
import { ROLL_HEADER as HEADER, TestRolls } from './change-fixtures.js';
import { uniqueStreet } from './make-property.js';

let pool: Pool;
// The rolls' mappings (a source per test, the change-fixtures columns); the files are written here.
let rolls: TestRolls;
beforeAll(() => {
  pool = createPool(inject('databaseUrl'), 4);
  rolls = new TestRolls(pool);
});
afterAll(async () => {
  await pool.end();
  rolls.close();
  rmSync(dir, { recursive: true, force: true });
});

const dir = mkdtempSync(join(tmpdir(), 'pra-change-events-'));
let files = 0;
const write = (lines: string[]) => {
  const file = join(dir, `f${++files}.csv`);
  writeFileSync(file, lines.join('\n'));
  return file;
};
let tags = 0;
const tag = () => `ce${Date.now().toString(36)}${++tags}`;

/** Everything the feed holds after `after` for `source` (other tests write to the same store meanwhile). */
async function eventsOf(source: string, after = '0'): Promise<ChangeEvent[]> {
  return (await readChangeEvents(pool, { after, limit: 100_000 })).filter((e) => e.source === source);
}
async function head(): Promise<string> {
  return (await readChangeFeed(pool, { after: '0', limit: 0 })).next;
}

describe('change events of imports', () => {
  it('a first load emits nothing; a re-import changing one owner emits one owner event; an unchanged one nothing', async () => {
    const name = tag();
    const source = `import:${name}`;
    const mapping = rolls.mapping(name);
    const street = uniqueStreet();
    const rows = (owner2: string) => [
      HEADER,
      `1,1,1 ${street} ST,95814,ANN LEE,300000,1/2/2020,410000,1950`,
      `1,2,2 ${street} ST,95814,${owner2},250000,2/3/2020,390000,1960`,
    ];
    const start = await head();
    expect(await importCsv(pool, mapping, write(rows('BOB RAY')))).toMatchObject({ added: 2 });
    expect(await eventsOf(source, start)).toEqual([]);

    expect(await importCsv(pool, mapping, write(rows('CARLA DIAZ')))).toMatchObject({ updated: 1, unchanged: 1 });
    const events = await eventsOf(source, start);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      parts: ['owner'],
      zip: '95814',
      state: 'CA',
      countyKey: 'SACRAMENTO',
      detail: { owner: { old: ['BOB RAY'], new: ['CARLA DIAZ'] } },
    });
    expect(events[0]!.detail.sale).toBeUndefined();
    expect(events[0]!.ownerIds).toHaveLength(2); // the owner before and the owner after

    const after = await head();
    expect(await importCsv(pool, mapping, write(rows('CARLA DIAZ')))).toMatchObject({ updated: 0, unchanged: 2 });
    expect(await eventsOf(source, after)).toEqual([]);
  });

  it('names every part a re-import changed, with the old and new last sale', async () => {
    const name = tag();
    const source = `import:${name}`;
    const mapping = rolls.mapping(name);
    const street = uniqueStreet();
    await importCsv(pool, mapping, write([HEADER, `2,1,1 ${street} ST,95814,ANN LEE,300000,1/2/2020,410000,1950`]));
    const start = await head();
    await importCsv(pool, mapping, write([HEADER, `2,1,1 ${street} ST,95814,ANN LEE,320000,5/6/2024,520000,1951`]));
    const [event, ...more] = await eventsOf(source, start);
    expect(more).toEqual([]);
    expect(event!.parts).toEqual(['sale', 'assessment', 'building']);
    expect(event!.detail.sale).toEqual({
      old: { date: '2020-01-02', price: 410000 },
      new: { date: '2024-05-06', price: 520000 },
    });
    expect(event!.detail.assessment).toMatchObject({ old: { total: 300000 }, new: { total: 320000 } });
  });

  it("a parcel a later import adds is 'created'; a removal emits 'removed' for every record", async () => {
    const name = tag();
    const source = `import:${name}`;
    const mapping = rolls.mapping(name);
    const street = uniqueStreet();
    const one = `3,1,1 ${street} ST,95814,ANN LEE,300000,1/2/2020,410000,1950`;
    await importCsv(pool, mapping, write([HEADER, one]));
    const start = await head();
    await importCsv(pool, mapping, write([HEADER, one, `3,2,2 ${street} ST,95815,DAN OH,1000,1/2/2021,5000,1970`]));
    const created = await eventsOf(source, start);
    expect(created).toMatchObject([
      { parts: ['created'], zip: '95815', detail: { owner: { old: [], new: ['DAN OH'] } } },
    ]);
    const removedFrom = await head();
    expect(await removeSource(pool, source)).toBe(2);
    const removed = await eventsOf(source, removedFrom);
    expect(removed.map((e) => e.parts)).toEqual([['removed'], ['removed']]);
    expect(new Set(removed.map((e) => e.zip))).toEqual(new Set(['95814', '95815']));
  });

  it('filters by ZIP, county and state, owner and watch list', async () => {
    const name = tag();
    const source = `import:${name}`;
    const mapping = rolls.mapping(name);
    const street = uniqueStreet();
    const zipA = '95811';
    const rows = (o1: string, o2: string) => [
      HEADER,
      `4,1,1 ${street} ST,${zipA},${o1},300000,1/2/2020,410000,1950`,
      `4,2,2 ${street} ST,95812,${o2},300000,1/2/2020,410000,1950`,
    ];
    await importCsv(pool, mapping, write(rows('ANN LEE', 'BOB RAY')));
    const start = await head();
    await importCsv(pool, mapping, write(rows(`ANNA ${name.toUpperCase()}`, `BOBBY ${name.toUpperCase()}`)));
    const all = await eventsOf(source, start);
    expect(all).toHaveLength(2);
    const [a, b] = all;
    const read = (filter: Parameters<typeof readChangeEvents>[1]['filter']) =>
      readChangeEvents(pool, { after: start, limit: 1000, filter }).then((es) => es.filter((e) => e.source === source));
    expect((await read({ zip: zipA })).map((e) => e.id)).toEqual([a!.id]);
    expect((await read({ county: 'Sacramento County', state: 'ca' })).map((e) => e.id)).toEqual([a!.id, b!.id]);
    expect((await read({ county: a!.fips, state: 'CA' })).map((e) => e.id)).toEqual([a!.id, b!.id]);
    expect(await read({ county: 'Sacramento', state: 'NV' })).toEqual([]);
    expect((await read({ propertyIds: [String(b!.propertyId)] })).map((e) => e.id)).toEqual([b!.id]);
    // Each event names the owner before (shared by nobody else here) and after.
    for (const e of [a!, b!]) {
      for (const owner of e.ownerIds) expect((await read({ ownerId: String(owner) })).map((x) => x.id)).toEqual([e.id]);
    }
  });
});
