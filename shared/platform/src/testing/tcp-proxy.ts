// A TCP proxy a fault test puts between a service and a store: it forwards until told to stall (hold every byte,
// as a store that stopped answering) or to cut (refuse and drop every connection, as a store that is gone).
import { createServer, connect, type Server, type Socket } from 'node:net';

export interface TcpProxy {
  port: number;
  /** Hold every byte in both directions from now on (open connections stay open and silent). */
  stall(): void;
  /** Drop every open connection and refuse new ones. */
  cut(): void;
  /** Forward again (new connections; stalled ones stay dead). */
  restore(): void;
  close(): Promise<void>;
}

export async function startTcpProxy(targetHost: string, targetPort: number): Promise<TcpProxy> {
  let mode: 'forward' | 'stall' | 'cut' = 'forward';
  const open = new Set<Socket>();
  const server: Server = createServer((client) => {
    if (mode === 'cut') return void client.destroy();
    const upstream = connect(targetPort, targetHost);
    for (const s of [client, upstream]) {
      open.add(s);
      s.on('error', () => {});
      s.on('close', () => {
        open.delete(s);
        client.destroy();
        upstream.destroy();
      });
    }
    const relay = (from: Socket, to: Socket) => from.on('data', (d) => void (mode === 'forward' && to.write(d)));
    relay(client, upstream);
    relay(upstream, client);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    port: (server.address() as { port: number }).port,
    stall: () => {
      mode = 'stall';
    },
    cut: () => {
      mode = 'cut';
      for (const s of open) s.destroy();
    },
    restore: () => {
      // Stalled connections lost bytes: they are useless, drop them.
      if (mode === 'stall') for (const s of open) s.destroy();
      mode = 'forward';
    },
    close: () =>
      new Promise<void>((r) => {
        for (const s of open) s.destroy();
        server.close(() => r());
      }),
  };
}

/** A proxy in front of the PostgreSQL server a URL names (5432 when it names no port), and the same URL through it. */
export async function proxyUrl(target: string): Promise<{ proxy: TcpProxy; url: string }> {
  const url = new URL(target);
  const proxy = await startTcpProxy(url.hostname, Number(url.port || 5432));
  url.hostname = '127.0.0.1';
  url.port = String(proxy.port);
  return { proxy, url: url.toString() };
}
