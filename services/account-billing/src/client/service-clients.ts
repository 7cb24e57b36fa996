// What every API service opens for its requests: a Redis client that fails fast, the caller auth over the key
// cache, and a PostgreSQL pool whose every wait has a limit (a slow store is a quick 503, never a hung request).
import { z } from 'zod';
import { authEnv, redisTarget, requestPoolEnv, requestPoolLimits, storeEnv } from '@pra/core/config';
import { callerAuth, createPool, createRedis, type CallerAuth, type Pool, type RedisClient } from '@pra/platform';
import { KeyCache } from './key-cache.js';

const RequestPathConfig = z.object({ ...storeEnv, ...authEnv, ...requestPoolEnv });
export type RequestPathConfig = z.infer<typeof RequestPathConfig>;

export interface RequestPathClients {
  redis: RedisClient;
  keys: KeyCache;
  auth: CallerAuth;
  pool: Pool;
}

/** The clients of a service's request path, named `name` in PostgreSQL's application_name. */
export function requestPathClients(config: RequestPathConfig, name: string): RequestPathClients {
  const redis = createRedis(redisTarget(config), 'producer');
  redis.on('error', () => {}); // a failing call answers 503; the client reconnects by itself
  const keys = new KeyCache(redis, config.REDIS_PREFIX);
  const pool = createPool(config.DATABASE_URL, config.DB_POOL_SIZE, name, requestPoolLimits(config));
  return { redis, keys, auth: callerAuth(config, keys), pool };
}
