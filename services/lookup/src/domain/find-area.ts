// Area search (issue 27): the records in a circle, a box or a polygon, nearest first, each with `location.distance`
// in miles from the centre (the circle's; a box's or a polygon's bounding box's). No req/res here: a query in, a
// page source out, for the one metered path (metered-page.ts). The distance is computed here from the query and the
// record's own coordinates, never stored: a repeat under an Idempotency-Key, which reads its records again by id
// (receipts.ts), reports exactly the distances its first call did (and the receipt's digests agree).
// One search is one statement, bounded to about AREA_COUNT_CAP matches whatever the density (data/area-queries.ts):
// `total` is exact up to the cap, and the cap means that many or more (pages reach no deeper than the cap).
import {
  type AreaQuery,
  boxAround,
  boxCentre,
  haversineMiles,
  type RadiusQuery,
  reportedMiles,
} from '@pra/core/contracts';
import { ApiError, notFound } from '@pra/core/errors';
import { type AreaShape, AreaStore } from '../data/area-queries.js';
import type { RecordRow, RecordStore } from '../data/record-queries.js';
import { LookupDeadline } from './lookup-deadline.js';
import type { PageSource } from './metered-page.js';
import type { RecordPage } from './record-page.js';

const areaStores = new WeakMap<RecordStore, AreaStore>();
/** One AreaStore per record store (it remembers that the locations are filled). */
function areaStoreOf(store: RecordStore): AreaStore {
  const known = areaStores.get(store);
  if (known) return known;
  const area = new AreaStore(store.pool);
  areaStores.set(store, area);
  return area;
}

/** The shape a query asks for, and what a 404 calls it. */
export function shapeOf(q: RadiusQuery | AreaQuery): { shape: AreaShape; what: string } {
  if ('radius' in q) {
    const box = boxAround(q.latitude, q.longitude, q.radius);
    const shape = { kind: 'radius' as const, lat: q.latitude, lon: q.longitude, miles: q.radius, box };
    return { shape, what: `within ${q.radius} miles of ${q.latitude},${q.longitude}` };
  }
  if (q.bbox) {
    const [lon, lat] = boxCentre(q.bbox);
    const b = q.bbox;
    return { shape: { kind: 'box', lat, lon, box: b }, what: `in box ${b.minLon},${b.minLat},${b.maxLon},${b.maxLat}` };
  }
  const [lon, lat] = boxCentre(q.polygon!.box);
  return { shape: { kind: 'polygon', lat, lon, ring: q.polygon!.ring }, what: 'in the polygon' };
}

const COORDINATES = /"latitude":(-?[\d.eE+-]+),"longitude":(-?[\d.eE+-]+)\}/;

/** The row with `"distance"` (miles from lat,lon, 3 decimals) added to its location group. */
export function withDistance(row: RecordRow, lat: number, lon: number): RecordRow {
  const m = COORDINATES.exec(row.body);
  if (m) {
    const miles = reportedMiles(haversineMiles(lat, lon, Number(m[1]), Number(m[2])));
    const at = m.index + m[0].length - 1; // the location group's closing brace
    return { ...row, body: `${row.body.slice(0, at)},"distance":${miles}${row.body.slice(at)}` };
  }
  // Not the renderer's layout (never seen): the same, through a parse.
  const record = JSON.parse(row.body) as { location: { latitude: number; longitude: number; distance?: number } };
  const { latitude, longitude } = record.location;
  record.location.distance = reportedMiles(haversineMiles(lat, lon, latitude, longitude));
  return { ...row, body: JSON.stringify(record) };
}

/** Until the locations of a store stored before area search are filled, its answers would be incomplete. */
const notFilled = () =>
  new ApiError(
    'unavailable',
    'Area search is not available yet: the locations of the stored records are being filled (npm run ingest -- ' +
      'rekey; npm start and the chart run it in the background). Nothing was charged; retry later.',
    0,
    { 'retry-after': '60' },
  );

/** One page of an area search, nearest first, ties by id (`area`: the store's, or a test's with a smaller cap). */
export async function findInArea(
  store: RecordStore,
  q: RadiusQuery | AreaQuery,
  deadline = new LookupDeadline(store.deadlineMs),
  area = areaStoreOf(store),
): Promise<RecordPage> {
  if (!(await deadline.run(() => area.locationsFilled()))) throw notFilled();
  const { shape, what } = shapeOf(q);
  const offset = (q.page - 1) * q.pagesize;
  const { rows, total } = await deadline.run(() => area.search(shape, q.proptype ?? null, q.pagesize, offset));
  if (total === 0)
    throw notFound(`No properties found ${what}${q.proptype ? ` of type ${q.proptype.join(', ')}` : ''}`);
  if (rows.length === 0) {
    const pages = Math.ceil(total / q.pagesize);
    const counted =
      total >= area.cap ? `the nearest ${total} properties: pages reach no deeper` : `${total} properties`;
    throw new ApiError(
      'page_out_of_range',
      `Page ${q.page} is past the last page (${pages} of ${q.pagesize} for ${counted})`,
      total,
    );
  }
  return {
    rows: rows.map((r) => withDistance(r, shape.lat, shape.lon)),
    total,
    page: q.page,
    pagesize: q.pagesize,
  };
}

/**
 * The metered page source of an area search: the search, and the rereads of a repeat (the address pages' `rereads`,
 * each record given the same distance again).
 */
export function areaSource(store: RecordStore, rereads: PageSource['rereads'], q: RadiusQuery | AreaQuery): PageSource {
  const { shape } = shapeOf(q);
  return {
    find: () => findInArea(store, q),
    rereads: rereads.map(
      (reread) => async (ids: number[]) => (await reread(ids)).map((r) => withDistance(r, shape.lat, shape.lon)),
    ),
  };
}
