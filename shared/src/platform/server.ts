// Starts an HTTP server for an app and stops it cleanly on SIGINT/SIGTERM (in-flight requests finish first).
import type { Server } from 'node:http';
import type { Express } from 'express';
import { answerClientErrors } from './http.js';

export async function runServer(
  app: Express,
  port: number,
  host: string,
  name: string,
  onClose: () => Promise<void>,
): Promise<Server> {
  const server = await new Promise<Server>((resolve, reject) => {
    const s = app.listen(port, host, () => resolve(s));
    s.once('error', reject);
  });
  answerClientErrors(server);
  server.keepAliveTimeout = 65_000; // longer than the gateway's idle timeout, so it never hits a closing socket
  const addr = server.address();
  const bound = typeof addr === 'object' && addr ? addr.port : port;
  console.info(JSON.stringify({ msg: `${name} listening`, host, port: bound }));
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
