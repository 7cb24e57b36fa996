// Starts an HTTP server for an app and stops it cleanly on SIGINT/SIGTERM (in-flight requests finish first).
import type { Server } from 'node:http';
import type { Express } from 'express';
import type { Redis } from 'ioredis';
import type { Pool } from 'pg';
import { createHardenedServer, type ClientTimeouts } from './http.js';
import { logListening } from '../telemetry/logger.js';
import { startInternalServer } from '../telemetry/internal-server.js';

/** Readiness: the database and Redis both answer. */
export function storesReady(pool?: Pool, redis?: Redis): () => Promise<boolean> {
  return async () => {
    await Promise.all([pool?.query('SELECT 1'), redis?.ping()]);
    return true;
  };
}

/** Starts the process's internal port (/metrics, /livez, /readyz) from INTERNAL_PORT / INTERNAL_HOST. */
export async function runInternalServer(config: { INTERNAL_PORT: number; INTERNAL_HOST: string }, ready?: () => Promise<boolean>): Promise<void> {
  await startInternalServer({ port: config.INTERNAL_PORT, host: config.INTERNAL_HOST, ready });
}

export async function runServer(
  app: Express,
  port: number,
  host: string,
  name: string,
  onClose: () => Promise<void>,
  timeouts?: ClientTimeouts,
): Promise<Server> {
  const server = createHardenedServer(app, timeouts);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const addr = server.address();
  const bound = typeof addr === 'object' && addr ? addr.port : port;
  logListening({ host, port: bound }, `${name} listening`);
  let closing = false;
  const stop = () => {
    if (closing) return;
    closing = true;
    server.close(() => {
      onClose().finally(() => process.exit(0));
    });
    server.closeIdleConnections();
    setTimeout(() => process.exit(0), 5_000).unref();
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return server;
}
