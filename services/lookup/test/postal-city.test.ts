// An address asked by a city the records do not name: the post office's city of their ZIP (issue 36: Lebanon's
// 03784 is WEST LEBANON, its parcels are stored as LEBANON). The lookup reads the ZIPs GeoNames gives that city in
// the asked state; an address stored in one of them answers as a lookup by that ZIP, one stored in several is a 404
// naming them (two towns' buildings, never one page of both, never a charge). A city's first word that is a
// directional may be abbreviated (W Lebanon).
import { describe, expect, it } from 'vitest';
import { insertProperties, makeProperty, uniqueStreet } from '@pra/ingest/testing';
import { useLookupApp } from './lookup-harness.js';

const ctx = useLookupApp();
const ids = (res: { body: any }) => (res.body.property ?? []).map((p: any) => p.identifier.Id);
const byCity = (address: string, city: string, state: string, extra: Record<string, string> = {}) =>
  ctx.get(`/api/v1/property/address?${new URLSearchParams({ address, city, state, ...extra })}`);
/** A parcel of a town inside Pittsburgh's postal city (15215 Sharpsburg, 15237 Ross), stored by its town. */
const parcel = (line1: string, city: string, zip: string, state = 'PA') =>
  makeProperty({ line1, city, zip, state, apn: `${Math.random()}`.slice(2, 14) });

describe('an address by the postal city of its ZIP', () => {
  it('stored in one of the ZIPs: found, as by its ZIP; in two: a 404 naming both, the preview too, nothing charged', async () => {
    const name = uniqueStreet();
    const [ross] = await insertProperties(ctx.pool, [
      parcel(`200 ${name} ST`, 'ROSS', '15237'),
      parcel(`100 ${name} ST`, 'SHARPSBURG', '15215'),
      parcel(`100 ${name} ST`, 'ROSS', '15237'),
    ]);
    const one = await byCity(`200 ${name} Street`, 'Pittsburgh', 'PA');
    expect(one.status).toBe(200);
    expect(ids(one)).toEqual([ross]);
    const before = one.body.status.credits_remaining as number;

    const two = await byCity(`100 ${name} St`, 'Pittsburgh', 'PA');
    expect(two.status).toBe(404);
    expect(two.body.status.msg).toBe(
      `No properties found for address '100 ${name.toUpperCase()} ST, PITTSBURGH, PA': it is stored in more than one ZIP of PITTSBURGH, PA (15215, 15237); give the ZIP`,
    );
    const preview = await byCity(`100 ${name} St`, 'Pittsburgh', 'PA', { preview: 'true' });
    expect([preview.status, preview.body.status.msg]).toEqual([404, two.body.status.msg]);
    // The two 404s cost nothing: the next page found is the only charge since the first.
    const again = await byCity(`200 ${name} Street`, 'Pittsburgh', 'PA');
    expect(again.body.status.credits_remaining).toBe(before - 1);
    // By its town, each is found alone.
    expect(ids(await byCity(`100 ${name} St`, 'Sharpsburg', 'PA'))).toHaveLength(1);
  });

  it('a postal city whose first word is a directional, written out or not (W Lebanon is WEST LEBANON)', async () => {
    const name = uniqueStreet();
    const [mine] = await insertProperties(ctx.pool, [parcel(`12 ${name} RD`, 'LEBANON', '03784', 'NH')]);
    for (const city of ['West Lebanon', 'W Lebanon', 'W. Lebanon', 'west  lebanon']) {
      const res = await byCity(`12 ${name} Rd`, city, 'NH');
      expect([res.status, ids(res)], city).toEqual([200, [mine]]);
    }
    // A directional alone is no city, and another first word is not folded.
    for (const city of ['W', 'Wst Lebanon', 'East Lebanon'])
      expect((await byCity(`12 ${name} Rd`, city, 'NH')).status, city).toBe(404);
  });

  it("not the directional's letter as the house's: the address asked in one ZIP is not outweighed by 1604-E in another", async () => {
    // A review's case: `1604 E X Ave` by a postal city, the address stored as asked in one ZIP, the lettered house in
    // another. The lettered reading is not tried by a postal city (its guard would read one ZIP only).
    const name = uniqueStreet();
    const [asked] = await insertProperties(ctx.pool, [
      parcel(`1604 E ${name} AVE`, 'ROSS', '15237'),
      parcel(`1604-E ${name} AVE`, 'SHARPSBURG', '15215'),
    ]);
    expect(ids(await byCity(`1604 E ${name} Ave`, 'Pittsburgh', 'PA'))).toEqual([asked]);
    // Only the lettered house in the postal city: a 404, as before (by its town, or its ZIP, it is found).
    const other = uniqueStreet();
    const [lettered] = await insertProperties(ctx.pool, [parcel(`1604-E ${other} AVE`, 'SHARPSBURG', '15215')]);
    expect((await byCity(`1604 E ${other} Ave`, 'Pittsburgh', 'PA')).status).toBe(404);
    expect(ids(await byCity(`1604 E ${other} Ave`, 'Sharpsburg', 'PA'))).toEqual([lettered]);
  });

  it("a record of another state whose ZIP is the postal city's is not that city's", async () => {
    const name = uniqueStreet();
    await insertProperties(ctx.pool, [parcel(`7 ${name} AVE`, 'SHARPSBURG', '15215', 'OH')]);
    const res = await byCity(`7 ${name} Ave`, 'Pittsburgh', 'PA');
    expect(res.status).toBe(404);
  });

  /** Found by the postal city as by its ZIP, with the same match. */
  async function expectAsByZip(address: string, want: number) {
    const res = await byCity(address, 'West Lebanon', 'NH');
    expect([res.status, ids(res)], address).toEqual([200, [want]]);
    const byZip = await ctx.get(`/api/v1/property/address?${new URLSearchParams({ address, zip: '03784' })}`);
    expect(res.body.status.match, address).toEqual(byZip.body.status.match);
  }
  const typo = (name: string) => `${name.slice(0, -1)}N`;

  it('a name one letter off: found as by the ZIP; two letters off or another number: a 404', async () => {
    const slip = `${uniqueStreet()}ING`;
    const [a] = await insertProperties(ctx.pool, [parcel(`12 ${slip} RD`, 'LEBANON', '03784', 'NH')]);
    await expectAsByZip(`12 ${typo(slip)} Rd`, a!);
    await expectAsByZip(`12 ${typo(slip)}`, a!);
    expect((await byCity(`12 ${typo(slip).slice(0, -2)}XN Rd`, 'West Lebanon', 'NH')).status).toBe(404);
    expect((await byCity(`13 ${typo(slip)} Rd`, 'West Lebanon', 'NH')).status).toBe(404);
  });

  it("a last word that is the name's, not a type, and a post-directional on one side: found as by the ZIP", async () => {
    const [untyped, directional] = [uniqueStreet(), uniqueStreet()];
    const [b, c] = await insertProperties(ctx.pool, [
      parcel(`18 ${untyped} GREEN CIR`, 'LEBANON', '03784', 'NH'),
      parcel(`16 ${directional} ST W`, 'LEBANON', '03784', 'NH'),
    ]);
    await expectAsByZip(`18 ${untyped} Green`, b!);
    await expectAsByZip(`16 ${directional} St`, c!);
  });

  it('a name one letter off in two ZIPs of the city: a 404 that names them, nothing charged', async () => {
    const twice = `${uniqueStreet()}ING`;
    await insertProperties(ctx.pool, [
      parcel(`300 ${twice} AVE`, 'SHARPSBURG', '15215'),
      parcel(`300 ${twice} AVE`, 'ROSS', '15237'),
      parcel(`302 ${twice} AVE`, 'ROSS', '15237'),
    ]);
    const before = (await byCity(`302 ${twice} Ave`, 'Pittsburgh', 'PA')).body.status.credits_remaining as number;
    const doubt = await byCity(`300 ${typo(twice)} Ave`, 'Pittsburgh', 'PA');
    expect(doubt.status).toBe(404);
    expect(doubt.body.status.msg).toMatch(
      /a street one letter off it is stored in more than one ZIP of PITTSBURGH, PA \(15215, 15237\); give the ZIP/,
    );
    const after = await byCity(`302 ${twice} Ave`, 'Pittsburgh', 'PA');
    expect(after.body.status.credits_remaining).toBe(before - 1);
  });

  it('reads in tiers, as a lookup by ZIP: the address as written and its unit lines, then spellings, then slips', async () => {
    const [name, other] = [`${uniqueStreet()}ING`, `${uniqueStreet()}ING`];
    const typo = (n: string) => `${n.slice(0, -1)}N`;
    const [west, letter] = await insertProperties(ctx.pool, [
      parcel(`16 ${name} ST W`, 'ROSS', '15237'),
      parcel(`100A ${other} AVE`, 'ROSS', '15237'),
      parcel(`16 ${name} ST E`, 'SHARPSBURG', '15215'),
      parcel(`100 ${typo(other)} AVE`, 'SHARPSBURG', '15215'),
    ]);
    // Its own directional in one ZIP: East in another is another street, not a second ZIP of the address.
    expect(ids(await byCity(`16 ${name} St W`, 'Pittsburgh', 'PA'))).toEqual([west]);
    // The unit as the house number's letter in one ZIP: a street one letter off in another does not answer for it.
    expect(ids(await byCity(`100 ${other} Ave Apt A`, 'Pittsburgh', 'PA'))).toEqual([letter]);
  });

  it('a slip among more streets of its number than are compared is a 404 that asks for the ZIP, not one town', async () => {
    const name = `${uniqueStreet()}ING`;
    await insertProperties(ctx.pool, [
      parcel(`300 ${name} AVE`, 'PITTSBURGH', '15201'),
      parcel(`300 ${name} AVE`, 'PITTSBURGH', '15295'),
      ...Array.from({ length: 320 }, () => parcel(`300 ${uniqueStreet()} ST`, 'PITTSBURGH', '15202')),
    ]);
    const res = await byCity(`300 ${name.slice(0, -1)}N Ave`, 'Pittsburgh', 'Pa');
    expect(res.status).toBe(404);
    expect(res.body.status.msg).toMatch(/give the ZIP$/);
  });
});
