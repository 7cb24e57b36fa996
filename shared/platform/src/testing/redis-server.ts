// A redis-server of a test's own, on a free port, for faults that must not touch the machine's shared Redis
// (CLIENT PAUSE, a restart, a wipe): started, answered, stopped with the test.
import { spawn, type ChildProcess } from 'node:child_process';
import { createRedis } from '../redis.js';
import { freePort } from './free-port.js';

export interface OwnRedis {
  url: string;
  /** Kills the server (SIGKILL) and starts a new, empty one on the same port. */
  restartEmpty(): Promise<void>;
  /**
   * Stops the server's process (SIGSTOP) until the returned function is called (SIGCONT): what clients send meanwhile
   * waits in its socket, read and run once it goes on, even from a client that has gone (unlike CLIENT PAUSE).
   */
  freeze(): () => void;
  stop(): Promise<void>;
}

const ended = (child: ChildProcess, signal: NodeJS.Signals) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill(signal);
  });

async function answering(url: string): Promise<void> {
  const probe = createRedis(url, 'worker');
  probe.on('error', () => {});
  try {
    for (let i = 0; i < 100; i++) {
      if (
        await probe.ping().then(
          () => true,
          () => false,
        )
      )
        return;
      await new Promise((r) => setTimeout(r, 50));
    }
    await probe.ping();
  } finally {
    probe.disconnect();
  }
}

export async function startRedisServer(): Promise<OwnRedis> {
  const port = await freePort();
  const url = `redis://127.0.0.1:${port}`;
  const start = () =>
    spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
      stdio: 'ignore',
    });
  let child = start();
  await answering(url);
  return {
    url,
    async restartEmpty() {
      await ended(child, 'SIGKILL');
      child = start();
      await answering(url);
    },
    freeze() {
      const frozen = child;
      frozen.kill('SIGSTOP');
      return () => {
        frozen.kill('SIGCONT');
      };
    },
    stop: () => {
      child.kill('SIGCONT');
      return ended(child, 'SIGTERM');
    },
  };
}
