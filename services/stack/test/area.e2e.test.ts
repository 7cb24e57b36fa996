// Area search through the local gateway (issue 27): radius, box and polygon reach the lookup, are billed per
// record, carry location.distance, and a bad shape is refused at the service with a 400 naming it, uncharged.
import { describe, expect, it } from 'vitest';
import { insertProperties, makeProperty, uniqueStreet } from '@pra/ingest/testing';
import { useSystem } from './system-harness.js';

// A spot in the Pacific far from any other test's records: only this file's three records are near it.
const LAT = 31.4;
const LON = -150.9;
let ids: number[];
const ctx = useSystem('area', {
  setup: async (pool) => {
    const street = uniqueStreet();
    ids = await insertProperties(pool, [
      makeProperty({ line1: `1 ${street} ST`, latitude: LAT, longitude: LON }),
      makeProperty({ line1: `2 ${street} ST`, latitude: LAT + 0.01, longitude: LON }), // 0.69 mi north
      makeProperty({ line1: `3 ${street} ST`, latitude: LAT + 0.1, longitude: LON }), // 6.9 mi north
    ]);
  },
});
const get = (key: string, path: string) => ctx.get(path, key);

describe('area search through the gateway', () => {
  it('radius: nearest first with location.distance in miles, billed per record', async () => {
    const a = await ctx.billing.fundedAccount(10, { tier: 'growth' });
    const res = await get(a.key, `/property/radius?latitude=${LAT}&longitude=${LON}&radius=1`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as any;
    expect(body.property.map((p: any) => p.identifier.Id)).toEqual([ids[0], ids[1]]);
    expect(body.property[0].location.distance).toBe(0);
    expect(body.property[1].location.distance).toBeCloseTo(0.691, 2);
    expect(body.status).toMatchObject({ total: 2, records_returned: 2, credits_remaining: 8 });
    const far = (await (await get(a.key, `/property/radius?latitude=${LAT}&longitude=${LON}&radius=10`)).json()) as any;
    expect(far.status.total).toBe(3);
  });

  it('box and polygon, and a free preview of a radius search', async () => {
    const a = await ctx.billing.fundedAccount(10, { tier: 'growth' });
    const box = await get(a.key, `/property/area?bbox=${LON - 0.01},${LAT - 0.01},${LON + 0.01},${LAT + 0.05}`);
    expect(box.status).toBe(200);
    expect(((await box.json()) as any).status.total).toBe(2);
    const ring = [
      [LON - 0.01, LAT - 0.01],
      [LON + 0.01, LAT - 0.01],
      [LON + 0.01, LAT + 0.2],
      [LON - 0.01, LAT - 0.01],
    ];
    const polygon = encodeURIComponent(JSON.stringify({ type: 'Polygon', coordinates: [ring] }));
    const inside = await get(a.key, `/property/area?polygon=${polygon}`);
    expect(inside.status).toBe(200);
    const preview = await get(a.key, `/property/radius?latitude=${LAT}&longitude=${LON}&radius=10&preview=true`);
    expect(((await preview.json()) as any).status).toMatchObject({
      total: 3,
      credits_required: 3,
      records_returned: 0,
    });
  });

  it('a bad shape or a radius past its bound is a 400 naming it, uncharged', async () => {
    const a = await ctx.billing.fundedAccount(10, { tier: 'growth' });
    const wide = await get(a.key, `/property/radius?latitude=${LAT}&longitude=${LON}&radius=500`);
    expect(wide.status).toBe(400);
    expect(((await wide.json()) as any).status.msg).toMatch(/'radius'/);
    const open = await get(
      a.key,
      `/property/area?polygon=${encodeURIComponent('{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1]]]}')}`,
    );
    expect(open.status).toBe(400);
    expect(((await open.json()) as any).status.msg).toMatch(/'polygon'/);
    expect(await ctx.billing.meter.balance(a.accountId)).toBe(10);
  });
});
