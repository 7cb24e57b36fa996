// The request-path client auto-pipelines (redis-autopipeline.ts): a script defined while a batch is collecting is
// part of that batch, every caller gets its own reply, and closing sends what is still collecting. Real Redis.
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { closeRedis, createRedis, redisReady } from './redis.js';

const prefix = () => `${inject('redisPrefix')}ap:${randomBytes(4).toString('hex')}:`;
const check = createRedis(inject('redisUrl'), 'worker');
afterAll(() => check.quit());

describe('an auto-pipelining client', () => {
  it('takes a script defined while a batch is collecting into that batch; every caller gets its own reply', async () => {
    const redis = createRedis(inject('redisUrl'), 'producer');
    await redisReady(redis);
    const p = prefix();
    await Promise.all(Array.from({ length: 5 }, (_, i) => check.set(`${p}${i}`, `v${i}`)));
    const crashes: unknown[] = [];
    const onCrash = (err: unknown) => crashes.push(err);
    process.on('uncaughtException', onCrash);
    try {
      // A batch is collecting (two GETs), then a script is defined and called (the first call of a lazily defined
      // script), then more GETs join the same batch.
      const before = [redis.get(`${p}0`), redis.get(`${p}1`)];
      expect(redis.autoPipelineQueueSize).toBe(2);
      const name = `pra_test_echo_${randomBytes(3).toString('hex')}`;
      redis.defineCommand(name, { numberOfKeys: 1, lua: "return 'script:' .. redis.call('GET', KEYS[1])" });
      const scripted = (redis as unknown as Record<string, (k: string) => Promise<string>>)[name]!(`${p}2`);
      const after = [redis.get(`${p}3`), redis.get(`${p}4`)];
      expect(await Promise.all([...before, scripted, ...after])).toEqual(['v0', 'v1', 'script:v2', 'v3', 'v4']);
      await new Promise((r) => setTimeout(r, 50));
      expect(crashes).toEqual([]);
    } finally {
      process.off('uncaughtException', onCrash);
      await closeRedis(redis);
    }
  });

  it('closeRedis sends the commands still collecting before it disconnects', async () => {
    const redis = createRedis(inject('redisUrl'), 'producer');
    await redisReady(redis);
    const key = `${prefix()}counted`;
    const counted = redis.incr(key).catch((e: Error) => e.message); // as a call counted when its response finished
    expect(redis.autoPipelineQueueSize).toBe(1);
    await closeRedis(redis);
    expect(await counted).toBe(1);
    expect(await check.get(key)).toBe('1');
  });
});
