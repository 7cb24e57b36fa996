// createRedis in cluster mode against a real Redis Cluster of the test's own (testing/redis-cluster.ts): both roles
// connect, hash-tagged scripts and auto-pipelined batches across masters land right, a cross-slot command fails
// (why every key of one call shares a hash tag), and a failover, a master that comes back empty and one killed for
// good are lived through.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeRedis, createRedis, PRODUCER_COMMAND_WORST_MS, redisReady, type RedisClient } from './redis.js';
import { CLUSTER_NODE_TIMEOUT_MS, startRedisCluster, type OwnRedisCluster } from './testing/redis-cluster.js';

type Scripted = Record<string, (...a: string[]) => Promise<unknown>>;

let cluster: OwnRedisCluster;
let producer: RedisClient;
let worker: RedisClient;

beforeAll(async () => {
  const t0 = Date.now();
  cluster = await startRedisCluster();
  console.info(`cluster started in ${Date.now() - t0} ms`);
  producer = createRedis(cluster.target, 'producer');
  worker = createRedis(cluster.target, 'worker');
  await Promise.all([redisReady(producer), redisReady(worker)]);
});
afterAll(async () => {
  await Promise.all([producer && closeRedis(producer), worker?.quit().catch(() => {})]);
  await cluster?.stop();
});

/** A key of a hash tag served by the given master (tags tried in turn). */
async function keyOn(port: number, name: string): Promise<string> {
  for (let i = 0; i < 100; i++) {
    const key = `t:{${name}${i}}:n`;
    if ((await cluster.masterOf(key)) === port) return key;
  }
  throw new Error(`no tag of ${name} on ${port}`);
}

/** The master that has the replica (the replica moves with failovers). */
const replicatedMaster = () => cluster.nodes.find((n) => cluster.nodes.some((r) => r.masterPort === n.port))!;

describe('createRedis on a Redis Cluster', () => {
  it('starts three masters and one replica, and both roles connect and answer', async () => {
    const masters = cluster.nodes.filter((n) => n.role === 'master');
    expect(masters).toHaveLength(3);
    expect(cluster.nodes.filter((n) => n.role === 'replica')).toEqual([
      expect.objectContaining({ masterPort: cluster.nodes[0]!.port }),
    ]);
    expect(cluster.target).toMatch(/^redis-cluster:\/\/127\.0\.0\.1:\d+,/);
    expect(await producer.set('t:{hello}:k', 'v')).toBe('OK');
    expect(await worker.get('t:{hello}:k')).toBe('v');
    expect(await producer.ping()).toBe('PONG');
    await cluster.flushAll();
    expect(await worker.get('t:{hello}:k')).toBeNull();
  });

  it('runs a script on three keys of one hash tag, and a batch of INCRs over 50 tags on every master', async () => {
    producer.defineCommand('praTestTag3', {
      numberOfKeys: 3,
      lua: "redis.call('SET', KEYS[1], ARGV[1]) return {redis.call('INCR', KEYS[2]), redis.call('RPUSH', KEYS[3], ARGV[1]), redis.call('GET', KEYS[1])}",
    });
    const scripts = producer as unknown as Scripted;
    expect(await scripts.praTestTag3!('t:{a1}:x', 't:{a1}:y', 't:{a1}:z', 'v')).toEqual([1, 1, 'v']);
    expect(await scripts.praTestTag3!('t:{a1}:x', 't:{a1}:y', 't:{a1}:z', 'w')).toEqual([2, 2, 'w']);

    // One turn of the event loop: ioredis collects one batch per master.
    const incrs = Array.from({ length: 200 }, (_, i) => producer.incr(`t:{c${i % 50}}:n`));
    expect(producer.autoPipelineQueueSize).toBe(200);
    const replies = await Promise.all(incrs);
    expect(replies).toEqual(Array.from({ length: 200 }, (_, i) => Math.floor(i / 50) + 1));
    const tags = Array.from({ length: 50 }, (_, t) => `t:{c${t}}:n`);
    expect(await Promise.all(tags.map((k) => worker.get(k)))).toEqual(tags.map(() => '4'));
    const masters = new Set(await Promise.all(tags.map((k) => cluster.masterOf(k))));
    expect(masters.size).toBe(3);
  });

  it('takes a script defined while batches are collecting on several masters into them (redis/ioredis#1931)', async () => {
    const keys = Array.from({ length: 6 }, (_, i) => `t:{late${i}}:k`);
    await Promise.all(keys.map((k, i) => worker.set(k, `v${i}`)));
    const crashes: unknown[] = [];
    const onCrash = (err: unknown) => crashes.push(err);
    process.on('uncaughtException', onCrash);
    try {
      const before = keys.slice(0, 3).map((k) => producer.get(k));
      expect(producer.autoPipelineQueueSize).toBe(3);
      producer.defineCommand('praTestLateEcho', {
        numberOfKeys: 1,
        lua: "return 'script:' .. redis.call('GET', KEYS[1])",
      });
      const scripts = producer as unknown as Scripted;
      const scripted = [scripts.praTestLateEcho!(keys[3]!), scripts.praTestLateEcho!(keys[0]!)];
      const after = keys.slice(4).map((k) => producer.get(k));
      expect(await Promise.all([...before, ...scripted, ...after])).toEqual([
        'v0',
        'v1',
        'v2',
        'script:v3',
        'script:v0',
        'v4',
        'v5',
      ]);
      await new Promise((r) => setTimeout(r, 50));
      expect(crashes).toEqual([]);
    } finally {
      process.off('uncaughtException', onCrash);
    }
  });

  it('refuses a command or a script whose keys span slots (CROSSSLOT): every key of one call shares a hash tag', async () => {
    await expect(worker.del('t:{x1}:a', 't:{x2}:a')).rejects.toThrow(/CROSSSLOT/);
    await expect(worker.eval("return redis.call('GET', KEYS[2])", 2, 't:{x1}:a', 't:{x2}:a')).rejects.toThrow(
      /CROSSSLOT/,
    );
    // The producer's batches refuse it before Redis does (ioredis checks every command of a cluster pipeline).
    const crossSlot = /CROSSSLOT|should belong to the same slot/;
    await expect(producer.mget('t:{x1}:a', 't:{x2}:a')).rejects.toThrow(crossSlot);
    await expect(producer.eval("return redis.call('GET', KEYS[2])", 2, 't:{x1}:a', 't:{x2}:a')).rejects.toThrow(
      crossSlot,
    );
    expect(await producer.mget('t:{x1}:a', 't:{x1}:b')).toEqual([null, null]);
  });

  it('lives through a failover under a loop of INCRs: every acknowledged INCR applied once, none lost', async () => {
    const master = replicatedMaster();
    const replica = cluster.replicaOf(master.port);
    const key = await keyOn(master.port, 'fo');
    const acknowledged: number[] = [];
    const errors: { at: number; message: string }[] = [];
    const slowest = { ms: 0 };
    let running = true;
    const t0 = Date.now();
    // Four callers, so commands are in flight (and batched) at the switch.
    const loops = Array.from({ length: 4 }, async () => {
      while (running) {
        const sent = Date.now();
        await producer.incr(key).then(
          (n) => acknowledged.push(n),
          (e: Error) => errors.push({ at: Date.now() - t0, message: e.message }),
        );
        slowest.ms = Math.max(slowest.ms, Date.now() - sent);
        await new Promise((r) => setTimeout(r, 2));
      }
    });
    let f0 = 0;
    let f1 = 0;
    let atFailover = 0;
    try {
      await new Promise((r) => setTimeout(r, 300));
      f0 = Date.now() - t0;
      await cluster.failover(master.port);
      f1 = Date.now() - t0;
      atFailover = acknowledged.length;
      // Writes acknowledged after the failover (a slow machine refreshes its slots later: waited for, not slept).
      await expect.poll(() => acknowledged.length, { timeout: 10_000, interval: 50 }).toBeGreaterThan(atFailover);
    } finally {
      // The loops end whatever happened: left running, they would write through the file's later tests.
      running = false;
      await Promise.all(loops);
    }
    console.info(
      `failover ${f0}-${f1} ms: ${acknowledged.length} INCRs acknowledged (${acknowledged.length - atFailover} after), ` +
        `${errors.length} rejected ${JSON.stringify(errors.slice(0, 5))}, slowest ${slowest.ms} ms`,
    );

    expect(await cluster.masterOf(key)).toBe(replica);
    expect(cluster.replicaOf(replica)).toBe(master.port);
    expect(acknowledged.length - atFailover).toBeGreaterThan(0);
    expect(Number(await worker.get(key))).toBe(acknowledged.length);
    expect([...acknowledged].sort((a, b) => a - b)).toEqual(acknowledged.map((_, i) => i + 1));
    expect(await producer.incr(key)).toBe(acknowledged.length + 1);
  });

  it('lives through a master that comes back empty: the key is gone there and on its replica, writes go on', async () => {
    const master = replicatedMaster();
    const key = await keyOn(master.port, 'empty');
    const busy = await keyOn(master.port, 'busy');
    expect(await producer.set(key, 'before')).toBe('OK');
    const replica = createRedis(`redis://127.0.0.1:${cluster.replicaOf(master.port)}`, 'worker');
    // Writes go on to another key of that master through the restart: held or refused while it is down, never stuck.
    const errors: { at: number; message: string }[] = [];
    let acknowledged = 0;
    let lastAck = 0;
    let slowest = 0;
    let running = true;
    const t0 = Date.now();
    const loop = (async () => {
      while (running) {
        const sent = Date.now();
        await producer.incr(busy).then(
          () => {
            acknowledged++;
            lastAck = Date.now() - t0;
          },
          (e: Error) => errors.push({ at: Date.now() - t0, message: e.message }),
        );
        slowest = Math.max(slowest, Date.now() - sent);
        await new Promise((r) => setTimeout(r, 5));
      }
    })();
    try {
      await new Promise((r) => setTimeout(r, 200));
      const r0 = Date.now() - t0;
      await cluster.restartEmpty(master.port);
      const r1 = Date.now() - t0;
      await expect.poll(() => lastAck, { timeout: 10_000, interval: 50 }).toBeGreaterThan(r1);
      running = false;
      await loop;
      const messages = [...new Set(errors.map((e) => e.message))];
      console.info(
        `restart of ${master.port} ${r0}-${r1} ms: ${acknowledged} INCRs acknowledged (last at ${lastAck} ms), ` +
          `${errors.length} refused from ${errors[0]?.at} to ${errors.at(-1)?.at} ms ${JSON.stringify(messages)}, ` +
          `slowest ${slowest} ms`,
      );
      expect(lastAck).toBeGreaterThan(r1);
      expect(slowest).toBeLessThanOrEqual(PRODUCER_COMMAND_WORST_MS + 500);
      expect(await cluster.masterOf(key)).toBe(master.port);
      expect(await worker.get(key)).toBeNull();
      await replica.call('READONLY'); // a replica's reads answer MOVED without it
      expect(await replica.exists(key)).toBe(0);
      expect(await producer.set(key, 'after')).toBe('OK');
      expect(await worker.get(key)).toBe('after');
    } finally {
      running = false;
      await loop;
      replica.disconnect();
    }
  });

  it('lives through a master killed for good: its replica takes over after the node timeout, writes go on', async () => {
    const master = replicatedMaster();
    const replica = cluster.replicaOf(master.port);
    const key = await keyOn(master.port, 'down');
    const errors: { at: number; message: string }[] = [];
    let lastAck = 0;
    let slowest = 0;
    let running = true;
    const t0 = Date.now();
    const loop = (async () => {
      while (running) {
        const sent = Date.now();
        await producer.incr(key).then(
          () => {
            lastAck = Date.now() - t0;
          },
          (e: Error) => errors.push({ at: Date.now() - t0, message: e.message }),
        );
        slowest = Math.max(slowest, Date.now() - sent);
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    try {
      await new Promise((r) => setTimeout(r, 200));
      await cluster.kill(master.port);
      const k = Date.now() - t0;
      // Down past the node timeout: the masters mark it failed and the replica is elected in its place.
      await expect
        .poll(() => cluster.masterOf(key), { timeout: 4 * CLUSTER_NODE_TIMEOUT_MS, interval: 100 })
        .toBe(replica);
      const promoted = Date.now() - t0;
      await expect.poll(() => lastAck, { timeout: 5_000, interval: 50 }).toBeGreaterThan(promoted);
      running = false;
      await loop;
      console.info(
        `kill of ${master.port} at ${k} ms, replica ${replica} serving at ${promoted} ms, first write after at ` +
          `${lastAck} ms; ${errors.length} refused ${JSON.stringify([...new Set(errors.map((e) => e.message))])}, ` +
          `slowest ${slowest} ms`,
      );
      // Refused while no master serves the slot, each within the producer's worst case: never a request stuck.
      expect(slowest).toBeLessThanOrEqual(PRODUCER_COMMAND_WORST_MS + 500);
      await cluster.start(master.port);
      expect(cluster.replicaOf(replica)).toBe(master.port);
      expect(await producer.incr(key)).toBeGreaterThan(0);
    } finally {
      running = false;
      await loop;
    }
  });
});
