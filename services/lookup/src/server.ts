import { createPool, createRedis, KeyCache, redisReady, runInternalServer, runServer, storesReady } from '@pra/shared/platform';
import { CreditCharger } from '@pra/account-billing/billing';
import { createLookupApp } from './app.js';
import { loadLookupConfig } from './config.js';

const config = loadLookupConfig();
const pool = createPool(config.DATABASE_URL, config.LOOKUP_DB_POOL, 'lookup');
const redis = createRedis(config.REDIS_URL, 'producer');
redis.on('error', () => {}); // a failing charge answers 503; the client reconnects by itself
await redisReady(redis);
const app = createLookupApp({ pool, charger: new CreditCharger(redis, config.REDIS_PREFIX), keys: new KeyCache(redis, config.REDIS_PREFIX), gatewayKey: config.GATEWAY_HMAC_KEY });
await runInternalServer(config, storesReady(pool, redis));
await runServer(app, config.LOOKUP_PORT, config.LOOKUP_HOST, 'lookup', async () => {
  redis.disconnect();
  await pool.end();
});
