// Config is parsed once at start from the environment with zod; a bad value stops the process with a clear message.
import { z } from 'zod';

export function parseConfig<T extends z.ZodType>(schema: T, env: NodeJS.ProcessEnv = process.env): z.infer<T> {
  const result = schema.safeParse(env);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join('.') || '(env)'}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}\nSet the variables above and start again.`);
  }
  return result.data;
}

/** The limits of a pool that serves requests (milliseconds; maxWaiting: requests queued for a connection). */
export interface RequestPoolLimits {
  connectTimeoutMs: number;
  statementTimeoutMs: number;
  idleInTransactionTimeoutMs: number;
  maxWaiting: number;
}

export const DEFAULT_REQUEST_POOL_LIMITS: RequestPoolLimits = {
  connectTimeoutMs: 2_000,
  statementTimeoutMs: 4_000,
  idleInTransactionTimeoutMs: 10_000,
  maxWaiting: 64,
};

/** How long a client may take: to send its headers, and its whole request. Slower clients are answered 408. */
export interface ClientTimeouts {
  headersTimeoutMs: number;
  requestTimeoutMs: number;
}

export const DEFAULT_CLIENT_TIMEOUTS: ClientTimeouts = { headersTimeoutMs: 10_000, requestTimeoutMs: 30_000 };

export const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/property_records';
export const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';

export const port = (fallback: number) => z.coerce.number().int().min(0).max(65535).default(fallback);

/** Every process's internal port: /metrics (Prometheus), /livez and /readyz (probes). Never routed by the gateway. */
export const internalEnv = {
  INTERNAL_PORT: port(9464),
  INTERNAL_HOST: z.string().default('127.0.0.1'),
};

/** Every HTTP server's patience with slow clients (header and whole-request timeouts). */
export const serverEnv = {
  HTTP_HEADERS_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(100)
    .max(600_000)
    .default(DEFAULT_CLIENT_TIMEOUTS.headersTimeoutMs),
  HTTP_REQUEST_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(100)
    .max(600_000)
    .default(DEFAULT_CLIENT_TIMEOUTS.requestTimeoutMs),
};

export const clientTimeouts = (c: {
  HTTP_HEADERS_TIMEOUT_MS: number;
  HTTP_REQUEST_TIMEOUT_MS: number;
}): ClientTimeouts => ({
  headersTimeoutMs: c.HTTP_HEADERS_TIMEOUT_MS,
  requestTimeoutMs: c.HTTP_REQUEST_TIMEOUT_MS,
});

/**
 * How long the change feed (GET /changes, webhooks: records.change_events) keeps an event: the autocomplete indexer's
 * scheduled prune deletes older ones, and a cursor into what it deleted has expired. Stated in docs/api.md.
 */
export const CHANGE_RETENTION_DAYS = 30;

/** The stores every service connects to, with the embedded defaults. */
/** The usage outbox's high-water mark by default (BILLING_OUTBOX_LIMIT). */
export const DEFAULT_BILLING_OUTBOX_LIMIT = 100_000;

export const storeEnv = {
  DATABASE_URL: z.string().url().default(DEFAULT_DATABASE_URL),
  /**
   * Where reads that may lag a little go (lookups, type-ahead fallbacks, /usage): a streaming replica (CloudNativePG's
   * `-ro` service). Unset: every read goes to DATABASE_URL. Writes, imports, migrations and the ledger never use it.
   */
  DATABASE_READ_URL: z.string().url().optional(),
  /**
   * How far behind the primary (seconds) the replica of DATABASE_READ_URL may be and still serve reads. It is measured
   * on the replica every second (the pra.db.replica.lag gauge); further behind, reads go to DATABASE_URL until it has
   * caught up. Ignored without DATABASE_READ_URL.
   */
  DATABASE_READ_MAX_LAG_SECONDS: z.coerce.number().positive().max(86_400).default(30),
  REDIS_URL: z.string().url().default(DEFAULT_REDIS_URL),
  /**
   * Redis Cluster mode: comma-separated `host:port` seed nodes (any few of the cluster's nodes). Set, it wins over
   * REDIS_URL's host; REDIS_URL's user, password and scheme (rediss:// for TLS) still apply to every node.
   */
  REDIS_CLUSTER_NODES: z
    .string()
    .optional()
    .refine(
      (v) => v === undefined || v === '' || v.split(',').every((n) => /^[^\s,:]+:\d{1,5}$/.test(n.trim())),
      'must be comma-separated host:port seeds, e.g. redis-0:6379,redis-1:6379',
    ),
  /**
   * Prefix of every Redis key and BullMQ queue: one per deployment (and per test run). No braces: in a cluster the
   * keys' own hash tags ({c3}, {a42}) decide their slots, and a brace in the prefix would take that over.
   */
  REDIS_PREFIX: z
    .string()
    .min(1)
    .regex(/^[^{}]+$/, 'must not contain { or } (Redis Cluster hash tags)')
    .default('pra:'),
  /**
   * The usage outbox's high-water mark (entries): past it every charge is refused with a 503 and Retry-After, so a
   * long PostgreSQL outage can never fill Redis (noeviction) and fail every write. Under 1 KB an entry (measured:
   * ~800 B): the default holds at most about 80 MB, some minutes of charges at full load. In a Redis Cluster the
   * outbox is one stream per bucket (16) and each stream's mark is an equal part of this one (6,250 by default), so
   * the cluster as a whole holds no more; a busy bucket meets its part sooner than the others during an outage.
   */
  BILLING_OUTBOX_LIMIT: z.coerce.number().int().min(1).default(DEFAULT_BILLING_OUTBOX_LIMIT),
};

/**
 * The one string every Redis client is made from (createRedis): REDIS_URL for a single Redis, or
 * `redis-cluster://<seeds>?url=<REDIS_URL>` in cluster mode, so that it travels through one setting to every part.
 */
export function redisTarget(c: { REDIS_URL: string; REDIS_CLUSTER_NODES?: string }): string {
  const seeds = c.REDIS_CLUSTER_NODES?.trim();
  if (!seeds) return c.REDIS_URL;
  return `redis-cluster://${seeds
    .split(',')
    .map((n) => n.trim())
    .join(',')}?url=${encodeURIComponent(c.REDIS_URL)}`;
}

/** REDIS_CLUSTER_NODES of an environment, checked as every process checks it (for tools without a full config). */
export const redisClusterNodes = (env: NodeJS.ProcessEnv): string | undefined =>
  parseConfig(z.object({ REDIS_CLUSTER_NODES: storeEnv.REDIS_CLUSTER_NODES }), env).REDIS_CLUSTER_NODES?.trim() ||
  undefined;

/** A yes/no variable: 1, true or yes (any case) is yes; unset, 0, false or no is no. */
export const flag = () =>
  z
    .string()
    .default('0')
    .refine((v) => /^(1|0|true|false|yes|no|)$/i.test(v), 'must be 1 or 0')
    .transform((v) => /^(1|true|yes)$/i.test(v));

/** How services authenticate callers (see identity.ts): the gateway's HMAC key, required outside development. */
export const authEnv = {
  /** The gateway's HMAC key: services accept only identity the gateway signed for the request. */
  GATEWAY_HMAC_KEY: z.string().min(32, 'GATEWAY_HMAC_KEY must be at least 32 characters').optional(),
  /** Development machines only (npm start, tests): without the HMAC key, accept API keys and loopback identity. */
  PRA_DEVELOPMENT: flag(),
};

const ms = (fallback: number) => z.coerce.number().int().min(1).max(600_000).default(fallback);

const poolSize = (fallback: number) => z.coerce.number().int().min(1).max(200).default(fallback);

/**
 * A service's request pool: its size (connections per process; the Helm chart checks replicas x pools against
 * PostgreSQL's max_connections) and its limits: every wait on PostgreSQL ends, in a 503 at worst.
 */
export const requestPoolEnv = {
  DB_POOL_SIZE: poolSize(8),
  DB_CONNECT_TIMEOUT_MS: ms(DEFAULT_REQUEST_POOL_LIMITS.connectTimeoutMs),
  DB_STATEMENT_TIMEOUT_MS: ms(DEFAULT_REQUEST_POOL_LIMITS.statementTimeoutMs),
  DB_IDLE_IN_TRANSACTION_TIMEOUT_MS: ms(DEFAULT_REQUEST_POOL_LIMITS.idleInTransactionTimeoutMs),
  DB_POOL_MAX_WAITING: z.coerce.number().int().min(0).max(100_000).default(DEFAULT_REQUEST_POOL_LIMITS.maxWaiting),
};

/** The pool of a process's background work (usage batches, jobs, the indexer): no statement timeout. */
export const workerPoolEnv = (fallback: number) => ({ DB_WORKER_POOL_SIZE: poolSize(fallback) });

export function requestPoolLimits(c: {
  DB_CONNECT_TIMEOUT_MS: number;
  DB_STATEMENT_TIMEOUT_MS: number;
  DB_IDLE_IN_TRANSACTION_TIMEOUT_MS: number;
  DB_POOL_MAX_WAITING: number;
}): RequestPoolLimits {
  return {
    connectTimeoutMs: c.DB_CONNECT_TIMEOUT_MS,
    statementTimeoutMs: c.DB_STATEMENT_TIMEOUT_MS,
    idleInTransactionTimeoutMs: c.DB_IDLE_IN_TRANSACTION_TIMEOUT_MS,
    maxWaiting: c.DB_POOL_MAX_WAITING,
  };
}
