// Billing on a real Redis Cluster of this test's own (three masters, one of them with a replica: testing's
// startRedisCluster), never the machine's Redis. The lookup app and the usage pipeline run in cluster mode (the
// cluster target of REDIS_CLUSTER_NODES), two real gateway processes share the cluster, and faults happen to real
// nodes: a master comes back empty, a master is failed over to its replica under load. What must hold is what holds
// on one Redis: records returned = credits charged, exactly; a retried Idempotency-Key is charged once; the rate
// limit and the daily quota admit exactly their number across gateways; a node that comes back empty is reloaded
// (its shards only) and every record returned is in the ledger or was a charge lost with the node's data.
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createPool, createRedis, type Pool, type RedisClient } from '@pra/platform';
import { startApp, startRedisCluster, type OwnRedisCluster, type RunningApp } from '@pra/platform/testing';
import { startProcess, type Started } from '@pra/platform/bench';
import { billingFixture, type BillingFixture } from '@pra/account-billing/testing';
import { setAccountLimits, setKeyStatus } from '@pra/account-billing/domain';
import { hashApiKey } from '@pra/core/auth';
import { UsagePipeline } from '@pra/account-billing/pipeline';
import { LEDGER_GROUP, LedgerWriter } from '@pra/account-billing/ledger-writer';
import { CallFlusher } from '@pra/account-billing/call-flusher';
import { admitLookup } from '@pra/account-billing/key-lookup-admission';
import { billingBucket, keyCacheLayoutFor, RedisCreditMeter } from '@pra/account-billing/client';
import { insertProperties, makeProperty, uniqueStreet } from '@pra/ingest/testing';
import { createLookupApp } from '@pra/lookup/app';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureDemoAccount } from '../src/demo-account.js';
import { findRedis } from '../src/infrastructure.js';
import { Supervisor } from '../src/supervisor.js';
import { startSystem } from '../src/system.js';
import { freeSystemPorts } from './free-ports.js';

let cluster: OwnRedisCluster;
let pool: Pool;
let admin: RedisClient;
let f: BillingFixture;
let app: RunningApp;
let pipeline: UsagePipeline;
let prefix: string;
const logs: Record<string, unknown>[] = [];
/** Three records at one address: a page of up to three, so that a small balance ends in a partial page. */
let threeUnits: string;
let oneRecord: string;

beforeAll(async () => {
  cluster = await startRedisCluster();
  pool = createPool(inject('databaseUrl'), 6);
  admin = createRedis(cluster.target, 'worker');
  admin.on('error', () => {});
  prefix = `cl${randomBytes(3).toString('hex')}:`;
  f = await billingFixture(pool, cluster.target, prefix);
  expect(f.layout.cluster).toBe(true);
  app = await startApp(
    createLookupApp({ pool, meter: f.meter, calls: f.calls, auth: { development: true, keys: f.keys } }),
  );
  pipeline = new UsagePipeline({
    pool,
    redisUrl: cluster.target,
    layout: f.layout,
    log: (o) => logs.push(o),
    watchdogEveryMs: 50,
    claimIdleMs: 2_000,
    reconcileEveryMs: 3_600_000,
    expireEveryMs: 3_600_000,
  });
  await pipeline.start();
  const street = uniqueStreet();
  await insertProperties(pool, [
    ...[1, 2, 3].map((i) => makeProperty({ line1: `9 ${street} ST`, line2: `UNIT ${i}`, zip: '95814' })),
    makeProperty({ line1: `7 ${street} ST`, zip: '95814' }),
  ]);
  threeUnits = `/api/v1/property/address?address=9%20${street}%20ST&zip=95814&pagesize=3`;
  oneRecord = `/api/v1/property/address?address=7%20${street}%20ST&zip=95814`;
}, 60_000);

afterAll(async () => {
  await pipeline?.stop();
  await app?.close();
  await f?.close();
  admin?.disconnect();
  await cluster?.stop();
  await pool?.end();
});

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

/** Credits the ledger charged an account (after the pipeline drained). */
async function ledgerUsed(accountId: number): Promise<number> {
  await pipeline.drained(admin, 30_000);
  const { rows } = await pool.query<{ used: number }>(
    `SELECT coalesce(-sum(amount), 0)::int AS used FROM billing.ledger_entries WHERE account_id = $1 AND kind IN ('charge', 'refund')`,
    [accountId],
  );
  return rows[0]!.used;
}

/** An account whose billing keys live on the given master (or on any other master than it). */
/**
 * An account whose billing keys live on the given master, or one with nothing on `notOn`: neither its billing keys
 * nor its key's cache entry (a request reads both).
 */
async function accountOn(credits: number, wanted: { on?: number; notOn?: number }) {
  for (;;) {
    const a = await f.fundedAccount(credits);
    const port = await cluster.masterOf(f.layout.grants(a.accountId));
    const keyPort = await cluster.masterOf(keyCacheLayoutFor(admin, prefix).entry(hashApiKey(a.key)));
    if (
      (wanted.on === undefined || port === wanted.on) &&
      (wanted.notOn === undefined || (port !== wanted.notOn && keyPort !== wanted.notOn))
    )
      return { ...a, port };
  }
}

/** One charge of a new transaction, straight to the meter (no lookup). */
function chargeOnce(meter: RedisCreditMeter, a: { accountId: number; keyId: number }, wanted = 1) {
  const tx = randomUUID();
  return meter.charge({
    transactionId: tx,
    who: { accountId: a.accountId, keyId: a.keyId, tier: 'starter' },
    endpoint: '/property/address',
    records: wanted,
    fingerprint: tx,
  });
}

describe('billing on Redis Cluster', () => {
  it('every key of an account is in one slot, and the shards spread over the masters', async () => {
    const a = await f.fundedAccount(1);
    const l = f.layout;
    const shard = l.shard(a.accountId);
    const keys = [
      l.grants(a.accountId),
      l.expiry(a.accountId),
      shard.loaded,
      l.charged(a.accountId, 'x'),
      shard.outbox,
      shard.deadLetters,
      l.called(a.accountId, 'y'),
      l.pendingCalls(billingBucket(a.accountId)),
      l.flushingCalls(billingBucket(a.accountId)),
    ];
    const slots = await Promise.all(keys.map((k) => admin.cluster('KEYSLOT', k)));
    expect(new Set(slots).size).toBe(1);
    const masters = await Promise.all(l.shards.map((s) => cluster.masterOf(s.outbox)));
    expect(new Set(masters).size).toBe(3);
  });

  it('a race of concurrent lookups on a small balance: records returned = credits charged, exactly', async () => {
    const a = await f.fundedAccount(20);
    const results = await Promise.all(
      Array.from({ length: 16 }, () => app.get(threeUnits, bearer(a.key)).then((r) => r)),
    );
    const returned = results
      .filter((r) => r.status === 200)
      .reduce((s, r) => s + (r.body.status.records_returned as number), 0);
    expect(results.every((r) => r.status === 200 || r.status === 402)).toBe(true);
    expect(returned).toBe(20);
    expect(await ledgerUsed(a.accountId)).toBe(20);
    expect(await f.meter.balance(a.accountId)).toBe(0);
  });

  it('Idempotency-Key retries, at once and after, are charged once and answer the same records', async () => {
    const a = await f.fundedAccount(100);
    const headers = { ...bearer(a.key), 'idempotency-key': `retry-${randomBytes(4).toString('hex')}` };
    const burst = await Promise.all(Array.from({ length: 6 }, () => app.get(threeUnits, headers)));
    const later = await app.get(threeUnits, headers);
    for (const r of [...burst, later]) expect(r.status).toBe(200);
    const ids = new Set([...burst, later].map((r) => r.body.status.transactionID));
    expect(ids.size).toBe(1);
    expect(new Set([...burst, later].map((r) => JSON.stringify(r.body.property))).size).toBe(1);
    expect(await ledgerUsed(a.accountId)).toBe(3);
    // The same key for another request is refused, and charges nothing.
    expect((await app.get(oneRecord, headers)).status).toBe(400);
    expect(await ledgerUsed(a.accountId)).toBe(3);
  });
});

describe('the key cache on the cluster', () => {
  it('its writes, batched with commands for another node, land, and so do those commands', async () => {
    // A key on the node that serves slot("1"). Auto-pipelining once batched the cache's variable-key script by its
    // first argument (the key count, "1", "2"...) and, its keys being on another node, failed the whole batch.
    const nodeOf1 = await cluster.masterOf('1');
    let other = '';
    for (let i = 0; !other; i++) if ((await cluster.masterOf(`probe:${i}`)) === nodeOf1) other = `probe:${i}`;
    await admin.set(other, 'v');
    let a = await f.fundedAccount(0);
    const entryOf = (key: string) => keyCacheLayoutFor(admin, prefix).entry(hashApiKey(key));
    while ((await cluster.masterOf(entryOf(a.key))) === nodeOf1) a = await f.fundedAccount(0);
    // The producer client, with a GET for that node sent in the same turn as every script call.
    const gets: Promise<string | null>[] = [];
    const redis = new Proxy(f.redis, {
      get(target, name, receiver) {
        const value = Reflect.get(target, name, receiver);
        if (typeof value !== 'function' || !['eval', 'evalsha', 'pra_put_keys'].includes(String(name))) return value;
        return (...args: unknown[]) => {
          gets.push(target.get(other));
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
    await setKeyStatus({ ...f.deps, redis }, a.keyId, 'disabled');
    expect(gets.length).toBeGreaterThan(0);
    expect(await Promise.all(gets)).toEqual(gets.map(() => 'v'));
    expect(JSON.parse((await admin.get(entryOf(a.key)))!).status).toBe('disabled');
  });
});

describe('key lookups on the cluster', () => {
  it("the system's budget of lookups in PostgreSQL is one, whatever bucket the keys fall in", async () => {
    // Unknown keys of one key bucket (their hashes start alike): once a sixteenth of the budget stopped them.
    const budgetPrefix = `kb${randomBytes(3).toString('hex')}:`;
    const hashes = Array.from({ length: 30 }, () => `a${randomBytes(32).toString('hex').slice(1)}`);
    const verdicts = await Promise.all(hashes.map((h) => admitLookup(f.redis, budgetPrefix, h, 20)));
    const admitted = verdicts.filter((v) => v === 'admitted').length;
    expect(admitted).toBeGreaterThanOrEqual(20);
    expect(admitted).toBeLessThan(30);
  });
});

describe('maintenance on the cluster', () => {
  it('the schedulers live in the braced queue prefix, and reconcile finds every shard as the ledger says', async () => {
    expect(f.layout.queuePrefix).toMatch(/^\{.*\}$/);
    const schedulers = await pipeline.maintenanceQueue.getJobSchedulers();
    expect(schedulers.map((s) => s.key).sort()).toEqual(['expire-credits', 'rebuild-key-cache', 'reconcile']);
    const a = await f.fundedAccount(50);
    await app.get(threeUnits, bearer(a.key));
    // One grant wrong in Redis: reconcile repairs exactly it, on its shard, and nothing else.
    await admin.hincrby(f.layout.grants(a.accountId), (await admin.hkeys(f.layout.grants(a.accountId)))[0]!, 7);
    const report = (await pipeline.maintenance('reconcile', admin)) as { checked: number; repaired: number };
    expect(report.repaired).toBe(1);
    expect(await f.meter.balance(a.accountId)).toBe(47);
    expect(((await pipeline.maintenance('reconcile', admin)) as { repaired: number }).repaired).toBe(0);
  });
});

describe('rate limit and daily quota across two gateways on the cluster', () => {
  let upstream: Server;
  let gateways: Started[] = [];
  beforeAll(async () => {
    upstream = createServer((_req, res) => res.writeHead(204).end());
    await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', () => r()));
    const env = {
      REDIS_URL: 'redis://127.0.0.1:1', // REDIS_CLUSTER_NODES wins; its user and password would come from here
      REDIS_CLUSTER_NODES: cluster.seeds,
      REDIS_PREFIX: prefix,
      GATEWAY_HMAC_KEY: randomBytes(32).toString('hex'),
      GATEWAY_PORT: '0',
      UPSTREAM_ACCOUNT_BILLING: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`,
      // The bursts go to a metered path (/usage is outside the limits): the same stand-in answers them.
      UPSTREAM_LOOKUP: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`,
      LOG_LEVEL: 'silent',
    };
    gateways = await Promise.all([
      startProcess('gateway/local/src/server.ts', env),
      startProcess('gateway/local/src/server.ts', env),
    ]);
  }, 60_000);
  afterAll(async () => {
    for (const g of gateways) g.stop();
    await new Promise((r) => upstream?.close(r));
  });

  /** `n` calls at once, alternating between the gateways: how many each status got (a metered path: /usage is
   * outside the limits). */
  async function burst(key: string, n: number): Promise<Map<number, number>> {
    const statuses = new Map<number, number>();
    await Promise.all(
      Array.from({ length: n }, async (_, i) => {
        const res = await fetch(`http://127.0.0.1:${gateways[i % 2]!.port}/api/v1/sale/history?id=1`, {
          headers: bearer(key),
        });
        await res.arrayBuffer();
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      }),
    );
    return statuses;
  }

  it('admits exactly the limit per minute, whichever gateway is asked', async () => {
    const a = await f.fundedAccount(0, { tier: 'enterprise' });
    await setAccountLimits(f.deps, a.accountId, { ratePerMinute: 12, dailyQuota: null });
    const statuses = await burst(a.key, 40);
    expect(Object.fromEntries(statuses)).toEqual({ 204: 12, 429: 28 });
  });

  it('admits exactly the daily quota, whichever gateway is asked', async () => {
    const a = await f.fundedAccount(0, { tier: 'enterprise' });
    await setAccountLimits(f.deps, a.accountId, { ratePerMinute: 1_000, dailyQuota: 9 });
    const statuses = await burst(a.key, 30);
    expect(Object.fromEntries(statuses)).toEqual({ 204: 9, 429: 21 });
  });
});

/** Load on one account's lookups until stopped: the records each 200 returned, by transaction id, and the statuses. */
function loadOn(key: string, path: string, clients = 4) {
  const returned: string[] = [];
  const statuses = new Map<number, number>();
  let running = true;
  const client = async () => {
    while (running) {
      const res = await fetch(app.url + path, { headers: bearer(key), signal: AbortSignal.timeout(20_000) });
      const body = JSON.parse(await res.text());
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      if (res.status === 200)
        for (let i = 0; i < body.status.records_returned; i++) returned.push(body.status.transactionID);
      await new Promise((r) => setTimeout(r, 15));
    }
  };
  const all = Array.from({ length: clients }, client);
  return {
    returned,
    statuses,
    stop: async () => {
      running = false;
      await Promise.all(all);
    },
  };
}

const reloads = () => logs.filter((l) => l.msg === 'loaded from PostgreSQL into Redis');

describe('a master comes back empty', () => {
  it('reloads only its shards; its accounts are refused until then, every record returned is accounted for', async () => {
    // An account on a master that has no replica (a replica would sync the empty data set anyway), another elsewhere.
    const withReplica = cluster.nodes.find((n) => n.role === 'replica')!;
    const masters = cluster.nodes.filter((n) => n.role === 'master').map((n) => n.port);
    const victim = masters.find((p) => p !== withReplica.masterPort)!;
    const hit = await accountOn(30, { on: victim });
    const spared = await accountOn(1_000, { notOn: victim });
    const hitLoad = loadOn(hit.key, oneRecord);
    const sparedLoad = loadOn(spared.key, oneRecord, 2);
    try {
      for (let i = 0; i < 200 && hitLoad.returned.length < 8; i++) await new Promise((r) => setTimeout(r, 10));
      // What the victim holds that PostgreSQL may not have yet, taken with its writes paused, just before the loss.
      const node = createRedis(`redis://127.0.0.1:${victim}`, 'worker');
      await node.call('CLIENT', 'PAUSE', '5000', 'WRITE');
      const outbox = f.layout.shard(hit.accountId).outbox;
      const atLoss = ((await node.xrange(outbox, '-', '+')) as [string, string[]][]).map(
        ([, fl]) => fl[fl.indexOf('txid') + 1]!,
      );
      node.disconnect();
      const before = reloads().length;
      await cluster.restartEmpty(victim);
      for (let i = 0; i < 400 && reloads().length === before; i++) await new Promise((r) => setTimeout(r, 25));
      for (let i = 0; i < 200 && !(hitLoad.statuses.get(402) ?? 0); i++) await new Promise((r) => setTimeout(r, 30));
      await hitLoad.stop();
      await sparedLoad.stop();
      // The shards the victim served, each reloaded once, and no other: in one reload, or in two when the watchdog
      // first saw part of the node (a node back up answers CLUSTERDOWN for a moment; such a marker counts as there).
      const onVictim = [];
      for (const s of f.layout.shards) if ((await cluster.masterOf(s.loaded)) === victim) onVictim.push(s.index);
      for (
        let i = 0;
        i < 100 &&
        reloads()
          .slice(before)
          .flatMap((r) => r.shards as number[]).length < onVictim.length;
        i++
      )
        await new Promise((r) => setTimeout(r, 25));
      const after = reloads().slice(before);
      const reloaded = after.flatMap((r) => (r.shards as number[] | undefined) ?? []);
      expect(reloaded.sort((x, y) => x - y)).toEqual(onVictim.sort((x, y) => x - y));
      expect(reloaded).toContain(f.layout.shard(hit.accountId).index);
      expect(after.some((r) => Number(r.keys) > 0)).toBe(true); // the key-cache buckets the node held were rebuilt
      const used = await ledgerUsed(hit.accountId);
      const { rows: written } = await pool.query<{ transaction_id: string }>(
        'SELECT transaction_id FROM billing.usage_events WHERE transaction_id = ANY($1::uuid[])',
        [atLoss],
      );
      const lost = atLoss.filter((tx) => !written.some((w) => w.transaction_id === tx));
      console.log(
        `[cluster node back empty] hit ${JSON.stringify(Object.fromEntries(hitLoad.statuses))}, spared ${JSON.stringify(Object.fromEntries(sparedLoad.statuses))}; ` +
          `${hitLoad.returned.length} records returned, ledger ${used}, ${lost.length} charges lost with the node, shards reloaded ${reloaded.join(',')} in ${after.length} reload(s)`,
      );
      expect([...hitLoad.statuses.keys()].every((s) => [200, 402, 503].includes(s))).toBe(true);
      expect(used + lost.length).toBe(hitLoad.returned.length);
      expect(used).toBeLessThanOrEqual(30);
      // The account on another master was served throughout, and charged exactly what it got.
      expect([...sparedLoad.statuses.keys()]).toEqual([200]);
      expect(await ledgerUsed(spared.accountId)).toBe(sparedLoad.returned.length);
    } finally {
      await hitLoad.stop();
      await sparedLoad.stop();
    }
  }, 90_000);
});

describe('failover of the master that holds an account', () => {
  it('under load: every record returned is in the ledger, none charged twice, charges go on after it', async () => {
    const replica = cluster.nodes.find((n) => n.role === 'replica')!;
    // A balance the load cannot spend during the failover, however fast the machine.
    const balance = 5_000;
    const a = await accountOn(balance, { on: replica.masterPort });
    const load = loadOn(a.key, oneRecord);
    try {
      for (let i = 0; i < 200 && load.returned.length < 10; i++) await new Promise((r) => setTimeout(r, 10));
      const atStart = load.returned.length;
      await cluster.failover(replica.masterPort!);
      const atEnd = load.returned.length;
      expect(await cluster.masterOf(f.layout.grants(a.accountId))).toBe(replica.port);
      // The switch happened under load: charges before it, and after it on the new master.
      expect(atEnd).toBeLessThan(balance);
      for (let i = 0; i < 600 && load.returned.length < atEnd + 50; i++) await new Promise((r) => setTimeout(r, 30));
      await load.stop();
      expect(load.returned.length).toBeGreaterThan(atEnd); // charged on the new master
      const used = await ledgerUsed(a.accountId);
      console.log(
        `[cluster failover] ${JSON.stringify(Object.fromEntries(load.statuses))}; ${load.returned.length} records returned (${atStart} when the failover began, ${atEnd} when it ended), ledger ${used}`,
      );
      expect([...load.statuses.keys()].every((s) => [200, 402, 503].includes(s))).toBe(true);
      // A failover asked of the replica waits until it has every write of its master: nothing is lost.
      expect(used).toBe(load.returned.length);
      expect(used).toBeLessThanOrEqual(balance);
      // And the balance the new master holds took every one of them: none was charged on a copy the failover lost.
      expect(await f.meter.balance(a.accountId)).toBe(balance - used);
    } finally {
      await load.stop();
    }
  }, 90_000);
});

describe('the outbox mark on the cluster', () => {
  it('is shared by the streams: each refuses (503, not charged) past its part, so the cluster holds no more', async () => {
    // No ledger writer on this prefix: the outbox only grows.
    const g = await billingFixture(pool, cluster.target, `om${randomBytes(3).toString('hex')}:`);
    try {
      const meter = new RedisCreditMeter(g.redis, g.layout.prefix, { outboxLimit: 32 }); // 2 a stream (16 streams)
      const a = await g.fundedAccount(100);
      const charge = () => chargeOnce(meter, a);
      expect((await charge()).granted).toBe(1);
      expect((await charge()).granted).toBe(1);
      await expect(charge()).rejects.toMatchObject({ status: 503, headers: { 'retry-after': '30' } });
      expect(await g.redis.xlen(g.layout.shard(a.accountId).outbox)).toBe(2);
      expect(await meter.balance(a.accountId)).toBe(98);
    } finally {
      await g.close();
    }
  });
});

describe('ledger writers on the shard streams', () => {
  it("take over a dead writer's entries on every shard, dead-letter junk on its own shard, and write each charge once", async () => {
    // A prefix of its own, with no pipeline running: only the writers of this test read its streams.
    const g = await billingFixture(pool, cluster.target, `lw${randomBytes(3).toString('hex')}:`);
    const worker = createRedis(cluster.target, 'worker');
    worker.on('error', () => {});
    try {
      const accounts = [];
      for (let i = 0; i < 4; i++) accounts.push(await g.fundedAccount(100));
      const shards = [...new Set(accounts.map((a) => g.layout.shard(a.accountId)))];
      expect(shards.length).toBeGreaterThan(1);
      let charged = 0;
      for (const a of accounts)
        for (let i = 0; i < 5; i++) {
          charged += (await chargeOnce(g.meter, a, 2)).granted;
        }
      // A writer reads every shard's entries, then dies before writing or acknowledging them.
      for (const s of shards) {
        await worker.xgroup('CREATE', s.outbox, LEDGER_GROUP, '0', 'MKSTREAM').catch(() => {});
        await worker.xreadgroup('GROUP', LEDGER_GROUP, 'doomed', 'COUNT', 100, 'STREAMS', s.outbox, '>');
      }
      // An entry the charge script cannot have written.
      await worker.xadd(shards[0]!.outbox, '*', 'junk', '1');
      const survivor = new LedgerWriter({ pool, redis: worker, layout: g.layout, log: () => {}, claimIdleMs: 300 });
      survivor.start();
      try {
        for (let i = 0; i < 400; i++) {
          const b = await survivor.backlog();
          if (b.waiting === 0) break;
          await new Promise((r) => setTimeout(r, 25));
        }
        const backlog = await survivor.backlog();
        expect(backlog).toMatchObject({ waiting: 0, deadLetters: 1 });
      } finally {
        await survivor.stop();
      }
      expect(await worker.xlen(shards[0]!.deadLetters)).toBe(1);
      for (const s of shards) expect(((await worker.xpending(s.outbox, LEDGER_GROUP)) as [number])[0]).toBe(0);
      const { rows } = await pool.query<{ used: number; events: number }>(
        `SELECT coalesce(-sum(amount), 0)::int AS used, count(DISTINCT transaction_id)::int AS events
           FROM billing.ledger_entries WHERE account_id = ANY($1) AND kind IN ('charge', 'refund')`,
        [accounts.map((a) => a.accountId)],
      );
      expect(rows[0]).toEqual({ used: charged, events: 20 });
    } finally {
      worker.disconnect();
      await g.close();
    }
  }, 60_000);
});

describe('npm start on the cluster', () => {
  it('finds a cluster that says it is ok, and refuses a plain Redis or a seed without a port', async () => {
    const withSeeds = async (seeds: string) => {
      const before = process.env.REDIS_CLUSTER_NODES;
      process.env.REDIS_CLUSTER_NODES = seeds;
      try {
        return await findRedis(() => {}, join(tmpdir(), 'pra-unused-redis'));
      } finally {
        if (before === undefined) delete process.env.REDIS_CLUSTER_NODES;
        else process.env.REDIS_CLUSTER_NODES = before;
      }
    };
    expect((await withSeeds(cluster.seeds)).clusterNodes).toBe(cluster.seeds);
    const plain = new URL(inject('redisUrl'));
    await expect(withSeeds(`${plain.hostname}:${plain.port || 6379}`)).rejects.toThrow(/cluster_state:ok/);
    await expect(withSeeds('redis-0')).rejects.toThrow(/host:port/);
  });

  it('every process runs in cluster mode: keys, lookups, type-ahead and /usage through the gateway', async () => {
    const logged: string[] = [];
    const supervisor = new Supervisor({
      cwd: fileURLToPath(new URL('../../../', import.meta.url)),
      nodeArgs: ['--import', 'tsx'],
      log: (l) => logged.push(l),
      stdout: 'ignore',
    });
    const sysPrefix = `ns${randomBytes(3).toString('hex')}:`;
    try {
      const keys = await ensureDemoAccount(
        pool,
        cluster.target,
        sysPrefix,
        join(mkdtempSync(join(tmpdir(), 'pra-cluster-start-')), 'demo-api-key'),
        () => {},
      );
      const system = await startSystem({
        placement: 'processes',
        supervisor,
        ports: await freeSystemPorts(),
        firstInternalPort: 0,
        databaseUrl: inject('databaseUrl'),
        redisUrl: 'redis://127.0.0.1:1',
        redisClusterNodes: cluster.seeds,
        redisPrefix: sysPrefix,
        gatewayKey: randomBytes(32).toString('hex'),
        adminToken: randomBytes(24).toString('hex'),
        publicBaseUrl: '/api/v1',
        env: () => ({ LOG_LEVEL: 'silent' }),
        readyTimeoutMs: 90_000,
      });
      const get = (p: string) =>
        fetch(system.gatewayUrl + p, { headers: bearer(keys.apiKey) }).then(async (r) => ({
          status: r.status,
          body: JSON.parse(await r.text()),
        }));
      const lookup = await get(oneRecord);
      expect(lookup.status, JSON.stringify(lookup.body)).toBe(200);
      expect(lookup.body.status.records_returned).toBe(1);
      expect((await get('/api/v1/property/autocomplete?q=7%20te&zip=95814')).status).toBe(200);
      expect((await get('/api/v1/usage')).status).toBe(200);
      // The charge reaches the ledger through the system's own ledger writer (on the shard streams).
      let written = 0;
      for (let i = 0; i < 100 && written === 0; i++) {
        const { rows } = await pool.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM billing.usage_events WHERE request_id = $1`,
          [lookup.body.status.transactionID],
        );
        written = rows[0]!.n;
        if (written === 0) await new Promise((r) => setTimeout(r, 100));
      }
      expect(written).toBe(1);
    } finally {
      await supervisor.stop();
    }
  }, 120_000);
});

describe('a master that hangs', () => {
  it('holds up only its own shards: charges on other masters reach the ledger meanwhile, its own after', async () => {
    const g = await billingFixture(pool, cluster.target, `hg${randomBytes(3).toString('hex')}:`);
    const worker = createRedis(cluster.target, 'worker');
    worker.on('error', () => {});
    const logged: Record<string, unknown>[] = [];
    const writer = new LedgerWriter({
      pool,
      redis: worker,
      layout: g.layout,
      log: (o) => logged.push(o),
      answerMs: 300,
    });
    // A master without a replica (none can take over while it is stopped), stopped for less than the node timeout.
    const replica = cluster.nodes.find((n) => n.role === 'replica')!;
    const hung = cluster.nodes.find((n) => n.role === 'master' && n.port !== replica.masterPort)!.port;
    const node = createRedis(`redis://127.0.0.1:${hung}`, 'worker');
    const pid = Number(/process_id:(\d+)/.exec(await node.info('server'))?.[1]);
    node.disconnect();
    const accountOnNode = async (wanted: (port: number) => boolean) => {
      for (;;) {
        const a = await g.fundedAccount(100);
        if (wanted(await cluster.masterOf(g.layout.grants(a.accountId)))) return a;
      }
    };
    const healthy = await accountOnNode((p) => p !== hung);
    const stuck = await accountOnNode((p) => p === hung);
    const charge = (a: { accountId: number; keyId: number }) => chargeOnce(g.meter, a);
    const events = async (accountId: number) =>
      (
        await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM billing.usage_events WHERE account_id = $1', [
          accountId,
        ])
      ).rows[0]!.n;
    // The writer at work (its groups made, the stuck account's first charge written) before the node stops.
    writer.start();
    await charge(stuck);
    for (let i = 0; i < 200 && (await events(stuck.accountId)) < 1; i++) await new Promise((r) => setTimeout(r, 25));
    expect(await events(stuck.accountId)).toBe(1);
    // Every node's timeout raised while the node is stopped, so that a slow machine has time for the writes below:
    // stopped for longer than it, the node would be called failed, and its slots with it (no replica takes over).
    try {
      await cluster.setNodeTimeout(30_000);
      // Stopped for well under the node timeout.
      process.kill(pid, 'SIGSTOP');
      const stoppedAt = Date.now();
      let written = 0;
      try {
        for (let i = 0; i < 3; i++) await charge(healthy);
        // Calls without a charge too: the flusher flushes the buckets that answer.
        await g.calls.recordCall({
          requestId: randomUUID(),
          transactionId: randomUUID(),
          accountId: healthy.accountId,
          keyId: healthy.keyId,
          endpoint: '/property/autocomplete',
        });
        const flusher = new CallFlusher({ pool, redis: worker, layout: g.layout, log: () => {}, answerMs: 300 });
        expect(await flusher.flushOnce()).toBe(1);
        while (written < 3 && Date.now() - stoppedAt < 15_000) {
          written = await events(healthy.accountId);
          if (written < 3) await new Promise((r) => setTimeout(r, 20));
        }
      } finally {
        process.kill(pid, 'SIGCONT');
      }
      expect(written).toBe(3); // written while the other master was stopped
      expect(logged.some((l) => String(l.msg).startsWith('an outbox stream did not answer'))).toBe(true);
      // And the stopped one's streams are read again once it answers.
      await charge(stuck);
      for (let i = 0; i < 200 && (await events(stuck.accountId)) < 2; i++) await new Promise((r) => setTimeout(r, 25));
      expect(await events(stuck.accountId)).toBe(2);
    } finally {
      process.kill(pid, 'SIGCONT');
      await writer.stop();
      worker.disconnect();
      await g.close();
      await cluster.setNodeTimeout(); // last: the file's other tests run on the cluster's own timeout
    }
  }, 60_000);
});
