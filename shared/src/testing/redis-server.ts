// A redis-server of a test's own, on a free port, for faults that must not touch the machine's shared Redis
// (CLIENT PAUSE, a restart, a wipe): started, answered, stopped with the test.
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { createRedis } from '../platform/redis.js';

export interface OwnRedis {
  url: string;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const port = (s.address() as { port: number }).port;
  await new Promise((r) => s.close(r));
  return port;
}

export async function startRedisServer(): Promise<OwnRedis> {
  const port = await freePort();
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  const url = `redis://127.0.0.1:${port}`;
  const probe = createRedis(url, 'worker');
  probe.on('error', () => {});
  try {
    for (let i = 0; i < 100; i++) {
      if (await probe.ping().then(() => true, () => false)) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    await probe.ping();
  } finally {
    probe.disconnect();
  }
  return {
    url,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
