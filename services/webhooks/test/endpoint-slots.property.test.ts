// The endpoint slots (src/delivery/endpoint-slots.ts) over generated sequences of deliveries starting, ending (in
// success or failure, or without an attempt), the store saying an endpoint fails, and time passing, checked against
// a model of the rules kept here: an endpoint holds at most its share, one while it fails (by its last attempt or the
// store), past its share only when it is fast and a share's worth of the process's slots stays free; a delivery
// that waits is told a wait within bounds.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EndpointSlots, MAX_WAIT_MS, MIN_WAIT_MS } from '../src/delivery/endpoint-slots.js';

const ENDPOINTS = ['a', 'b', 'c'];
const TIMEOUT_MS = 5_000;
const op = fc.oneof(
  fc.record({ kind: fc.constant('acquire' as const), endpoint: fc.constantFrom(...ENDPOINTS), job: fc.nat(40) }),
  fc.record({
    kind: fc.constant('release' as const),
    endpoint: fc.constantFrom(...ENDPOINTS),
    outcome: fc.option(
      fc.record({ ok: fc.boolean(), latencyMs: fc.oneof(fc.nat(200), fc.integer({ min: 0, max: TIMEOUT_MS })) }),
      { nil: null },
    ),
  }),
  fc.record({ kind: fc.constant('note' as const), endpoint: fc.constantFrom(...ENDPOINTS), failing: fc.boolean() }),
  fc.record({ kind: fc.constant('tick' as const), ms: fc.nat(1_000_000) }),
);

/** The model's view of one endpoint. */
interface Model {
  held: number;
  failing: boolean;
  latencyMs: number;
  measured: boolean;
}

describe('endpoint slots', () => {
  it('no endpoint holds more than the rules give it, for any sequence', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 1, max: 6 }),
        fc.array(op, { maxLength: 300 }),
        (total, perEndpoint, failingPerEndpoint, ops) => {
          let now = 0;
          const slots = new EndpointSlots({ total, perEndpoint, failingPerEndpoint, timeoutMs: TIMEOUT_MS }, () => now);
          const model = new Map<string, Model>();
          const of = (e: string) => {
            let m = model.get(e);
            // An endpoint forgotten (nothing held, none waiting, not failing) starts again as unknown: slow.
            if (!m) {
              m = { held: 0, failing: false, latencyMs: TIMEOUT_MS / 2, measured: false };
              model.set(e, m);
            }
            return m;
          };
          const heldAll = () => [...model.values()].reduce((n, m) => n + m.held, 0);
          for (const o of ops) {
            if (o.kind === 'tick') now += o.ms;
            else if (o.kind === 'acquire') {
              // BullMQ runs at most `total` deliveries at once: no more ask for a slot.
              if (heldAll() >= total) continue;
              const m = of(o.endpoint);
              const cap = m.failing ? Math.min(perEndpoint, failingPerEndpoint) : perEndpoint;
              const borrow = !m.failing && m.latencyMs <= TIMEOUT_MS / 4 && total - heldAll() > perEndpoint;
              const a = slots.acquire(o.endpoint, `job${o.job}`);
              expect(a.ok).toBe(m.held < cap || borrow);
              if (a.ok) m.held++;
              else {
                expect(a.retryInMs).toBeGreaterThanOrEqual(MIN_WAIT_MS / 2);
                expect(a.retryInMs).toBeLessThanOrEqual(MAX_WAIT_MS);
              }
            } else if (o.kind === 'release') {
              const m = model.get(o.endpoint);
              if (!m || m.held === 0) continue; // only a slot that was given is given back
              m.held--;
              slots.release(o.endpoint, o.outcome);
              if (o.outcome) {
                m.failing = !o.outcome.ok;
                m.latencyMs = m.measured
                  ? m.latencyMs + 0.2 * (o.outcome.latencyMs - m.latencyMs)
                  : o.outcome.latencyMs;
                m.measured = true;
              }
              if (m.held === 0 && !m.failing && slots.inspect(o.endpoint).waiting === 0) model.delete(o.endpoint);
            } else {
              slots.noteFailing(o.endpoint, o.failing);
              // The store's word counts only for an endpoint this process is holding or waiting on.
              const m = model.get(o.endpoint);
              if (m && o.failing) m.failing = true;
            }
            for (const e of ENDPOINTS) {
              const seen = slots.inspect(e);
              expect(seen.inFlight).toBe(model.get(e)?.held ?? 0);
              expect(seen.failing).toBe(model.get(e)?.failing ?? false);
            }
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('a backlog behind a dead endpoint waits longer the more of it there is (not a spin), at most MAX_WAIT_MS', () => {
    const slots = new EndpointSlots(
      { total: 50, perEndpoint: 4, failingPerEndpoint: 1, timeoutMs: 5_000 },
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
    expect(waits[99]!).toBeGreaterThan(waits[9]!);
    expect(waits[999]!).toBeGreaterThanOrEqual(waits[99]!);
    expect(Math.max(...waits)).toBeLessThanOrEqual(MAX_WAIT_MS);
    expect(Math.max(...waits)).toBeGreaterThan(MAX_WAIT_MS / 2);
    // Another endpoint is not affected.
    expect(slots.acquire('healthy', 'x').ok).toBe(true);
    // The dead one answers again: its share comes back with its first success (slow: no borrowing yet).
    slots.release('dead', { ok: true, latencyMs: 2_000 });
    for (let i = 0; i < 4; i++) expect(slots.acquire('dead', `again${i}`).ok).toBe(true);
    expect(slots.acquire('dead', 'fifth').ok).toBe(false);
  });

  it('an endpoint alone with a backlog, fast, borrows idle slots: all but a share of the process', () => {
    const slots = new EndpointSlots({ total: 50, perEndpoint: 10, failingPerEndpoint: 1, timeoutMs: 5_000 });
    // Unknown, it is held to its share; fast attempts (20 ms) let it borrow.
    for (let i = 0; i < 10; i++) expect(slots.acquire('big', `warm${i}`).ok).toBe(true);
    expect(slots.acquire('big', 'eleventh').ok).toBe(false);
    for (let i = 0; i < 10; i++) slots.release('big', { ok: true, latencyMs: 20 });
    let held = 0;
    while (slots.acquire('big', `job${held}`).ok) held++;
    expect(held).toBe(40);
    // The share kept free goes to another endpoint at once.
    for (let i = 0; i < 10; i++) expect(slots.acquire('other', `o${i}`).ok).toBe(true);
    // A failure ends the borrowing.
    for (let i = 0; i < 39; i++) slots.release('big', { ok: true, latencyMs: 20 });
    slots.release('big', { ok: false, latencyMs: 5_000 });
    expect(slots.acquire('big', 'after-failure').ok).toBe(true);
    expect(slots.acquire('big', 'second-after-failure').ok).toBe(false);
  });
});
