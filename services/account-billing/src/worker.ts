// An extra usage worker process (no HTTP, no relay, no maintenance jobs): run as many as the usage volume needs.
// The account-billing server runs one worker itself, plus the relay and the job schedulers.
import { z } from 'zod';
import { createPool, internalEnv, parseConfig, runInternalServer, storeEnv, storesReady, workerPoolEnv } from '@pra/shared/platform';
import { logTo } from '@pra/shared/telemetry';
import { redisLayout } from './data/redis-layout.js';
import { UsagePipeline } from './workers/pipeline.js';

const config = parseConfig(
  z.object({
    ...storeEnv,
    ...workerPoolEnv(8),
    ...internalEnv,
  }),
);
const log = logTo();
const pool = createPool(config.DATABASE_URL, config.DB_WORKER_POOL_SIZE, 'usage-worker');
const pipeline = new UsagePipeline({
  pool, redisUrl: config.REDIS_URL, layout: redisLayout(config.REDIS_PREFIX), log, roles: { relay: false, usageWorker: true, maintenance: false },
});
await pipeline.start();
await runInternalServer(config, storesReady(pool));
log({ msg: 'usage worker started' });
let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    if (stopping) return;
    stopping = true;
    // Close lets running jobs finish: their batches commit before the process exits.
    void pipeline.stop().then(() => pool.end()).finally(() => process.exit(0));
  });
}
