// Free work waits its turn: a preview costs the client nothing, so it may not take the store from paying calls. Every
// preview (its counts, data/record-counts.ts: no body read; or, for the few endpoints without a count, its bounded
// page) runs through a lane of one task at a time per process, paced, whatever the number of previews in flight, and
// waits in it no longer than FREE_WORK_MAX_WAIT_MS (then an uncharged 503). Paid calls never wait in it: a paid call's
// max_credits check counts outside it (a call bounded by the rate limit like any other).
import { ApiError } from '@pra/core/errors';

/**
 * Counts of free work running at once in one lookup process (each holds one pool connection while it runs): one, so
 * free work never takes more than one of the store's cores, nor more than one connection of the pool.
 */
export const FREE_WORK_LANE_WIDTH = 1;

/**
 * The same lookup counted once per batch: a batch of 100 copies of one address costs one count (its entries are
 * answered alike). Keyed by the lookup's parameters.
 */
export function countedOnce<Q, T>(count: (q: Q) => Promise<T>): (q: Q) => Promise<T> {
  const seen = new Map<string, Promise<T>>();
  return (q) => {
    const key = JSON.stringify(q);
    let found = seen.get(key);
    if (!found) {
      found = count(q);
      seen.set(key, found);
    }
    return found;
  };
}

/**
 * The share of wall time the lane's work may take: after a task of t ms its slot rests t x (1 - share) / share ms
 * before the next task starts, so free work back to back takes at most a quarter of the process (and of a core of
 * the store), whatever the number of free calls waiting.
 */
export const FREE_WORK_SHARE = 0.25;

/**
 * The longest a preview waits for its turn in the lane: past it, an uncharged 503 and the task never runs (a queue
 * that never drains would run work for calls the gateway gave up on, 28 s). Long enough for 8 worst-case batch
 * previews at once on one process to all be answered on the 2-core VMs this runs on (~1 s for the eight); a machine
 * several times slower answers the last of them with the 503.
 */
export const FREE_WORK_MAX_WAIT_MS = 10_000;

/**
 * At most `width` tasks at once, the others queued in arrival order; each slot paced to `share` of the time (1: no
 * rest).
 */
export class WorkLane {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    readonly width: number,
    readonly share = 1,
    /** The longest a task waits for its turn: past it, an uncharged 503 (a queue never grows without bound). */
    readonly maxWaitMs = Number.POSITIVE_INFINITY,
  ) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.width) await this.turn();
    else this.running++;
    const started = performance.now();
    try {
      return await task();
    } finally {
      const rest = ((performance.now() - started) * (1 - this.share)) / this.share;
      if (rest >= 1) setTimeout(() => this.release(), rest).unref();
      else this.release();
    }
  }

  /** Waits for a slot (handed over by release), or gives up after maxWaitMs with the 503 of a queue too long. */
  private turn(): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const take = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = Number.isFinite(this.maxWaitMs)
        ? setTimeout(() => {
            const at = this.waiting.indexOf(take);
            if (at >= 0) this.waiting.splice(at, 1);
            reject(
              new ApiError(
                'unavailable',
                'Too many free previews are waiting on this server; nothing was charged. Retry shortly.',
                0,
                { 'retry-after': '2' },
              ),
            );
          }, this.maxWaitMs)
        : undefined;
      this.waiting.push(take);
    });
  }

  private release(): void {
    const next = this.waiting.shift();
    // The slot passes to the next task as it is (running stays counted), or frees.
    if (next) next();
    else this.running--;
  }

  /** Tasks running, and waiting (for tests and metrics). */
  load(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting.length };
  }
}
