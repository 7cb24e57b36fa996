// account-billing: the public /usage app, the internal admin API, and the usage pipeline with its jobs.
import { createPool, createRedis, KeyCache, redisReady, runInternalServer, runServer, storesReady } from '@pra/shared/platform';
import { logTo } from '@pra/shared/telemetry';
import { createAdminApp } from './admin-app.js';
import { createBillingApp } from './app.js';
import { loadBillingConfig } from './config.js';
import { migrateBilling } from './data/migrate.js';
import { redisLayout } from './data/redis-layout.js';
import { UsagePipeline } from './workers/pipeline.js';

const config = loadBillingConfig();
const log = logTo();
const pool = createPool(config.DATABASE_URL, 16, 'account-billing');
await migrateBilling(pool, (l) => log({ msg: l }));
const redis = createRedis(config.REDIS_URL, 'producer');
redis.on('error', () => {});
await redisReady(redis);
const layout = redisLayout(config.REDIS_PREFIX);
const pipeline = new UsagePipeline({ pool, redisUrl: config.REDIS_URL, layout, log });
await pipeline.start();
const keys = new KeyCache(redis, config.REDIS_PREFIX);
const close = async () => {
  await pipeline.stop();
  redis.disconnect();
  await pool.end();
};
await runInternalServer(config, storesReady(pool, redis));
await runServer(createAdminApp({ pool, redis, layout }, config.ADMIN_TOKEN), config.ADMIN_PORT, config.ADMIN_HOST, 'account-billing admin', async () => {});
await runServer(createBillingApp({ pool, keys, gatewayKey: config.GATEWAY_HMAC_KEY }), config.BILLING_PORT, config.BILLING_HOST, 'account-billing', close);
