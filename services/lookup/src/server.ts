import {
  callerAuth,
  createPool,
  createRedis,
  redisReady,
  runInternalServer,
  runServer,
  storesReady,
} from '@pra/platform';
import { clientTimeouts, requestPoolLimits } from '@pra/core/config';
import { KeyCache } from '@pra/account-billing/client';
import { RedisCreditMeter } from '@pra/account-billing/client';
import { createLookupApp } from './app.js';
import { loadLookupConfig } from './config.js';

const config = loadLookupConfig();
const redis = createRedis(config.REDIS_URL, 'producer');
redis.on('error', () => {}); // a failing charge answers 503; the client reconnects by itself
const auth = callerAuth(config, new KeyCache(redis, config.REDIS_PREFIX));
const pool = createPool(config.DATABASE_URL, config.DB_POOL_SIZE, 'lookup', requestPoolLimits(config));
await redisReady(redis);
const app = createLookupApp({ pool, meter: new RedisCreditMeter(redis, config.REDIS_PREFIX), auth });
await runInternalServer(config, storesReady(pool, redis));
await runServer(
  app,
  config.LOOKUP_PORT,
  config.LOOKUP_HOST,
  'lookup',
  async () => {
    redis.disconnect();
    await pool.end();
  },
  clientTimeouts(config),
);
