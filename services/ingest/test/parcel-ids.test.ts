// Parcel ids come from a registry (records.parcels), collision-free by construction (issue 26): two parcels never
// share one, the same parcel keeps its id across reloads and sources, and concurrent registrations agree.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { apnKey, parseStreetLine } from '@pra/core/address';
import { createPool, type Pool, type PoolClient } from '@pra/platform';
import type {} from '@pra/platform/testing';
import { registerParcels } from '../src/data/parcels.js';
import { removeSource } from '../src/data/remove-source.js';
import { hash32 } from '../src/generator/random.js';
import { importCsv } from '../src/importer/import-csv.js';
import { loadMapping } from '../src/importer/mapping.js';
import { uniqueStreet } from './make-property.js';
import { oldParcelIdOf } from './old-parcel-id.js';
import { recordsOf } from './stored-records.js';
import { useTempFiles } from './temp-files.js';

let pool: Pool;
beforeAll(() => {
  pool = createPool(inject('databaseUrl'), 4);
});
afterAll(async () => {
  await pool.end();
});
const { write } = useTempFiles('pra-parcels');
const tag = () =>
  uniqueStreet()
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');
const HEADER = 'PARCEL,SITUS,ZIP,PRICE,DATE';
const mappingOf = (name: string, byApn = true) =>
  loadMapping(
    write(
      `${name}.json`,
      JSON.stringify({
        name,
        kind: 'property',
        fields: {
          ...(byApn ? { apn: { column: 'PARCEL', required: true } } : {}),
          line1: { column: 'SITUS', format: 'upper', required: true },
          zip: { column: 'ZIP', format: 'zip5', required: true },
          salePrice: { column: 'PRICE', format: 'integer' },
          saleDate: { column: 'DATE', format: 'date-iso' },
        },
      }),
    ),
  );
const parcelIds = async (source: string) =>
  Object.fromEntries((await recordsOf(pool, source)).map((r) => [r.identifier.apn, r.identifier.parcelId]));

// Two APNs of Sacramento County (06067, ZIP 95814) whose 48-bit hash ids were one: found by the birthday search
// in old-parcel-id.ts (about 2^24 tries, 25 s).
const COLLIDING: [string, string] = ['CCGXBO', 'CHWIE0'];

/**
 * Waits until the registration on backend `pid` has run into the rows the held transaction (backend `holder`)
 * inserted, so that what the test does next (commit, roll back) happens while it waits, however slow the machine.
 */
async function blockedOnHeldRows(pid: number, holder: number): Promise<void> {
  for (let tries = 0; tries < 500; tries++) {
    const { rows } = await pool.query<{ n: number }>(
      'SELECT count(*)::int AS n WHERE $2::int = ANY (pg_blocking_pids($1::int))',
      [pid, holder],
    );
    if (rows[0]!.n > 0) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('no registration waited on the held rows within 10 s');
}

/**
 * Runs `race` with two connections: `held`, in a transaction the test commits or rolls back, and `other`, whose
 * registration is to run into the rows `held` inserted (`blocked()` waits until it has). Both are ended and released
 * whatever happens, so that no later test queues behind their locks.
 */
async function withRace(
  race: (c: { held: PoolClient; other: PoolClient; blocked: () => Promise<void> }) => Promise<void>,
): Promise<void> {
  const held = await pool.connect();
  const other = await pool.connect();
  try {
    const pid = async (c: PoolClient) =>
      (await c.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
    const [heldPid, otherPid] = [await pid(held), await pid(other)];
    await held.query('BEGIN');
    await race({ held, other, blocked: () => blockedOnHeldRows(otherPid, heldPid) });
  } finally {
    await held.query('ROLLBACK').catch(() => {});
    held.release();
    other.release(true);
  }
}

describe('parcel ids', () => {
  it('differ for two parcels whose old 48-bit hash ids were the same', async () => {
    expect(oldParcelIdOf('06067', COLLIDING[0])).toBe(oldParcelIdOf('06067', COLLIDING[1]));
    const street = uniqueStreet();
    const mapping = mappingOf(`parcels-${tag()}`);
    const file = write(
      'two.csv',
      [HEADER, `${COLLIDING[0]},1 ${street} ST,95814,,`, `${COLLIDING[1]},2 ${street} ST,95814,,`].join('\n'),
    );
    expect(await importCsv(pool, mapping, file)).toMatchObject({ added: 2, skipped: 0 });
    const ids = await parcelIds(`import:${mapping.name}`);
    expect(Number.isSafeInteger(ids[COLLIDING[0]])).toBe(true);
    expect(ids[COLLIDING[0]]).not.toBe(ids[COLLIDING[1]]);
  });

  it('stay with the parcel: across a re-import that rewrites it, another source, and a removal', async () => {
    const street = uniqueStreet();
    const apn = `K-${tag()}`;
    const mapping = mappingOf(`parcels-${tag()}`);
    const source = `import:${mapping.name}`;
    await importCsv(
      pool,
      mapping,
      write('a.csv', [HEADER, `${apn},1 ${street} ST,95814,100000,2020-01-02`].join('\n')),
    );
    const first = (await parcelIds(source))[apn];
    const changed = write('b.csv', [HEADER, `${apn},1 ${street} ST,95814,120000,2021-03-04`].join('\n'));
    expect(await importCsv(pool, mapping, changed)).toMatchObject({ updated: 1 });
    expect((await parcelIds(source))[apn]).toBe(first);
    // Another county file of the same parcel (the same county, the same APN however written).
    const other = mappingOf(`parcels-${tag()}`);
    await importCsv(pool, other, write('c.csv', [HEADER, `${apn.toLowerCase()},1 ${street} ST,95814,,`].join('\n')));
    expect(Object.values(await parcelIds(`import:${other.name}`))).toEqual([first]);
    // The registry outlives the records: removed and imported again, the parcel has its id.
    await removeSource(pool, source);
    await importCsv(pool, mapping, changed);
    expect((await parcelIds(source))[apn]).toBe(first);
  });

  it('are registered by address for a file without APNs: two addresses never share one', async () => {
    // The APN such a file's records show is a 32-bit hash of the address: find two house numbers of one street
    // that share it (a birthday search, some 10^5 tries), as two parcels shared the id made from it.
    const street = uniqueStreet();
    // The line key is the house number and the street's key (checked on the pair found).
    const streetKey = parseStreetLine(`1 ${street} ST`).streetKey;
    const seen = new Map<number, number>();
    let pair: [number, number] | null = null;
    for (let n = 1; pair === null && n < 2_000_000; n++) {
      const h = hash32(`06067|${n} ${streetKey}|`);
      const prior = seen.get(h);
      if (prior !== undefined) pair = [prior, n];
      seen.set(h, n);
    }
    for (const n of pair!) expect(parseStreetLine(`${n} ${street} ST`).lineKey).toBe(`${n} ${streetKey}`);
    const mapping = mappingOf(`parcels-${tag()}`, false);
    const rows = [...pair!, 1, 2, 3].map((n) => `,${n} ${street} ST,95814,,`);
    expect(await importCsv(pool, mapping, write('addr.csv', [HEADER, ...rows].join('\n')))).toMatchObject({ added: 5 });
    const records = await recordsOf(pool, `import:${mapping.name}`);
    const [a, b] = pair!.map((n) => records.find((r) => r.address.line1 === `${n} ${street} ST`));
    expect(a.identifier.apn).toBe(b.identifier.apn);
    expect(new Set(records.map((r) => r.identifier.parcelId)).size).toBe(5);
  });

  it('of a row without its APN, in a file that has APNs, are not those of the real APN its made-up one equals', async () => {
    // Such a row shows an APN made from its address (a 32-bit hash): another source's real parcel may have that APN.
    const street = uniqueStreet();
    const line = parseStreetLine(`7 ${street} ST`);
    const derived = String(hash32(`06067|${line.lineKey}|${line.unitKey}`)).padStart(10, '0');
    const real = mappingOf(`parcels-${tag()}`);
    await importCsv(pool, real, write('real.csv', [HEADER, `${derived},9 OTHER ${street} AVE,95814,,`].join('\n')));
    const optional = loadMapping(
      write(
        'optional.json',
        JSON.stringify({
          name: `parcels-${tag()}`,
          kind: 'property',
          fields: {
            apn: { column: 'PARCEL' },
            line1: { column: 'SITUS', format: 'upper', required: true },
            zip: { column: 'ZIP', format: 'zip5', required: true },
          },
        }),
      ),
    );
    await importCsv(pool, optional, write('none.csv', [HEADER, `,7 ${street} ST,95814,,`].join('\n')));
    const [mine] = await recordsOf(pool, `import:${optional.name}`);
    const [theirs] = await recordsOf(pool, `import:${real.name}`);
    expect(apnKey(mine.identifier.apn)).toBe(apnKey(theirs.identifier.apn));
    expect(mine.identifier.parcelId).not.toBe(theirs.identifier.parcelId);
  });

  it('never equal the hashed id of a record rendered before the registry: they start above 2^48', async () => {
    const [id] = await registerParcels(pool, [{ fips: '06067', key: `ABOVE${tag()}`.toUpperCase() }]);
    expect(id).toBeGreaterThanOrEqual(2 ** 48);
    expect(Number.isSafeInteger(id)).toBe(true);
  });

  it('registered by two importers at once are one id per parcel', async () => {
    const refs = Array.from({ length: 200 }, (_, i) => ({ fips: '06067', key: `RACE${tag()}${i}`.toUpperCase() }));
    // One registration holds its rows uncommitted while the other runs into them, then commits.
    await withRace(async ({ held, other, blocked }) => {
      const first = await registerParcels(held, refs.slice(0, 120));
      const second = registerParcels(other, [...refs].reverse());
      await blocked();
      await held.query('COMMIT');
      const got = (await second).reverse();
      expect(got.slice(0, 120)).toEqual(first);
      expect(new Set(got).size).toBe(refs.length);
    });
    // Many at once, overlapping, in any order: each parcel one id, and the same id for every asker.
    const more = Array.from({ length: 300 }, (_, i) => ({ fips: '06001', key: `MANY${tag()}${i}`.toUpperCase() }));
    const asks = Array.from({ length: 8 }, (_, k) => more.filter((_, i) => (i + k) % 3 !== 0));
    const answers = await Promise.all(
      asks.map((a) => registerParcels(pool, asks.indexOf(a) % 2 ? a : [...a].reverse())),
    );
    const idOf = new Map<string, number>();
    answers.forEach((ids, k) => {
      const asked = k % 2 ? asks[k]! : [...asks[k]!].reverse();
      asked.forEach((ref, i) => {
        const seen = idOf.get(ref.key);
        if (seen !== undefined) expect(ids[i]).toBe(seen);
        idOf.set(ref.key, ids[i]!);
      });
    });
    expect(new Set(idOf.values()).size).toBe(idOf.size);
  });

  it('of a registration that ran into another one rolled back are the ids it inserted itself, and stay', async () => {
    const refs = Array.from({ length: 50 }, (_, i) => ({ fips: '06067', key: `UNDO${tag()}${i}`.toUpperCase() }));
    await withRace(async ({ held, other, blocked }) => {
      const undone = await registerParcels(held, refs.slice(10, 30));
      // Waits on the held rows, which are then rolled back: its plain insert goes through, no conflict.
      const second = registerParcels(other, refs);
      await blocked();
      await held.query('ROLLBACK');
      const got = await second;
      expect(new Set(got).size).toBe(refs.length);
      for (const id of undone) expect(got).not.toContain(id);
      // Committed: asked again, the same ids, and every one of them in the registry.
      expect(await registerParcels(pool, refs)).toEqual(got);
      const { rows } = await pool.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM records.parcels WHERE parcel_id = ANY($1)',
        [got],
      );
      expect(rows[0]!.n).toBe(refs.length);
    });
  });

  it('answered after a conflict are committed ids only: none of the rolled-back first try', async () => {
    // The second registration inserts its first parcels, then runs into a held (uncommitted) one that then commits:
    // its plain insert fails and is rolled back, the ids it drew are lost, and the batch takes the conflict-tolerant
    // way. Every id it answers must be a committed parcel's.
    const refs = Array.from({ length: 60 }, (_, i) => ({
      fips: '06067',
      key: `LATE${tag()}${String(i).padStart(2, '0')}`.toUpperCase(),
    }));
    await withRace(async ({ held, other, blocked }) => {
      // The last in key order: the other's insert, in key order, has inserted all the others when it meets it.
      const [heldId] = await registerParcels(held, refs.slice(-1));
      // The function itself, every row it answers (registerParcels keeps one a parcel).
      const second = other.query<{ parcel_key: string; parcel_id: string }>(
        'SELECT parcel_key, parcel_id FROM records.register_parcels($1::text[], $2::text[])',
        [refs.map((r) => r.fips), refs.map((r) => r.key)],
      );
      await blocked();
      await held.query('COMMIT');
      const answered = (await second).rows.map((r) => [r.parcel_key, Number(r.parcel_id)] as const);
      const { rows } = await pool.query<{ parcel_key: string; parcel_id: string }>(
        'SELECT parcel_key, parcel_id FROM records.parcels WHERE fips = $1 AND parcel_key = ANY($2)',
        ['06067', refs.map((r) => r.key)],
      );
      const committed = new Map(rows.map((r) => [r.parcel_key, Number(r.parcel_id)]));
      expect(committed.size).toBe(refs.length);
      expect(committed.get(refs.at(-1)!.key)).toBe(heldId);
      for (const [key, id] of answered) expect(id, key).toBe(committed.get(key));
      expect(new Set(answered.map(([key]) => key)).size).toBe(refs.length);
    });
  });

  it('of generated records are the registry ids of their county and APN', async () => {
    // The run's fixture was generated (global setup, seed 7) through the bulk generator.
    const { rows } = await pool.query<{ fips: string; apn: string; parcel_id: string }>(
      `SELECT p.fips, p.apn, r.parcel_id FROM records.properties p
         JOIN records.parcels r ON r.fips = p.fips AND r.parcel_key = p.apn_key
        WHERE p.source = 'synthetic:7' ORDER BY p.id LIMIT 500`,
    );
    expect(rows.length).toBe(500);
    const stored = Object.fromEntries(
      (await recordsOf(pool, 'synthetic:7')).map((r) => [`${r.identifier.fips}:${r.identifier.apn}`, r.identifier]),
    );
    for (const r of rows) {
      expect(stored[`${r.fips}:${r.apn}`]?.parcelId).toBe(Number(r.parcel_id));
    }
  });
});
