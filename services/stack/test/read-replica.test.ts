// Reads on a real streaming replica (issue 25): a PostgreSQL primary and hot standby of the test's own
// (shared/platform/src/testing/postgres-replica.ts says why not the machine's shared server), the real lookup,
// autocomplete and /usage apps wired as the services wire them (requestPathClients with DATABASE_READ_URL), real
// Redis under this run's prefix. Which server answered is read from the servers themselves: the apps connect as a
// role of their own, and pg_stat_statements on each server counts that role's statements on the records tables.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { z } from 'zod';
import { authEnv, parseConfig, requestPoolEnv, storeEnv } from '@pra/core/config';
import { createPool, type Pool, ReadPool } from '@pra/platform';
import {
  hasPgStatStatements,
  installMetricsReader,
  startApp,
  startReplicatedPostgres,
  type ReplicatedPostgres,
  type RunningApp,
} from '@pra/platform/testing';
import { requestPathClients, type RequestPathClients } from '@pra/account-billing/client';
import { billingFixture, type BillingFixture } from '@pra/account-billing/testing';
import { createBillingApp } from '@pra/account-billing/app';
import { usageReport } from '@pra/account-billing/usage-report';
import { createAutocompleteApp } from '@pra/autocomplete/app';
import { PostgresSearchIndex } from '@pra/autocomplete/postgres-index';
import { readSuggestionDocsByIds } from '@pra/autocomplete/suggestion-source';
import { insertProperties, makeProperty } from '@pra/ingest/testing';
import { createLookupApp } from '@pra/lookup/app';
import { migrateAll } from '../src/migrate-all.js';

// Before any instrument is made: the replica's gauges are read through the OpenTelemetry SDK, as an exporter would.
const metricValue = installMetricsReader();

const DATABASE = 'pra_replica_test';
/** The role the apps connect as: pg_stat_statements counts its statements apart from the test's own. */
const APP_ROLE = 'pra_replica_app';
/** A street of letters only (the type-ahead's words), unique to this run. */
const STREET = `RRQ${randomBytes(4)
  .toString('hex')
  .toUpperCase()
  .replace(/[0-9]/g, (d) => 'GHIJKLMNOP'[Number(d)]!)}`;
const ZIP = '95814';
const HOUSES = 24;

let pgs: ReplicatedPostgres | undefined;
let clients: RequestPathClients;
let reads: ReadPool;
let billing: BillingFixture;
let writer: Pool;
let primaryStats: Pool;
let replicaStats: Pool;
let lookup: RunningApp;
let usage: RunningApp;
let typeAhead: RunningApp;
let auth: Record<string, string>;
let accountId: number;
/** Property id by house number (1..HOUSES), loaded before the base backup. */
const idOf = new Map<number, number>();

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function waitFor(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(50);
  }
}

const address = (house: number, street = STREET) =>
  `/api/v1/property/address?${new URLSearchParams({ address: `${house} ${street} St`, zip: ZIP })}`;
/** The ids a lookup answered with, or its status when it was not a 200. */
async function lookupIds(house: number, street = STREET): Promise<number[] | number> {
  const res = await lookup.get(address(house, street), auth);
  return res.status === 200
    ? res.body.property.map((p: { identifier: { Id: number } }) => p.identifier.Id)
    : res.status;
}

/** Statements the apps' role ran on the records tables of that server (pg_stat_statements). */
async function appStatements(stats: Pool): Promise<number> {
  const { rows } = await stats.query<{ n: number }>(
    `SELECT coalesce(sum(s.calls), 0)::int AS n FROM pg_stat_statements s JOIN pg_roles r ON r.oid = s.userid
      WHERE r.rolname = $1 AND s.query ILIKE '%records.%'`,
    [APP_ROLE],
  );
  return rows[0]!.n;
}

beforeAll(async () => {
  if (!hasPgStatStatements()) throw new Error('pg_stat_statements is not installed (postgresql-contrib)');
  pgs = await startReplicatedPostgres({
    database: DATABASE,
    settings: { shared_preload_libraries: "'pg_stat_statements'" },
    // The schema (the project's migrations) and the records the replica starts with.
    prepare: async (url) => {
      const pool = createPool(url, 2, 'replica-test-setup');
      try {
        await migrateAll(pool, () => {});
        await pool.query('CREATE EXTENSION pg_stat_statements');
        await pool.query(`CREATE ROLE ${APP_ROLE} LOGIN; GRANT pg_read_all_data TO ${APP_ROLE}`);
        const houses = Array.from({ length: HOUSES }, (_, i) => i + 1);
        const ids = await insertProperties(
          pool,
          houses.map((h) => makeProperty({ line1: `${h} ${STREET} ST`, zip: ZIP, apn: `RR-${h}`, apnOrig: `RR${h}` })),
          'replica-test',
        );
        for (const [i, h] of houses.entries()) idOf.set(h, ids[i]!);
        // One type-ahead suggestion, read and written as the indexer does.
        await new PostgresSearchIndex(pool).upsert(await readSuggestionDocsByIds(pool, [idOf.get(7)!]));
      } finally {
        await pool.end();
      }
    },
  });
  writer = createPool(pgs.url('primary'), 2, 'replica-test-writer');
  primaryStats = createPool(pgs.url('primary'), 1, 'replica-test-stats');
  replicaStats = createPool(pgs.url('replica'), 1, 'replica-test-stats');
  const prefix = `${inject('redisPrefix')}replica:`;
  // The request path as every service makes it, from its parsed configuration.
  const config = parseConfig(z.object({ ...storeEnv, ...authEnv, ...requestPoolEnv }), {
    DATABASE_URL: pgs.url('primary', { user: APP_ROLE }),
    DATABASE_READ_URL: pgs.url('replica', { user: APP_ROLE }),
    DATABASE_READ_MAX_LAG_SECONDS: '1',
    REDIS_URL: inject('redisUrl'),
    REDIS_PREFIX: prefix,
    PRA_DEVELOPMENT: '1',
  });
  clients = requestPathClients(config, 'lookup');
  expect(clients.reads).toBeInstanceOf(ReadPool);
  reads = clients.reads as ReadPool;
  billing = await billingFixture(writer, inject('redisUrl'), prefix);
  const funded = await billing.fundedAccount(1_000_000);
  accountId = funded.accountId;
  auth = { authorization: `Bearer ${funded.key}` };
  const deps = { meter: billing.meter, calls: billing.calls, auth: clients.auth };
  lookup = await startApp(createLookupApp({ pool: clients.pool, reads, ...deps }));
  usage = await startApp(createBillingApp({ pool: clients.pool, reads, auth: clients.auth }));
  typeAhead = await startApp(
    createAutocompleteApp({ index: new PostgresSearchIndex(clients.pool, undefined, reads), ...deps }),
  );
  await pgs.caughtUp(); // the account
  await waitFor('the replica to serve reads', () => reads.state() === 'serving');
}, 90_000);

afterAll(async () => {
  // Each step on its own: one that fails must not leave the servers or their directories behind.
  const steps: (() => Promise<unknown> | undefined)[] = [
    () => lookup?.close(),
    () => usage?.close(),
    () => typeAhead?.close(),
    () => billing?.close(),
    () => clients?.closePools(),
    () => clients?.redis.quit(),
    () => writer?.end(),
    () => primaryStats?.end(),
    () => replicaStats?.end(),
    () => pgs?.close(),
  ];
  for (const step of steps) await Promise.resolve(step()).catch(() => {});
}, 60_000);

describe('reads on a streaming replica (DATABASE_READ_URL)', () => {
  it('answers lookups, type-ahead and /usage from the replica; the primary serves none of them', async () => {
    const before = { replica: await appStatements(replicaStats), primary: await appStatements(primaryStats) };
    const counts = { ...reads.counts };
    for (let h = 1; h <= HOUSES; h++) expect(await lookupIds(h)).toEqual([idOf.get(h)]);
    expect(await lookupIds(HOUSES + 1)).toBe(404);

    const suggestions = await typeAhead.get(`/api/v1/property/autocomplete?q=7%20${STREET}&zip=${ZIP}`, auth);
    expect(suggestions.status).toBe(200);
    expect(suggestions.body.property.map((p: { identifier: { Id: number } }) => p.identifier.Id)).toEqual([
      idOf.get(7),
    ]);
    const report = await usage.get('/api/v1/usage', auth);
    expect(report.status).toBe(200);
    expect(report.body.credits.purchased).toBe(1_000_000);

    // The pool's own count, and each server's: every read ran on the replica, none on the primary.
    expect(reads.counts.primary).toBe(counts.primary);
    expect(reads.counts.fallbacks).toBe(counts.fallbacks);
    expect(reads.counts.replica - counts.replica).toBeGreaterThanOrEqual(HOUSES + 1 + 1 + 2);
    expect((await appStatements(replicaStats)) - before.replica).toBeGreaterThanOrEqual(HOUSES + 1);
    expect((await appStatements(primaryStats)) - before.primary).toBe(0);
    const connections = async (stats: Pool) =>
      (
        await stats.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM pg_stat_activity WHERE usename = $1 AND application_name = 'lookup'`,
          [APP_ROLE],
        )
      ).rows[0]!.n;
    expect(await connections(replicaStats)).toBeGreaterThan(0);
    expect(await connections(primaryStats)).toBe(0);
    // The admin API's report reads the primary.
    const primaryBefore = reads.counts.primary;
    expect((await usageReport(clients.pool, accountId)).credits.purchased).toBe(1_000_000);
    expect(reads.counts.primary).toBe(primaryBefore);
    expect(await connections(primaryStats)).toBeGreaterThan(0);
  });

  it('serves an insert once replayed; measures lag ~0 caught up, and sends reads to the primary while replay is paused', async () => {
    const street = `${STREET}B`;
    const [first] = await insertProperties(writer, [makeProperty({ line1: `1 ${street} ST`, zip: ZIP, apn: 'RRB-1' })]);
    await pgs!.caughtUp();
    await reads.probe();
    expect(reads.state()).toBe('serving');
    expect(reads.lagSeconds()).toBeLessThan(0.5);
    expect(await metricValue('pra.db.replica.lag')).toBeLessThan(0.5);
    expect(await metricValue('pra.db.replica.serving')).toBe(1);
    const onReplica = reads.counts.replica;
    const onPrimary = reads.counts.primary;
    expect(await lookupIds(1, street)).toEqual([first]);
    expect(reads.counts.replica).toBeGreaterThan(onReplica);
    expect(reads.counts.primary).toBe(onPrimary);

    await replicaStats.query('SELECT pg_wal_replay_pause()');
    let second: number | undefined;
    try {
      [second] = await insertProperties(writer, [makeProperty({ line1: `2 ${street} ST`, zip: ZIP, apn: 'RRB-2' })]);
      // Received, not replayed: the lag grows from the first probe that saw it, past the 1 s bound.
      await waitFor('the lag to pass 1 s', async () => ((await metricValue('pra.db.replica.lag')) ?? 0) > 1, 8_000);
      expect(reads.state()).toBe('lagging');
      expect(await metricValue('pra.db.replica.serving')).toBe(0);
      // The replica does not have the new record; the primary answers, with it and with the older one.
      const { rows } = await replicaStats.query('SELECT 1 FROM records.properties WHERE id = $1', [second]);
      expect(rows).toHaveLength(0);
      const primaryBefore = reads.counts.primary;
      expect(await lookupIds(2, street)).toEqual([second]);
      expect(await lookupIds(1, street)).toEqual([first]);
      expect(reads.counts.primary).toBeGreaterThan(primaryBefore);
    } finally {
      await replicaStats.query('SELECT pg_wal_replay_resume()');
    }
    await pgs!.caughtUp();
    await waitFor('the replica to serve again', async () => {
      await reads.probe();
      return reads.state() === 'serving';
    });
    expect(reads.lagSeconds()).toBeLessThan(0.5);
    const onReplicaAgain = reads.counts.replica;
    expect(await lookupIds(2, street)).toEqual([second]);
    expect(reads.counts.replica).toBeGreaterThan(onReplicaAgain);
  });

  it('keeps answering from the primary, right, while the replica is stopped mid-load; then goes back to it', async () => {
    await waitFor('the replica to serve', () => reads.state() === 'serving');
    const answers: { house: number; got: number[] | number }[] = [];
    let running = true;
    const client = async (n: number) => {
      for (let i = n; running; i += 8) {
        const house = (i % HOUSES) + 1;
        answers.push({ house, got: await lookupIds(house) });
      }
    };
    const load = Promise.all(Array.from({ length: 8 }, (_, n) => client(n)));
    try {
      await sleep(400);
      const beforeStop = { ...reads.counts, answers: answers.length };
      // One read surely in flight on the replica when it dies: it is answered by the primary, the same.
      const stored = (await writer.query<{ n: number }>('SELECT count(*)::int AS n FROM records.properties')).rows[0]!
        .n;
      const inFlight = reads.query<{ n: number }>('SELECT count(*)::int AS n FROM records.properties, pg_sleep(1)');
      await sleep(200);
      await pgs!.stopReplica();
      expect((await inFlight).rows[0]!.n).toBe(stored);
      expect(reads.counts.fallbacks).toBeGreaterThan(beforeStop.fallbacks);
      expect(reads.state()).toBe('down');
      await sleep(1_500);
      running = false;
      await load;
      const wrong = answers.filter((a) => JSON.stringify(a.got) !== JSON.stringify([idOf.get(a.house)]));
      expect(wrong.slice(0, 5)).toEqual([]);
      // Answered all along, from the primary, while the replica was away.
      expect(answers.length - beforeStop.answers).toBeGreaterThan(0);
      expect(reads.counts.primary - beforeStop.primary).toBeGreaterThan(0);
    } finally {
      running = false;
      await load.catch(() => {});
    }
    await pgs!.startReplica();
    await waitFor('the replica to serve after its restart', () => reads.state() === 'serving', 15_000);
    const before = { counts: { ...reads.counts }, statements: await appStatements(replicaStats) };
    for (let h = 1; h <= 10; h++) expect(await lookupIds(h)).toEqual([idOf.get(h)]);
    expect(reads.counts.primary).toBe(before.counts.primary);
    expect(reads.counts.replica - before.counts.replica).toBeGreaterThanOrEqual(10);
    expect((await appStatements(replicaStats)) - before.statements).toBeGreaterThanOrEqual(10);
  }, 45_000);
});
