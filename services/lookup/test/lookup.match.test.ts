// Issue 27: status.match says how an address answer matched, one kind at a time, and a repeat under one
// Idempotency-Key says what its first call said even when the store has changed how the line would match since.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { insertProperties, makeProperty, uniqueStreet } from '@pra/ingest/testing';
import { oneLetterWordApart } from '../src/domain/spelling-rules.js';
import { useLookupApp } from './lookup-harness.js';

const ctx = useLookupApp();
const at = (address: string, headers: Record<string, string> = {}) =>
  ctx.get(`/api/v1/property/address?${new URLSearchParams({ address, zip: '60604', pagesize: '100' })}`, headers);
const place = (line1: string, line2 = '') => makeProperty({ line1, line2, zip: '60604', city: 'CHICAGO', state: 'IL' });
const ids = (res: { body: any }) =>
  res.body.property.map((p: any) => p.identifier.Id).sort((a: number, b: number) => a - b);

describe('status.match on every address answer', () => {
  it('exact, standardized, type_inferred, corrected and building, each with its parts and what differed', async () => {
    const name = uniqueStreet();
    const slip = `${uniqueStreet()}ING`; // long enough for a one-letter slip to be read
    const lettered = uniqueStreet();
    await insertProperties(ctx.pool, [
      place(`201 W ${name} ST`, 'APT 2C'),
      place(`201 W ${name} ST`, 'APT 3D'),
      place(`77 ${name} AVE`),
      place(`90 ${slip} RD`),
      place(`203 N ${name} AVE`, 'APT 608'),
      place(`1425 ${lettered} LN`),
      place(`1425-A ${lettered} LN`),
    ]);
    const exact = await at(`201 W ${name} ST APT 2C`);
    expect(exact.status).toBe(200);
    expect(exact.body.status.match).toEqual({
      type: 'exact',
      input: { number: '201', predirectional: 'W', street: name, suffix: 'ST', postdirectional: null, unit: '2C' },
      matched: { number: '201', predirectional: 'W', street: name, suffix: 'ST', postdirectional: null, unit: '2C' },
      differed: [],
    });
    const standardized = await at(`201 West ${name.toLowerCase()} Street, Apt. 2C`);
    expect(ids(standardized)).toEqual(ids(exact));
    expect(standardized.body.status.match).toMatchObject({ type: 'standardized', differed: [] });

    const whole = await at(`201 W ${name} ST`);
    expect(whole.body.property).toHaveLength(2);
    expect(whole.body.status.match).toMatchObject({ type: 'exact', matched: { unit: null } });

    const inferred = await at(`77 ${name}`);
    expect(inferred.status).toBe(200);
    expect(inferred.body.status.match).toMatchObject({
      type: 'type_inferred',
      input: { suffix: null },
      matched: { suffix: 'AVE' },
      differed: ['suffix'],
    });

    const corrected = await at(`90 ${slip.slice(0, -1)}N RD`);
    expect(corrected.status).toBe(200);
    expect(corrected.body.status.match).toMatchObject({
      type: 'corrected',
      input: { street: `${slip.slice(0, -1)}N` },
      matched: { street: slip },
      differed: ['street'],
    });

    const unitRead = await at(`203 N ${name} 608`);
    expect(unitRead.status).toBe(200);
    expect(unitRead.body.status.match).toMatchObject({ type: 'corrected', matched: { unit: '608', suffix: 'AVE' } });
    // One letter after the type is not read as a unit by a query: `1425 X LN A` may be house 1425A (Charlottesville's
    // `1425-A GENTRY LN`), and the unit's building would answer, and charge, for the house beside it.
    const letter = await at(`1425 ${lettered} LN A`);
    expect(letter.status).toBe(404);

    const building = await at(`77 ${name} Ave Apt 5`);
    expect(building.status).toBe(200);
    expect(building.body.status.match).toMatchObject({
      type: 'building',
      input: { unit: '5' },
      matched: { unit: null },
      differed: ['unit'],
    });
  });

  it("a unit asked that a stored line holds: bare after the street, or as the house number's letter", async () => {
    const [name, alone, route, lone, east, twin, nine, units, untyped, typed, bare, north, valley] = Array.from(
      { length: 13 },
      uniqueStreet,
    );
    const stored = await insertProperties(ctx.pool, [
      place(`1425 ${name} LN`),
      place(`1425-A ${name} LN`),
      place(`20-B ${alone} CT`),
      place(`367 ${route} ROUTE 120`),
      place(`367 ${route} ROUTE 120 B3`),
      place(`500 ${lone} ST`),
      place(`1604-E ${east} AVE`),
      place(`100 ${twin} ST`),
      place(`100 ${twin} ST E`),
      place(`100 ${nine} ROUTE 9`),
      place(`100 ${nine} ROUTE 92`),
      place(`300 ${units} AVE`, 'APT 1'),
      place(`300 ${units} AVE`, 'APT 2'),
      place(`300C ${units} AVE`),
      place(`100 ${untyped}`),
      place(`100 ${untyped}`, 'APT 1'),
      place(`100 ${typed} ST`),
      place(`100 ${typed} ST EXT`),
      place(`100 ${untyped} GDN`),
      place(`203 N ${bare}`),
      place(`203 N ${bare} 608`),
      place(`123 N ${north} ST`),
      place(`405-A VALLEY ${valley} RD`),
      // A street that is a type's word alone: `93817 Plaza Unit N` is not house 93817 of North Plaza.
      place('93817 N PLAZA'),
    ]);
    const [building, , lettered, routeBuilding, hangar, loneBuilding, , twinBuilding, , nineBuilding] = stored;
    const [untypedBuilding, , typedBuilding, , untypedGardens, bareBuilding, bareUnit] = stored.slice(14);
    const [eastLettered, northMain, valleyLettered] = [stored[6], stored[21], stored[22]];
    // A unit a stored line keeps in the street's name (a number after a street without a type): before the
    // building's record.
    const unit = await at(`203 N ${bare} Apt 608`);
    expect(ids(unit)).toEqual([bareUnit]);
    expect(unit.body.status.match.type).toBe('corrected');
    expect(ids(await at(`203 N ${bare} Apt 609`))).toEqual([bareBuilding]);
    // A unit after a route's number is the line's own unit (keys v8: `367 NH ROUTE 120 B3` is unit B3).
    const hangarAsked = await at(`367 ${route} Route 120 Unit B3`);
    expect(ids(hangarAsked)).toEqual([hangar]);
    expect(hangarAsked.body.status.match.type).toBe('standardized');
    expect(ids(await at(`367 ${route} Route 120 Unit B4`))).toEqual([routeBuilding]);
    // The parcel numbered with the letter, where nothing is stored at the address (Charlottesville's address points
    // write `20 ALONE CT #B` for its parcel 20-B).
    const letter = await at(`20 ${alone} Ct #B`);
    expect(ids(letter)).toEqual([lettered]);
    expect(letter.body.status.match).toMatchObject({ type: 'corrected', matched: { number: '20B', unit: null } });
    // Where the address has a record, it answers as before: 1425A may be another building beside it.
    const beside = await at(`1425 ${name} LN #A`);
    expect(ids(beside)).toEqual([building]);
    expect(beside.body.status.match.type).toBe('building');
    expect(ids(await at(`500 ${lone} ST #A`))).toEqual([loneBuilding]);
    // Units stored there, not this one: the 404 that names them, not the lot numbered with the letter.
    const missing = await at(`300 ${units} Ave Apt C`);
    expect(missing.status).toBe(404);
    expect(missing.body.status.msg).toMatch(/units there: 1, 2/);
    // A directional is never a unit read as a street's: not X Street East. The dash ties a directional's letter to
    // the house number (keys v8: 1604-E is 1604E, no longer East X Avenue), so it is that house's letter.
    expect(ids(await at(`100 ${twin} St Unit E`))).toEqual([twinBuilding]);
    const dashedEast = await at(`1604 ${east} AVE #E`);
    expect(ids(dashedEast)).toEqual([eastLettered]);
    expect(dashedEast.body.status.match).toMatchObject({ type: 'corrected', matched: { number: '1604E', unit: null } });
    // Asked with the letter apart, as the street's directional, where no East X Avenue is stored: that house too.
    const apartEast = await at(`1604 E ${east} Ave`);
    expect(ids(apartEast)).toEqual([eastLettered]);
    expect(apartEast.body.status.match).toMatchObject({ type: 'corrected', matched: { number: '1604E', unit: null } });
    expect((await at(`1604 W ${east} AVE`)).status).toBe(404);
    expect((await at(`1604 NE ${east} AVE`)).status).toBe(404);
    // Where the street asked has lines there (an East X Avenue without house 1604), the client may mean a house of it
    // we lack: a 404, not house 1604E of X Avenue.
    await insertProperties(ctx.pool, [place(`1600 E ${east} AVE`)]);
    expect((await at(`1604 E ${east} Ave`)).status).toBe(404);
    expect(ids(await at(`1604 ${east} AVE #E`))).toEqual([eastLettered]);
    // In any spelling a lookup reads as the street asked (the second review): with a post-directional, with the type's
    // word in the name, or a lot of it without a number.
    const [postDir, greenName, numberless] = [uniqueStreet(), uniqueStreet(), uniqueStreet()];
    const [postDirLettered, greenLettered, numberlessLettered] = await insertProperties(ctx.pool, [
      place(`1604-E ${postDir} AVE`),
      place(`1604-E ${greenName} GREEN`),
      place(`1604-E ${numberless} AVE`),
    ]);
    expect(ids(await at(`1604 E ${postDir} Ave`))).toEqual([postDirLettered]);
    expect(ids(await at(`1604 E ${greenName} Green`))).toEqual([greenLettered]);
    expect(ids(await at(`1604 E ${numberless} Ave`))).toEqual([numberlessLettered]);
    await insertProperties(ctx.pool, [
      place(`1600 E ${postDir} AVE N`),
      place(`1600 E ${greenName} GREEN DR`),
      place(`E ${numberless} AVE`),
    ]);
    expect((await at(`1604 E ${postDir} Ave`)).status).toBe(404);
    expect((await at(`1604 E ${greenName} Green`)).status).toBe(404);
    expect((await at(`1604 E ${numberless} Ave`)).status).toBe(404);
    // Asked with the dash where no such house is stored, a directional's letter is tried apart: 123 North X Street
    // (as keys v7 read it); a letter written apart before a type's word that a name follows, as the house's.
    const dashedNorth = await at(`123-N ${north} St`);
    expect(ids(dashedNorth)).toEqual([northMain]);
    expect(dashedNorth.body.status.match).toMatchObject({
      type: 'corrected',
      matched: { number: '123', predirectional: 'N' },
      differed: ['number', 'predirectional'],
    });
    const apart = await at(`405 A Valley ${valley} Rd`);
    expect(ids(apart)).toEqual([valleyLettered]);
    expect(apart.body.status.match).toMatchObject({ type: 'corrected', matched: { number: '405A' } });
    // The house letter is tried glued to the number: with a dash, `93817-N PLAZA` would be North Plaza's.
    expect((await at('93817 Plaza Unit N')).status).toBe(404);
    // A house letter after a dash with a slip in the street's name: one-letter slips are tried on the house's
    // reading (1604E), not only on the directional's fallback (1604 East ...). And a building's unit written with a
    // route's letters (Lebanon's `9 LINDEN DR I1`, asked `I-1`).
    const typo = `${uniqueStreet()}ING`;
    const linden = uniqueStreet();
    const [typoLettered, lindenUnit] = await insertProperties(ctx.pool, [
      place(`1604-E ${typo} AVE`),
      place(`9 ${linden} DR I1`),
    ]);
    const slip = await at(`1604-E ${typo.slice(0, -3)}NG Ave`);
    expect(ids(slip)).toEqual([typoLettered]);
    expect(slip.body.status.match).toMatchObject({ type: 'corrected', matched: { number: '1604E' } });
    // ... but only after the directional's reading as written: 123 North X Road, not house 123N of a street one
    // letter longer.
    const [northAsWritten] = await insertProperties(ctx.pool, [place(`123 N ${typo} RD`), place(`123N ${typo}S RD`)]);
    expect(ids(await at(`123-N ${typo} Rd`))).toEqual([northAsWritten]);
    // A slip on the directional's reading, last: North X Road, one letter off.
    expect(ids(await at(`123-N ${typo.slice(0, -3)}NG Rd`))).toEqual([northAsWritten]);
    // Where the asked reading is the line's own (an O, L or D as the house's letter, 1299D), slips only on it: not
    // 1299 D-something Court one letter longer, which the first reading with slips would find.
    const [salemLettered] = await insertProperties(ctx.pool, [place(`1299D ${typo} CT`), place(`1299 D ${typo}S CT`)]);
    expect(ids(await at(`1299 D ${typo} Ct`))).toEqual([salemLettered]);
    expect(ids(await at(`9 ${linden} Dr I-1`))).toEqual([lindenUnit]);
    // A later reading's error is the answer, never a step to the next reading: a page past North X Road's last is that
    // page's 404, not a page of 123N of X Roads (charged); a later reading in doubt names its candidates.
    const paged = `${uniqueStreet()}ING`;
    await insertProperties(ctx.pool, [
      place(`123 N ${paged} RD`),
      place(`123 N ${paged} RD`),
      place(`123N ${paged}S RD`),
    ]);
    const past = await ctx.get(
      `/api/v1/property/address?${new URLSearchParams({ address: `123-N ${paged} Rd`, zip: '60604', pagesize: '1', page: '3' })}`,
    );
    expect(past.status).toBe(404);
    expect(past.body.property ?? []).toEqual([]);
    expect(past.body.status.total).toBe(2);
    const doubt = `${uniqueStreet()}ING`;
    await insertProperties(ctx.pool, [
      place(`123N ${doubt}E RD`),
      place(`123N ${doubt}S RD`),
      place(`123 N ${doubt}E RD`),
    ]);
    const inDoubt = await at(`123-N ${doubt} Rd`);
    expect(inDoubt.status).toBe(404);
    expect(inDoubt.body.status.msg).toMatch(/did you mean/);
    // Only a line stored exactly so: Route 9's unit 2 is not Route 92; a word that is a type is no other street.
    expect(ids(await at(`100 ${nine} Route 9 Unit 2`))).toEqual([nineBuilding]);
    // Nor another house whose letter a stored line keeps as a word (`1604 D X AVE` written apart, D X Avenue): a
    // unit E there is not a one-letter slip of the street's name.
    const slipped = `${uniqueStreet()}ING`; // long enough for a one-letter slip to be read
    const [lotD] = await insertProperties(ctx.pool, [place(`1604 D ${slipped} AVE`)]);
    expect((await at(`1604 ${slipped} Ave #E`)).status).toBe(404);
    expect(ids(await at(`1604 D ${slipped} Ave`))).toEqual([lotD]);
    // A unit that is a type's word is no other street: not X Street Extension, not X Gardens.
    expect(ids(await at(`100 ${typed} St Unit Ext`))).toEqual([typedBuilding]);
    // The building's two spellings (as before), not X Gardens alone.
    const garden = await at(`100 ${untyped} Apt Garden`);
    expect(ids(garden)).toEqual([untypedBuilding, untypedGardens]);
    expect(garden.body.status.match.type).toBe('building');
  });

  it('no other answer carries it, and an address answer changes in nothing else', async () => {
    const name = uniqueStreet();
    const [id] = await insertProperties(ctx.pool, [place(`12 ${name} ST`)]);
    const res = await at(`12 ${name} ST`);
    const { match, ...status } = res.body.status;
    expect(match.type).toBe('exact');
    expect(Object.keys(status)).toEqual([
      'code',
      'msg',
      'total',
      'page',
      'pagesize',
      'transactionID',
      'credits_remaining',
      'records_returned',
      'truncated_by_credits',
    ]);
    const history = await ctx.get(`/api/v1/sale/history?id=${id}`);
    expect(history.status).toBe(200);
    expect(history.body.status.match).toBeUndefined();
  });

  it('a repeat under one Idempotency-Key says how its first call matched, though the store now matches otherwise', async () => {
    const name = uniqueStreet();
    const [avenue] = await insertProperties(ctx.pool, [place(`300 ${name} AVE`)]);
    const key = { 'Idempotency-Key': randomUUID() };
    const first = await at(`300 ${name}`, key);
    expect(first.body.status.match.type).toBe('type_inferred');
    // The bare line stored now: asked again, the line is exact; the repeat still says what the first call paid for.
    await insertProperties(ctx.pool, [place(`300 ${name}`)]);
    expect((await at(`300 ${name}`)).body.status.match.type).toBe('exact');
    const again = await at(`300 ${name}`, key);
    expect(again.status).toBe(200);
    expect(ids(again)).toEqual([avenue]);
    expect(again.body.status.match).toEqual(first.body.status.match);
    expect(again.body.status.transactionID).toBe(first.body.status.transactionID);
  });
});

describe('oneLetterWordApart', () => {
  it('tells a letter that is a word of its own from a slip within a name', () => {
    expect(oneLetterWordApart('1604 MONTICELLO AVE', '1604 D MONTICELLO AVE')).toBe(true);
    expect(oneLetterWordApart('1604 D MONTICELLO AVE', '1604 MONTICELLO AVE')).toBe(true);
    expect(oneLetterWordApart('100 MAIN ST', '100 MAIN ST E')).toBe(true);
    expect(oneLetterWordApart('90 BEVERLY RD', '90 BEVERLEY RD')).toBe(false);
    expect(oneLetterWordApart('100 MAIN ST', '100 OLD MAIN ST')).toBe(false);
    expect(oneLetterWordApart('100 MAIN ST', '100 MAIN ST')).toBe(false);
  });
});
