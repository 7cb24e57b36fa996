// Redis clients. Workers (BullMQ) retry forever (maxRetriesPerRequest: null, as BullMQ requires); producers on the
// request path fail fast, so a Redis outage becomes a quick 503, never a request stuck in an offline queue.
// A client is made from one target string (redisTarget in @pra/core/config): a redis:// URL for a single Redis, or
// redis-cluster://<seeds>?url=<REDIS_URL> for Redis Cluster. A cluster client is typed as a Redis: every key a
// command or script of this code base names in one call shares a hash tag (ioredis routes it to that slot's master,
// and follows MOVED/ASK through resharding and failover); commands that would span slots (SCAN, FLUSHDB, KEYS) are
// not used. A command that spans slots would fail, in a producer, every command auto-pipelined with it to that node
// (ioredis checks a batch's slots before sending): none does, by the layouts (data/redis-layout.ts).
import { Cluster, Redis, type ClusterOptions, type RedisOptions } from 'ioredis';
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

const CLUSTER_SCHEME = 'redis-cluster://';

/** The seeds and the node URL (credentials, TLS) of a cluster target, or null for a single Redis's URL. */
export function clusterTarget(target: string): { seeds: { host: string; port: number }[]; url: string } | null {
  if (!target.startsWith(CLUSTER_SCHEME)) return null;
  const [list, query = ''] = target.slice(CLUSTER_SCHEME.length).split('?', 2) as [string, string?];
  const url = new URLSearchParams(query).get('url') ?? 'redis://127.0.0.1:6379';
  const seeds = list.split(',').map((n) => {
    const i = n.lastIndexOf(':');
    return { host: n.slice(0, i), port: Number(n.slice(i + 1)) };
  });
  return { seeds, url };
}

/** What a node's connection takes from REDIS_URL in cluster mode: user, password, database-free TLS. */
function nodeOptions(url: string): RedisOptions {
  const u = new URL(url);
  return {
    ...(u.username ? { username: decodeURIComponent(u.username) } : {}),
    ...(u.password ? { password: decodeURIComponent(u.password) } : {}),
    ...(u.protocol === 'rediss:' ? { tls: {} } : {}),
  };
}

function createCluster(c: { seeds: { host: string; port: number }[]; url: string }, role: 'producer' | 'worker') {
  const base: ClusterOptions = {
    // Masters only: a replica may lag, and every read here (a balance, a key, a window) must see the last write.
    scaleReads: 'master',
    // A failover's new master is found by asking again (MOVED, then a slots refresh) within this budget.
    maxRedirections: 16,
    retryDelayOnFailover: 200,
    retryDelayOnClusterDown: 200,
    retryDelayOnTryAgain: 100,
    slotsRefreshTimeout: 2_000,
  };
  if (role === 'worker') {
    return new Cluster(c.seeds, {
      ...base,
      // Workers wait out a failover rather than fail (BullMQ expects it): a dead master's slots move to its replica
      // after the node timeout; 150 redirections of 200 ms cover 30 s of MOVED and CLUSTERDOWN.
      maxRedirections: 150,
      enableReadyCheck: true,
      redisOptions: { ...nodeOptions(c.url), maxRetriesPerRequest: null },
    });
  }
  return autoPipelined(
    new Cluster(c.seeds, {
      ...base,
      enableAutoPipelining: true,
      // A command is refused at once while the cluster is not connected, as a single Redis's producer refuses one
      // while disconnected (a quick 503, never a request stuck in a queue).
      enableOfflineQueue: false,
      redisOptions: {
        ...nodeOptions(c.url),
        maxRetriesPerRequest: 1,
        connectTimeout: 2_000,
        commandTimeout: PRODUCER_COMMAND_TIMEOUT_MS,
      },
    }) as unknown as Redis,
  );
}

/** True when the client talks to a Redis Cluster (ioredis's Cluster says so): key layouts follow it. */
/**
 * BullMQ's key prefix for a deployment's queues: its REDIS_PREFIX, braced in a Redis Cluster so that every key of a
 * queue shares one slot (billing's, the type-ahead's and the webhook deliveries' queues).
 */
export const bullQueuePrefix = (prefix: string, cluster: boolean): string =>
  cluster ? `{${prefix}bull}` : `${prefix}bull`;

export const isClusterClient = (redis: object): boolean => (redis as { isCluster?: boolean }).isCluster === true;

/** A client of a single Redis (a redis:// URL) or of a Redis Cluster (a redis-cluster:// target). */
export function createRedis(target: string, role: 'producer' | 'worker'): Redis {
  const cluster = clusterTarget(target);
  if (cluster) return createCluster(cluster, role) as unknown as Redis;
  const url = target;
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
