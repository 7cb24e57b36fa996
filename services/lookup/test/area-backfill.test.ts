// A store that held records before area search (ingest migration 0011) gets their locations from the online rekey
// pass, which reads every body again: until it is done, area search answers 503 (nothing charged), not an
// incomplete page; after it, the columns are exactly what a load writes and area search answers.
import { describe, expect, it } from 'vitest';
import { ErrorResponse, PropertyResponse } from '@pra/core/contracts';
import { rekeyAddresses } from '@pra/ingest/migrate';
import { insertProperties, makeProperty, uniqueStreet } from '@pra/ingest/testing';
import { useOwnDatabase } from './area-harness.js';
import { useLookupApp } from './lookup-harness.js';

const db = useOwnDatabase('pra_area_fill');
const lookup = useLookupApp(undefined, () => db.pool);

const columns = async () =>
  (await db.pool.query('SELECT id, location::text AS location, proptype FROM records.properties ORDER BY id')).rows;

describe('filling the locations of an existing store', () => {
  it('answers 503 until the rekey pass fills them, then the columns a load writes, and area search', async () => {
    const street = uniqueStreet();
    const items = Array.from({ length: 30 }, (_, i) =>
      makeProperty({
        line1: `${i + 1} ${street} ST`,
        latitude: i < 25 ? 38.5 + i * 0.001 : null,
        longitude: i < 25 ? -121.5 : null,
        proptype: i % 2 ? 'Condominium' : 'SFR',
      }),
    );
    await insertProperties(db.pool, items);
    const loaded = await columns();
    expect(loaded.filter((r) => r.location !== null)).toHaveLength(25);
    expect(new Set(loaded.map((r) => r.proptype))).toEqual(new Set(['SFR', 'CONDOMINIUM']));
    // As a store migrated to 0011 over records stored before it: no columns, not filled.
    await db.pool.query('UPDATE records.properties SET location = NULL, proptype = NULL');
    await db.pool.query('UPDATE records.dataset_stats SET locations_filled = false');

    const a = await lookup.billing.fundedAccount(100);
    const headers = { authorization: `Bearer ${a.key}` };
    const path = '/api/v1/property/radius?latitude=38.51&longitude=-121.5&radius=5';
    const refused = await lookup.app.get(path, headers);
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('60');
    expect(ErrorResponse.parse(refused.body).status.msg).toMatch(/locations of the stored records are being filled/);
    expect(await lookup.billing.meter.balance(a.accountId)).toBe(100);

    const lines: string[] = [];
    await rekeyAddresses(db.pool, (l) => lines.push(l), { batchSize: 7 });
    expect(lines.join('\n')).toMatch(/locations: done, 30 records filled/);
    expect(await columns()).toEqual(loaded);
    const flag = await db.pool.query('SELECT locations_filled FROM records.dataset_stats');
    expect(flag.rows[0].locations_filled).toBe(true);

    const res = await lookup.app.get(`${path}&pagesize=100`, headers);
    expect(res.status).toBe(200);
    const body = PropertyResponse.parse(res.body);
    expect(body.status.total).toBe(25);
    expect(body.property[0]!.location.distance).toBe(0);
    // A second pass has nothing to do.
    expect(await rekeyAddresses(db.pool)).toBe(0);
  });
});
