// The free work lane's bounds: one task at a time, and a task that cannot get its turn within the lane's longest wait
// is refused with an uncharged 503 (a flood of previews never builds a queue without end, nor holds a call for ever).
import { describe, expect, it } from 'vitest';
import { ApiError } from '@pra/core/errors';
import { WorkLane } from '../src/domain/work-lane.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('WorkLane', () => {
  it('runs one task at a time, in arrival order', async () => {
    const lane = new WorkLane(1);
    const order: string[] = [];
    const task = (name: string, ms: number) => async () => {
      order.push(`start ${name}`);
      await sleep(ms);
      order.push(`end ${name}`);
      return name;
    };
    const results = await Promise.all([lane.run(task('a', 30)), lane.run(task('b', 5)), lane.run(task('c', 5))]);
    expect(results).toEqual(['a', 'b', 'c']);
    expect(order).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
    expect(lane.load()).toEqual({ running: 0, waiting: 0 });
  });

  it('refuses a task past its longest wait with an uncharged 503, and the lane goes on', async () => {
    const lane = new WorkLane(1, 1, 40);
    const long = lane.run(() => sleep(150).then(() => 'long'));
    const refused = await lane.run(async () => 'never').catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).status).toBe(503);
    expect((refused as ApiError).reason).toBe('unavailable');
    expect(lane.load().waiting).toBe(0); // the refused task left the queue
    expect(await long).toBe('long');
    expect(await lane.run(async () => 'next')).toBe('next');
    expect(lane.load()).toEqual({ running: 0, waiting: 0 });
  });
});
