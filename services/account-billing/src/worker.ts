// An extra ledger writer process (no HTTP, no maintenance jobs): run as many as the usage volume needs. The
// account-billing server runs one writer itself, plus the job schedulers. SIGTERM: the batch in flight is
// written and acknowledged, then the process exits; a writer that is killed leaves its batch to the others.
import { z } from 'zod';
import { createPool, runInternalServer, storesReady } from '@pra/platform';
import { internalEnv, parseConfig, redisTarget, storeEnv, workerPoolEnv } from '@pra/core/config';
import { logTo } from '@pra/platform/telemetry';
import { redisLayout } from './data/redis-layout.js';
import { UsagePipeline } from './workers/pipeline.js';

const config = parseConfig(
  z.object({
    ...storeEnv,
    ...workerPoolEnv(8),
    /** How long a dead writer's batch waits before another writer takes it over. */
    LEDGER_CLAIM_IDLE_MS: z.coerce.number().int().min(100).max(600_000).default(30_000),
    /** How long a SIGTERM waits for the batch in flight (PostgreSQL silent) before it leaves it to another writer. */
    LEDGER_STOP_DEADLINE_MS: z.coerce.number().int().min(5_000).max(600_000).default(20_000),
    ...internalEnv,
  }),
);
const log = logTo();
const pool = createPool(config.DATABASE_URL, config.DB_WORKER_POOL_SIZE, 'usage-worker');
const pipeline = new UsagePipeline({
  pool,
  redisUrl: redisTarget(config),
  layout: redisLayout(config.REDIS_PREFIX, { cluster: Boolean(config.REDIS_CLUSTER_NODES) }),
  log,
  roles: { ledgerWriter: true, maintenance: false },
  claimIdleMs: config.LEDGER_CLAIM_IDLE_MS,
});
await pipeline.start();
// Handlers once the pipeline runs (stopping it needs it), before the internal server is awaited: a SIGTERM while it
// starts still stops the writer gracefully.
let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    if (stopping) return;
    stopping = true;
    // The batch in flight commits and is acknowledged before the process exits; one that cannot (PostgreSQL silent)
    // is left after LEDGER_STOP_DEADLINE_MS to another writer, which claims it (LEDGER_CLAIM_IDLE_MS) and writes it once.
    setTimeout(() => {
      log({
        msg: `ledger writer did not stop within ${config.LEDGER_STOP_DEADLINE_MS} ms: exiting, its batch left to the other writers`,
      });
      process.exit(1);
    }, config.LEDGER_STOP_DEADLINE_MS).unref();
    void pipeline
      .stop()
      .then(() => pool.end())
      .then(
        () => process.exit(0),
        (err: Error) => {
          log({ msg: 'ledger writer stopped with an error', error: err.message });
          process.exit(1);
        },
      );
  });
}
await runInternalServer(config, storesReady(pool));
log({ msg: 'ledger writer started' });
