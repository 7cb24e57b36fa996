// SQL of area search (issue 27) on the core `point` column and its GiST index (ingest migration 0011): no extension.
// A circle is its bounding box on the index, then the exact great-circle (haversine) distance; a box is the index
// range itself; a polygon is `<@ polygon` (the index on its bounding box, then the exact test). Pages are nearest
// first, ties by id: one total order, so pages never overlap or skip. The index holds id and proptype, so the matches
// are read from it alone (an index-only scan, type filter included); the heap is visited for the page's bodies only.
//
// Bounded work: one statement reads about AREA_COUNT_CAP matches whatever the density (a 10-mile circle in Manhattan
// holds hundreds of thousands), in one round trip:
// - first the shape's matches in the index's own order, stopping after scanDepth (3 x cap): fewer are every match
//   (the common case): their distances computed and the page taken from them all, as a search without the cap
//   would (a page lies within the nearest `cap` anyway: page x pagesize <= PAGING_DEPTH_MAX);
// - else they are read again in the index's nearest-first order (GiST KNN, `<->`: plain distance in degrees, not
//   miles), stopping after `depth` (knnDepth: about 1.2 x cap / cos(latitude)). Then r = the great-circle distance of the cap-th nearest of those read: the
//   answer is the cap nearest within the circle of radius r (it holds at least the cap: the cap read), so exact
//   whatever lies beyond. When the disk read (every match less than e degrees away, e the farthest read) covers that
//   circle, the rows read hold all of it; otherwise (a lopsided density: a degree of longitude is cos(latitude) of a
//   degree of latitude, so the disk is an ellipse on the ground) the circle is read as a radius search of r.
// The count stops at the cap, so `status.total` is at most the cap, meaning that many or more (page x pagesize <=
// PAGING_DEPTH_MAX: pages reach no deeper either). Measured in docs/benchmarks.md ("Issue 27: area search").
import { type Box, EARTH_RADIUS_MILES, MILES_PER_DEGREE, PAGING_DEPTH_MAX, type Position } from '@pra/core/contracts';
import type { Queryable } from '@pra/platform';
import { decodeRecordRow, type PagedRows, type StoredRecordRow } from './record-queries.js';

/** The most matches one area search counts and pages: `status.total` of this many means that many or more. */
export const AREA_COUNT_CAP = PAGING_DEPTH_MAX;

/**
 * How many matches the nearest-first read takes at latitude `lat` for a cap of `cap`: enough that the circle of the
 * cap nearest fits in the disk read when the density is even (the disk is cos(lat) of that circle's area), with a
 * margin; at most 5 x cap (cos taken as at least 0.25: above 75 degrees the fallback circle read does the rest).
 */
export function knnDepth(lat: number, cap: number): number {
  const cos = Math.max(0.25, Math.cos((Math.abs(lat) * Math.PI) / 180));
  return Math.ceil((1.2 * cap) / cos) + 1;
}

/**
 * How many matches the first read (in the index's order) takes before the nearest-first read is used: up to this
 * many, computing every distance and sorting is cheaper than the nearest-first read (docs/benchmarks.md).
 */
export const scanDepth = (cap: number) => 3 * cap;

/** Great-circle miles from ($1 latitude, $2 longitude) to the record, as haversineMiles computes it. */
const DISTANCE = `2 * ${EARTH_RADIUS_MILES} * asin(least(1, sqrt(
    sin(radians(p.location[1] - $1) / 2) ^ 2
    + cos(radians($1)) * cos(radians(p.location[1])) * sin(radians(p.location[0] - $2) / 2) ^ 2)))`;

/**
 * The least great-circle miles from the centre to a point `e` degrees (or more) away in plain degrees, among points
 * at most `r` miles away (so of latitude at most |$1| + r/69): from the haversine, sin^2(d/2) = sin^2(dlat/2) +
 * cos(lat0) cos(lat) sin^2(dlon/2) >= cos(lat0) cos(latmax) (sin^2(dlat/2) + sin^2(dlon/2)) >= k^2 sin^2(e/2), the last
 * as sin^2(sqrt(t)) is concave; less a hair for rounding.
 */
const leastMiles = (e: string, r: string) =>
  `2 * ${EARTH_RADIUS_MILES} * asin(sqrt(cos(radians($1)) * cos(radians(least(90, abs($1) + ${r} / ${MILES_PER_DEGREE}))))
     * sin(radians(${e}) / 2)) * (1 - 1e-9)`;

/** The box around the circle of `r` miles, as boxAround (@pra/core/contracts) computes it. */
const boxAroundSql = (r: string) => {
  const dLat = `(${r} / ${MILES_PER_DEGREE})`;
  const cos = `cos(radians(least(90, abs($1) + ${dLat})))`;
  const dLon = `(CASE WHEN ${cos} < 1e-6 THEN 360 ELSE ${r} / (${MILES_PER_DEGREE} * ${cos}) END)`;
  return `box(point(greatest(-180, $2 - ${dLon}), greatest(-90, $1 - ${dLat})),
              point(least(180, $2 + ${dLon}), least(90, $1 + ${dLat})))`;
};

/**
 * The page of the matches `where` (numbered params from $3; the type filter at $next, then the page's limit and
 * offset, then the read's depth), their count (up to `cap`), nearest first; each row says how it was found (`via`).
 */
const areaPage = (name: string, where: string, next: number, cap: number) => {
  const matches = `${where} AND ($${next}::text[] IS NULL OR p.proptype = ANY($${next}::text[]))`;
  const depth = `$${next + 3}::int`;
  return {
    name: `${name}_${cap}`,
    text: `WITH scan AS MATERIALIZED (
      SELECT p.id, p.location FROM records.properties p WHERE ${matches} LIMIT ${scanDepth(cap)}),
    few AS MATERIALIZED (SELECT count(*) < ${scanDepth(cap)} AS yes FROM scan),
    knn AS MATERIALIZED (
      SELECT p.id, p.location <-> point($2, $1) AS e, ${DISTANCE} AS dist FROM records.properties p
       WHERE NOT (SELECT yes FROM few) AND ${matches} ORDER BY p.location <-> point($2, $1) LIMIT ${depth}),
    near AS MATERIALIZED (SELECT id, dist FROM knn ORDER BY dist, id LIMIT ${cap}),
    edge AS MATERIALIZED (
      SELECT k.n, k.e, (SELECT max(dist) FROM near) AS r FROM (SELECT count(*)::int AS n, max(e) AS e FROM knn) k),
    far AS MATERIALIZED (
      SELECT r, ${boxAroundSql('r')} AS b FROM edge WHERE n >= ${depth} AND r >= ${leastMiles('e', 'r')}),
    hit AS MATERIALIZED (
      SELECT p.id, ${DISTANCE} AS dist FROM scan p WHERE (SELECT yes FROM few)
      UNION ALL
      SELECT id, dist FROM near WHERE NOT EXISTS (SELECT FROM far)
      UNION ALL
      (SELECT id, dist FROM (
         SELECT p.id, ${DISTANCE} AS dist FROM records.properties p
          WHERE p.location <@ (SELECT b FROM far) AND ${matches}) m
        WHERE dist <= (SELECT r FROM far) ORDER BY dist, id LIMIT ${cap})),
    page AS (SELECT id, dist FROM hit ORDER BY dist, id
              LIMIT least($${next + 1}, greatest(0, ${cap} - $${next + 2})) OFFSET $${next + 2})
    SELECT r.body, r.demo, c.total, c.via FROM (
        SELECT least(count(*), ${cap})::int AS total,
               CASE WHEN (SELECT yes FROM few) THEN 'all' WHEN EXISTS (SELECT FROM far) THEN 'circle'
                    ELSE 'nearest' END AS via FROM hit) c
    LEFT JOIN (SELECT p.id, p.body, t.body AS demo, page.dist FROM page
                 JOIN records.properties p ON p.id = page.id
                 LEFT JOIN records.tract_profiles t ON t.tract = p.census_tract) r ON true
    ORDER BY r.dist, r.id`,
  };
};

const INSIDE_BOX = 'p.location <@ box(point($3, $4), point($5, $6))';
const statements = (cap: number) => ({
  radius: areaPage('area_by_radius', `${INSIDE_BOX} AND ${DISTANCE} <= $7`, 8, cap),
  box: areaPage('area_by_box', INSIDE_BOX, 7, cap),
  polygon: areaPage('area_by_polygon', 'p.location <@ $3::polygon', 4, cap),
});

/** What is searched: its centre (distances are from it) and its shape. */
export type AreaShape = { lat: number; lon: number } & (
  | { kind: 'radius'; miles: number; box: Box }
  | { kind: 'box'; box: Box }
  | { kind: 'polygon'; ring: readonly Position[] }
);

/**
 * How the page was found: every match of the shape read in one scan (`all`: fewer than scanDepth; the total
 * exact up to the cap), or the cap nearest of the nearest-first read (`nearest`) or of their circle read again
 * (`circle`): total the cap.
 */
export type AreaRows = PagedRows & { via: 'all' | 'nearest' | 'circle' };

export class AreaStore {
  private filled = false;
  private readonly sql: ReturnType<typeof statements>;

  /** `cap`: the most matches counted and paged (AREA_COUNT_CAP; a test may give less). */
  constructor(
    private readonly pool: Queryable,
    readonly cap = AREA_COUNT_CAP,
  ) {
    if (!Number.isInteger(cap) || cap < 1) throw new Error(`area count cap must be a positive integer (${cap})`);
    this.sql = statements(cap);
  }

  /**
   * One page of the records in `shape` (of `types`, when given), nearest first, and how many there are in all up to
   * the cap (the cap meaning that many or more; a page past the cap is empty).
   */
  async search(shape: AreaShape, types: string[] | null, limit: number, offset: number): Promise<AreaRows> {
    const centre = [shape.lat, shape.lon];
    const box = (b: Box) => [b.minLon, b.minLat, b.maxLon, b.maxLat];
    const tail = [types, limit, offset, knnDepth(shape.lat, this.cap)];
    const q =
      shape.kind === 'radius'
        ? { ...this.sql.radius, values: [...centre, ...box(shape.box), shape.miles, ...tail] }
        : shape.kind === 'box'
          ? { ...this.sql.box, values: [...centre, ...box(shape.box), ...tail] }
          : { ...this.sql.polygon, values: [...centre, polygonText(shape.ring), ...tail] };
    const { rows } = await this.pool.query<
      Omit<StoredRecordRow, 'body'> & { body: Buffer | null; via: AreaRows['via'] }
    >(q);
    return {
      rows: rows
        .filter((r): r is typeof r & StoredRecordRow => r.body !== null)
        .map(({ via: _, ...r }) => decodeRecordRow(r)),
      total: rows[0]?.total ?? 0,
      via: rows[0]?.via ?? 'all',
    };
  }

  /**
   * Whether every record has its location column (ingest fill-locations.ts). Once true it stays true (every write
   * fills it), so it is read until then only.
   */
  async locationsFilled(): Promise<boolean> {
    if (this.filled) return true;
    const { rows } = await this.pool.query<{ filled: boolean }>({
      name: 'locations_filled',
      text: 'SELECT locations_filled AS filled FROM records.dataset_stats',
    });
    this.filled = rows[0]?.filled ?? false;
    return this.filled;
  }
}

/** PostgreSQL's polygon text: ((lon,lat),...). */
const polygonText = (ring: readonly Position[]) => `(${ring.map(([lon, lat]) => `(${lon},${lat})`).join(',')})`;
