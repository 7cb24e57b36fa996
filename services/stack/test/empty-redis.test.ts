// npm start over existing data on a Redis that holds nothing (issue 22, points 10 and 9), as npm start runs it:
// the demo account's keys checked, then every service and the local gateway as real processes under the
// Supervisor, on a database and a redis-server of this test's own. Started once, stopped, Redis emptied, started
// again: it comes up, the kept keys work through the gateway, and a key-cache entry deleted under the running
// system is looked up in PostgreSQL and restored.
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createPool, createRedis, dropDatabase, ensureDatabase, withDatabase, type Pool } from '@pra/platform';
import { startRedisServer, type OwnRedis } from '@pra/platform/testing';
import { hashApiKey } from '@pra/core/auth';
import { keyCacheKey, keyCacheLoadedKey } from '@pra/account-billing/client';
import { insertProperties, makeProperty, uniqueStreet } from '@pra/ingest/testing';
import { migrateAll } from '../src/migrate-all.js';
import { ensureDemoAccount, type DemoKeys } from '../src/demo-account.js';
import { Supervisor } from '../src/supervisor.js';
import { freeSystemPorts } from './free-ports.js';
import { startSystem, type RunningSystem, type SystemPorts } from '../src/system.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const prefix = `${inject('redisPrefix')}er${randomBytes(3).toString('hex')}:`;
const MARKETPLACE = `mkt-${randomBytes(16).toString('hex')}`;
const logged: string[] = [];
let own: OwnRedis;
let databaseUrl: string;
let pool: Pool;
let dataDir: string;
let path: string;
let supervisor: Supervisor;
let ports: SystemPorts;

beforeAll(async () => {
  own = await startRedisServer();
  databaseUrl = withDatabase(inject('databaseUrl'), `pra_empty_redis_${randomBytes(4).toString('hex')}`);
  await ensureDatabase(databaseUrl);
  pool = createPool(databaseUrl, 2);
  await migrateAll(pool, () => {});
  const s = uniqueStreet();
  await insertProperties(pool, [makeProperty({ line1: `7 ${s} ST`, zip: '95814' })]);
  path = `/api/v1/property/address?address=${encodeURIComponent(`7 ${s} ST`)}&zip=95814`;
  dataDir = mkdtempSync(join(tmpdir(), 'pra-empty-redis-'));
  ports = await freeSystemPorts();
  supervisor = new Supervisor({
    cwd: root,
    nodeArgs: ['--import', 'tsx'],
    log: (l) => logged.push(l),
    stdout: 'ignore',
  });
}, 120_000);

afterAll(async () => {
  await supervisor?.stop();
  await pool?.end();
  if (databaseUrl) await dropDatabase(databaseUrl);
  await own?.stop();
});

/** What npm start does after migrating: the demo account's keys, then the system. */
async function npmStart(): Promise<{ keys: DemoKeys; system: RunningSystem }> {
  const keys = await ensureDemoAccount(pool, own.url, prefix, join(dataDir, 'demo-api-key'), (l) => logged.push(l));
  const system = await startSystem({
    placement: 'processes',
    supervisor,
    ports,
    firstInternalPort: 0,
    databaseUrl,
    redisUrl: own.url,
    redisPrefix: prefix,
    gatewayKey: randomBytes(32).toString('hex'),
    adminToken: randomBytes(24).toString('hex'),
    marketplaceSecret: MARKETPLACE,
    publicBaseUrl: '/api/v1',
    env: () => ({ LOG_LEVEL: 'silent' }),
    readyTimeoutMs: 90_000,
  });
  return { keys, system };
}

const get = (system: RunningSystem, p: string, headers: Record<string, string>) =>
  fetch(system.gatewayUrl + p, { headers }).then(async (r) => ({ status: r.status, body: await r.text() }));

describe('npm start on an empty Redis over existing data', () => {
  it('comes up, keeps its keys, and they work through the gateway; lost cache entries are restored', async () => {
    const first = await npmStart();
    const bearer = { authorization: `Bearer ${first.keys.apiKey}` };
    const marketplace = { 'x-marketplace-proxy-secret': MARKETPLACE, 'x-marketplace-key': first.keys.marketplaceKey };
    expect((await get(first.system, '/api/v1/usage', bearer)).status).toBe(200);
    expect((await get(first.system, path, bearer)).status).toBe(200);
    expect((await get(first.system, '/api/v1/usage', marketplace)).status).toBe(200);

    // Point 9 under the running system: every key entry deleted (the loaded marker stays), the keys still work.
    const redis = createRedis(own.url, 'worker');
    try {
      const entries = await redis.keys(`${prefix}key:*`);
      expect(entries.length).toBe(2);
      await redis.del(...entries);
      expect(await redis.exists(keyCacheLoadedKey(prefix))).toBe(1);
      await new Promise((r) => setTimeout(r, 1_100)); // past the gateway's in-process cache (1 s)
      expect((await get(first.system, '/api/v1/usage', bearer)).status).toBe(200);
      expect((await get(first.system, '/api/v1/usage', marketplace)).status).toBe(200);
      expect(await redis.exists(keyCacheKey(prefix, hashApiKey(first.keys.apiKey)))).toBe(1);
      expect(await redis.exists(keyCacheKey(prefix, hashApiKey(first.keys.marketplaceKey)))).toBe(1);

      // Point 10: stopped, Redis emptied (a restart without persistence), started again over the same database.
      await first.system.stop();
      await redis.flushall();
    } finally {
      redis.disconnect();
    }
    const second = await npmStart();
    expect(second.keys).toEqual(first.keys); // the kept keys were recognised, not replaced
    expect(logged.filter((l) => l.startsWith('issued a new demo')).length).toBe(2); // on the first start only
    const again = await get(second.system, path, bearer);
    expect(again.status, again.body).toBe(200);
    expect(JSON.parse(again.body).status.records_returned).toBe(1); // balances reloaded: charged, not refused
    expect((await get(second.system, '/api/v1/usage', marketplace)).status).toBe(200);
    const check = createRedis(own.url, 'worker');
    try {
      expect(await check.exists(keyCacheLoadedKey(prefix))).toBe(1); // the key cache reloaded
    } finally {
      check.disconnect();
    }
    await second.system.stop();
  }, 240_000);
});
