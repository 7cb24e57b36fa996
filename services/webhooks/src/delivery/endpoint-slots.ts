// How many of a worker process's delivery slots one endpoint may hold at once, so that one receiver cannot take the
// delivery of every other one hostage. Without it, a receiver that never answers, given a backlog (a county
// re-import matching its filter), held every slot for a whole timeout per event: everyone's deliveries waited.
//   healthy endpoint   at most `perEndpoint` attempts in flight in this process
//   failing endpoint   (its last attempt failed: an error, a timeout, no 2xx) at most `failingPerEndpoint`
// A delivery that finds its endpoint's slots taken is not an attempt: it waits and is tried again. The wait is about
// how long its turn would take: the endpoint's usual attempt time, times the deliveries already waiting for it, over
// its slots (so a backlog of thousands behind a dead receiver is spread out instead of spinning), with jitter, and
// at most MAX_WAIT_MS (an endpoint that recovers drains within that).

/** The longest a delivery waits for its endpoint's slot before trying again. */
export const MAX_WAIT_MS = 300_000;
/** The shortest wait (a fast endpoint whose slots are taken for a moment). */
const MIN_WAIT_MS = 100;
/** A waiting delivery not seen again this long after its turn came is forgotten (its job finished elsewhere). */
const FORGET_AFTER_MS = 2 * MAX_WAIT_MS;
/** How much of the attempt-time average one attempt moves. */
const LATENCY_WEIGHT = 0.2;

export interface SlotPolicy {
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
  /** Average attempt time (ms), timeouts included. */
  latencyMs: number;
  /** Deliveries that found the slots taken: job id -> when its turn was set. */
  waiting: Map<string, number>;
  /** When waiting entries were last pruned, and the count then. */
  prunedAt: number;
  prunedSize: number;
}

export type SlotAnswer = { ok: true } | { ok: false; retryInMs: number };

/** What an attempt (or a delivery that made none) tells of its endpoint when its slot is given back. */
export type AttemptOutcome = { ok: boolean; latencyMs: number } | null;

export class EndpointSlots {
  private readonly endpoints = new Map<string, EndpointState>();

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
        latencyMs: this.policy.timeoutMs / 10,
        waiting: new Map(),
        prunedAt: this.now(),
        prunedSize: 0,
      };
      this.endpoints.set(endpoint, s);
    }
    return s;
  }

  private capOf(s: EndpointState): number {
    return s.failing ? Math.min(this.policy.failingPerEndpoint, this.policy.perEndpoint) : this.policy.perEndpoint;
  }

  /** A slot for delivery `job` to `endpoint`, or how long it waits before asking again. */
  acquire(endpoint: string, job: string): SlotAnswer {
    const s = this.state(endpoint);
    const cap = this.capOf(s);
    if (s.inFlight < cap) {
      s.inFlight++;
      s.waiting.delete(job);
      return { ok: true };
    }
    const now = this.now();
    this.prune(s, now);
    s.waiting.delete(job);
    const turn = (s.latencyMs * (s.waiting.size + 1)) / cap;
    const retryInMs = Math.min(
      MAX_WAIT_MS,
      Math.round(Math.min(MAX_WAIT_MS, Math.max(MIN_WAIT_MS, turn)) * (0.5 + this.random())),
    );
    s.waiting.set(job, now + retryInMs);
    return { ok: false, retryInMs };
  }

  /** Gives back a slot `acquire` gave, with what the attempt showed of the endpoint (null: no attempt made). */
  release(endpoint: string, outcome: AttemptOutcome): void {
    const s = this.endpoints.get(endpoint);
    if (!s || s.inFlight === 0) return;
    s.inFlight--;
    if (outcome) {
      s.failing = !outcome.ok;
      s.latencyMs += LATENCY_WEIGHT * (outcome.latencyMs - s.latencyMs);
    }
    if (s.inFlight === 0 && s.waiting.size === 0 && !s.failing) this.endpoints.delete(endpoint);
  }

  /** What the store says of an endpoint this process has not seen fail (another process, or before a restart). */
  noteFailing(endpoint: string, failing: boolean): void {
    const s = this.endpoints.get(endpoint);
    if (s && failing) s.failing = true;
  }

  /** Attempts in flight to `endpoint`, and whether it counts as failing. */
  inspect(endpoint: string): { inFlight: number; failing: boolean; waiting: number } {
    const s = this.endpoints.get(endpoint);
    return { inFlight: s?.inFlight ?? 0, failing: s?.failing ?? false, waiting: s?.waiting.size ?? 0 };
  }

  /** Forgets waiting deliveries long past their turn (finished by another process), now and then. */
  private prune(s: EndpointState, now: number): void {
    if (s.waiting.size < 2 * s.prunedSize + 64 && now - s.prunedAt < 10_000) return;
    for (const [job, turn] of s.waiting) if (turn < now - FORGET_AFTER_MS) s.waiting.delete(job);
    s.prunedAt = now;
    s.prunedSize = s.waiting.size;
  }
}
