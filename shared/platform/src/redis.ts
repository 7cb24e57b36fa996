// Redis clients. Workers (BullMQ) retry forever (maxRetriesPerRequest: null, as BullMQ requires); producers on the
// request path fail fast, so a Redis outage becomes a quick 503, never a request stuck in an offline queue.
import { context, type Context } from '@opentelemetry/api';
import { Redis } from 'ioredis';

export type RedisClient = Redis;

/** How long a request-path command may wait for Redis's answer (a producer's commandTimeout). */
export const PRODUCER_COMMAND_TIMEOUT_MS = 2_000;

export function createRedis(url: string, role: 'producer' | 'worker'): Redis {
  if (role === 'worker') return new Redis(url, { maxRetriesPerRequest: null, enableReadyCheck: true });
  // Auto-pipelining: the commands of every request handled in one turn of the event loop (the gateway's admission,
  // the lookup's pre-check and charge) go to Redis in one write and come back in one read, instead of one system call
  // pair, one wake-up of Redis and one of this process per command. On this repository's read path it took a third
  // of the CPU of the gateway, the lookup and Redis (docs/benchmarks.md).
  return keepCommandContexts(
    new Redis(url, {
      maxRetriesPerRequest: 1,
      connectTimeout: 2_000,
      commandTimeout: PRODUCER_COMMAND_TIMEOUT_MS,
      enableOfflineQueue: false,
      enableAutoPipelining: true,
    }),
  );
}

const CONTEXT = Symbol('pra.command.context');
type Sendable = { [CONTEXT]?: Context };
type Internals = {
  pipeline(...a: unknown[]): { sendCommand(command: Sendable): unknown };
  sendCommand(command: Sendable, ...rest: unknown[]): unknown;
};

/**
 * An auto-pipelined command is sent later, when its batch is, in the context of the batch's first command: the
 * ioredis instrumentation would put every command of a batch under the span of whichever request came first. Each
 * command therefore keeps the context it was issued in, and is sent (and traced) in it.
 */
function keepCommandContexts(redis: Redis): Redis {
  const internals = redis as unknown as Internals;
  const makePipeline = internals.pipeline.bind(redis);
  internals.pipeline = (...a: unknown[]) => {
    const pipeline = makePipeline(...a);
    const queue = pipeline.sendCommand.bind(pipeline);
    pipeline.sendCommand = (command) => {
      command[CONTEXT] = context.active();
      return queue(command);
    };
    return pipeline;
  };
  internals.sendCommand = function (this: Redis, command: Sendable, ...rest: unknown[]) {
    // Looked up on each call: the instrumentation wraps the prototype's method.
    const send = (Redis.prototype as unknown as Internals).sendCommand;
    const ctx = command[CONTEXT];
    return ctx === undefined
      ? send.call(this, command, ...rest)
      : context.with(ctx, () => send.call(this, command, ...rest));
  };
  return redis;
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
