// Owner entities (issue 37) on the three real county rolls of the hand-out, loaded with the shipped mappings into a
// database of this file's own: every owner mention has an id; ids survive a second county's load and a re-import;
// owner detail's counts and values equal a brute-force sum over the records; an owner's properties page through
// exactly its records; owner search orders by parcel count and refuses a one-letter name; a merge answers the old id.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createPool, dropDatabase, ensureDatabase, type Pool, withDatabase } from '@pra/platform';
import { migrateBilling } from '@pra/account-billing/migrate';
import { migrateRecords } from '@pra/ingest/migrate';
import { COUNTY_ROLLS, importCsv, loadMapping } from '@pra/ingest/import';
import { insertProperties, makeProperty, recordsOf } from '@pra/ingest/testing';
import { rewriteProperties } from '../../ingest/test/feed-writers.js';
import { useLookupApp } from './lookup-harness.js';

type Rec = any;

const url = withDatabase(inject('databaseUrl'), `pra_owner_entities_${randomBytes(4).toString('hex')}`);
let pool: Pool;
beforeAll(async () => {
  await ensureDatabase(url);
  pool = createPool(url, 4, 'owner-entities-test');
  await migrateRecords(pool);
  await migrateBilling(pool);
}, 60_000);
afterAll(async () => {
  await pool?.end();
  await dropDatabase(url);
});
const api = useLookupApp(10_000_000, () => pool);

const SOURCES = ['import:philadelphia-opa', 'import:charlottesville-parcels', 'import:lebanon-nh'];
const loadCounty = async (files: readonly { mapping: string; file: string }[]) => {
  for (const { mapping, file } of files) await importCsv(pool, loadMapping(mapping), file);
};
/** Every mention's owner: `property:seq` -> owner id. */
const mentions = async () => {
  const { rows } = await pool.query<{ k: string; owner_id: string }>(
    `SELECT property_id || ':' || seq AS k, owner_id FROM records.owner_mentions`,
  );
  return new Map(rows.map((r) => [r.k, Number(r.owner_id)]));
};
/** The owner an id answers as now. */
const redirects = async () => {
  const { rows } = await pool.query<{ from_id: string; to_id: string }>('SELECT * FROM records.owner_redirects');
  const to = new Map(rows.map((r) => [Number(r.from_id), Number(r.to_id)]));
  return (id: number) => to.get(id) ?? id;
};

const records: Rec[] = [];
let firstCounty = new Map<string, number>();
let afterAllCounties = new Map<string, number>();

// Lebanon, then Philadelphia (a second county's load), then Charlottesville's parcels and sales (the sales file
// rewrites parcels already stored: owners resolved again over their previous mention), then Lebanon again (a
// re-import). Charlottesville's two other files add no owner; the county-rolls test loads them.
beforeAll(async () => {
  await loadCounty(COUNTY_ROLLS.lebanon);
  firstCounty = await mentions();
  await loadCounty(COUNTY_ROLLS.philadelphia);
  await loadCounty(COUNTY_ROLLS.charlottesville.filter((f) => /parcels|sales/.test(f.file)));
  afterAllCounties = await mentions();
  await loadCounty(COUNTY_ROLLS.lebanon);
  await loadCounty(COUNTY_ROLLS.charlottesville.filter((f) => /sales/.test(f.file)));
  for (const source of SOURCES) records.push(...(await recordsOf(pool, source)));
}, 1_500_000);

describe('owner entities on the real county rolls', () => {
  it('gives every owner mention of every record an id, the one its mention row holds', async () => {
    const held = await mentions();
    const current = await redirects();
    let named = 0;
    for (const r of records) {
      for (const [seq, o] of [
        [1, r.owner.owner1],
        [2, r.owner.owner2],
      ] as const) {
        if (!o || o.fullName === null) continue;
        named++;
        const where = `${r.identifier.apn} owner${seq} ${o.fullName}`;
        expect(typeof o.id, where).toBe('number');
        expect(current(o.id), where).toBe(held.get(`${r.identifier.Id}:${seq}`));
      }
    }
    expect(records.length).toBeGreaterThan(10_000);
    expect(named).toBeGreaterThan(records.length);
  });

  it("keeps every id through a second county's load and a re-import", async () => {
    const now = await mentions();
    for (const [k, id] of firstCounty) expect(afterAllCounties.get(k), k).toBe(id);
    for (const [k, id] of afterAllCounties) expect(now.get(k), k).toBe(id);
    expect(now.size).toBe(afterAllCounties.size);
  });

  it("answers owner detail with the brute-force sums over the owner's records", async () => {
    const current = await redirects();
    const byOwner = new Map<number, Rec[]>();
    for (const r of records) {
      const ids = new Set(
        [r.owner.owner1?.id, r.owner.owner2?.id].filter((x): x is number => typeof x === 'number').map(current),
      );
      for (const id of ids) byOwner.set(id, [...(byOwner.get(id) ?? []), r]);
    }
    const biggest = [...byOwner].sort((a, b) => b[1].length - a[1].length).slice(0, 15);
    const spread = [...byOwner].filter((_, i) => i % 997 === 0).slice(0, 15);
    for (const [id, recs] of [...biggest, ...spread]) {
      const res = await api.get(`/api/v1/owner/detail?id=${id}`);
      expect(res.status, `owner ${id}`).toBe(200);
      const o = res.body.owner;
      const sum = (f: (r: Rec) => number | null) => recs.reduce((s, r) => s + (f(r) ?? 0), 0);
      const dates = recs
        .map((r) => r.sale.lastSale.date)
        .filter((d): d is string => d !== null)
        .sort();
      expect(o.id).toBe(id);
      expect(o.parcelCount, `owner ${id}`).toBe(recs.length);
      expect(o.marketTotal, `owner ${id}`).toBe(sum((r) => r.assessment.market.total));
      expect(o.assessedTotal, `owner ${id}`).toBe(sum((r) => r.assessment.assessed.total));
      expect(o.states).toEqual([...new Set(recs.map((r) => r.address.countrySubd))].sort());
      expect(o.counties).toEqual(
        [...new Set(recs.map((r) => `${r.location.county}, ${r.address.countrySubd}`))].sort().slice(0, 100),
      );
      expect(o.firstAcquired).toBe(dates[0] ?? null);
      expect(o.lastAcquired).toBe(dates.at(-1) ?? null);
      const written = recs.flatMap((r) =>
        [r.owner.owner1, r.owner.owner2].filter((w) => w && current(w.id) === id).map((w) => w.fullName),
      );
      expect(o.names).toEqual([...new Set(written)].sort().slice(0, 100));
      expect(res.body.status.records_returned).toBe(1);
    }
    // The biggest owner's properties, page by page, are exactly its records.
    const [id, recs] = biggest[0]!;
    const seen: number[] = [];
    for (let page = 1; seen.length < recs.length; page++) {
      const res = await api.get(`/api/v1/property/owner?ownerId=${id}&page=${page}&pagesize=100`);
      expect(res.status).toBe(200);
      expect(res.body.status.total).toBe(Math.min(recs.length, 10_000));
      seen.push(...res.body.property.map((r: Rec) => r.identifier.Id));
      if (page * 100 >= 10_000) break;
    }
    expect(seen.sort((a, b) => a - b)).toEqual(
      recs
        .map((r) => r.identifier.Id)
        .sort((a: number, b: number) => a - b)
        .slice(0, 10_000),
    );
  });

  it('searches owners by name, most parcels first, 1 credit an owner; a short name is a 400', async () => {
    const res = await api.get('/api/v1/owner/search?name=CITY%20OF&pagesize=10');
    expect(res.status).toBe(200);
    const counts = res.body.owners.map((o: Rec) => o.parcelCount);
    expect(counts).toEqual([...counts].sort((a: number, b: number) => b - a));
    expect(res.body.status.records_returned).toBe(res.body.owners.length);
    for (const o of res.body.owners) expect(o.name).toMatch(/^(THE )?CITY OF/);
    const top = res.body.owners[0];
    const detail = await api.get(`/api/v1/owner/detail?id=${top.id}`);
    expect(detail.body.owner.parcelCount).toBe(top.parcelCount);
    const short = await api.get('/api/v1/owner/search?name=A');
    expect(short.status).toBe(400);
    expect(short.body.status.msg).toMatch(/name.*at least 3 letters/);
    const preview = await api.get('/api/v1/owner/search?name=CITY%20OF&pagesize=10&preview=true');
    expect(preview.body.owners).toEqual([]);
    expect(preview.body.status.credits_required).toBe(res.body.owners.length);
  });
});

describe('a merge', () => {
  it('answers the merged id as the owner it was merged into, never a 404', async () => {
    const person = { firstName: 'QUILLON', lastName: 'ZARDOVIC', fullName: 'QUILLON ZARDOVIC', type: 'Individual' };
    const at = (line1: string) => ({ line1, city: 'SACRAMENTO', state: 'CA', zip: '95814' });
    const a = makeProperty({ apn: 'Z-1', line1: '1 MERGE ST', owner1: person, mailing: at('10 FIRST ST') });
    const b = makeProperty({ apn: 'Z-2', line1: '2 MERGE ST', owner1: person, mailing: at('20 SECOND ST') });
    const [idA, idB] = await insertProperties(pool, [a, b], 'merge-test');
    const ownerOf = async (pid: number) =>
      Number(
        (await pool.query('SELECT owner_id FROM records.owner_mentions WHERE property_id = $1 AND seq = 1', [pid]))
          .rows[0].owner_id,
      );
    const [older, younger] = [await ownerOf(idA!), await ownerOf(idB!)];
    // Same name, different mailing addresses: two owners.
    expect(older).not.toBe(younger);
    expect(older).toBeLessThan(younger);
    // Parcel A's owner is now mailed where parcel B's is: the evidence joins them.
    await rewriteProperties(pool, [idA!], [{ ...a, mailing: at('20 SECOND ST') }], 'merge-test');
    expect(await ownerOf(idA!)).toBe(older);
    expect(await ownerOf(idB!)).toBe(older);
    const detail = await api.get(`/api/v1/owner/detail?id=${younger}`);
    expect(detail.status).toBe(200);
    expect(detail.body.owner.id).toBe(older);
    expect(detail.body.owner.parcelCount).toBe(2);
    expect(detail.body.owner.mailingAddresses).toEqual(['20 SECOND ST, SACRAMENTO, CA 95814']);
    const parcels = await api.get(`/api/v1/property/owner?ownerId=${younger}`);
    expect(parcels.body.property.map((r: Rec) => r.identifier.Id).sort()).toEqual([idA, idB].sort());
    const unknown = await api.get('/api/v1/owner/detail?id=999999999');
    expect(unknown.status).toBe(404);
  });
});
