// npm run bench:area [-- --records 300000 --dense 200000 --spot 200000 --queries 400 --spot-queries 100 --concurrency 4]
// Area search (issue 27) on the product's engine, PostgreSQL's core `point` + GiST (ingest migration 0011, the SQL of
// data/area-queries.ts), and, when the server has the `postgis` extension, the NYC searches on a PostGIS geography
// (radius) and geometry (box, polygon) GiST index (public.bench_geo: built once, from the records stored then, so
// drop it after changing what is loaded), in the same run: page 1 of 25 with its count and bodies, as the endpoint
// reads it. Records: `--records` generated nationwide (seed 1) plus `--dense`
// generated in New York state only (seed 2), loaded once into property_records_area_bench_<records>_<dense>; the
// centres are records drawn around the densest 0.1-degree cell (New York City), so "5 miles in a dense ZIP" is what
// it says. Figures: queries/s with `--concurrency` clients, p50 and p99 in ms, and the mean matches per search.
// Past the count cap (AREA_COUNT_CAP, 10,000): `--spot` more records spread evenly over a 10-mile disk around SPOT
// (central Nevada, where the generated records are few), Manhattan's density or more (5 miles hold a quarter of them:
// 50,000 by default). They are copies of stored records (bodies as they are, new ids and locations), inserted once by
// one INSERT ... SELECT. Each search there runs twice: the product's (bounded) and, as the baseline, the statement
// before the cap (BEFORE_CAP below: every match's distance computed, counted and sorted), on `--spot-queries`
// centres; the NYC searches run both too. `via` is how often the bounded search took each way (area-queries.ts).
import { cpus, loadavg, totalmem } from 'node:os';
import { parseArgs } from 'node:util';
import { boxAround, MILES_PER_DEGREE } from '@pra/core/contracts';
import { DEFAULT_DATABASE_URL } from '@pra/core/config';
import { createPool, ensureDatabase, type Pool, withDatabase } from '@pra/platform';
import { loadGenerated } from '@pra/ingest/generate';
import { importSample, propertyCount, reserveIds } from '@pra/ingest/load';
import { migrateRecords } from '@pra/ingest/migrate';
import {
  AREA_COUNT_CAP,
  type AreaRows,
  type AreaShape,
  AreaStore,
} from '../../services/lookup/src/data/area-queries.js';
import { useLocalStack } from '@pra/platform/local-stack';

// The PostgreSQL and Redis npm start ran with (.data/local-stack.json), unless DATABASE_URL / REDIS_URL say otherwise.
useLocalStack('bench:area');

const { values } = parseArgs({
  options: {
    records: { type: 'string', default: '300000' },
    dense: { type: 'string', default: '200000' },
    spot: { type: 'string', default: '200000' },
    queries: { type: 'string', default: '400' },
    'spot-queries': { type: 'string', default: '100' },
    concurrency: { type: 'string', default: '4' },
  },
});
const records = Number(values.records);
const dense = Number(values.dense);
const spot = Number(values.spot);
const queries = Number(values.queries);
const spotQueries = Number(values['spot-queries']);
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

/** Where the `--spot` records are: 10 miles around it. */
const SPOT: Centre = { lat: 39.5, lon: -116 };
const SPOT_MILES = 10;
const spotBox = boxAround(SPOT.lat, SPOT.lon, SPOT_MILES + 0.1);

/** Adds the `--spot` records (once, or the missing ones): copies of stored ones, spread evenly over the disk. */
async function prepareSpot(pool: Pool): Promise<number> {
  const b = spotBox;
  const { rows } = await pool.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM records.properties WHERE location <@ box(point($1, $2), point($3, $4))',
    [b.minLon, b.minLat, b.maxLon, b.maxLat],
  );
  const have = rows[0]!.n;
  if (have >= spot) return have;
  console.error(`spot: adding ${spot - have} records within ${SPOT_MILES} miles of ${SPOT.lat},${SPOT.lon} (once)`);
  const t = performance.now();
  await pool.query('SELECT setseed(0.5)');
  // The copies' ids drawn as any load draws them (under the sequence's lock), so a later load's ids are new.
  const first = await reserveIds(pool, spot - have);
  // r = R sqrt(u), angle 2 pi v: even over the disk. Longitude degrees are cos(lat) shorter.
  await pool.query(
    `INSERT INTO records.properties (id, apn, apn_key, tax_parcel_key, fips, state, county_key, city_key, zip, line_key,
       street_key, unit_key, census_tract, source, last_modified, loose_key, street_type, body, location, proptype)
     SELECT $6::bigint + row_number() OVER (ORDER BY s.id) - 1, s.apn, s.apn_key, s.tax_parcel_key, s.fips, s.state,
            s.county_key, s.city_key, s.zip, s.line_key, s.street_key, s.unit_key, s.census_tract, s.source, s.last_modified, s.loose_key, s.street_type,
            s.body, point($2 + d.r * cos(d.a) / ($4 * cos(radians($1))), $1 + d.r * sin(d.a) / $4), s.proptype
       FROM (SELECT * FROM records.properties ORDER BY id LIMIT $5) s,
            LATERAL (SELECT $3 * sqrt(random()) AS r, 2 * pi() * random() AS a WHERE s.id IS NOT NULL) d`,
    [SPOT.lat, SPOT.lon, SPOT_MILES, MILES_PER_DEGREE, spot - have, first],
  );
  await pool.query('VACUUM ANALYZE records.properties');
  console.error(`spot: ${((performance.now() - t) / 1000).toFixed(1)} s`);
  return spot;
}

/** Centres within a mile of the spot's centre. */
function spotCentres(): Centre[] {
  let a = 27;
  const rnd = () => {
    a = (a * 1103515245 + 12345) % 2 ** 31;
    return a / 2 ** 31;
  };
  return Array.from({ length: spotQueries }, () => ({
    lat: SPOT.lat + (rnd() - 0.5) / MILES_PER_DEGREE,
    lon: SPOT.lon + (rnd() - 0.5) / (MILES_PER_DEGREE * Math.cos((SPOT.lat * Math.PI) / 180)),
  }));
}

/** Records around the densest 0.1-degree cell (the spot's aside), as search centres. */
async function denseCentres(pool: Pool): Promise<{ centres: Centre[]; cell: string }> {
  const { rows: cell } = await pool.query<{ lat: number; lon: number; n: number }>(
    `SELECT round(location[1]::numeric, 1)::float8 AS lat, round(location[0]::numeric, 1)::float8 AS lon,
            count(*)::int AS n FROM records.properties
      WHERE location IS NOT NULL AND NOT location <@ box(point($1, $2), point($3, $4)) GROUP BY 1, 2 ORDER BY 3 DESC LIMIT 1`,
    [spotBox.minLon, spotBox.minLat, spotBox.maxLon, spotBox.maxLat],
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
const square = (c: Centre, miles: number) => boxAround(c.lat, c.lon, miles / 2);
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
  vias: string;
}

/** What a search reports: its total, and how the bounded one was found. */
type Found = number | { total: number; via: AreaRows['via'] };

/** Runs one search per centre with `concurrency` clients; latency of each, throughput over the whole. */
async function measure(name: string, centres: Centre[], search: (c: Centre) => Promise<Found>): Promise<Figure> {
  for (const c of centres.slice(0, 20)) await search(c); // warm-up: plans and pages
  const times: number[] = [];
  let matches = 0;
  let next = 0;
  const vias = new Map<string, number>();
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < centres.length) {
        const c = centres[next++]!;
        const t = performance.now();
        const found = await search(c); // not `matches += await ...`: that reads `matches` before the await
        matches += typeof found === 'number' ? found : found.total;
        if (typeof found !== 'number') vias.set(found.via, (vias.get(found.via) ?? 0) + 1);
        times.push(performance.now() - t);
      }
    }),
  );
  const wall = (performance.now() - started) / 1000;
  times.sort((a, b) => a - b);
  const pct = (p: number) => times[Math.min(times.length - 1, Math.floor((p / 100) * times.length))]!;
  const via = [...vias].map(([v, n]) => `${v} ${n}`).join(', ');
  return { name, qps: centres.length / wall, p50: pct(50), p99: pct(99), matches: matches / centres.length, vias: via };
}

const PAGE = 25;

type Searches = Record<string, (c: Centre) => Promise<Found>>;

/** The searches of the bench on one engine: `run` answers one shape. */
function searchesOf(run: (shape: AreaShape, types?: string[] | null) => Promise<Found>) {
  const radius =
    (miles: number, types: string[] | null = null) =>
    (c: Centre) =>
      run({ kind: 'radius', ...c, miles, box: boxAround(c.lat, c.lon, miles) }, types);
  return {
    'radius 1 mi': radius(1),
    'radius 5 mi': radius(5),
    'radius 5 mi, proptype=SFR': radius(5, ['SFR']),
    'radius 10 mi (the bound)': radius(10),
    'radius 10 mi, proptype=SFR': radius(10, ['SFR']),
    'box 5 x 5 mi': (c: Centre) => run({ kind: 'box', ...c, box: square(c, 5) }),
    'box 20 x 20 mi': (c: Centre) => run({ kind: 'box', ...c, box: square(c, 19.9) }),
    'polygon (hexagon, 10 mi)': (c: Centre) => run({ kind: 'polygon', ...c, ring: hexagon(c, 9.9) }),
    'polygon (hexagon, 3 mi)': (c: Centre) => run({ kind: 'polygon', ...c, ring: hexagon(c, 3) }),
  };
}

/** The product's searches (data/area-queries.ts): bounded to the cap. */
const coreSearches = (store: AreaStore) =>
  searchesOf(async (shape, types = null) => {
    const { total, via } = await store.search(shape, types, PAGE, 0);
    return { total, via };
  });

/** The radius statement before the cap (commit 951f01c): every match's distance, count and sort. The baseline. */
const DISTANCE = `2 * 3958.7613 * asin(least(1, sqrt(
    sin(radians(p.location[1] - $1) / 2) ^ 2
    + cos(radians($1)) * cos(radians(p.location[1])) * sin(radians(p.location[0] - $2) / 2) ^ 2)))`;
const beforeCap = (where: string, next: number, within = '') => `WITH hit AS MATERIALIZED (
      SELECT id, dist FROM (
        SELECT p.id, ${DISTANCE} AS dist FROM records.properties p
         WHERE ${where} AND ($${next}::text[] IS NULL OR p.proptype = ANY($${next}::text[]))) m
      ${within}),
    page AS (SELECT id, dist FROM hit ORDER BY dist, id LIMIT ${PAGE})
    SELECT r.body, r.demo, c.total FROM (SELECT count(*)::int AS total FROM hit) c
    LEFT JOIN (SELECT p.id, p.body, t.body AS demo, page.dist FROM page
                 JOIN records.properties p ON p.id = page.id
                 LEFT JOIN records.tract_profiles t ON t.tract = p.census_tract) r ON true
    ORDER BY r.dist, r.id`;
const INSIDE_BOX = 'p.location <@ box(point($3, $4), point($5, $6))';
const BEFORE_CAP = {
  radius: beforeCap(INSIDE_BOX, 8, 'WHERE dist <= $7'),
  box: beforeCap(INSIDE_BOX, 7),
  polygon: beforeCap('p.location <@ $3::polygon', 4),
};

/** The same searches with the statement before the cap. */
const baselineSearches = (pool: Pool) =>
  searchesOf(async (shape, types = null) => {
    const c = [shape.lat, shape.lon];
    const box = (b: { minLon: number; minLat: number; maxLon: number; maxLat: number }) => [
      b.minLon,
      b.minLat,
      b.maxLon,
      b.maxLat,
    ];
    const q =
      shape.kind === 'radius'
        ? { name: 'before_radius', text: BEFORE_CAP.radius, values: [...c, ...box(shape.box), shape.miles, types] }
        : shape.kind === 'box'
          ? { name: 'before_box', text: BEFORE_CAP.box, values: [...c, ...box(shape.box), types] }
          : {
              name: 'before_polygon',
              text: BEFORE_CAP.polygon,
              values: [...c, `(${shape.ring.map(([lon, lat]) => `(${lon},${lat})`).join(',')})`, types],
            };
    return (await pool.query<{ total: number }>(q)).rows[0]!.total;
  });

/** Past the cap: the spot's searches. */
const spotSearches = (all: Searches): Searches => ({
  'spot: radius 5 mi': all['radius 5 mi']!,
  'spot: radius 10 mi (bound)': all['radius 10 mi (the bound)']!,
  'spot: radius 10 mi, SFR': (c) => all['radius 10 mi, proptype=SFR']!(c),
  'spot: box 20 x 20 mi': all['box 20 x 20 mi']!,
  'spot: polygon (hex, 10 mi)': all['polygon (hexagon, 10 mi)']!,
});

/** The same searches on PostGIS: geography for distances and circles, geometry for box and polygon. */
async function postgisSearches(pool: Pool): Promise<Searches | null> {
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
  `${f.p99.toFixed(1).padStart(8)} ${f.matches.toFixed(0).padStart(9)}${f.vias ? `   ${f.vias}` : ''}`;

/** The searches measured around NYC (the rows of the first run of this bench). */
const NYC = [
  'radius 1 mi',
  'radius 5 mi',
  'radius 5 mi, proptype=SFR',
  'radius 10 mi (the bound)',
  'box 5 x 5 mi',
  'polygon (hexagon, 3 mi)',
];
const only = (all: Searches, names: string[]): Searches => Object.fromEntries(names.map((n) => [n, all[n]!]));

async function main() {
  await ensureDatabase(dbUrl);
  const pool = createPool(dbUrl, concurrency + 2, 'bench-area');
  try {
    await prepareData(pool);
    const atSpot = await prepareSpot(pool);
    const { centres, cell } = await denseCentres(pool);
    const count = (await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM records.properties')).rows[0]!.n;
    const server = (await pool.query<{ v: string }>("SELECT current_setting('server_version') AS v")).rows[0]!.v;
    console.log(
      `bench:area: ${count.toLocaleString('en-US')} records (${records.toLocaleString('en-US')} nationwide + ` +
        `${dense.toLocaleString('en-US')} in NY + ${atSpot.toLocaleString('en-US')} within ${SPOT_MILES} mi of ` +
        `${SPOT.lat},${SPOT.lon}); ${centres.length} centres around ${cell}, ${spotQueries} within a mile of the spot; ` +
        `count cap ${AREA_COUNT_CAP.toLocaleString('en-US')}; ${concurrency} clients; PostgreSQL ${server}; ` +
        `${cpus().length} x ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GB; load ${loadavg()
          .map((l) => l.toFixed(1))
          .join(' ')}`,
    );
    console.log(`${'engine'.padEnd(22)} ${'search (page 1 of 25)'.padEnd(28)}   q/s   p50 ms   p99 ms   matches   via`);
    const core = coreSearches(new AreaStore(pool)) as Searches;
    const before = baselineSearches(pool) as Searches;
    const runs: [string, Centre[], Searches | null][] = [
      ['core, capped (now)', centres, only(core, NYC)],
      ['core, before the cap', centres, only(before, NYC)],
      ['core, capped (now)', spotCentres(), spotSearches(core)],
      ['core, before the cap', spotCentres(), spotSearches(before)],
      ['PostGIS geography', centres, await postgisSearches(pool)],
    ];
    for (const [engine, at, searches] of runs) {
      if (!searches) continue;
      for (const [name, search] of Object.entries(searches)) console.log(row(engine, await measure(name, at, search)));
    }
    console.log(
      `load after: ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
    );
  } finally {
    await pool.end();
  }
}

main().catch((err: Error) => {
  console.error(`bench:area failed: ${err.stack ?? err.message}`);
  process.exit(1);
});
