// ioredis auto-pipelining, made safe for this code base. ioredis collects the commands issued in one turn of the
// event loop into a pipeline and sends it later (one write, one read); three things then need care, all handled on
// the client instance (ioredis internals: checked against ioredis 6.0):
// - trace context: the batch is sent in the context of its first command, so the ioredis instrumentation would put
//   every command of a batch under the span of whichever request came first. Each command keeps the context it was
//   issued in and is sent (and traced) in it; inside a request that is not sampled, without its span
//   (storeCallContext: the instrumentation then skips the command);
// - scripts defined late: ioredis copies a client's scripts into a pipeline when it builds it, so a script defined
//   (defineCommand) while a batch is collecting is missing from that batch; calling it then pairs every later reply
//   of the batch with the wrong caller and crashes the process (redis/ioredis#1931). A script defined now is added
//   to the batches collecting;
// - shutdown: disconnect() drops the commands still collecting; closeRedis sends them first.
import { context, type Context } from '@opentelemetry/api';
import { storeCallContext } from './telemetry/store-context.js';
import type { Redis } from 'ioredis';

const CONTEXT = Symbol('pra.command.context');
type Sendable = { [CONTEXT]?: Context };
type PipelineInternals = Record<string, unknown> & {
  sendCommand(command: Sendable): unknown;
  _shaToScript: Record<string, unknown>;
};
type Internals = Record<string, unknown> & {
  pipeline(...a: unknown[]): PipelineInternals;
  sendCommand(command: Sendable, ...rest: unknown[]): unknown;
  defineCommand(name: string, definition: unknown): void;
  scriptsSet: Record<string, { sha: string }>;
  _autoPipelines?: Map<string, PipelineInternals>;
};

/** The client, auto-pipelining with each command in its own trace context and late scripts added to open batches. */
export function autoPipelined(redis: Redis): Redis {
  const internals = redis as unknown as Internals;
  const makePipeline = internals.pipeline.bind(redis);
  internals.pipeline = (...a: unknown[]) => {
    const pipeline = makePipeline(...a);
    const queue = pipeline.sendCommand.bind(pipeline);
    pipeline.sendCommand = (command) => {
      command[CONTEXT] = storeCallContext();
      return queue(command);
    };
    return pipeline;
  };
  internals.sendCommand = function (this: Redis, command: Sendable, ...rest: unknown[]) {
    // Looked up on each call: the instrumentation wraps the prototype's method (a Cluster's is its own class's).
    const send = (Object.getPrototypeOf(redis) as Internals).sendCommand;
    const ctx = command[CONTEXT] ?? storeCallContext();
    return context.with(ctx, () => send.call(this, command, ...rest));
  };
  const define = internals.defineCommand.bind(redis);
  internals.defineCommand = (name: string, definition: unknown) => {
    define(name, definition);
    const script = internals.scriptsSet[name]!;
    for (const batch of internals._autoPipelines?.values() ?? []) {
      batch._shaToScript[script.sha] = script;
      batch[name] = internals[name];
      batch[`${name}Buffer`] = internals[`${name}Buffer`];
    }
  };
  return redis;
}

/** Sends the commands still collecting (a call counted as its response finished, say), then disconnects. */
export async function closeRedis(redis: Redis): Promise<void> {
  if (redis.autoPipelineQueueSize > 0 && redis.status === 'ready') await redis.ping().catch(() => {});
  redis.disconnect();
}
