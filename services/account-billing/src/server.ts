// account-billing: the public /usage app, the internal admin API, and the usage pipeline with its jobs.
import {
  closeRedis,
  createPool,
  listenServer,
  redisReady,
  runInternalServer,
  runServer,
  storesReady,
} from '@pra/platform';
import { clientTimeouts, redisTarget } from '@pra/core/config';
import { requestPathClients } from './client/service-clients.js';
import { RedisCallCounter } from './client/call-counter.js';
import { migrateWebhooks } from '@pra/webhooks/migrate';
import { logTo } from '@pra/platform/telemetry';
import { createAdminApp } from './admin-app.js';
import { createBillingApp } from './app.js';
import { loadBillingConfig } from './config.js';
import { migrateBilling } from './data/migrate.js';
import { layoutFor } from './data/redis-layout.js';
import { UsagePipeline } from './workers/pipeline.js';
import { KeyLookupService } from './domain/key-lookup.js';

const config = loadBillingConfig();
const log = logTo();
// /usage and the admin API get a pool whose every wait has a limit; the pipeline's batches and jobs their own.
const { redis, auth, pool, reads, closePools } = requestPathClients(config, 'account-billing');
const workPool = createPool(config.DATABASE_URL, config.DB_WORKER_POOL_SIZE, 'account-billing-worker');
await migrateBilling(workPool, (l) => log({ msg: l }));
// The webhook routes' tables (their endpoints belong to accounts); migrate-all runs them too.
await migrateWebhooks(workPool, (l) => log({ msg: l }));
await redisReady(redis);
const layout = layoutFor(redis, config.REDIS_PREFIX);
const pipeline = new UsagePipeline({ pool: workPool, redisUrl: redisTarget(config), layout, log });
await pipeline.start();
const close = async () => {
  await pipeline.stop();
  await closeRedis(redis);
  await Promise.all([closePools(), workPool.end()]);
};
const timeouts = clientTimeouts(config);
await runInternalServer(config, storesReady(pool, redis));
// One signal handler for the process: both servers stop accepting, then the pipeline finishes its batch, then exit.
const admin = await listenServer(
  createAdminApp({ pool, redis, layout }, config.ADMIN_TOKEN),
  config.ADMIN_PORT,
  config.ADMIN_HOST,
  'account-billing admin',
  timeouts,
);
await runServer(
  createBillingApp({
    pool,
    reads,
    auth,
    keyLookup: new KeyLookupService({ pool, redis, prefix: config.REDIS_PREFIX }),
    calls: new RedisCallCounter(redis, config.REDIS_PREFIX),
    webhookUrls: { allowInsecureLocal: config.WEBHOOKS_ALLOW_INSECURE_LOCAL },
  }),
  config.BILLING_PORT,
  config.BILLING_HOST,
  'account-billing',
  close,
  timeouts,
  [admin],
);
