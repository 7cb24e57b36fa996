// The geometry of area search (issue 27) on its own: the branches the endpoint tests reach only by chance (a ring that
// doubles back along itself, a ring touching itself at a vertex, a box across the equator) and the box around a
// circle holding the circle, whatever the centre.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { boxAround, haversineMiles, MILES_PER_DEGREE, parseBox, parsePolygon } from './area-geometry.js';

const polygon = (ring: number[][]) => JSON.stringify({ type: 'Polygon', coordinates: [ring] });

describe('parsePolygon', () => {
  it('takes a concave ring, with its bounding box', () => {
    const got = parsePolygon(
      polygon([
        [0, 0],
        [0.1, 0],
        [0.1, 0.1],
        [0.05, 0.05],
        [0, 0.1],
        [0, 0],
      ]),
    );
    expect(got).toMatchObject({ box: { minLon: 0, minLat: 0, maxLon: 0.1, maxLat: 0.1 } });
  });

  it('refuses a ring whose adjacent edges fold back along each other', () => {
    // 0,0 -> 0.1,0 -> 0.05,0 goes back along the first edge; then up and home.
    const got = parsePolygon(
      polygon([
        [0, 0],
        [0.1, 0],
        [0.05, 0],
        [0.05, 0.05],
        [0, 0],
      ]),
    );
    expect(got).toMatch(/its ring crosses itself \(edge 1 meets edge 2\)/);
  });

  it('refuses a ring touching itself at a vertex (a figure of eight)', () => {
    const got = parsePolygon(
      polygon([
        [0, 0],
        [0.1, 0.1],
        [0.2, 0],
        [0.2, 0.2],
        [0.1, 0.1],
        [0, 0.2],
        [0, 0],
      ]),
    );
    expect(got).toMatch(/its ring crosses itself/);
  });

  it('refuses a repeated position, naming it', () => {
    expect(
      parsePolygon(
        polygon([
          [0, 0],
          [0.1, 0],
          [0.1, 0],
          [0.1, 0.1],
          [0, 0],
        ]),
      ),
    ).toBe('its ring repeats position 2 (0.1,0)');
  });
});

describe('parseBox', () => {
  it('measures the width of a box across the equator at the equator, where it is widest', () => {
    // 0.28 degrees of longitude: 19.3 miles at the equator, 14.8 at 40N.
    expect(parseBox('0,-0.1,0.28,0.1')).toEqual({ minLon: 0, minLat: -0.1, maxLon: 0.28, maxLat: 0.1 });
    expect(parseBox('0,-0.1,0.3,0.1')).toBe(
      'spans 20.7 miles east-west and 13.8 miles north-south: at most 20 miles each way',
    );
    expect(parseBox('0,40,0.3,40.1')).toEqual({ minLon: 0, minLat: 40, maxLon: 0.3, maxLat: 40.1 });
  });
});

describe('boxAround', () => {
  it('holds every point of the circle, at any latitude short of the poles', () => {
    fc.assert(
      fc.property(
        fc.double({ min: -85, max: 85, noNaN: true }),
        fc.double({ min: -170, max: 170, noNaN: true }),
        fc.double({ min: 0.01, max: 10, noNaN: true }),
        fc.double({ min: 0, max: 2 * Math.PI, noNaN: true }),
        (lat, lon, miles, bearing) => {
          const b = boxAround(lat, lon, miles);
          // The point `miles` away on `bearing` (spherical destination formula), a hair inside the circle.
          const d = (miles * (1 - 1e-9)) / (MILES_PER_DEGREE * (180 / Math.PI));
          const [la, lo] = [(lat * Math.PI) / 180, (lon * Math.PI) / 180];
          const la2 = Math.asin(Math.sin(la) * Math.cos(d) + Math.cos(la) * Math.sin(d) * Math.cos(bearing));
          const lo2 =
            lo + Math.atan2(Math.sin(bearing) * Math.sin(d) * Math.cos(la), Math.cos(d) - Math.sin(la) * Math.sin(la2));
          const [pLat, pLon] = [(la2 * 180) / Math.PI, (lo2 * 180) / Math.PI];
          expect(haversineMiles(lat, lon, pLat, pLon)).toBeLessThanOrEqual(miles);
          expect(pLat).toBeGreaterThanOrEqual(b.minLat);
          expect(pLat).toBeLessThanOrEqual(b.maxLat);
          expect(pLon).toBeGreaterThanOrEqual(b.minLon);
          expect(pLon).toBeLessThanOrEqual(b.maxLon);
        },
      ),
      { numRuns: 2000 },
    );
  });
});
