// One lookup's deadline across its statements (the address fallback runs several).
import { ApiError } from '@pra/core/errors';

/**
 * One lookup's deadline, across all its statements: each statement gets the time left (its own statement timeout
 * still applies), and a lookup past it is a 503 with Retry-After. Nothing is charged: the charge comes after the
 * lookup. A statement cut short runs on in PostgreSQL until it ends or reaches its statement timeout, its result
 * unread; no further statement of that lookup starts.
 */
export class LookupDeadline {
  private readonly endsAt: number;

  constructor(
    readonly ms: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.endsAt = now() + ms;
  }

  /** Milliseconds left (0 or less: past the deadline). */
  left(): number {
    return this.endsAt - this.now();
  }

  /** Runs one statement within the time left, or refuses to start it when none is left. */
  async run<T>(statement: () => Promise<T>): Promise<T> {
    const left = this.left();
    if (left <= 0) throw this.exceeded();
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(this.exceeded()), left);
    });
    const work = statement();
    try {
      return await Promise.race([work, late]);
    } finally {
      clearTimeout(timer);
      work.catch(() => {}); // a statement cut short may fail later: nobody waits for it any more
    }
  }

  exceeded(): ApiError {
    return new ApiError(
      'unavailable',
      `The lookup took longer than its ${this.ms} ms limit; the request was not charged. Retry shortly.`,
      0,
      { 'retry-after': '2' },
    );
  }
}

/** Runs one statement of a lookup within its deadline. */
export type Run = LookupDeadline['run'];
