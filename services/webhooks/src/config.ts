// The delivery worker's configuration, parsed once at start.
import { z } from 'zod';
import { flag, internalEnv, parseConfig, storeEnv } from '@pra/core/config';
import { defaultEndpointShare } from './delivery/endpoint-slots.js';

const ms = (fallback: number, max = 3_600_000) => z.coerce.number().int().min(1).max(max).default(fallback);

const Settings = z.object({
  ...storeEnv,
  /** Connections: one listens for NOTIFY webhooks_outbox, the others log attempts (two at least). */
  DB_WORKER_POOL_SIZE: z.coerce.number().int().min(2).max(200).default(8),
  ...internalEnv,
  /**
   * http:// URLs and loopback addresses allowed (a system on one machine: npm start and the tests turn it on).
   * Never in production: with it off, webhooks go only to https:// URLs of public addresses.
   */
  WEBHOOKS_ALLOW_INSECURE_LOCAL: flag(),
  /** Deliveries in flight at once per worker process. */
  WEBHOOK_CONCURRENCY: z.coerce.number().int().min(1).max(1_000).default(50),
  /**
   * Of those, at most this many to one endpoint (1 while its last attempt failed): a receiver that hangs or fails
   * cannot hold every slot. Default: a fifth of WEBHOOK_CONCURRENCY.
   */
  WEBHOOK_ENDPOINT_CONCURRENCY: z.coerce.number().int().min(1).max(1_000).optional(),
  /** To an endpoint whose last attempt failed. */
  WEBHOOK_FAILING_ENDPOINT_CONCURRENCY: z.coerce.number().int().min(1).max(1_000).default(1),
  /** One attempt's deadline: connect, send and answer (at most 5 s). */
  WEBHOOK_TIMEOUT_MS: ms(5_000, 5_000),
  /** How much of a receiver's answer is read (and discarded). */
  WEBHOOK_RESPONSE_CAP_BYTES: z.coerce.number().int().min(0).max(1_048_576).default(65_536),
  /** How often the change feed is read for new events. */
  WEBHOOK_DISPATCH_EVERY_MS: ms(500),
  /** The full pass that queues again every event owed (jobs lost or given up by the queue). */
  WEBHOOK_RESYNC_EVERY_MS: ms(600_000),
  /** How long a killed worker's delivery is held before another worker runs it again. */
  WEBHOOK_LOCK_MS: ms(30_000, 600_000),
  /**
   * A factor on the retry schedule's waits: 1 in production (16 attempts over 30-50 h); a smaller one lives the
   * schedule faster (a local system, the tests).
   */
  WEBHOOK_RETRY_SCALE: z.coerce.number().positive().max(1).default(1),
});

/**
 * The settings, with an endpoint's share worked out once here: a fifth of WEBHOOK_CONCURRENCY unless set, never more
 * than it, and the failing share never more than the share.
 */
export const WebhooksConfig = Settings.superRefine((c, ctx) => {
  if (c.WEBHOOK_ENDPOINT_CONCURRENCY !== undefined && c.WEBHOOK_ENDPOINT_CONCURRENCY > c.WEBHOOK_CONCURRENCY)
    ctx.addIssue({
      code: 'custom',
      path: ['WEBHOOK_ENDPOINT_CONCURRENCY'],
      message: `is ${c.WEBHOOK_ENDPOINT_CONCURRENCY}, more than WEBHOOK_CONCURRENCY (${c.WEBHOOK_CONCURRENCY}): one endpoint's share is part of the worker's slots; set it to ${c.WEBHOOK_CONCURRENCY} or less`,
    });
}).transform((c) => {
  const share = c.WEBHOOK_ENDPOINT_CONCURRENCY ?? defaultEndpointShare(c.WEBHOOK_CONCURRENCY);
  return {
    ...c,
    WEBHOOK_ENDPOINT_CONCURRENCY: share,
    WEBHOOK_FAILING_ENDPOINT_CONCURRENCY: Math.min(c.WEBHOOK_FAILING_ENDPOINT_CONCURRENCY, share),
  };
});
export type WebhooksConfig = z.infer<typeof WebhooksConfig>;

export const loadWebhooksConfig = (env: NodeJS.ProcessEnv = process.env) => parseConfig(WebhooksConfig, env);
