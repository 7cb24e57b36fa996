// A repeat (the same Idempotency-Key) is answered with the records its first call paid for, wherever that call read
// them: the primary (the replica was down or too far behind) or the replica (behind the primary). Here the "replica"
// is a copy of the database taken before a record was rewritten on the primary (what a replica that has not replayed
// the rewrite serves), reached through a TCP proxy the test cuts to make the reads fall back to the primary. Before,
// a history repeat read only the replica and an address repeat only the primary: a page paid for on the other side
// was refused with a 400 and had to be bought again.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  createPool,
  createReadPool,
  dropDatabase,
  ensureDatabase,
  type Pool,
  type ReadPool,
  withDatabase,
} from '@pra/platform';
import {
  startApp,
  startRedisServer,
  proxyUrl,
  type OwnRedis,
  type RunningApp,
  type TcpProxy,
} from '@pra/platform/testing';
import { billingFixture, type BillingFixture } from '@pra/account-billing/testing';
import { migrateBilling } from '@pra/account-billing/migrate';
import { migrateRecords } from '@pra/ingest/migrate';
import { insertProperties, makeProperty, rewriteBody, uniqueStreet } from '@pra/ingest/testing';
import { createLookupApp } from '../src/app.js';

const tag = randomBytes(3).toString('hex');
const primaryUrl = withDatabase(inject('databaseUrl'), `pra_rr_primary_${tag}`);
const replicaUrl = withDatabase(inject('databaseUrl'), `pra_rr_replica_${tag}`);
let pool: Pool;
let reads: ReadPool;
let proxy: TcpProxy;
let own: OwnRedis;
let f: BillingFixture;
let app: RunningApp;
let paths: { history: string; address: string };

beforeAll(async () => {
  await ensureDatabase(primaryUrl);
  const setup = createPool(primaryUrl, 2, 'replica-repeats');
  await migrateRecords(setup);
  await migrateBilling(setup);
  const street = uniqueStreet();
  const [id] = await insertProperties(setup, [makeProperty({ line1: `7 ${street} ST`, zip: '95814' })]);
  await setup.end();
  // The replica as it was before the rewrite below (a copy: CREATE DATABASE ... TEMPLATE, no one connected).
  const admin = createPool(withDatabase(inject('databaseUrl'), 'postgres'), 1, 'replica-repeats');
  await admin.query(`CREATE DATABASE pra_rr_replica_${tag} TEMPLATE pra_rr_primary_${tag}`);
  await admin.end();
  pool = createPool(primaryUrl, 4, 'replica-repeats');
  await rewriteBody(pool, id!, (j) => j.replace('"JANE DOE"', '"JANE Q DOE"'));
  const through = await proxyUrl(replicaUrl);
  proxy = through.proxy;
  reads = createReadPool(pool, through.url, { size: 2, maxLagSeconds: 30, downMs: 200, probeIntervalMs: 50 });
  own = await startRedisServer();
  f = await billingFixture(pool, own.url, `rr${tag}:`);
  app = await startApp(
    createLookupApp({ pool, reads, meter: f.meter, calls: f.calls, auth: { development: true, keys: f.keys } }),
  );
  paths = {
    history: `/api/v1/sale/history?id=${id}`,
    address: `/api/v1/property/address?address=7%20${street}%20ST&zip=95814`,
  };
}, 60_000);

afterAll(async () => {
  await app?.close();
  await f?.close();
  await reads?.end();
  await pool?.end();
  await proxy?.close();
  await own?.stop();
  await dropDatabase(primaryUrl).catch(() => {});
  await dropDatabase(replicaUrl).catch(() => {});
});

async function until(what: string, ok: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !ok(); i++) {
    await reads.probe();
    await new Promise((r) => setTimeout(r, 25));
  }
  expect(ok(), what).toBe(true);
}

const owner = (body: { property: { owner?: { owner1?: { fullName?: string } } }[] }) =>
  body.property[0]?.owner?.owner1?.fullName;

describe('repeats against a replica behind the primary', () => {
  for (const kind of ['history', 'address'] as const) {
    it(`${kind}: paid on the primary (replica away), repeated once the replica serves again: the same page, charged once`, async () => {
      const a = await f.fundedAccount(10);
      const headers = {
        authorization: `Bearer ${a.key}`,
        'idempotency-key': `p-${kind}-${randomBytes(4).toString('hex')}`,
      };
      proxy.cut();
      await until('replica down', () => reads.state() === 'down');
      const first = await app.get(paths[kind], headers);
      expect(first.status).toBe(200);
      expect(owner(first.body)).toBe('JANE Q DOE'); // the primary's
      proxy.restore();
      await until('replica serving', () => reads.state() === 'serving');
      const repeat = await app.get(paths[kind], headers);
      expect(repeat.status, JSON.stringify(repeat.body)).toBe(200);
      expect(repeat.body.status.transactionID).toBe(first.body.status.transactionID);
      expect(repeat.body.property).toEqual(first.body.property);
      expect(await f.meter.balance(a.accountId)).toBe(9);
    });

    it(`${kind}: paid on the replica (behind), repeated: the same page it paid for, charged once`, async () => {
      await until('replica serving', () => reads.state() === 'serving');
      const a = await f.fundedAccount(10);
      const headers = {
        authorization: `Bearer ${a.key}`,
        'idempotency-key': `r-${kind}-${randomBytes(4).toString('hex')}`,
      };
      const first = await app.get(paths[kind], headers);
      expect(first.status).toBe(200);
      expect(owner(first.body)).toBe('JANE DOE'); // the replica's, not replayed yet
      const repeat = await app.get(paths[kind], headers);
      expect(repeat.status, JSON.stringify(repeat.body)).toBe(200);
      expect(repeat.body.status.transactionID).toBe(first.body.status.transactionID);
      expect(repeat.body.property).toEqual(first.body.property);
      expect(await f.meter.balance(a.accountId)).toBe(9);
    });
  }
});
