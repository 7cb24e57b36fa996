// Issue 26 through the real app: the spellings people write in other cities, one building under two stored
// spellings, a post-directional on one side only, and units the store lacks (never another unit).
import { describe, expect, it } from 'vitest';
import { insertProperties, makeProperty, uniqueStreet } from '@pra/ingest/testing';
import { useLookupApp } from './lookup-harness.js';

const ctx = useLookupApp();
const ids = (res: { body: any }) =>
  res.body.property?.map((p: any) => p.identifier.Id).sort((a: number, b: number) => a - b);
const at = (address: string, zip = '60604') =>
  ctx.get(`/api/v1/property/address?${new URLSearchParams({ address, zip, pagesize: '100' })}`);
const unit = (line1: string, line2: string) =>
  makeProperty({ line1, line2, zip: '60604', city: 'CHICAGO', state: 'IL' });

describe('the spellings of issue 26, each answering the unit stored in USPS form', () => {
  it('a unit without designator, a floor, a room, a letter apart, a post-directional and unit, a unit first', async () => {
    const name = uniqueStreet();
    const [u608, , fl41, rm, letter, gately, first] = await insertProperties(ctx.pool, [
      unit(`203 N ${name} AVE`, 'APT 608'),
      unit(`203 N ${name} AVE`, 'APT 609'),
      unit(`205 N ${name} AVE`, 'FL 41'),
      unit(`180 ${name} ST`, 'RM 1418'),
      unit(`4922B S ${name} AVE`, ''),
      unit(`2641 ${name} DR W`, 'APT 707'),
      unit(`10A ${name} BLVD`, 'APT 4'),
    ]);
    expect(ids(await at(`203 N. ${name} 608`))).toEqual([u608]);
    expect(ids(await at(`203 N ${name} Avenue 608`))).toEqual([u608]);
    expect(ids(await at(`205 N. ${name} Avenue 41st Floor`))).toEqual([fl41]);
    expect(ids(await at(`205 N ${name} Ave Forty First Floor`))).toEqual([fl41]);
    expect(ids(await at(`180 ${name} Street 14th Floor Room 1418`))).toEqual([rm]);
    expect(ids(await at(`4922 B South ${name} Avenue`))).toEqual([letter]);
    expect(ids(await at(`2641 ${name} Drive W 707`))).toEqual([gately]);
    expect(ids(await at(`2641 ${name} Drive West, Apt 707`))).toEqual([gately]);
    expect(ids(await at(`Apt 4 10A ${name} Blvd`))).toEqual([first]);
    expect(ids(await at(`Apt 4, 10A ${name} Boulevard`))).toEqual([first]);
  });
});

describe('one building, one answer', () => {
  it('two stored spellings of one address (typed and not) answer together, and a unit from either', async () => {
    const name = uniqueStreet();
    const [typed, bare, written] = await insertProperties(ctx.pool, [
      unit(`543 W ${name} ST`, 'UNIT 1'),
      unit(`543 W ${name}`, 'UNIT 2'),
      unit(`543 WEST ${name} STREET`, 'UNIT 3'),
    ]);
    const all = [typed, bare, written].sort((a, b) => a! - b!);
    expect(ids(await at(`543 W ${name} ST`))).toEqual(all);
    expect(ids(await at(`543 West ${name}`))).toEqual(all);
    expect(ids(await at(`543 W ${name} Street, Unit 2`))).toEqual([bare]);
    expect(ids(await at(`543 W ${name}, Unit 1`))).toEqual([typed]);
  });

  it('a spelling without type that another street type could own stays apart from the typed one', async () => {
    const name = uniqueStreet();
    const [typed, bare] = await insertProperties(ctx.pool, [
      unit(`543 W ${name} ST`, 'UNIT 1'),
      unit(`543 W ${name}`, 'UNIT 2'),
      unit(`9 W ${name} AVE`, ''),
    ]);
    expect(ids(await at(`543 W ${name} ST`))).toEqual([typed]);
    expect(ids(await at(`543 W ${name}`))).toEqual([bare]);
  });
});

describe('a post-directional on one side only', () => {
  it('is found when the number is on one variant of the street, and a 404 naming them when on several', async () => {
    const [a, b, c] = [uniqueStreet(), uniqueStreet(), uniqueStreet()];
    const [east, plain] = await insertProperties(ctx.pool, [
      unit(`20 ${a} ST E`, 'APT D14'),
      unit(`20 ${b} ST`, 'APT C2'),
      unit(`30 ${c} ST E`, ''),
      unit(`30 ${c} ST W`, ''),
    ]);
    expect(ids(await at(`20 ${a} Street, D14`))).toEqual([east]);
    expect(ids(await at(`20 ${a} Street East, D14`))).toEqual([east]);
    expect(ids(await at(`20 ${b} Street East, C2`))).toEqual([plain]);
    const doubt = await at(`30 ${c} Street`);
    expect(doubt.status).toBe(404);
    expect(doubt.body.status.msg).toContain(`30 ${c} ST E', '30 ${c} ST W`);
  });
});

describe('a directional is never guessed', () => {
  it('one letter off in a pre- or post-directional is another street, not a slip', async () => {
    const name = `${uniqueStreet()}LONG`;
    await insertProperties(ctx.pool, [unit(`100 S ${name} AVE`, ''), unit(`816 ${name} PL N`, '')]);
    expect((await at(`100 N ${name} Ave`)).status).toBe(404);
    expect((await at(`816 ${name} Pl S`)).status).toBe(404);
    expect((await at(`816 ${name} Place Southwest`)).status).toBe(404);
  });
});

describe('a name that ends or starts like a directional is another street', () => {
  it('GREEN ST is not GREENE ST, and N ASH ST is not NASH ST (review of issue 26)', async () => {
    // Short names (a one-letter slip is only read in names of 6 letters or more), in a ZIP of this test's own.
    const zip = String(10_000 + Math.floor(Math.random() * 89_999));
    const put = (line1: string, line2: string) => makeProperty({ line1, line2, zip, city: 'TESTVILLE', state: 'IL' });
    const [greene, nash, nAsh] = await insertProperties(ctx.pool, [
      put('100 GREENE ST', ''),
      put('200 NASH ST', 'UNIT 1'),
      put('200 N ASH ST', 'UNIT 2'),
    ]);
    expect((await at('100 Green St', zip)).status).toBe(404);
    expect(ids(await at('100 Greene St', zip))).toEqual([greene]);
    expect(ids(await at('200 Nash St', zip))).toEqual([nash]);
    expect(ids(await at('200 North Ash Street', zip))).toEqual([nAsh]);
  });
});

describe('review of issue 26: what an attacker and an unlucky client found', () => {
  it('apartment 201 of building 3 is not that of building 4', async () => {
    const name = uniqueStreet();
    const [b3] = await insertProperties(ctx.pool, [
      unit(`1000 ${name} ST`, 'BLDG 3 APT 201'),
      unit(`1000 ${name} ST`, 'BLDG 4 APT 201'),
    ]);
    expect(ids(await at(`1000 ${name} St Bldg 3 Apt 201`))).toEqual([b3]);
    expect(ids(await at(`1000 ${name} St, Apt 201, Bldg 3`))).toEqual([b3]);
  });

  it('a digit more, less or other is never a one-letter slip: another street, or a unit', async () => {
    const zip = String(10_000 + Math.floor(Math.random() * 89_999));
    const put = (line1: string, line2: string) => makeProperty({ line1, line2, zip, city: 'TESTVILLE', state: 'IL' });
    const [, nine] = await insertProperties(ctx.pool, [put('100 W 31ST ST', ''), put('4516 KIMBERLY COR', 'APT 9')]);
    await insertProperties(ctx.pool, [put('4516 KIMBERLY COR', 'APT 16')]);
    expect((await at('100 W 21st St', zip)).status).toBe(404);
    expect(ids(await at('4516 Kimberly 9', zip))).toEqual([nine]);
  });

  it('a designator with nothing after it answers the building record, or a 404 naming the units', async () => {
    const [house, units] = [uniqueStreet(), uniqueStreet()];
    const [h] = await insertProperties(ctx.pool, [
      unit(`1615 ${house} CT NE`, ''),
      unit(`1617 ${units} CT NE`, 'UNIT 1'),
      unit(`1617 ${units} CT NE`, 'UNIT 2'),
    ]);
    expect(ids(await at(`1615 ${house} Ct NE Unit`))).toEqual([h]);
    const none = await at(`1617 ${units} Ct NE Unit`);
    expect(none.status).toBe(404);
    expect(none.body.status.msg).toMatch(/A unit without its number at .*units there: 1, 2/);
  });

  it('a stored line ending in a route number keeps its building whole', async () => {
    const name = `IH${Date.now() % 1000}`;
    const zip = String(10_000 + Math.floor(Math.random() * 89_999));
    const put = (line1: string, line2: string) => makeProperty({ line1, line2, zip, city: 'AUSTIN', state: 'TX' });
    const all = await insertProperties(ctx.pool, [
      put(`6500 N ${name} 35`, ''),
      put(`6500 N ${name} 35`, 'STE 100'),
      put(`6500 N ${name} 35`, 'STE 200'),
    ]);
    expect(ids(await at(`6500 N ${name} 35`, zip))).toEqual(all);
    expect(ids(await at(`6500 N ${name} 35 Ste 200`, zip))).toEqual([all[2]]);
  });

  it('a post-directional asked is never answered by the plain street while another directional holds the number', async () => {
    const [a, b] = [uniqueStreet(), uniqueStreet()];
    const [plain] = await insertProperties(ctx.pool, [
      unit(`20 ${a} ST`, ''),
      unit(`20 ${a} ST W`, ''),
      unit(`1200 ${b} W`, ''),
    ]);
    const doubt = await at(`20 ${a} Street East`);
    expect(doubt.status).toBe(404);
    expect(doubt.body.status.msg).toContain(`20 ${a} ST', '20 ${a} ST W`);
    expect(ids(await at(`20 ${a} Street`))).toEqual([plain]);
    expect((await at(`1200 ${b} E`)).status).toBe(404);
  });
});

describe('third review of issue 26', () => {
  const place = () => {
    const zip = String(10_000 + Math.floor(Math.random() * 89_999));
    const put = (line1: string, line2: string) => makeProperty({ line1, line2, zip, city: 'TESTVILLE', state: 'NY' });
    return { zip, put };
  };

  it('a letter apart after the number is the house letter, not a slip of another house', async () => {
    const { zip, put } = place();
    const [, lettered] = await insertProperties(ctx.pool, [
      put('100 LANCASTER AVE', 'APT 5'),
      put('100D LANCASTER AVE', 'APT 5'),
    ]);
    expect(ids(await at('100 D Lancaster Ave Apt 5', zip))).toEqual([lettered]);
  });

  it('two ranges of one low number are two buildings (Queens)', async () => {
    const { zip, put } = place();
    const [low, high] = await insertProperties(ctx.pool, [put('31-45 CRESCENT ST', ''), put('31-70 CRESCENT ST', '')]);
    expect(ids(await at('31-45 Crescent St', zip))).toEqual([low]);
    expect(ids(await at('31-70 Crescent Street', zip))).toEqual([high]);
    expect((await at('31-50 Crescent St', zip)).status).toBe(404);
  });

  it('the number given apart is the house number; the first reading names its candidates', async () => {
    const { zip, put } = place();
    const [court, avenue] = await insertProperties(ctx.pool, [put('1299 D NAME CT', ''), put('100 ONAME AVE', '')]);
    const res = await ctx.get(
      `/api/v1/property/address?${new URLSearchParams({ address: 'D Name Ct', number: '1299', zip })}`,
    );
    expect(ids(res)).toEqual([court]);
    const doubt = await at('100 O Name St', zip);
    expect(doubt.status).toBe(404);
    expect(doubt.body.status.msg).toContain("did you mean '100 ONAME AVE'");
    expect(ids(await at('100 O Name Ave', zip))).toEqual([avenue]);
  });
});

describe('the number parameter beside a house letter written apart', () => {
  it('number=4922 with "4922 B South ... Ave" is house 4922B, not a conflict', async () => {
    const name = uniqueStreet();
    const [letter] = await insertProperties(ctx.pool, [unit(`4922B S ${name} AVE`, '')]);
    const res = await ctx.get(
      `/api/v1/property/address?${new URLSearchParams({ address: `4922 B South ${name} Avenue`, number: '4922', zip: '60604' })}`,
    );
    expect(ids(res)).toEqual([letter]);
    const conflict = await ctx.get(
      `/api/v1/property/address?${new URLSearchParams({ address: `4922 B South ${name} Avenue`, number: '4923', zip: '60604' })}`,
    );
    expect(conflict.status).toBe(400);
  });
});

describe('a unit the store lacks, and a building-level descriptor', () => {
  it('answers the building record, or a 404 that names the units: never another unit', async () => {
    const [withBuilding, unitsOnly] = [uniqueStreet(), uniqueStreet()];
    const [building] = await insertProperties(ctx.pool, [
      unit(`233 S ${withBuilding} DR`, ''),
      unit(`233 S ${withBuilding} DR`, 'STE 1200'),
      unit(`233 S ${withBuilding} DR`, 'STE 1300'),
      unit(`235 S ${unitsOnly} DR`, 'STE 1200'),
      unit(`235 S ${unitsOnly} DR`, 'STE 1300'),
    ]);
    for (const asked of ['lobby', 'Lobby', 'LBBY', 'Front', 'Suite 9999', '# 77']) {
      expect(ids(await at(`233 S ${withBuilding} Dr ${asked}`)), asked).toEqual([building]);
      const none = await at(`235 S ${unitsOnly} Drive ${asked}`);
      expect(none.status, asked).toBe(404);
      expect(none.body.status.msg).toMatch(/units there: 1200, 1300/);
    }
  });
});

describe('a one-letter slip in a ZIP of many streets', () => {
  it('reads every street of the same house number, however many others start with its digits', async () => {
    const zip = '59937';
    const crowd = Array.from({ length: 2000 }, (_, i) =>
      makeProperty({ line1: `${12000 + (i % 1000)} ${uniqueStreet()} RD`, zip, city: 'CROWD', state: 'MT' }),
    );
    const [name, ranged] = [`${uniqueStreet()}ING`, `${uniqueStreet()}ING`];
    await insertProperties(ctx.pool, crowd);
    const [wanted, range] = await insertProperties(ctx.pool, [
      makeProperty({ line1: `12 ${name} RD`, zip, city: 'CROWD', state: 'MT' }),
      makeProperty({ line1: `12-14 ${ranged} RD`, zip, city: 'CROWD', state: 'MT' }),
    ]);
    await ctx.pool.query('ANALYZE records.properties');
    const slip = await at(`12 ${name.slice(0, -1)}N Rd`, zip);
    expect(slip.status).toBe(200);
    expect(ids(slip)).toEqual([wanted]);
    expect(slip.body.status.match).toMatchObject({ type: 'corrected' });
    const byCity = await ctx.get(
      `/api/v1/property/address?${new URLSearchParams({ address: `12 ${name.slice(0, -1)}N Rd`, city: 'Crowd', state: 'MT' })}`,
    );
    expect(ids(byCity)).toEqual([wanted]);
    // A range from the number is read too: its low number is the house (loose key), "12-14" of "12".
    expect(ids(await at(`12 ${ranged.slice(0, -1)}N Rd`, zip))).toEqual([range]);
  });

  it('a near name among more streets of the number than are compared is in doubt: a 404 naming it, not a charge', async () => {
    const zip = '59938';
    const name = `${uniqueStreet()}ING`;
    const stored = (line1: string) => makeProperty({ line1, zip, city: 'CROWD', state: 'MT' });
    // A... and Z... are both one letter off B...; the crowd (TESTWAY...) sorts between them, past the cut.
    await insertProperties(ctx.pool, [
      stored(`300 A${name} ST`),
      stored(`300 Z${name} ST`),
      ...Array.from({ length: 320 }, () => stored(`300 ${uniqueStreet()} ST`)),
    ]);
    const res = await at(`300 B${name} St`, zip);
    expect(res.status).toBe(404);
    expect(res.body.status.msg).toMatch(/did you mean/);
  });

  it("a type glued to its directional, as Lebanon's roll writes it, is read as the importer stored it", async () => {
    const name = uniqueStreet();
    const [west] = await insertProperties(ctx.pool, [unit(`12 ${name} ST WEST`, '')]);
    for (const asked of [`12 ${name} STWEST`, `12 ${name.toLowerCase()} Stwest`])
      expect(ids(await at(asked)), asked).toEqual([west]);
    // A word that only ends so stays whole: KEYWEST is no KEY Street West.
    const [keyWest] = await insertProperties(ctx.pool, [unit(`14 ${name} KEYWEST`, '')]);
    expect(ids(await at(`14 ${name} Keywest`))).toEqual([keyWest]);
  });
});
