// A bound on how long a background worker waits for one Redis node. Worker connections have no command timeout
// (BullMQ's blocking commands need none), and in a cluster they ride out a failover for up to 30 s; a node that hangs
// (SIGSTOP, a stuck disk, a partition) would otherwise hold up the work of every other node with it.

/** How long a worker waits for one node's answer (a read, an acknowledgement, a flush) before it takes it for hung. */
export const NODE_ANSWER_MS = 5_000;

/** The promise's outcome, or a rejection after `ms`; the promise goes on, and its late outcome is ignored. */
export function within<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
  });
  work.catch(() => {}); // a rejection after the timeout is nobody's to handle
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}
