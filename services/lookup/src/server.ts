import { closeRedis, redisReady, runInternalServer, runServer, storesReady } from '@pra/platform';
import { clientTimeouts } from '@pra/core/config';
import {
  REVERSALS_SETTLE_MS,
  RedisCallCounter,
  RedisCreditMeter,
  requestPathClients,
} from '@pra/account-billing/client';
import { createLookupApp } from './app.js';
import { loadLookupConfig } from './config.js';

const config = loadLookupConfig();
const { redis, auth, pool, reads, closePools } = requestPathClients(config, 'lookup');
await redisReady(redis);
const meter = new RedisCreditMeter(redis, config.REDIS_PREFIX, { outboxLimit: config.BILLING_OUTBOX_LIMIT });
const app = createLookupApp({
  pool,
  reads,
  meter,
  calls: new RedisCallCounter(redis, config.REDIS_PREFIX),
  auth,
});
await runInternalServer(config, storesReady(pool, redis));
await runServer(
  app,
  config.LOOKUP_PORT,
  config.LOOKUP_HOST,
  'lookup',
  async () => {
    // A call answered 503 while Redis did not answer has its charge reversed once Redis answers: not dropped by a
    // deploy's stop (bounded: a Redis that stays away leaves them logged).
    await meter.settleReversals(REVERSALS_SETTLE_MS);
    await closeRedis(redis);
    await closePools();
  },
  clientTimeouts(config),
);
