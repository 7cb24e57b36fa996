// Redis clients. Workers (BullMQ) retry forever (maxRetriesPerRequest: null, as BullMQ requires); producers on the
// request path fail fast, so a Redis outage becomes a quick 503, never a request stuck in an offline queue.
import { Redis } from 'ioredis';

export type RedisClient = Redis;

/** How long a request-path command may wait for Redis's answer (a producer's commandTimeout). */
export const PRODUCER_COMMAND_TIMEOUT_MS = 2_000;

export function createRedis(url: string, role: 'producer' | 'worker'): Redis {
  return role === 'worker'
    ? new Redis(url, { maxRetriesPerRequest: null, enableReadyCheck: true })
    : new Redis(url, {
        maxRetriesPerRequest: 1,
        connectTimeout: 2_000,
        commandTimeout: PRODUCER_COMMAND_TIMEOUT_MS,
        enableOfflineQueue: false,
      });
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
