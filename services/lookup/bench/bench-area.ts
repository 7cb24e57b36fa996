// npm run bench:area [-- --records 300000 --dense 200000 --queries 400 --concurrency 4]
// Area search (issue 27) on the product's engine, PostgreSQL's core `point` + GiST (ingest migration 0011, the SQL of
// data/area-queries.ts), and, when the server has the `postgis` extension, the same searches on a PostGIS geography
// (radius) and geometry (box, polygon) GiST index over the same records, in the same run: page 1 of 25 with its
// count and bodies, as the endpoint reads it. Records: `--records` generated nationwide (seed 1) plus `--dense`
// generated in New York state only (seed 2), loaded once into property_records_area_bench_<records>_<dense>; the
// centres are records drawn around the densest 0.1-degree cell (New York City), so "5 miles in a dense ZIP" is what
// it says. Figures: queries/s with `--concurrency` clients, p50 and p99 in ms, and the mean matches per search.
import { cpus, totalmem } from 'node:os';
import { parseArgs } from 'node:util';
import { boxAround, MILES_PER_DEGREE } from '@pra/core/contracts';
import { DEFAULT_DATABASE_URL } from '@pra/core/config';
import { createPool, ensureDatabase, type Pool, withDatabase } from '@pra/platform';
import { loadGenerated } from '@pra/ingest/generate';
import { importSample, propertyCount } from '@pra/ingest/load';
import { migrateRecords } from '@pra/ingest/migrate';
import { type AreaShape, AreaStore } from '../src/data/area-queries.js';

const { values } = parseArgs({
  options: {
    records: { type: 'string', default: '300000' },
    dense: { type: 'string', default: '200000' },
    queries: { type: 'string', default: '400' },
    concurrency: { type: 'string', default: '4' },
  },
});
const records = Number(values.records);
const dense = Number(values.dense);
const queries = Number(values.queries);
const concurrency = Number(values.concurrency);
const dbUrl = withDatabase(
  process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL,
  `property_records_area_bench_${records}_${dense}`,
);

async function prepareData(pool: Pool): Promise<void> {
  await migrateRecords(pool);
  const have = await propertyCount(pool);
  if (have >= records + dense) return;
  console.error(`loading ${records + dense} records into ${new URL(dbUrl).pathname.slice(1)} (once)`);
  if (have === 0) await importSample(pool, 'dcTracts');
  const national = await loadGenerated(pool, { seed: 1, count: records, quiet: true });
  const ny = await loadGenerated(pool, { seed: 2, count: dense, states: ['NY'], quiet: true });
  console.error(`ingest: ${national.rows} + ${ny.rows} records in ${(national.seconds + ny.seconds).toFixed(1)} s`);
  await pool.query('VACUUM ANALYZE records.properties');
}

interface Centre {
  lat: number;
  lon: number;
}

/** Records around the densest 0.1-degree cell, as search centres. */
async function denseCentres(pool: Pool): Promise<{ centres: Centre[]; cell: string }> {
  const { rows: cell } = await pool.query<{ lat: number; lon: number; n: number }>(
    `SELECT round(location[1]::numeric, 1)::float8 AS lat, round(location[0]::numeric, 1)::float8 AS lon,
            count(*)::int AS n FROM records.properties WHERE location IS NOT NULL GROUP BY 1, 2 ORDER BY 3 DESC LIMIT 1`,
  );
  const c = cell[0]!;
  await pool.query('SELECT setseed(0.27)');
  const { rows } = await pool.query<Centre>(
    `SELECT location[1] AS lat, location[0] AS lon FROM records.properties
      WHERE location <@ box(point($1 - 0.05, $2 - 0.05), point($1 + 0.05, $2 + 0.05)) ORDER BY random() LIMIT $3`,
    [c.lon, c.lat, queries],
  );
  return { centres: rows, cell: `${c.lat},${c.lon} (${c.n} records in the cell)` };
}

/** A box of `miles` a side around a centre, and a hexagon of `miles` radius. */
const square = (c: Centre, miles: number) => {
  const b = boxAround(c.lat, c.lon, miles / 2);
  return b;
};
const hexagon = (c: Centre, miles: number): [number, number][] => {
  const ring = Array.from({ length: 6 }, (_, i) => {
    const a = (i * Math.PI) / 3;
    const lat = c.lat + (miles / MILES_PER_DEGREE) * Math.sin(a);
    const lon = c.lon + (miles / (MILES_PER_DEGREE * Math.cos((c.lat * Math.PI) / 180))) * Math.cos(a);
    return [+lon.toFixed(6), +lat.toFixed(6)] as [number, number];
  });
  return [...ring, ring[0]!];
};

interface Figure {
  name: string;
  qps: number;
  p50: number;
  p99: number;
  matches: number;
}

/** Runs one search per centre with `concurrency` clients; latency of each, throughput over the whole. */
async function measure(name: string, centres: Centre[], search: (c: Centre) => Promise<number>): Promise<Figure> {
  for (const c of centres.slice(0, 20)) await search(c); // warm-up: plans and pages
  const times: number[] = [];
  let matches = 0;
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < centres.length) {
        const c = centres[next++]!;
        const t = performance.now();
        const found = await search(c); // not `matches += await ...`: that reads `matches` before the await
        matches += found;
        times.push(performance.now() - t);
      }
    }),
  );
  const wall = (performance.now() - started) / 1000;
  times.sort((a, b) => a - b);
  const pct = (p: number) => times[Math.min(times.length - 1, Math.floor((p / 100) * times.length))]!;
  return { name, qps: centres.length / wall, p50: pct(50), p99: pct(99), matches: matches / centres.length };
}

const PAGE = 25;

/** The product's searches (data/area-queries.ts). */
function coreSearches(store: AreaStore) {
  const run = async (shape: AreaShape, types: string[] | null = null) =>
    (await store.search(shape, types, PAGE, 0)).total;
  const radius =
    (miles: number, types: string[] | null = null) =>
    (c: Centre) =>
      run({ kind: 'radius', ...c, miles, box: boxAround(c.lat, c.lon, miles) }, types);
  return {
    'radius 1 mi': radius(1),
    'radius 5 mi': radius(5),
    'radius 5 mi, proptype=SFR': radius(5, ['SFR']),
    'radius 10 mi (the bound)': radius(10),
    'box 5 x 5 mi': (c: Centre) => run({ kind: 'box', ...c, box: square(c, 5) }),
    'polygon (hexagon, 3 mi)': (c: Centre) => run({ kind: 'polygon', ...c, ring: hexagon(c, 3) }),
  };
}

/** The same searches on PostGIS: geography for distances and circles, geometry for box and polygon. */
async function postgisSearches(pool: Pool): Promise<ReturnType<typeof coreSearches> | null> {
  try {
    await pool.query('CREATE EXTENSION IF NOT EXISTS postgis');
  } catch (err) {
    console.error(`postgis: not available in this server (${(err as Error).message}): PostGIS figures skipped`);
    return null;
  }
  const { rows } = await pool.query<{ n: number }>(
    `SELECT (SELECT count(*) FROM pg_tables WHERE schemaname = 'public' AND tablename = 'bench_geo')::int AS n`,
  );
  if (rows[0]!.n === 0) {
    console.error('postgis: building public.bench_geo (geography + geometry, GiST) from the same records (once)');
    await pool.query(`CREATE TABLE public.bench_geo AS
      SELECT id, proptype, ST_SetSRID(ST_MakePoint(location[0], location[1]), 4326) AS geom,
             ST_SetSRID(ST_MakePoint(location[0], location[1]), 4326)::geography AS geog
        FROM records.properties WHERE location IS NOT NULL`);
    await pool.query('CREATE INDEX bench_geo_geog ON public.bench_geo USING gist (geog) INCLUDE (id, proptype)');
    await pool.query('CREATE INDEX bench_geo_geom ON public.bench_geo USING gist (geom) INCLUDE (id, proptype)');
    await pool.query('VACUUM ANALYZE public.bench_geo');
  }
  const page = (where: string, next: number) => `WITH hit AS MATERIALIZED (
      SELECT g.id, ST_Distance(g.geog, ST_SetSRID(ST_MakePoint($2, $1), 4326)::geography) / 1609.344 AS dist
        FROM public.bench_geo g WHERE ${where} AND ($${next}::text[] IS NULL OR g.proptype = ANY($${next}::text[]))),
    page AS (SELECT id, dist FROM hit ORDER BY dist, id LIMIT ${PAGE})
    SELECT r.body, r.demo, c.total FROM (SELECT count(*)::int AS total FROM hit) c
    LEFT JOIN (SELECT p.id, p.body, t.body AS demo, page.dist FROM page JOIN records.properties p ON p.id = page.id
                 LEFT JOIN records.tract_profiles t ON t.tract = p.census_tract) r ON true
    ORDER BY r.dist, r.id`;
  const RADIUS = page('ST_DWithin(g.geog, ST_SetSRID(ST_MakePoint($2, $1), 4326)::geography, $3)', 4);
  const BOX = page('g.geom && ST_MakeEnvelope($3, $4, $5, $6, 4326)', 7);
  const POLYGON = page('ST_Contains(ST_SetSRID(ST_GeomFromGeoJSON($3), 4326), g.geom)', 4);
  const total = async (name: string, text: string, values: unknown[]) =>
    (await pool.query<{ total: number }>({ name, text, values })).rows[0]!.total;
  const radius =
    (miles: number, types: string[] | null = null) =>
    (c: Centre) =>
      total('pg_radius', RADIUS, [c.lat, c.lon, miles * 1609.344, types]);
  return {
    'radius 1 mi': radius(1),
    'radius 5 mi': radius(5),
    'radius 5 mi, proptype=SFR': radius(5, ['SFR']),
    'radius 10 mi (the bound)': radius(10),
    'box 5 x 5 mi': (c: Centre) => {
      const b = square(c, 5);
      return total('pg_box', BOX, [c.lat, c.lon, b.minLon, b.minLat, b.maxLon, b.maxLat, null]);
    },
    'polygon (hexagon, 3 mi)': (c: Centre) =>
      total('pg_polygon', POLYGON, [
        c.lat,
        c.lon,
        JSON.stringify({ type: 'Polygon', coordinates: [hexagon(c, 3)] }),
        null,
      ]),
  };
}

const row = (engine: string, f: Figure) =>
  `${engine.padEnd(22)} ${f.name.padEnd(28)} ${f.qps.toFixed(0).padStart(7)} ${f.p50.toFixed(1).padStart(8)} ` +
  `${f.p99.toFixed(1).padStart(8)} ${f.matches.toFixed(0).padStart(9)}`;

async function main() {
  await ensureDatabase(dbUrl);
  const pool = createPool(dbUrl, concurrency + 2, 'bench-area');
  try {
    await prepareData(pool);
    const { centres, cell } = await denseCentres(pool);
    const count = await propertyCount(pool);
    const server = (await pool.query<{ v: string }>("SELECT current_setting('server_version') AS v")).rows[0]!.v;
    console.log(
      `bench:area: ${count.toLocaleString('en-US')} records (${records.toLocaleString('en-US')} nationwide + ` +
        `${dense.toLocaleString('en-US')} in NY); ${centres.length} centres around ${cell}; ${concurrency} clients; ` +
        `PostgreSQL ${server}; ${cpus().length} x ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GB`,
    );
    console.log(`${'engine'.padEnd(22)} ${'search (page 1 of 25)'.padEnd(28)}   q/s   p50 ms   p99 ms   matches`);
    const engines: [string, ReturnType<typeof coreSearches> | null][] = [
      ['core point + GiST', coreSearches(new AreaStore(pool))],
      ['PostGIS geography', await postgisSearches(pool)],
    ];
    for (const [engine, searches] of engines) {
      if (!searches) continue;
      for (const [name, search] of Object.entries(searches))
        console.log(row(engine, await measure(name, centres, search)));
    }
  } finally {
    await pool.end();
  }
}

main().catch((err: Error) => {
  console.error(`bench:area failed: ${err.stack ?? err.message}`);
  process.exit(1);
});
