// Starts an HTTP server for an app and stops it cleanly on SIGINT/SIGTERM (in-flight requests finish first).
import type { Server } from 'node:http';
import type { Express } from 'express';
import type { Redis } from 'ioredis';
import type { Pool } from 'pg';
import type { ClientTimeouts } from '@pra/core/config';
import { createHardenedServer, handlersDone } from './http.js';
import { logListening } from './telemetry/logger.js';
import { startInternalServer } from './telemetry/internal-server.js';

/** Readiness: the database and Redis both answer. */
export function storesReady(pool?: Pool, redis?: Redis): () => Promise<boolean> {
  return async () => {
    await Promise.all([pool?.query('SELECT 1'), redis?.ping()]);
    return true;
  };
}

/** Listens without handling signals: a second server of a process whose runServer closes it (see `also`). */
export async function listenServer(
  app: Express,
  port: number,
  host: string,
  name: string,
  timeouts?: ClientTimeouts,
): Promise<Server> {
  const server = createHardenedServer(app, timeouts);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const addr = server.address();
  logListening({ host, port: typeof addr === 'object' && addr ? addr.port : port }, `${name} listening`);
  return server;
}

/** Starts the process's internal port (/metrics, /livez, /readyz) from INTERNAL_PORT / INTERNAL_HOST. */
export async function runInternalServer(
  config: { INTERNAL_PORT: number; INTERNAL_HOST: string },
  ready?: () => Promise<boolean>,
): Promise<void> {
  await startInternalServer({ port: config.INTERNAL_PORT, host: config.INTERNAL_HOST, ready });
}

/**
 * Serves the app; on SIGINT/SIGTERM stops accepting, lets in-flight requests finish, runs onClose (close pools,
 * stop workers: their batch in flight completes), then exits. `also` are servers of the same process that close
 * first (the admin API beside account-billing), so that exactly one handler decides when the process ends.
 */
export async function runServer(
  app: Express,
  port: number,
  host: string,
  name: string,
  onClose: () => Promise<void>,
  timeouts?: ClientTimeouts,
  also: Server[] = [],
): Promise<Server> {
  const server = await listenServer(app, port, host, name, timeouts);
  let closing = false;
  const stop = () => {
    if (closing) return;
    closing = true;
    const closed = [server, ...also].map((s) => new Promise<void>((r) => s.close(() => r())));
    for (const s of [server, ...also]) s.closeIdleConnections();
    // Sockets close when clients hang up, while their handlers may still run: the pools close after both.
    void Promise.all(closed)
      .then(() => handlersDone())
      .then(() => onClose().finally(() => process.exit(0)));
    setTimeout(() => process.exit(0), 10_000).unref();
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return server;
}
