// The endpoint slots (src/delivery/endpoint-slots.ts) over generated sequences of deliveries starting, ending (in
// success or failure, or without an attempt) and asking again: an endpoint never holds more slots than its share
// (its failing share while its last attempt failed), a delivery that waits is told a wait within bounds, and every
// slot given back can be taken again.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EndpointSlots, MAX_WAIT_MS } from '../src/delivery/endpoint-slots.js';

const ENDPOINTS = ['a', 'b', 'c'];
const op = fc.oneof(
  fc.record({ kind: fc.constant('acquire' as const), endpoint: fc.constantFrom(...ENDPOINTS), job: fc.nat(40) }),
  fc.record({
    kind: fc.constant('release' as const),
    endpoint: fc.constantFrom(...ENDPOINTS),
    outcome: fc.option(fc.record({ ok: fc.boolean(), latencyMs: fc.nat(10_000) }), { nil: null }),
  }),
  fc.record({ kind: fc.constant('note' as const), endpoint: fc.constantFrom(...ENDPOINTS), failing: fc.boolean() }),
  fc.record({ kind: fc.constant('tick' as const), ms: fc.nat(1_000_000) }),
);

describe('endpoint slots', () => {
  it('an endpoint never holds more slots than its share, for any sequence', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 1, max: 6 }),
        fc.array(op, { maxLength: 300 }),
        (perEndpoint, failingPerEndpoint, ops) => {
          let now = 0;
          const slots = new EndpointSlots({ perEndpoint, failingPerEndpoint, timeoutMs: 5_000 }, () => now);
          // The model: slots held per endpoint, and whether its last attempt (or the store) says it is failing.
          const held = new Map<string, number>();
          for (const o of ops) {
            if (o.kind === 'tick') now += o.ms;
            else if (o.kind === 'acquire') {
              const before = slots.inspect(o.endpoint);
              const cap = before.failing ? Math.min(perEndpoint, failingPerEndpoint) : perEndpoint;
              const a = slots.acquire(o.endpoint, `job${o.job}`);
              if (a.ok) {
                expect(before.inFlight).toBeLessThan(cap);
                held.set(o.endpoint, (held.get(o.endpoint) ?? 0) + 1);
              } else {
                expect(before.inFlight).toBeGreaterThanOrEqual(cap);
                expect(a.retryInMs).toBeGreaterThanOrEqual(50);
                expect(a.retryInMs).toBeLessThanOrEqual(MAX_WAIT_MS);
              }
            } else if (o.kind === 'release') {
              if ((held.get(o.endpoint) ?? 0) === 0) continue; // only a slot that was given is given back
              held.set(o.endpoint, held.get(o.endpoint)! - 1);
              slots.release(o.endpoint, o.outcome);
              if (o.outcome) expect(slots.inspect(o.endpoint).failing).toBe(!o.outcome.ok);
            } else slots.noteFailing(o.endpoint, o.failing);
            for (const e of ENDPOINTS) expect(slots.inspect(e).inFlight).toBe(held.get(e) ?? 0);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('a backlog behind a dead endpoint waits longer the more of it there is (not a spin), at most MAX_WAIT_MS', () => {
    const slots = new EndpointSlots(
      { perEndpoint: 4, failingPerEndpoint: 1, timeoutMs: 5_000 },
      () => 0,
      () => 0.5,
    );
    expect(slots.acquire('dead', 'first').ok).toBe(true);
    slots.release('dead', { ok: false, latencyMs: 5_000 }); // timed out: one slot from now on
    expect(slots.acquire('dead', 'second').ok).toBe(true);
    const waits = Array.from({ length: 1_000 }, (_, i) => {
      const a = slots.acquire('dead', `job${i}`);
      if (a.ok) throw new Error('the dead endpoint has one slot, and it is taken');
      return a.retryInMs;
    });
    expect(waits[1]!).toBeGreaterThan(waits[0]!);
    expect(waits[999]!).toBeGreaterThan(waits[99]!);
    expect(Math.max(...waits)).toBe(MAX_WAIT_MS);
    // Another endpoint is not affected.
    expect(slots.acquire('healthy', 'x').ok).toBe(true);
    // The dead one answers again: its share comes back with its first success.
    slots.release('dead', { ok: true, latencyMs: 20 });
    for (let i = 0; i < 4; i++) expect(slots.acquire('dead', `again${i}`).ok).toBe(true);
    expect(slots.acquire('dead', 'fifth').ok).toBe(false);
  });
});
