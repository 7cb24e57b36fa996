import { closeRedis, redisReady, runInternalServer, runServer, storesReady } from '@pra/platform';
import { clientTimeouts } from '@pra/core/config';
import { RedisCallCounter, RedisCreditMeter, requestPathClients } from '@pra/account-billing/client';
import { createLookupApp } from './app.js';
import { loadLookupConfig } from './config.js';

const config = loadLookupConfig();
const { redis, auth, pool, reads, closePools } = requestPathClients(config, 'lookup');
await redisReady(redis);
const app = createLookupApp({
  pool,
  reads,
  meter: new RedisCreditMeter(redis, config.REDIS_PREFIX, { outboxLimit: config.BILLING_OUTBOX_LIMIT }),
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
    await closeRedis(redis);
    await closePools();
  },
  clientTimeouts(config),
);
