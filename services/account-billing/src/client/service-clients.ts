// What every API service opens for its requests: a Redis client that fails fast, the caller auth over the key
// cache, and a PostgreSQL pool whose every wait has a limit (a slow store is a quick 503, never a hung request);
// with DATABASE_READ_URL, a replica attached to that pool for the reads that may lag (read-pool.ts).
import { z } from 'zod';
import { authEnv, redisTarget, requestPoolEnv, requestPoolLimits, storeEnv } from '@pra/core/config';
import {
  callerAuth,
  createPool,
  createReadPool,
  createRedis,
  type CallerAuth,
  type Pool,
  type Queryable,
  type RedisClient,
} from '@pra/platform';
import { KeyCache } from './key-cache.js';

const RequestPathConfig = z.object({ ...storeEnv, ...authEnv, ...requestPoolEnv });
export type RequestPathConfig = z.infer<typeof RequestPathConfig>;

export interface RequestPathClients {
  redis: RedisClient;
  keys: KeyCache;
  auth: CallerAuth;
  /** The primary: writes, and reads that must see their own writes (the key lookup, the admin API). */
  pool: Pool;
  /**
   * Reads that may lag (lookups, the type-ahead's PostgreSQL index, /usage): the replica of DATABASE_READ_URL,
   * falling back to `pool`, or `pool` itself without one. Only what is given it reads there.
   */
  reads: Queryable;
  /** Closes both pools (not Redis). */
  closePools(): Promise<void>;
}

/** The clients of a service's request path, named `name` in PostgreSQL's application_name. */
export function requestPathClients(config: RequestPathConfig, name: string): RequestPathClients {
  const redis = createRedis(redisTarget(config), 'producer');
  redis.on('error', () => {}); // a failing call answers 503; the client reconnects by itself
  const keys = new KeyCache(redis, config.REDIS_PREFIX);
  const limits = requestPoolLimits(config);
  const pool = createPool(config.DATABASE_URL, config.DB_POOL_SIZE, name, limits);
  const replica = config.DATABASE_READ_URL
    ? createReadPool(pool, config.DATABASE_READ_URL, {
        size: config.DB_POOL_SIZE,
        name,
        limits,
        maxLagSeconds: config.DATABASE_READ_MAX_LAG_SECONDS,
      })
    : undefined;
  return {
    redis,
    keys,
    auth: callerAuth(config, keys),
    pool,
    reads: replica ?? pool,
    closePools: async () => {
      try {
        await replica?.end();
      } finally {
        await pool.end();
      }
    },
  };
}
