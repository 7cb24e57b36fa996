// SQL of area search (issue 27) on the core `point` column and its GiST index (ingest migration 0011): no extension.
// A circle is its bounding box on the index, then the exact great-circle (haversine) distance; a box is the index
// range itself; a polygon is `<@ polygon` (the index on its bounding box, then the exact test). Every match's
// distance from the centre is computed, counted and the page taken nearest first, ties by id: one total order, so
// pages never overlap or skip. The index holds id and proptype, so the matches are read from it alone (an
// index-only scan, type filter included); the heap is visited for the page's bodies only.
import { type Box, EARTH_RADIUS_MILES, type Position } from '@pra/core/contracts';
import type { Queryable } from '@pra/platform';
import { decodeRecordRow, type PagedRows, type StoredRecordRow } from './record-queries.js';

/** Great-circle miles from ($1 latitude, $2 longitude) to the record, as haversineMiles computes it. */
const DISTANCE = `2 * ${EARTH_RADIUS_MILES} * asin(least(1, sqrt(
    sin(radians(p.location[1] - $1) / 2) ^ 2
    + cos(radians($1)) * cos(radians(p.location[1])) * sin(radians(p.location[0] - $2) / 2) ^ 2)))`;

/** The page of the matches `where` (numbered params from $3) and their count, nearest first. */
const areaPage = (name: string, where: string, next: number, within = '') => ({
  name,
  text: `WITH hit AS MATERIALIZED (
      SELECT id, dist FROM (
        SELECT p.id, ${DISTANCE} AS dist FROM records.properties p
         WHERE ${where} AND ($${next}::text[] IS NULL OR p.proptype = ANY($${next}::text[]))) m
      ${within}),
    page AS (SELECT id, dist FROM hit ORDER BY dist, id LIMIT $${next + 1} OFFSET $${next + 2})
    SELECT r.body, r.demo, c.total FROM (SELECT count(*)::int AS total FROM hit) c
    LEFT JOIN (SELECT p.id, p.body, t.body AS demo, page.dist FROM page
                 JOIN records.properties p ON p.id = page.id
                 LEFT JOIN records.tract_profiles t ON t.tract = p.census_tract) r ON true
    ORDER BY r.dist, r.id`,
});

const INSIDE_BOX = 'p.location <@ box(point($3, $4), point($5, $6))';
const BY_RADIUS = areaPage('area_by_radius', INSIDE_BOX, 8, 'WHERE dist <= $7');
const BY_BOX = areaPage('area_by_box', INSIDE_BOX, 7);
const BY_POLYGON = areaPage('area_by_polygon', 'p.location <@ $3::polygon', 4);

/** What is searched: its centre (distances are from it) and its shape. */
export type AreaShape = { lat: number; lon: number } & (
  | { kind: 'radius'; miles: number; box: Box }
  | { kind: 'box'; box: Box }
  | { kind: 'polygon'; ring: readonly Position[] }
);

export class AreaStore {
  private filled = false;

  constructor(private readonly pool: Queryable) {}

  /** One page of the records in `shape` (of `types`, when given), nearest first, and how many there are in all. */
  async search(shape: AreaShape, types: string[] | null, limit: number, offset: number): Promise<PagedRows> {
    const centre = [shape.lat, shape.lon];
    const box = (b: Box) => [b.minLon, b.minLat, b.maxLon, b.maxLat];
    const q =
      shape.kind === 'radius'
        ? { ...BY_RADIUS, values: [...centre, ...box(shape.box), shape.miles, types, limit, offset] }
        : shape.kind === 'box'
          ? { ...BY_BOX, values: [...centre, ...box(shape.box), types, limit, offset] }
          : { ...BY_POLYGON, values: [...centre, polygonText(shape.ring), types, limit, offset] };
    const { rows } = await this.pool.query<Omit<StoredRecordRow, 'body'> & { body: Buffer | null }>(q);
    return {
      rows: rows.filter((r): r is StoredRecordRow => r.body !== null).map(decodeRecordRow),
      total: rows[0]?.total ?? 0,
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
