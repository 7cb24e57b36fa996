// The free work lane under more free work than it can run: a task that waited past its bound is answered 503 at once
// and never runs (an answered call's work would keep the lane busy for nobody: previews starving each other into
// 503s for as long as they keep coming), and a paying call's count goes ahead of the free calls waiting.
import { describe, expect, it } from 'vitest';
import { ApiError } from '@pra/core/errors';
import { WorkLane } from '../src/domain/work-lane.js';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the free work lane', () => {
  it('refuses a task that waited past its bound (503, not run) and drains its queue', async () => {
    const lane = new WorkLane(1);
    const ran: string[] = [];
    const slow = lane.run(async () => {
      await pause(300);
      ran.push('slow');
    });
    const waiting = ['a', 'b', 'c'].map((name) =>
      lane
        .run(async () => void ran.push(name), { maxWaitMs: 50 })
        .then(
          () => 'ran',
          (err: unknown) => (err instanceof ApiError ? `${err.status} ${err.reason}` : String(err)),
        ),
    );
    expect(await Promise.all(waiting)).toEqual(['503 unavailable', '503 unavailable', '503 unavailable']);
    expect(lane.load()).toEqual({ running: 1, waiting: 0 });
    await slow;
    await pause(10);
    expect(ran).toEqual(['slow']);
    expect(lane.load()).toEqual({ running: 0, waiting: 0 });
    // The lane still runs what comes next.
    expect(await lane.run(async () => 'next', { maxWaitMs: 50 })).toBe('next');
  });

  it("runs a paying call's count before the free calls waiting", async () => {
    const lane = new WorkLane(1);
    const order: string[] = [];
    const first = lane.run(() => pause(50).then(() => void order.push('first')));
    const previews = [1, 2, 3].map((i) => lane.run(async () => void order.push(`preview${i}`)));
    const paid = lane.run(async () => void order.push('paid'), { paid: true });
    await Promise.all([first, paid, ...previews]);
    expect(order).toEqual(['first', 'paid', 'preview1', 'preview2', 'preview3']);
  });
});
