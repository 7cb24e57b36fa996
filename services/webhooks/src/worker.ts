// The webhook delivery worker process (no public HTTP; /metrics, /livez, /readyz on its internal port): the
// dispatcher (change feed -> outbox), the pump (outbox -> BullMQ) and the delivery worker. Run as many as the volume
// needs: the dispatcher runs in one at a time (an advisory lock), the jobs spread over all. SIGTERM: deliveries in
// flight finish and are logged, then the process exits; a killed one's jobs are run again by the others.
import { bullQueuePrefix, createPool, runInternalServer, storesReady } from '@pra/platform';
import { redisTarget } from '@pra/core/config';
import { logTo } from '@pra/platform/telemetry';
import { loadWebhooksConfig } from './config.js';
import { DeliveryEngine } from './delivery/engine.js';

const config = loadWebhooksConfig();
const log = logTo();
const pool = createPool(config.DATABASE_URL, config.DB_WORKER_POOL_SIZE, 'webhooks-worker');
const engine = new DeliveryEngine({
  pool,
  redisUrl: redisTarget(config),
  queuePrefix: bullQueuePrefix(config.REDIS_PREFIX, Boolean(config.REDIS_CLUSTER_NODES)),
  log,
  policy: { allowInsecureLocal: config.WEBHOOKS_ALLOW_INSECURE_LOCAL },
  timeoutMs: config.WEBHOOK_TIMEOUT_MS,
  responseCapBytes: config.WEBHOOK_RESPONSE_CAP_BYTES,
  concurrency: config.WEBHOOK_CONCURRENCY,
  endpointConcurrency: config.WEBHOOK_ENDPOINT_CONCURRENCY,
  failingEndpointConcurrency: config.WEBHOOK_FAILING_ENDPOINT_CONCURRENCY,
  retryScale: config.WEBHOOK_RETRY_SCALE,
  dispatchEveryMs: config.WEBHOOK_DISPATCH_EVERY_MS,
  resyncEveryMs: config.WEBHOOK_RESYNC_EVERY_MS,
  lockDurationMs: config.WEBHOOK_LOCK_MS,
});
await engine.start();
await runInternalServer(config, storesReady(pool));
log({
  msg: 'webhook worker started',
  concurrency: config.WEBHOOK_CONCURRENCY,
  ...(config.WEBHOOKS_ALLOW_INSECURE_LOCAL ? { insecureLocal: 'http and loopback receivers allowed' } : {}),
});
let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    if (stopping) return;
    stopping = true;
    void engine
      .stop()
      .then(() => pool.end())
      .finally(() => process.exit(0));
  });
}
