// The retry schedule: at least 30 h of retries whatever the jitter draws (as docs/webhook-delivery.md says), growing waits, and jitter that spreads.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  isLastAttempt,
  MAX_ATTEMPTS,
  nominalWaitMs,
  retryDelayMs,
  SHORTEST_SPAN_MS,
} from '../src/domain/retry-schedule.js';

const span = (draw: () => number) =>
  Array.from({ length: MAX_ATTEMPTS - 1 }, (_, i) => retryDelayMs(i + 1, draw)).reduce((a, b) => a + b, 0);

describe('the retry schedule', () => {
  it('spans at least 30 hours from the first attempt to the dead letter, for any jitter', () => {
    expect(SHORTEST_SPAN_MS).toBeGreaterThanOrEqual(30 * 3_600_000);
    expect(span(() => 0)).toBeGreaterThanOrEqual(30 * 3_600_000);
    fc.assert(
      fc.property(fc.array(fc.double({ min: 0, max: 0.999999, noNaN: true }), { minLength: MAX_ATTEMPTS }), (draws) => {
        let i = 0;
        expect(span(() => draws[i++]!)).toBeGreaterThanOrEqual(SHORTEST_SPAN_MS - MAX_ATTEMPTS);
      }),
    );
  });

  it('grows exponentially to a ceiling, and the jitter stays within a quarter either side', () => {
    for (let n = 2; n < MAX_ATTEMPTS; n++) expect(nominalWaitMs(n)).toBeGreaterThanOrEqual(nominalWaitMs(n - 1));
    expect(nominalWaitMs(2)).toBe(2 * nominalWaitMs(1));
    expect(nominalWaitMs(MAX_ATTEMPTS - 1)).toBe(8 * 3_600_000);
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: MAX_ATTEMPTS - 1 }),
        fc.double({ min: 0, max: 0.999999, noNaN: true }),
        (n, r) => {
          const d = retryDelayMs(n, () => r);
          expect(d).toBeGreaterThanOrEqual(Math.floor(nominalWaitMs(n) * 0.75));
          expect(d).toBeLessThanOrEqual(Math.ceil(nominalWaitMs(n) * 1.25));
        },
      ),
    );
    const draws = new Set(Array.from({ length: 50 }, () => retryDelayMs(5)));
    expect(draws.size).toBeGreaterThan(10);
  });

  it('compresses by a scale (an hour of retries in a moment) and dead-letters after the last attempt', () => {
    expect(retryDelayMs(3, () => 0.5, 0.001)).toBe(Math.round(nominalWaitMs(3) * 0.001));
    expect(isLastAttempt(MAX_ATTEMPTS - 1)).toBe(false);
    expect(isLastAttempt(MAX_ATTEMPTS)).toBe(true);
  });
});
