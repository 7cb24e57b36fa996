// The geometry of area search (issue 27): what a radius, a box and a GeoJSON polygon may be, read and checked once
// (by the query schemas, so a bad shape is a 400 before any charge or read), and the great-circle distance every
// answer reports. Linear in the input (a polygon's self-crossing check is quadratic in at most
// POLYGON_VERTICES_MAX vertices: ~20,000 segment pairs, well under a millisecond).

import { decimal, miles } from '../wording.js';

/** The largest radius taken, in miles (docs/benchmarks.md, "Issue 27: area search": p99 at this radius). */
export const RADIUS_MAX_MILES = 10;
/** A box or a polygon's bounding box may span at most this many miles each way (the largest circle's square). */
export const AREA_SPAN_MAX_MILES = 2 * RADIUS_MAX_MILES;
/** The most vertices a polygon ring takes (its closing position not counted). */
export const POLYGON_VERTICES_MAX = 200;
/** The longest `polygon` value, in characters (200 vertices of 6-decimal coordinates fit with room). */
export const POLYGON_TEXT_MAX = 12_000;

/** Mean Earth radius (IUGG), in miles: 6371.0088 km. */
export const EARTH_RADIUS_MILES = 3958.7613;
/** Miles per degree of latitude (and of longitude at the equator). */
export const MILES_PER_DEGREE = (EARTH_RADIUS_MILES * Math.PI) / 180;

export type Position = readonly [lon: number, lat: number];
export interface Box {
  minLon: number;
  minLat: number;
  maxLon: number;
  maxLat: number;
}

const rad = (d: number) => (d * Math.PI) / 180;

/** Great-circle (haversine) distance in miles, as the SQL of the search computes it (data/area-queries.ts). */
export function haversineMiles(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const a =
    Math.sin(rad(lat2 - lat1) / 2) ** 2 +
    Math.cos(rad(lat1)) * Math.cos(rad(lat2)) * Math.sin(rad(lon2 - lon1) / 2) ** 2;
  return 2 * EARTH_RADIUS_MILES * Math.asin(Math.min(1, Math.sqrt(a)));
}

/** The distance an answer reports: miles, rounded to 3 decimals (about 5 feet). */
export const reportedMiles = (miles: number) => Math.round(miles * 1000) / 1000;

/** The centre an answer's distances are measured from: a box's, or a polygon's bounding box's. */
export const boxCentre = (b: Box): Position => [(b.minLon + b.maxLon) / 2, (b.minLat + b.maxLat) / 2];

/**
 * The box around a circle: latitude +- r/69, longitude +- r/(69 cos lat) at the latitude farthest from the equator
 * inside it (where a degree of longitude is shortest); the whole band of longitudes near a pole. Clamped to the
 * valid ranges: a circle across the antimeridian is cut there (documented in known-gaps).
 */
export function boxAround(lat: number, lon: number, miles: number): Box {
  const dLat = miles / MILES_PER_DEGREE;
  const minLat = Math.max(-90, lat - dLat);
  const maxLat = Math.min(90, lat + dLat);
  const cos = Math.cos(rad(Math.max(Math.abs(minLat), Math.abs(maxLat))));
  const dLon = cos < 1e-6 ? 360 : miles / (MILES_PER_DEGREE * cos);
  return { minLat, maxLat, minLon: Math.max(-180, lon - dLon), maxLon: Math.min(180, lon + dLon) };
}

/** Why a box is too large, or null: its height, and its width along its widest parallel. */
export function spanProblem(b: Box): string | null {
  const height = (b.maxLat - b.minLat) * MILES_PER_DEGREE;
  const widest = b.minLat <= 0 && b.maxLat >= 0 ? 0 : Math.min(Math.abs(b.minLat), Math.abs(b.maxLat));
  const width = (b.maxLon - b.minLon) * MILES_PER_DEGREE * Math.cos(rad(widest));
  if (height <= AREA_SPAN_MAX_MILES && width <= AREA_SPAN_MAX_MILES) return null;
  return `spans ${miles(width, 1)} east-west and ${miles(height, 1)} north-south: at most ${miles(AREA_SPAN_MAX_MILES)} each way`;
}

const inRange = ([lon, lat]: Position) => Math.abs(lon) <= 180 && Math.abs(lat) <= 90;

/** A box from `minLon,minLat,maxLon,maxLat`, or why not. */
export function parseBox(text: string): Box | string {
  const parts = text.split(',');
  if (parts.length !== 4) return 'must be minLon,minLat,maxLon,maxLat (4 numbers, comma-separated)';
  if (parts.some((p) => !DECIMAL.test(p.trim()))) return 'must be 4 decimal numbers, minLon,minLat,maxLon,maxLat';
  const [minLon, minLat, maxLon, maxLat] = parts.map(Number) as [number, number, number, number];
  if (!inRange([minLon, minLat]) || !inRange([maxLon, maxLat]))
    return 'longitudes must be within -180..180 and latitudes within -90..90';
  if (minLon >= maxLon) return `minLon (${decimal(minLon)}) must be less than maxLon (${decimal(maxLon)})`;
  if (minLat >= maxLat) return `minLat (${decimal(minLat)}) must be less than maxLat (${decimal(maxLat)})`;
  const box = { minLon, minLat, maxLon, maxLat };
  return spanProblem(box) ?? box;
}

/** A decimal number as a query string writes it: no exponent, no NaN or Infinity, no hex. */
export const DECIMAL = /^[-+]?(\d{1,3}(\.\d{0,15})?|\.\d{1,15})$/;

/** A polygon: its closed ring of [lon, lat] (first = last) and its bounding box. */
export interface Polygon {
  ring: Position[];
  box: Box;
}

const orient = (a: Position, b: Position, c: Position) => {
  const v = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
  return v > 0 ? 1 : v < 0 ? -1 : 0;
};
const onSegment = (a: Position, b: Position, p: Position) =>
  Math.min(a[0], b[0]) <= p[0] &&
  p[0] <= Math.max(a[0], b[0]) &&
  Math.min(a[1], b[1]) <= p[1] &&
  p[1] <= Math.max(a[1], b[1]);

/** Whether segments ab and cd meet (cross or touch). */
function segmentsMeet(a: Position, b: Position, c: Position, d: Position): boolean {
  const o1 = orient(a, b, c);
  const o2 = orient(a, b, d);
  const o3 = orient(c, d, a);
  const o4 = orient(c, d, b);
  if (o1 !== o2 && o3 !== o4) return true;
  return (
    (o1 === 0 && onSegment(a, b, c)) ||
    (o2 === 0 && onSegment(a, b, d)) ||
    (o3 === 0 && onSegment(c, d, a)) ||
    (o4 === 0 && onSegment(c, d, b))
  );
}

const isPosition = (p: unknown): p is Position =>
  Array.isArray(p) && (p.length === 2 || p.length === 3) && p.every((n) => typeof n === 'number' && Number.isFinite(n));

/**
 * A GeoJSON Polygon (RFC 7946: one exterior ring of [longitude, latitude] positions, closed; edges straight in
 * longitude/latitude), or why not. Holes are refused (not supported), as are self-crossing rings.
 */
export function parsePolygon(text: string): Polygon | string {
  let g: unknown;
  try {
    g = JSON.parse(text);
  } catch {
    return 'must be a GeoJSON Polygon object (JSON), e.g. {"type":"Polygon","coordinates":[[[lon,lat],...]]}';
  }
  const obj = g as { type?: unknown; coordinates?: unknown };
  if (typeof g !== 'object' || g === null || obj.type !== 'Polygon')
    return 'must be a GeoJSON object of "type": "Polygon"';
  const rings = obj.coordinates;
  if (!Array.isArray(rings) || rings.length === 0) return 'must have "coordinates": an array holding one ring';
  if (rings.length > 1) return 'must have one ring: holes (inner rings) are not supported';
  const raw = rings[0] as unknown;
  if (!Array.isArray(raw) || !raw.every(isPosition))
    return 'its ring must be an array of [longitude, latitude] numbers';
  const ring = raw.map((p) => [p[0], p[1]] as Position);
  if (!ring.every(inRange)) return 'longitudes must be within -180..180 and latitudes within -90..90';
  if (ring.length < 4) return 'its ring must have at least 4 positions (3 vertices and the first again to close it)';
  if (ring.length > POLYGON_VERTICES_MAX + 1) return `its ring may have at most ${POLYGON_VERTICES_MAX} vertices`;
  const [f, l] = [ring[0]!, ring[ring.length - 1]!];
  if (f[0] !== l[0] || f[1] !== l[1]) return 'its ring is not closed: the last position must equal the first';
  const n = ring.length - 1; // edges i: ring[i] -> ring[i + 1]
  // Before the crossings: a repeated position also makes the edges around it touch, which would be named instead.
  for (let i = 0; i < n; i++) {
    const [a, b] = [ring[i]!, ring[i + 1]!];
    if (a[0] === b[0] && a[1] === b[1]) return `its ring repeats position ${i + 1} (${decimal(a[0])},${decimal(a[1])})`;
  }
  for (let i = 0; i < n; i++) {
    const [a, b] = [ring[i]!, ring[i + 1]!];
    for (let j = i + 1; j < n; j++) {
      const adjacent = j === i + 1 || (i === 0 && j === n - 1);
      const [c, d] = [ring[j]!, ring[j + 1]!];
      if (adjacent) {
        // Adjacent edges share one vertex; they may not fold back over each other.
        if (n > 3 && orient(a, b, j === i + 1 ? d : c) === 0 && segmentsOverlap(a, b, c, d)) return crossing(i, j);
      } else if (segmentsMeet(a, b, c, d)) return crossing(i, j);
    }
  }
  let twiceArea = 0;
  for (let i = 0; i < n; i++) twiceArea += ring[i]![0] * ring[i + 1]![1] - ring[i + 1]![0] * ring[i]![1];
  if (twiceArea === 0) return 'has no area (its vertices are on one line)';
  const lons = ring.map((p) => p[0]);
  const lats = ring.map((p) => p[1]);
  const box = {
    minLon: Math.min(...lons),
    minLat: Math.min(...lats),
    maxLon: Math.max(...lons),
    maxLat: Math.max(...lats),
  };
  const span = spanProblem(box);
  return span ? `its bounding box ${span}` : { ring, box };
}

/** Two collinear adjacent edges overlap beyond their shared vertex (the ring doubles back). */
function segmentsOverlap(a: Position, b: Position, c: Position, d: Position): boolean {
  const shared = (p: Position) => (p[0] === a[0] && p[1] === a[1]) || (p[0] === b[0] && p[1] === b[1]);
  const other = shared(c) ? d : c;
  const own = shared(c) ? c : d;
  const mine = own[0] === a[0] && own[1] === a[1] ? b : a;
  // The far ends lie on the same side of the shared vertex: the ring goes back along itself.
  return (other[0] - own[0]) * (mine[0] - own[0]) + (other[1] - own[1]) * (mine[1] - own[1]) > 0;
}

const crossing = (i: number, j: number) => `its ring crosses itself (edge ${i + 1} meets edge ${j + 1})`;
