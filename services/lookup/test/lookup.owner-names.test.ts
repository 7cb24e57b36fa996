// Owner search over owners as the rolls write them (issue 36): the owner cells of a row go through the owner-name
// parser into owner1 to owner4, as an import stores them, and /property/owner finds the record by any owner's last
// name, by last + first name of the same owner only, and an entity by the words of its name (SPEC 4.2: lastName
// matches primary and secondary owners; a third and fourth owner alike).
import { describe, expect, it } from 'vitest';
import {
  insertProperties,
  makeProperty,
  parseOwnerCells,
  recordOwners,
  uniqueStreet,
  uniqueSurname,
} from '@pra/ingest/testing';
import { OWNER_COUNT } from '../src/data/record-counts.js';
import { BY_OWNER, ownerPlace } from '../src/data/record-queries.js';
import { useLookupApp } from './lookup-harness.js';

const ctx = useLookupApp();

/** A property owned as the cells say, in a city no other test uses (other files may load the real rolls). */
function ownedBy(city: string, cells: string[]) {
  const [owner1, owner2, owner3, owner4] = recordOwners(parseOwnerCells(cells, 'last-first'));
  return makeProperty({ city, owner1, owner2, owner3, owner4 });
}

async function owner(params: Record<string, string>): Promise<{ status: number; ids: number[]; body: any }> {
  const res = await ctx.get(`/api/v1/property/owner?${new URLSearchParams({ state: 'CA', ...params })}`);
  const ids = res.status === 200 ? res.body.property.map((p: any) => p.identifier.Id) : [];
  return { status: res.status, ids, body: res.body };
}

describe('owner search over parsed owner cells', () => {
  it('finds both owners of `GANGEMI JOSEPH A AND` / `CAROLE A H/W`, by last name and by last + first name', async () => {
    const city = uniqueStreet();
    const [id] = await insertProperties(ctx.pool, [ownedBy(city, ['GANGEMI JOSEPH A AND', 'CAROLE A H/W'])]);
    const found = await owner({ lastName: 'Gangemi', firstName: 'Carole', city });
    expect(found.ids).toEqual([id]);
    const record = found.body.property[0].owner;
    expect(record.owner1).toEqual({
      id: expect.any(Number),
      firstName: 'JOSEPH',
      lastName: 'GANGEMI',
      fullName: 'JOSEPH A GANGEMI',
      type: 'Individual',
    });
    expect(record.owner2).toEqual({
      id: expect.any(Number),
      firstName: 'CAROLE',
      lastName: 'GANGEMI',
      fullName: 'CAROLE A GANGEMI',
      type: 'Individual',
    });
    expect((await owner({ lastName: 'GANGEMI', firstName: 'JOSEPH', city })).ids).toEqual([id]);
    expect((await owner({ lastName: 'GANGEMI', city })).ids).toEqual([id]);
    // Without the city: the record is among GANGEMI's, whatever else the database holds.
    expect((await owner({ lastName: 'GANGEMI', firstName: 'CAROLE' })).ids).toContain(id);
    expect((await owner({ lastName: 'GANGEMI', firstName: 'ROBERT', city })).status).toBe(404);
  });

  it('finds a third and a fourth owner, and a record its owners match in every place once, counted once', async () => {
    const city = uniqueStreet();
    const [x, y] = await insertProperties(ctx.pool, [
      // Four of one surname: each a place of its own (owner2 the second, as none has another surname).
      ownedBy(city, ['ROSSI, MARIO & ANNA', 'ROSSI, LUCA & GIA']),
      ownedBy(city, ['DONNELLY, GEORGIA M & JAMES P', 'MORAN, KATHLEEN & MICHAEL']),
    ]);
    const all = await owner({ lastName: 'ROSSI', city });
    expect(all.ids).toEqual([x]);
    expect(all.body.status.total).toBe(1);
    const rossi = all.body.property[0].owner;
    expect([rossi.owner1, rossi.owner2, rossi.owner3, rossi.owner4].map((o: any) => o.fullName)).toEqual([
      'MARIO ROSSI',
      'ANNA ROSSI',
      'LUCA ROSSI',
      'GIA ROSSI',
    ]);
    expect(new Set([rossi.owner1.id, rossi.owner2.id, rossi.owner3.id, rossi.owner4.id]).size).toBe(4);
    expect((await owner({ lastName: 'ROSSI', firstName: 'GIA', city })).ids).toEqual([x]);
    // owner2 the first of another surname (KATHLEEN MORAN); JAMES P DONNELLY and MICHAEL MORAN after, in the roll's
    // order.
    const found = await owner({ lastName: 'MORAN', firstName: 'MICHAEL', city });
    expect(found.ids).toEqual([y]);
    const rec = found.body.property[0].owner;
    expect([rec.owner2.fullName, rec.owner3.fullName, rec.owner4.fullName]).toEqual([
      'KATHLEEN MORAN',
      'JAMES P DONNELLY',
      'MICHAEL MORAN',
    ]);
    expect((await owner({ lastName: 'DONNELLY', firstName: 'JAMES', city })).ids).toEqual([y]);
    // Last + first name still on one owner: owner3's surname with owner4's first name finds nothing.
    expect((await owner({ lastName: 'DONNELLY', firstName: 'MICHAEL', city })).status).toBe(404);
  });

  it("matches last + first name on one owner: owner1's last name with owner2's first name finds nothing", async () => {
    const city = uniqueStreet();
    const [price, separate] = await insertProperties(ctx.pool, [
      ownedBy(city, ['PRICE, RONALD S, JR & JULIE C LACY']),
      ownedBy(city, ['ARMBRUSTER HALLEY', 'KENDRA COLIN']),
    ]);
    expect((await owner({ lastName: 'LACY', firstName: 'JULIE', city })).ids).toEqual([price]);
    expect((await owner({ lastName: 'PRICE', firstName: 'RONALD', city })).ids).toEqual([price]);
    expect((await owner({ lastName: 'PRICE', firstName: 'JULIE', city })).status).toBe(404);
    expect((await owner({ lastName: 'LACY', firstName: 'RONALD', city })).status).toBe(404);
    // The second cell's owner (LAST FIRST too) by its own names; the first's surname with the second's name: none.
    expect((await owner({ lastName: 'KENDRA', firstName: 'COLIN', city })).ids).toEqual([separate]);
    expect((await owner({ lastName: 'ARMBRUSTER', firstName: 'COLIN', city })).status).toBe(404);
  });

  it('finds an entity by the words of its whole name, a name that spanned two cells included', async () => {
    const city = uniqueStreet();
    const [authority, lindy, church] = await insertProperties(ctx.pool, [
      ownedBy(city, ['REDEVELOPMENT AUTHORITY', 'OF PHILADELPHIA']),
      ownedBy(city, ['LINDY TOWNHOUSES LLC', 'ELT IT LLC']),
      ownedBy(city, ['NEW KINGDOM BAPTIST', 'CHURCH']),
    ]);
    const got = await owner({ lastName: 'Redevelopment Authority', city });
    expect(got.ids).toEqual([authority]);
    expect(got.body.property[0].owner).toMatchObject({
      owner1: {
        firstName: null,
        lastName: null,
        fullName: 'REDEVELOPMENT AUTHORITY OF PHILADELPHIA',
        type: 'Government',
      },
      owner2: null,
    });
    expect((await owner({ lastName: 'PHILADELPHIA', city })).ids).toEqual([authority]);
    expect((await owner({ lastName: 'lindy townhouses llc', city })).ids).toEqual([lindy]);
    const second = await owner({ lastName: 'ELT', city });
    expect(second.ids).toEqual([lindy]);
    expect(second.body.property[0].owner.owner2).toEqual({
      id: expect.any(Number),
      firstName: null,
      lastName: null,
      fullName: 'ELT IT LLC',
      type: 'Corporation',
    });
    expect((await owner({ lastName: 'KINGDOM', city })).ids).toEqual([church]);
    expect((await owner({ lastName: 'LLC', city })).ids).toEqual([lindy]);
    // A first name asks for a person: an entity does not answer it.
    expect((await owner({ lastName: 'REDEVELOPMENT', firstName: 'AUTHORITY', city })).status).toBe(404);
  });

  it('finds a trustee by last and first name, and the trust by its words', async () => {
    const city = uniqueStreet();
    const [id] = await insertProperties(ctx.pool, [
      ownedBy(city, ['WATSON LEROY L TR', 'LEROY L WATSON REVOCABLE LIVING TRUST']),
    ]);
    const got = await owner({ lastName: 'WATSON', firstName: 'LEROY', city });
    expect(got.ids).toEqual([id]);
    expect(got.body.property[0].owner.owner1).toEqual({
      id: expect.any(Number),
      firstName: 'LEROY',
      lastName: 'WATSON',
      fullName: 'LEROY L WATSON',
      type: 'Trustee',
    });
    expect(got.body.property[0].owner.owner2.type).toBe('Trust');
    expect((await owner({ lastName: 'REVOCABLE', city })).ids).toEqual([id]);
  });
});

describe('owner search by the city the post office names', () => {
  // A roll names its municipality (LEBANON) for every parcel; the post office calls ZIP 03784 WEST LEBANON, and the
  // addresses its owners and clients hold say so. Nothing of the name in the records' city: the owners of the
  // parcels in that city's ZIPs, in the state asked (find-records.ts findByOwner).
  it('finds the owners of its ZIPs when the records name another city, and no parcel of another ZIP', async () => {
    const last = uniqueSurname('POSTAL');
    const cells = (first: string) => [`${last} ${first}`];
    const nh = (zip: string, first: string, city = 'LEBANON') =>
      makeProperty({ ...ownedBy(city, cells(first)), state: 'NH', zip, fips: '33009', county: 'GRAFTON' });
    const [west, west2, town, none] = await insertProperties(ctx.pool, [
      nh('03784', 'ANN'),
      nh('03784', 'BOB'),
      nh('03766', 'CY'),
      nh('', 'DEE'),
    ]);
    const search = (params: Record<string, string>) => owner({ lastName: last, state: 'NH', ...params });
    expect((await search({ city: 'Lebanon' })).ids).toEqual([town, west, west2, none].sort((a, b) => a! - b!));
    for (const city of ['West Lebanon', 'W Lebanon', 'WEST LEBANON']) {
      const found = await search({ city });
      expect(found.ids, city).toEqual([west, west2]);
      expect(found.body.status.total, city).toBe(2);
      // The free preview counts the same owners.
      const preview = await search({ city, preview: 'true' });
      expect([preview.status, preview.body.status.total], city).toEqual([200, 2]);
      expect((await search({ city, firstName: 'Bob' })).ids, city).toEqual([west2]);
      expect((await search({ city, firstName: 'Cy' })).status, city).toBe(404);
      // Pages as any owner search: the second of one each, then past the end.
      expect((await search({ city, pagesize: '1', page: '2' })).ids, city).toEqual([west2]);
      expect((await search({ city, pagesize: '1', page: '3' })).status, city).toBe(404);
    }
    // Without a state there is no post office's city to read: the records' city only.
    const stateless = await ctx.get(
      `/api/v1/property/owner?${new URLSearchParams({ lastName: last, city: 'West Lebanon' })}`,
    );
    expect(stateless.status).toBe(404);
    // A city the records name is read as theirs alone, even where the post office's city of that name holds more.
    const [elsewhere] = await insertProperties(ctx.pool, [nh('03784', 'EVE', 'WEST LEBANON')]);
    expect((await search({ city: 'West Lebanon' })).ids).toEqual([elsewhere]);
    // A page past the end of the records' city is that, not a reason to read the post office's (three owners there).
    const past = await search({ city: 'West Lebanon', pagesize: '1', page: '2' });
    expect([past.status, past.body.status.total]).toEqual([404, 1]);
    expect((await search({ city: 'Hanover' })).status).toBe(404);
  });
});

describe('the owner name indexes', () => {
  // Since migration 0018 each holds only the rows it can answer (owners_name those with a last name key,
  // owners_name_words those with words): the planner must prove every owner query's condition implies that (a strict
  // `=` or `@>` on the column does), or an owner search reads the whole table. A new query of records.owners belongs
  // here. Sequential scans are turned off so the plan shows what the indexes allow,
  // whatever this small database's statistics would choose; generic plans too, as prepared statements get them.
  const places = [
    { state: null, cityKey: null, zips: null },
    { state: null, cityKey: 'SACRAMENTO', zips: null },
    { state: 'CA', cityKey: null, zips: null },
    { state: 'CA', cityKey: 'SACRAMENTO', zips: null },
    { state: 'CA', cityKey: null, zips: ['95814', '95816'] },
  ];
  const statements = places.flatMap((c) => {
    const { place, values } = ownerPlace(c);
    return [
      { ...BY_OWNER[place], values: ['SMITH', null, 10, 0, ['SMITH'], ...values], c },
      { ...OWNER_COUNT[place], values: ['SMITH', null, ['SMITH'], ...values], c },
    ];
  });
  it('one statement for each place an owner search may give, named by it', () => {
    const names = (c: (typeof places)[number]) =>
      [c.state && 'state', c.cityKey && 'city', c.zips && 'zips']
        .filter(Boolean)
        .map((w) => `_${w}`)
        .join('');
    expect(statements.map((s) => s.name)).toEqual(
      places.flatMap((c) => [`by_owner${names(c)}`, `owner_count${names(c)}`]),
    );
  });

  it.each(['force_generic_plan', 'force_custom_plan'])('are read by every owner search (%s)', async (mode) => {
    const c = await ctx.pool.connect();
    try {
      await c.query('SET enable_seqscan = off');
      await c.query(`SET plan_cache_mode = ${mode}`);
      for (const [i, s] of statements.entries()) {
        await c.query(`PREPARE owner_plan_${i} AS ${s.text}`);
        const args = s.values.map((v) =>
          v === null
            ? 'NULL'
            : typeof v === 'number'
              ? String(v)
              : c.escapeLiteral(Array.isArray(v) ? `{${v.join(',')}}` : String(v)),
        );
        const { rows } = await c.query<{ 'QUERY PLAN': string }>(`EXPLAIN EXECUTE owner_plan_${i}(${args.join(', ')})`);
        const plan = rows.map((r) => r['QUERY PLAN']).join('\n');
        expect(plan, `${s.name}:\n${plan}`).toMatch(/\bowners_name(?!_words)\b/);
        expect(plan, `${s.name}:\n${plan}`).toMatch(/\bowners_name_words\b/);
        expect(plan, `${s.name}:\n${plan}`).not.toMatch(/Seq Scan on owners\b/);
        // A state bounds the name index's range (its second column); the ZIPs are checked on the owners' own scan
        // (from the index entry in an index-only scan), not by reading the parcels: a search by a postal city reads
        // what a search by state alone does. Only the page's records are read from records.properties.
        if (s.c.state !== null) expect(plan, `${s.name}:\n${plan}`).toMatch(/Index Cond: .*\bstate = /);
        if (s.c.zips !== null) {
          expect(plan, `${s.name}:\n${plan}`).toMatch(/Filter: .*\bzip = ANY/);
          const parcels = plan.split('\n').filter((l) => /\bproperties\b/.test(l));
          expect(parcels, `${s.name}:\n${plan}`).toEqual(
            parcels.filter((l) => /properties_pkey on properties p\b/.test(l)),
          );
        }
      }
    } finally {
      // Thrown away, not returned to the app's pool: its settings and statements are this test's.
      c.release(true);
    }
  });
});
