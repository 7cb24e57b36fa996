// Each process's internal port (never routed by the gateway): /metrics for Prometheus, /livez and /readyz for
// Kubernetes probes. Readiness asks the process's own check (database and Redis reachable).
import { createServer, type Server } from 'node:http';
import { activeTelemetry } from './sdk.js';
import { logger } from './logger.js';

export interface InternalServerOptions {
  port: number;
  host: string;
  /** Resolves true when the process can serve (its stores answer). */
  ready?: () => Promise<boolean>;
}

export async function startInternalServer(o: InternalServerOptions): Promise<Server> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/metrics') {
      const telemetry = activeTelemetry();
      if (telemetry) return telemetry.scrape(req, res);
      res
        .writeHead(503, { 'content-type': 'text/plain' })
        .end('telemetry not started: run with --import ./shared/platform/src/telemetry/register.ts\n');
      return;
    }
    if (path === '/livez') return void res.writeHead(200, { 'content-type': 'text/plain' }).end('ok\n');
    if (path === '/readyz') {
      const check = o.ready ?? (async () => true);
      const timeout = new Promise<boolean>((r) => setTimeout(() => r(false), 2_000).unref());
      void Promise.race([check().catch(() => false), timeout]).then((ok) => {
        res.writeHead(ok ? 200 : 503, { 'content-type': 'text/plain' }).end(ok ? 'ready\n' : 'not ready\n');
      });
      return;
    }
    res.writeHead(404, { 'content-type': 'text/plain' }).end('internal endpoints: /metrics /livez /readyz\n');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, o.host, () => resolve());
  });
  server.unref();
  const a = server.address();
  logger.info(
    { host: o.host, internalPort: typeof a === 'object' && a ? a.port : o.port },
    'internal endpoints: /metrics /livez /readyz',
  );
  return server;
}
