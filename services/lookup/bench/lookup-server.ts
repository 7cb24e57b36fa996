// Benchmark server: the real lookup app, with charging as configured by BENCH_CHARGING. "off" replaces only the
// Redis charge by a grant of every record, so the difference measured is the cost of charging itself.
import { createPool, createRedis, KeyCache, redisReady } from '@pra/shared/platform';
import { CreditCharger, type ChargeRequest, type ChargeResult } from '@pra/account-billing/billing';
import { createLookupApp } from '../src/app.js';

class NoCharge extends CreditCharger {
  override async charge(r: ChargeRequest): Promise<ChargeResult> {
    return { granted: r.wanted, remaining: 0, repeated: false };
  }
}

const prefix = process.env.REDIS_PREFIX!;
const pool = createPool(process.env.DATABASE_URL!, 16, 'bench-lookup');
const redis = createRedis(process.env.REDIS_URL!, 'producer');
await redisReady(redis);
const charger = process.env.BENCH_CHARGING === 'off' ? new NoCharge(redis, prefix) : new CreditCharger(redis, prefix);
const server = createLookupApp({ pool, charger, auth: { development: true, keys: new KeyCache(redis, prefix) } }).listen(0, '127.0.0.1', () => {
  const a = server.address();
  console.log(JSON.stringify({ port: typeof a === 'object' && a ? a.port : 0 }));
});
