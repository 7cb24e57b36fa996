// Redis clients. Workers (BullMQ) retry forever (maxRetriesPerRequest: null, as BullMQ requires); producers on the
// request path fail fast, so a Redis outage becomes a quick 503, never a request stuck in an offline queue.
import { Redis } from 'ioredis';
import { autoPipelined } from './redis-autopipeline.js';

export { closeRedis } from './redis-autopipeline.js';

export type RedisClient = Redis;

/** How long a request-path command may wait for Redis's answer once sent (a producer's commandTimeout). */
export const PRODUCER_COMMAND_TIMEOUT_MS = 2_000;
/**
 * The longest a request-path command can take: auto-pipelined, it may first wait for the batch in flight (which
 * times out after PRODUCER_COMMAND_TIMEOUT_MS) before it is sent and waits out its own timeout.
 */
export const PRODUCER_COMMAND_WORST_MS = 2 * PRODUCER_COMMAND_TIMEOUT_MS;

export function createRedis(url: string, role: 'producer' | 'worker'): Redis {
  if (role === 'worker') return new Redis(url, { maxRetriesPerRequest: null, enableReadyCheck: true });
  // Auto-pipelining: the commands of every request handled in one turn of the event loop (the gateway's admission,
  // the lookup's pre-check and charge) go to Redis in one write and come back in one read, instead of one system call
  // pair, one wake-up of Redis and one of this process per command. On this repository's read path it took a third
  // of the CPU of the gateway, the lookup and Redis (docs/benchmarks.md).
  return autoPipelined(
    new Redis(url, {
      maxRetriesPerRequest: 1,
      connectTimeout: 2_000,
      commandTimeout: PRODUCER_COMMAND_TIMEOUT_MS,
      enableOfflineQueue: false,
      enableAutoPipelining: true,
    }),
  );
}

/** Resolves when the client is connected and ready (producers refuse commands before that). */
export async function redisReady(redis: Redis, timeoutMs = 5_000): Promise<void> {
  if (redis.status === 'ready') return;
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Redis not ready within ${timeoutMs} ms`)), timeoutMs);
    redis.once('ready', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}
