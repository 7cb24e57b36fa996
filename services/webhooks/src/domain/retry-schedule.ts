// When a failed delivery is tried again: exponential back-off with jitter, 16 attempts in all (the first and 15
// retries) over at least 30 hours whatever the jitter draws (about 40 h on average), then the event is dead-lettered
// for that endpoint. Nominal wait after attempt n: 15 s x 2^(n-1), at most 8 h; each wait is drawn in
// [0.75, 1.25] x nominal, so endpoints that failed together do not all come back in the same second.
export const MAX_ATTEMPTS = 16;
const FIRST_WAIT_MS = 15_000;
const LONGEST_WAIT_MS = 8 * 3_600_000;
const JITTER = 0.25;

/** The nominal wait after failed attempt `attempt` (1-based), before jitter. */
export function nominalWaitMs(attempt: number): number {
  return Math.min(LONGEST_WAIT_MS, FIRST_WAIT_MS * 2 ** Math.max(0, attempt - 1));
}

/**
 * The wait after failed attempt `attempt` (1..MAX_ATTEMPTS-1). `random` draws in [0, 1); `scale` (< 1) compresses
 * the whole schedule: a test or a local system living an hour of retries in a second (WEBHOOK_RETRY_SCALE).
 */
export function retryDelayMs(attempt: number, random: () => number = Math.random, scale = 1): number {
  const jittered = nominalWaitMs(attempt) * (1 - JITTER + 2 * JITTER * random());
  return Math.max(1, Math.round(jittered * scale));
}

/** The shortest time from the first attempt to the last (every draw at its lowest): what "at least" above says. */
export const SHORTEST_SPAN_MS = Array.from({ length: MAX_ATTEMPTS - 1 }, (_, i) => nominalWaitMs(i + 1)).reduce(
  (a, b) => a + b * (1 - JITTER),
  0,
);

/** The failed attempt after which the event is dead-lettered. */
export const isLastAttempt = (attempt: number) => attempt >= MAX_ATTEMPTS;
