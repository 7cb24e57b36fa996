// What the area search tests (issue 27) share: a database of the test file's own (so a brute-force scan of the points
// it loads is the whole truth), seeded points, and the brute-force answers a search is checked against. The app on
// that database: useLookupApp(credits, () => db.pool) (lookup-harness.ts).
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, inject } from 'vitest';
import { haversineMiles } from '@pra/core/contracts';
import { createPool, dropDatabase, ensureDatabase, type Pool, withDatabase } from '@pra/platform';
import { migrateBilling } from '@pra/account-billing/migrate';
import { migrateRecords } from '@pra/ingest/migrate';
import { insertProperties, makeProperty } from '@pra/ingest/testing';

/** A loaded record: its id, where it is, its property type. */
export interface AreaPoint {
  id: number;
  lat: number;
  lon: number;
  type: string;
}

/** The property types loaded points take in turn. */
export const AREA_TYPES = ['SFR', 'CONDOMINIUM', 'APARTMENT', 'DUPLEX'];

/** A seeded generator (mulberry32) of numbers in [0, 1): the same points every run. */
export function seededRandom(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A database of this test file's own (`<prefix>_<random hex>`), records and billing migrated before the file's other
 * hooks, dropped after them. `pool` is read in hooks and tests (it exists once the file's first hook ran).
 */
export function useOwnDatabase(prefix: string): { readonly pool: Pool } {
  const url = withDatabase(inject('databaseUrl'), `${prefix}_${randomBytes(4).toString('hex')}`);
  let pool: Pool | undefined;
  beforeAll(async () => {
    await ensureDatabase(url);
    pool = createPool(url, 4, prefix);
    await migrateRecords(pool);
    await migrateBilling(pool);
  });
  afterAll(async () => {
    await pool?.end();
    await dropDatabase(url);
  });
  return {
    get pool() {
      if (!pool) throw new Error(`the database ${prefix} is not created yet: read its pool in a hook or a test`);
      return pool;
    },
  };
}

/** One record per spot (`<n> <street> ST`, of AREA_TYPES in turn), inserted in order: the points, with their ids. */
export async function loadPoints(
  pool: Pool,
  spots: readonly { lat: number; lon: number }[],
  street: string,
): Promise<AreaPoint[]> {
  const typeOf = (i: number) => AREA_TYPES[i % AREA_TYPES.length]!;
  const ids = await insertProperties(
    pool,
    spots.map((s, i) =>
      makeProperty({ line1: `${i + 1} ${street} ST`, latitude: s.lat, longitude: s.lon, proptype: typeOf(i) }),
    ),
  );
  return spots.map((s, i) => ({ id: ids[i]!, lat: s.lat, lon: s.lon, type: typeOf(i) }));
}

/** What a brute-force scan says: the points that `match`, nearest (lat, lon) first, ties by id, each with its miles `d`. */
export function nearestFirst(points: readonly AreaPoint[], match: (p: AreaPoint) => boolean, lat: number, lon: number) {
  return points
    .filter(match)
    .map((p) => ({ ...p, d: haversineMiles(lat, lon, p.lat, p.lon) }))
    .sort((a, b) => a.d - b.d || a.id - b.id);
}

/** Whether a point is inside a closed ring of [lon, lat] by ray casting, as PostgreSQL's `<@ polygon` decides (away from the edges). */
export const insideRing =
  (ring: readonly (readonly [number, number])[]) =>
  (p: { lat: number; lon: number }): boolean => {
    let inside = false;
    for (let i = 0, j = ring.length - 2; i < ring.length - 1; j = i++) {
      const [xi, yi] = ring[i]!;
      const [xj, yj] = ring[j]!;
      if (yi > p.lat !== yj > p.lat && p.lon < ((xj - xi) * (p.lat - yi)) / (yj - yi) + xi) inside = !inside;
    }
    return inside;
  };
