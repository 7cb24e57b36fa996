// Review of area search (issue 27) as an attacker and as an unlucky client, on a records database of this file's own:
// - a polygon within the documented limits (200 vertices, at most 12,000 characters) that a client sends
//   pretty-printed does not fit the service's 16 KB request line once URL-encoded: the answer is a 431, which the
//   served OpenAPI document must declare (it is an ErrorResponse, uncharged);
// - shapes at the poles and the antimeridian, exponent-free odd numbers and degenerate polygons answer without a 5xx.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ErrorResponse, parsePolygon } from '@pra/core/contracts';
import { createPool, dropDatabase, ensureDatabase, type Pool, withDatabase } from '@pra/platform';
import { startApp, type RunningApp } from '@pra/platform/testing';
import { billingFixture, type BillingFixture } from '@pra/account-billing/testing';
import { migrateBilling } from '@pra/account-billing/migrate';
import { migrateRecords } from '@pra/ingest/migrate';
import { insertProperties, makeProperty, uniqueStreet } from '@pra/ingest/testing';
import { createLookupApp } from '../src/app.js';

const url = withDatabase(inject('databaseUrl'), `pra_area_review_${randomBytes(4).toString('hex')}`);
let pool: Pool;
let f: BillingFixture;
let app: RunningApp;

// Records near the poles, on both sides of the antimeridian (the Aleutians) and at 0,0.
const SPOTS = [
  { lat: 51.88, lon: 179.95 },
  { lat: 51.88, lon: -179.95 },
  { lat: 89.99, lon: 0 },
  { lat: 89.99, lon: 179 },
  { lat: -89.99, lon: 45 },
  { lat: 0, lon: 0 },
];

beforeAll(async () => {
  await ensureDatabase(url);
  pool = createPool(url, 4, 'area-review-test');
  await migrateRecords(pool);
  await migrateBilling(pool);
  const street = uniqueStreet();
  await insertProperties(
    pool,
    SPOTS.map((s, i) => makeProperty({ line1: `${i + 1} ${street} ST`, latitude: s.lat, longitude: s.lon })),
  );
  // A prefix of its own: this database's account ids start at 1, as other files' do (shared balances otherwise).
  f = await billingFixture(pool, inject('redisUrl'), `${inject('redisPrefix')}arv${randomBytes(3).toString('hex')}:`);
  app = await startApp(
    createLookupApp({ pool, meter: f.meter, calls: f.calls, auth: { development: true, keys: f.keys } }),
  );
}, 60_000);

afterAll(async () => {
  await app?.close();
  await f?.close();
  await pool?.end();
  await dropDatabase(url);
});

const polygonParam = (ring: number[][], indent?: number) =>
  encodeURIComponent(JSON.stringify({ type: 'Polygon', coordinates: [ring] }, null, indent));

describe('a long polygon', () => {
  it('within the documented limits but past the 16 KB request line: a declared 431, uncharged', async () => {
    // 200 vertices around 0,0 at 6 decimals, as JSON.stringify(g, null, 2) writes it: under 12,000 characters.
    const ring = Array.from({ length: 200 }, (_, i) => [
      +(0.01 * Math.cos((2 * Math.PI * i) / 200)).toFixed(6),
      +(0.01 * Math.sin((2 * Math.PI * i) / 200)).toFixed(6),
    ]);
    ring.push(ring[0]!);
    const text = JSON.stringify({ type: 'Polygon', coordinates: [ring] }, null, 2);
    expect(text.length).toBeLessThanOrEqual(12_000);
    expect(typeof parsePolygon(text)).toBe('object'); // a valid polygon by the query's own rules
    const a = await f.fundedAccount(5);
    // Checked against the served OpenAPI document (test/check-responses.ts): the status must be declared.
    const res = await app.get(`/api/v1/property/area?polygon=${polygonParam(ring, 2)}`, {
      authorization: `Bearer ${a.key}`,
    });
    expect(res.status).toBe(431);
    expect(ErrorResponse.parse(res.body).status.msg).toMatch(/at most 16 KB/);
    expect(res.body.status.reason).toBe('request_line_too_long');
    expect(await f.meter.balance(a.accountId)).toBe(5);
    // The same polygon as compact JSON fits, and is answered.
    const compact = await app.get(`/api/v1/property/area?polygon=${polygonParam(ring)}`, {
      authorization: `Bearer ${a.key}`,
    });
    expect(compact.status).toBe(200);
  });
});

describe('edges of the globe and odd numbers', () => {
  const paths = [
    '/property/radius?latitude=90&longitude=0&radius=10',
    '/property/radius?latitude=-90&longitude=0&radius=10',
    '/property/radius?latitude=89.99&longitude=-180&radius=10',
    '/property/radius?latitude=51.88&longitude=180&radius=10',
    '/property/radius?latitude=-0&longitude=-0&radius=.5',
    '/property/radius?latitude=+0&longitude=0&radius=1.',
    '/property/radius?latitude=0&longitude=0&radius=0.000000000000001',
    '/property/area?bbox=-180,89.97,180,90',
    '/property/area?bbox=-180,-90,180,-89.97',
    '/property/area?bbox=179.9,51.8,180,51.9',
    `/property/area?polygon=${polygonParam([
      [-180, 89.97],
      [180, 89.97],
      [0, 90],
      [-180, 89.97],
    ])}`,
    `/property/area?polygon=${polygonParam([
      [0, 0],
      [1e-20, 0],
      [1e-20, 1e-20],
      [0, 0],
    ])}`,
    `/property/area?polygon=${polygonParam([
      [1e-320, 0],
      [1e-310, 0],
      [1e-310, 1e-310],
      [1e-320, 0],
    ])}`,
    `/property/area?polygon=${encodeURIComponent(`{"type":"Polygon","coordinates":${'['.repeat(3000)}${']'.repeat(3000)}}`)}`,
  ];
  it.each(paths.map((p) => [p.slice(0, 80), p]))('%s answers without a 5xx', async (_, path) => {
    const a = await f.fundedAccount(100);
    const res = await app.get(`/api/v1${path}`, { authorization: `Bearer ${a.key}` });
    expect([200, 400, 404, 431]).toContain(res.status);
  });
});
