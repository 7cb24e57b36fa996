// The distance an area search answer carries (issue 27, domain/find-area.ts): spliced into the renderer's layout of
// a body, or (another layout, never seen) through a parse; both report the same miles.
import { describe, expect, it } from 'vitest';
import { haversineMiles, reportedMiles } from '@pra/core/contracts';
import { withDistance } from '../src/domain/find-area.js';

const row = (body: unknown) => ({ body: JSON.stringify(body), demo: null, total: 1 });
const miles = reportedMiles(haversineMiles(40, -100, 40.1, -100.2));

describe('withDistance', () => {
  it("adds location.distance to the renderer's layout, the rest of the body unchanged", () => {
    const body = {
      identifier: { Id: 7 },
      location: { censustract: '1', county: 'X', latitude: 40.1, longitude: -100.2 },
      summary: { proptype: 'SFR' },
    };
    const got = withDistance(row(body), 40, -100);
    expect(JSON.parse(got.body)).toEqual({ ...body, location: { ...body.location, distance: miles } });
    expect(got.body).toContain(`"longitude":-100.2,"distance":${miles}}`); // spliced, not re-serialised
  });

  it('adds the same distance to a body of another layout', () => {
    const body = { location: { longitude: -100.2, latitude: 40.1, county: 'X' }, identifier: { Id: 7 } };
    const got = JSON.parse(withDistance(row(body), 40, -100).body);
    expect(got.location).toEqual({ ...body.location, distance: miles });
    expect(miles).toBeGreaterThan(12);
  });
});
