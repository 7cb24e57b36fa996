// How many of a worker process's delivery slots one endpoint may hold at once, so that one receiver cannot take the
// delivery of every other one hostage. Without it, a receiver that never answers, given a backlog (a county
// re-import matching its filter), held every slot for a whole timeout per event: everyone's deliveries waited.
//   healthy endpoint   at most `perEndpoint` attempts in flight in this process; a fast one (its attempts take a
//                      quarter of the timeout or less) may borrow idle slots past that, as long as a share's worth
//                      stays free for the others (an endpoint alone with a backlog is not held to a fifth)
//   failing endpoint   (its last attempt failed: an error, a timeout, no 2xx) at most `failingPerEndpoint`, never more
// A delivery that finds its endpoint's slots taken is not an attempt: it waits and is tried again. The wait is about
// how long its turn would take: the endpoint's usual attempt time, times the deliveries already waiting for it, over
// its slots (so a backlog of thousands behind a dead receiver is spread out instead of spinning), with jitter, and
// at most MAX_WAIT_MS (an endpoint that recovers starts draining within that).

/** An endpoint's share when none is set: a fifth of the process's slots (WEBHOOK_ENDPOINT_CONCURRENCY's default). */
export const defaultEndpointShare = (concurrency: number) => Math.max(1, Math.floor(concurrency / 5));

/** The longest a delivery waits for its endpoint's slot before trying again. */
export const MAX_WAIT_MS = 300_000;
/** The shortest wait (a fast endpoint whose slots are taken for a moment). */
export const MIN_WAIT_MS = 100;
/** A waiting delivery not seen again this long after its turn came is forgotten (its job finished elsewhere). */
const FORGET_AFTER_MS = 2 * MAX_WAIT_MS;
/**
 * The most waiting deliveries remembered per endpoint (~100 bytes each): past it the count stays there, and the waits
 * it gives are already near the longest for any slow endpoint.
 */
const WAITING_REMEMBERED_MAX = 10_000;
/** How much of the attempt-time average one attempt moves. */
const LATENCY_WEIGHT = 0.2;

export interface SlotPolicy {
  /** Attempts in flight at once in this process, all endpoints together. */
  total: number;
  /** Attempts in flight at once to a healthy endpoint, in this process. */
  perEndpoint: number;
  /** Attempts in flight at once to an endpoint whose last attempt failed. */
  failingPerEndpoint: number;
  /** One attempt's deadline: the attempt time assumed of an endpoint never tried here. */
  timeoutMs: number;
}

interface EndpointState {
  inFlight: number;
  failing: boolean;
  /** Average attempt time (ms), timeouts included; until an attempt ends, taken as slow (half the timeout). */
  latencyMs: number;
  /** Whether an attempt to it has ended here (before that, its latency is a guess). */
  measured: boolean;
  /** Deliveries that found the slots taken: job id -> when its turn was set. */
  waiting: Map<string, number>;
  /** When waiting entries were last pruned, and the count then. */
  prunedAt: number;
  prunedSize: number;
}

export type SlotAnswer = { ok: true } | { ok: false; retryInMs: number };

/** What an attempt (or a delivery that made none) tells of its endpoint when its slot is given back. */
export type AttemptOutcome = { ok: boolean; latencyMs: number } | null;

/** An endpoint whose attempts take at most this part of the timeout may borrow idle slots. */
const FAST_PART_OF_TIMEOUT = 0.25;

export class EndpointSlots {
  private readonly endpoints = new Map<string, EndpointState>();
  private inFlight = 0;

  constructor(
    private readonly policy: SlotPolicy,
    private readonly now: () => number = Date.now,
    private readonly random: () => number = Math.random,
  ) {
    if (policy.perEndpoint < 1 || policy.failingPerEndpoint < 1)
      throw new Error('an endpoint needs at least one delivery slot');
  }

  private state(endpoint: string): EndpointState {
    let s = this.endpoints.get(endpoint);
    if (!s) {
      s = {
        inFlight: 0,
        failing: false,
        // Not known yet: taken as slow (no borrowing) until its attempts show otherwise.
        latencyMs: this.policy.timeoutMs / 2,
        measured: false,
        waiting: new Map(),
        prunedAt: this.now(),
        prunedSize: 0,
      };
      this.endpoints.set(endpoint, s);
    }
    return s;
  }

  /** A fast, healthy endpoint past its share takes an idle slot when a share's worth would still be free after. */
  private mayBorrow(s: EndpointState): boolean {
    return this.canEverBorrow(s) && this.policy.total - this.inFlight > this.policy.perEndpoint;
  }

  private canEverBorrow(s: EndpointState): boolean {
    return !s.failing && s.latencyMs <= this.policy.timeoutMs * FAST_PART_OF_TIMEOUT;
  }

  private capOf(s: EndpointState): number {
    return s.failing ? Math.min(this.policy.failingPerEndpoint, this.policy.perEndpoint) : this.policy.perEndpoint;
  }

  /** A slot for delivery `job` to `endpoint`, or how long it waits before asking again. */
  acquire(endpoint: string, job: string): SlotAnswer {
    const s = this.state(endpoint);
    const cap = this.capOf(s);
    if (s.inFlight < cap || this.mayBorrow(s)) {
      s.inFlight++;
      this.inFlight++;
      s.waiting.delete(job);
      return { ok: true };
    }
    const now = this.now();
    this.prune(s, now);
    s.waiting.delete(job);
    // Its turn: the deliveries waiting for it, at its attempt time, over the slots it can get (a fast one borrows).
    // Before any attempt to it has ended its attempt time is not known: the shortest wait, so that a backlog for a
    // new endpoint is not sent minutes away on a guess (its first attempts end within moments if it is fast).
    const slots = this.canEverBorrow(s) ? Math.max(cap, this.policy.total - this.policy.perEndpoint) : cap;
    const turn = s.measured ? Math.max(MIN_WAIT_MS, (s.latencyMs * (s.waiting.size + 1)) / slots) : MIN_WAIT_MS;
    // Jittered in [0.5, 1.5) x the turn; a turn past the longest wait is spread over [0.5, 1) x it, not piled on it.
    const retryInMs = Math.round(
      turn * 1.5 <= MAX_WAIT_MS ? turn * (0.5 + this.random()) : MAX_WAIT_MS * (0.5 + 0.5 * this.random()),
    );
    if (s.waiting.size < WAITING_REMEMBERED_MAX) s.waiting.set(job, now + retryInMs);
    return { ok: false, retryInMs };
  }

  /** Gives back a slot `acquire` gave, with what the attempt showed of the endpoint (null: no attempt made). */
  release(endpoint: string, outcome: AttemptOutcome): void {
    const s = this.endpoints.get(endpoint);
    if (!s || s.inFlight === 0) return;
    s.inFlight--;
    this.inFlight--;
    if (outcome) {
      s.failing = !outcome.ok;
      // The first attempt's time is taken as it is; then each moves the average by LATENCY_WEIGHT.
      s.latencyMs = s.measured ? s.latencyMs + LATENCY_WEIGHT * (outcome.latencyMs - s.latencyMs) : outcome.latencyMs;
      s.measured = true;
    }
    // Deliveries that waited and were then finished by another process are forgotten here too (now and then).
    if (s.waiting.size > 0) this.prune(s, this.now());
    if (s.inFlight === 0 && s.waiting.size === 0 && !s.failing) this.endpoints.delete(endpoint);
  }

  /** What the store says of an endpoint this process has not seen fail (another process, or before a restart). */
  noteFailing(endpoint: string, failing: boolean): void {
    const s = this.endpoints.get(endpoint);
    if (s && failing) s.failing = true;
  }

  /** Attempts in flight to `endpoint` (and to all), whether it counts as failing, deliveries waiting for it. */
  inspect(endpoint: string): { inFlight: number; total: number; failing: boolean; waiting: number } {
    const s = this.endpoints.get(endpoint);
    return {
      inFlight: s?.inFlight ?? 0,
      total: this.inFlight,
      failing: s?.failing ?? false,
      waiting: s?.waiting.size ?? 0,
    };
  }

  /** Forgets waiting deliveries long past their turn (finished by another process), now and then. */
  private prune(s: EndpointState, now: number): void {
    if (s.waiting.size < 2 * s.prunedSize + 64 && now - s.prunedAt < 10_000) return;
    for (const [job, turn] of s.waiting) if (turn < now - FORGET_AFTER_MS) s.waiting.delete(job);
    s.prunedAt = now;
    s.prunedSize = s.waiting.size;
  }
}
