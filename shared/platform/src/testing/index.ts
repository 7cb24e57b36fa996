// Test helpers: start an app on port 0 and call it.
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import type { Express } from 'express';
import type {} from 'vitest';
import type { ClientTimeouts } from '@pra/core/config';
import { createHardenedServer } from '../http.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** URL of this test run's own PostgreSQL database (test/global-setup.ts). */
    databaseUrl: string;
    redisUrl: string;
    /** This run's Redis key prefix (balances, key cache, outbox, queues): runs never see each other's keys. */
    redisPrefix: string;
    /** The OpenAPI document as the plans service serves it at /openapi.yaml (test/check-responses.ts). */
    servedOpenApi: string;
  }
}

export interface RunningApp {
  url: string;
  get(path: string, headers?: Record<string, string>): Promise<{ status: number; body: any; headers: Headers }>;
  close(): Promise<void>;
}

export { proxyUrl, startTcpProxy, type TcpProxy } from './tcp-proxy.js';
export { freePort } from './free-port.js';
export { startRedisServer, type OwnRedis } from './redis-server.js';
export { startRedisCluster, CLUSTER_NODE_TIMEOUT_MS, type ClusterNode, type OwnRedisCluster } from './redis-cluster.js';
export { COLLECTOR_CONFIGS, findCollector, startCollector, type RunningCollector } from './collector.js';
export { findGoBinary, goPath } from './go-binaries.js';
export { countingPool } from './counting-pool.js';
export {
  hasPgStatStatements,
  installMetricsReader,
  postgresBinDir,
  startReplicatedPostgres,
  type ReplicatedPostgres,
  type ReplicatedPostgresOptions,
} from './postgres-replica.js';

/** Starts the app on port 0 in the same hardened server the services run in. */
export async function startApp(app: Express, timeouts?: ClientTimeouts): Promise<RunningApp> {
  const server: Server = createHardenedServer(app, timeouts);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    async get(path, headers = {}) {
      const res = await fetch(url + path, { headers });
      const text = await res.text();
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // non-JSON bodies stay text, and the test says so
      }
      return { status: res.status, body, headers: res.headers };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
