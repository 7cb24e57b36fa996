// The calls a real client makes, built from the fixtures, and the weights of the mixed workload.
import { check, sleep } from 'k6';
import { Rate } from 'k6/metrics';
import { addresses, owners, parcels, pick, places, propertyIds } from './config.ts';
import { enc, get, post } from './api.ts';

const typeaheadFound = new Rate('typeahead_found');

const SUFFIXES: Record<string, string> = {
  ST: 'Street',
  AVE: 'Avenue',
  RD: 'Road',
  DR: 'Drive',
  LN: 'Lane',
  CT: 'Court',
  BLVD: 'Boulevard',
  WAY: 'Way',
  PL: 'Place',
};

/** The address as a client might spell it: as stored, lower case, suffix spelled out, unit as '#', 'APT' or 'Unit'. */
function spelled(a: { line1: string; unit: string }, variant: number): string {
  let line = a.line1;
  if (variant % 4 === 1) line = line.toLowerCase();
  if (variant % 4 === 2) line = line.replace(/\b([A-Z]+)$/, (s) => SUFFIXES[s] ?? s);
  if (!a.unit) return line;
  return `${line} ${['#', 'APT ', 'Unit ', 'apt '][variant % 4]}${a.unit}`;
}

export function addressLookup(key: string): void {
  const a = pick(addresses);
  const variant = Math.floor(Math.random() * 4);
  const where = variant % 2 === 0 ? `zip=${a.zip}` : `city=${enc(a.city)}&state=${a.state}`;
  const { res, body } = get(`/property/address?address=${enc(spelled(a, variant))}&${where}`, key, 'property/address');
  check(
    res,
    { 'address found': (r) => r.status === 200 && (body.status?.records_returned ?? 0) >= 1 },
    { name: 'property/address' },
  );
}

/** A client's list of 10 addresses in one batch (issue 27): every entry answered, in order. */
export function batchLookup(key: string): void {
  const requests = Array.from({ length: 10 }, (_, i) => {
    const a = pick(addresses);
    return { id: `e${i}`, address: spelled(a, i), zip: a.zip };
  });
  const { res, body } = post('/property/batch', { requests }, key, 'property/batch');
  check(
    res,
    {
      'batch answered in order': (r) =>
        r.status !== 200 || (body.results?.length === 10 && body.results.every((e, i) => e.id === `e${i}`)),
      'batch entries found': (r) => r.status !== 200 || (body.results ?? []).every((e) => e.status.code !== 404),
    },
    { name: 'property/batch' },
  );
}

/** What an owner search would cost, free (preview=true): no records, the cost told. */
export function costPreview(key: string): void {
  const o = pick(owners);
  const { res, body } = get(
    `/property/owner?lastName=${enc(o.lastName)}&state=${o.state}&pagesize=10&preview=true`,
    key,
    'property/owner preview',
  );
  check(
    res,
    {
      'preview returns no records': (r) =>
        r.status !== 200 || ((body.property ?? []).length === 0 && body.status?.records_returned === 0),
    },
    { name: 'property/owner preview' },
  );
}

/** The properties within a mile of a place where records are, nearest first (issue 27). */
export function radiusSearch(key: string): void {
  if (places.length === 0) {
    addressLookup(key); // locations not filled yet: nothing to search around
    return;
  }
  const p = pick(places);
  const { res, body } = get(
    `/property/radius?latitude=${p.latitude}&longitude=${p.longitude}&radius=1&pagesize=10`,
    key,
    'property/radius',
  );
  check(
    res,
    {
      'radius search finds the place it is centred on': (r) =>
        r.status === 200 && (body.status?.records_returned ?? 0) >= 1,
    },
    { name: 'property/radius' },
  );
}

export function ownerLookup(key: string): void {
  const o = pick(owners);
  get(`/property/owner?lastName=${enc(o.lastName)}&state=${o.state}&pagesize=10`, key, 'property/owner');
}

/**
 * Owner entities (issue 37): owners by a sampled owner's last name, then the detail of the one with most parcels and
 * the first page of its properties.
 */
export function ownerEntity(key: string): void {
  const o = pick(owners);
  const { res, body } = get(`/owner/search?name=${enc(o.lastName)}&state=${o.state}&pagesize=5`, key, 'owner/search');
  check(res, { 'owner search answers': (r) => r.status === 200 || r.status === 404 }, { name: 'owner/search' });
  const top = body.owners?.[0];
  if (!top) return;
  const detail = get(`/owner/detail?id=${top.id}`, key, 'owner/detail');
  check(
    detail.res,
    {
      'owner detail counts its parcels': (r) => r.status === 200 && detail.body.owner?.parcelCount === top.parcelCount,
    },
    { name: 'owner/detail' },
  );
  get(`/property/owner?ownerId=${top.id}&pagesize=10`, key, 'property/owner ownerId');
}

export function parcelLookup(key: string): void {
  const p = pick(parcels);
  const { res } = get(`/property/parcel?apn=${enc(p.apn)}&state=${p.state}`, key, 'property/parcel');
  check(res, { 'parcel found': (r) => r.status === 200 }, { name: 'property/parcel' });
}

export function history(key: string, kind: 'sale/history' | 'assessment/detail'): void {
  get(`/${kind}?id=${pick(propertyIds)}`, key, kind);
}

export function usage(key: string): void {
  const { res } = get('/usage', key, 'usage');
  check(res, { 'usage 200': (r) => r.status === 200 }, { name: 'usage' });
}

/** A person typing an address: house number and street, a request every two characters, ~150 ms apart. */
export function typeahead(key: string): void {
  const a = pick(addresses);
  const full = a.line1;
  const start = Math.min(full.length, full.indexOf(' ') + 2);
  let found = false;
  for (let n = start; n <= full.length; n += 2) {
    const { res } = get(
      `/property/autocomplete?q=${enc(full.slice(0, n).toLowerCase())}&zip=${a.zip}&limit=8`,
      key,
      'property/autocomplete',
    );
    if (res.status === 200 && res.body && String(res.body).includes(full)) {
      found = true;
      break;
    }
    sleep(0.15);
  }
  typeaheadFound.add(found);
}

/** The mixed workload: weights out of 100 (README). */
export const WEIGHTS: [number, string, (key: string) => void][] = [
  [27, 'address lookup (variant spellings and units)', addressLookup],
  [3, 'radius search (1 mile, 10 a page)', radiusSearch],
  [5, 'batch of 10 addresses', batchLookup],
  [7, 'owner search', ownerLookup],
  [3, 'owner entity: owner search, detail, properties', ownerEntity],
  [3, 'owner search cost preview (free)', costPreview],
  [10, 'parcel lookup', parcelLookup],
  [8, 'sale history', (k) => history(k, 'sale/history')],
  [7, 'assessment detail', (k) => history(k, 'assessment/detail')],
  [22, 'type-ahead sequence (one keystroke every 2 characters)', typeahead],
  [5, 'usage check', usage],
];

export function mixedIteration(key: string): void {
  let r = Math.random() * 100;
  for (const [weight, , call] of WEIGHTS) {
    r -= weight;
    if (r < 0) {
      call(key);
      return;
    }
  }
  WEIGHTS[0]![2](key);
}
