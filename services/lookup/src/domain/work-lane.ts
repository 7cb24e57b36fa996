// Free work waits its turn: a preview, or a max_credits check, costs the client nothing, so it may not take the store
// from paying calls. Its counts (data/record-counts.ts: no body read) run through a lane of a few statements at a
// time per process, whatever the number of free calls in flight; paid searches never wait in it.
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
 * The longest a free call (or a max_credits check) waits for the lane before it is answered 503: 10 s, well inside
 * the gateway's read timeout (28 s, gateway/kong/kong.yml) with the work itself (one lookup deadline), so that the
 * lane never works for a call the gateway has given up on; eight worst-case batch previews sent at once still pass.
 */
export const FREE_WORK_MAX_WAIT_MS = 10_000;

/** How a task waits for the lane. */
export interface LaneWait {
  /**
   * The longest it waits for a slot: past it the task is refused (503, nothing charged) and never runs, so the lane
   * never works for a call already given up on (free work arriving faster than the lane runs it would otherwise
   * queue without end, every call answered late or not at all).
   */
  maxWaitMs?: number;
  /** A paying call's count (its max_credits check): it goes ahead of the free calls waiting. */
  paid?: boolean;
}

/** The 503 of a task that waited for the lane past its bound. */
const laneBusy = () =>
  new ApiError(
    'unavailable',
    'Too many previews and max_credits checks are waiting in this process; nothing was charged. Retry shortly.',
    0,
    { 'retry-after': '1' },
  );

/**
 * At most `width` tasks at once, the others queued in arrival order (a paying call's count ahead of free ones);
 * each slot paced to `share` of the time (1: no rest).
 */
export class WorkLane {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    readonly width: number,
    readonly share = 1,
  ) {}

  async run<T>(task: () => Promise<T>, o: LaneWait = {}): Promise<T> {
    if (this.running >= this.width) await this.slot(o);
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

  /** Waits for a slot passed on by release(), or gives up past maxWaitMs (leaving the queue). */
  private slot(o: LaneWait): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const take = () => {
        if (timer) clearTimeout(timer);
        resolve();
      };
      if (o.paid) {
        // After the paying counts already waiting, before every free one.
        const firstFree = this.waiting.findIndex((w) => !this.paidWaits.has(w));
        this.waiting.splice(firstFree < 0 ? this.waiting.length : firstFree, 0, take);
        this.paidWaits.add(take);
      } else this.waiting.push(take);
      if (o.maxWaitMs !== undefined)
        timer = setTimeout(() => {
          const at = this.waiting.indexOf(take);
          if (at < 0) return;
          this.waiting.splice(at, 1);
          this.paidWaits.delete(take);
          reject(laneBusy());
        }, o.maxWaitMs);
    });
  }

  private readonly paidWaits = new WeakSet<() => void>();

  private release(): void {
    const next = this.waiting.shift();
    // The slot passes to the next task as it is (running stays counted), or frees.
    if (next) {
      this.paidWaits.delete(next);
      next();
    } else this.running--;
  }

  /** Tasks running, and waiting (for tests and metrics). */
  load(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting.length };
  }
}
