// Benchmark server: the real lookup app, with charging as configured by BENCH_CHARGING. "off" replaces only the
// Redis charge by a grant of every record, so the difference measured is the cost of charging itself.
import { createPool, createRedis, redisReady } from '@pra/platform';
import {
  KeyCache,
  RedisCallCounter,
  RedisCreditMeter,
  type ChargeRequest,
  type ChargeResult,
  type CreditMeter,
} from '@pra/account-billing/client';
import { createLookupApp } from '../../services/lookup/src/app.js';

/** Grants every record without asking Redis: what the lookup costs without its charge. */
const noCharge: CreditMeter = {
  charge: async (r: ChargeRequest): Promise<ChargeResult> => ({
    granted: r.wanted,
    remaining: 0,
    repeated: false,
    receipt: '',
  }),
  precheck: async () => ({ kind: 'new', balance: Number.MAX_SAFE_INTEGER }),
  balance: async () => null,
};

const prefix = process.env.REDIS_PREFIX!;
const pool = createPool(process.env.DATABASE_URL!, 16, 'bench-lookup');
const redis = createRedis(process.env.REDIS_URL!, 'producer');
await redisReady(redis);
const meter = process.env.BENCH_CHARGING === 'off' ? noCharge : new RedisCreditMeter(redis, prefix);
const calls = new RedisCallCounter(redis, prefix);
const server = createLookupApp({
  pool,
  meter,
  calls,
  auth: { development: true, keys: new KeyCache(redis, prefix) },
}).listen(0, '127.0.0.1', () => {
  const a = server.address();
  console.log(JSON.stringify({ port: typeof a === 'object' && a ? a.port : 0 }));
});
