// The plugin module as kong-pdk's plugin server loads it: Plugin (one instance per configured plugin), Name,
// Version, Priority, Schema. Clients and config are made once per process, on first use. Imports stay narrow (no
// barrels of the services' I/O): the bundle Kong loads carries neither express, pg nor the OpenTelemetry SDK.
import { z } from 'zod';
import { createRedis, type RedisClient, redisReady } from '@pra/platform/redis';
import { httpKeyResolver, KeyCache } from '@pra/account-billing/key-cache';
import { parseConfig, redisTarget, storeEnv } from '@pra/core/config';
import { access, type AccessDeps } from './access.js';
import type { KongPdk } from './pdk.js';
import { RateLimiter } from './rate-limit.js';

export { access, PUBLIC_PATHS, type AccessDeps } from './access.js';
export { RateLimiter, WINDOW_MS, type Admission } from './rate-limit.js';
export type { KongPdk } from './pdk.js';

const GatewayEnv = z.object({
  REDIS_URL: storeEnv.REDIS_URL,
  REDIS_CLUSTER_NODES: storeEnv.REDIS_CLUSTER_NODES,
  REDIS_PREFIX: storeEnv.REDIS_PREFIX,
  GATEWAY_HMAC_KEY: z.string().min(32, 'GATEWAY_HMAC_KEY must be at least 32 characters'),
  MARKETPLACE_PROXY_SECRET: z.string().min(16).optional(),
  /**
   * account-billing's service URL (e.g. http://account-billing:8083): where a key the Redis cache does not hold is
   * looked up in PostgreSQL (never from this process). Unset: such a key is refused as unknown (401) once the cache
   * is loaded, and answered 503 while it is not.
   */
  KEY_LOOKUP_URL: z.string().url().optional(),
});

/** The plugin's clients and keys from the environment (Kong's plugin server and the local gateway alike). */
export function accessDepsFromEnv(environment: NodeJS.ProcessEnv = process.env): AccessDeps & { redis: RedisClient } {
  const env = parseConfig(GatewayEnv, environment);
  const redis = createRedis(redisTarget(env), 'producer');
  redis.on('error', () => {});
  return {
    redis,
    keys: new KeyCache(redis, env.REDIS_PREFIX, {
      resolver: env.KEY_LOOKUP_URL ? httpKeyResolver(env.KEY_LOOKUP_URL, env.GATEWAY_HMAC_KEY) : undefined,
    }),
    limiter: new RateLimiter(redis, env.REDIS_PREFIX),
    hmacKey: env.GATEWAY_HMAC_KEY,
    marketplaceSecret: env.MARKETPLACE_PROXY_SECRET,
  };
}

/** How long the first requests of a process wait for its Redis connection (made on first use) before a 503. */
const FIRST_CONNECT_WAIT_MS = 2_000;

let deps: { access: AccessDeps; connected: Promise<void> } | undefined;
/**
 * The process's clients, made on its first request. That request (and any arriving with it) waits for the Redis
 * connection, at most FIRST_CONNECT_WAIT_MS: without it, every plugin server answered its first request 503 (the
 * connection was still being made and commands are not queued). Later requests never wait: an outage is a 503 at once.
 */
function processDeps() {
  if (!deps) {
    const d = accessDepsFromEnv();
    deps = { access: d, connected: redisReady(d.redis, FIRST_CONNECT_WAIT_MS).catch(() => {}) };
  }
  return deps;
}

export class Plugin {
  constructor(readonly config: Record<string, unknown>) {}

  async access(kong: KongPdk): Promise<void> {
    const d = processDeps();
    await d.connected;
    await access(kong, d.access);
  }
}

export const Name = 'pra-gateway';
export const Version = '2.0.0';
/** Before Kong's own auth and rate-limiting plugins would run: nothing else needs to see the request first. */
export const Priority = 1010;
export const Schema: unknown[] = [];
