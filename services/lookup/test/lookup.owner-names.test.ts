// Owner search over owners as the rolls write them (issue 36): the owner cells of a row go through the owner-name
// parser into owner1 and owner2, as an import stores them, and /property/owner finds the record by either owner's last
// name, by last + first name of the same owner only, and an entity by the words of its name (SPEC 4.2: lastName
// matches primary and secondary owners).
import { describe, expect, it } from 'vitest';
import { insertProperties, makeProperty, parseOwnerCells, recordOwners, uniqueStreet } from '@pra/ingest/testing';
import { OWNER_COUNT } from '../src/data/record-counts.js';
import { BY_OWNER, ownerPlaceIndex } from '../src/data/record-queries.js';
import { useLookupApp } from './lookup-harness.js';

const ctx = useLookupApp();

/** A property owned as the cells say, in a city no other test uses (other files may load the real rolls). */
function ownedBy(city: string, cells: string[]) {
  const [owner1, owner2] = recordOwners(parseOwnerCells(cells, 'last-first'));
  return makeProperty({ city, owner1, owner2 });
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

describe('the owner name indexes', () => {
  // Since migration 0018 each holds only the rows it can answer (owners_name those with a last name key,
  // owners_name_words those with words): the planner must prove every owner query's condition implies that (a strict
  // `=` or `@>` on the column does), or an owner search reads the whole table. A new query of records.owners belongs
  // here. Sequential scans are turned off so the plan shows what the indexes allow,
  // whatever this small database's statistics would choose; generic plans too, as prepared statements get them.
  const statements = [false, true].flatMap((state) =>
    [false, true].flatMap((city) => {
      const i = ownerPlaceIndex(state, city);
      const place = [...(state ? ['CA'] : []), ...(city ? ['SACRAMENTO'] : [])];
      return [
        { ...BY_OWNER[i], values: ['SMITH', null, 10, 0, '{SMITH}', ...place] },
        { ...OWNER_COUNT[i], values: ['SMITH', null, '{SMITH}', ...place] },
      ];
    }),
  );

  it.each(['force_generic_plan', 'force_custom_plan'])('are read by every owner search (%s)', async (mode) => {
    const c = await ctx.pool.connect();
    try {
      await c.query('SET enable_seqscan = off');
      await c.query(`SET plan_cache_mode = ${mode}`);
      for (const [i, s] of statements.entries()) {
        await c.query(`PREPARE owner_plan_${i} AS ${s.text}`);
        const args = s.values.map((v) =>
          v === null ? 'NULL' : typeof v === 'number' ? String(v) : c.escapeLiteral(v),
        );
        const { rows } = await c.query<{ 'QUERY PLAN': string }>(`EXPLAIN EXECUTE owner_plan_${i}(${args.join(', ')})`);
        const plan = rows.map((r) => r['QUERY PLAN']).join('\n');
        expect(plan, `${s.name}:\n${plan}`).toMatch(/\bowners_name(?!_words)\b/);
        expect(plan, `${s.name}:\n${plan}`).toMatch(/\bowners_name_words\b/);
        expect(plan, `${s.name}:\n${plan}`).not.toMatch(/Seq Scan on owners\b/);
      }
    } finally {
      // Thrown away, not returned to the app's pool: its settings and statements are this test's.
      c.release(true);
    }
  });
});
