// The batch's weight as the gateway reads it from the raw body, on every batch before it is admitted: a body crafted
// to be costly to parse (256 KB of nested arrays takes JSON.parse ~100 ms, on the pluginserver every tenant's access
// phase shares) is weighed without being parsed.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BATCH_BODY_MAX_BYTES, batchCallWeightOf } from './queries.js';

afterEach(() => vi.restoreAllMocks());

describe('batchCallWeightOf', () => {
  it('weighs a batch by its entries (1 call per 10), a body that is not one as 1', () => {
    const entries = (n: number) => JSON.stringify({ requests: Array.from({ length: n }, () => ({ address: '[{' })) });
    expect(batchCallWeightOf(entries(100))).toBe(10);
    expect(batchCallWeightOf(entries(11))).toBe(2);
    expect(batchCallWeightOf(entries(0))).toBe(1);
    expect(batchCallWeightOf('not json')).toBe(1);
    expect(batchCallWeightOf('')).toBe(1);
  });

  it('never parses a body nested deeper than a batch is (weight 1: the service answers it 400)', () => {
    const depth = Math.floor((BATCH_BODY_MAX_BYTES - 20) / 2);
    const deep = `{"requests":${'['.repeat(depth)}${']'.repeat(depth)}}`;
    const parse = vi.spyOn(JSON, 'parse');
    expect(batchCallWeightOf(deep)).toBe(1);
    expect(parse).not.toHaveBeenCalled();
    // Brackets inside strings are text, not depth.
    expect(batchCallWeightOf(JSON.stringify({ requests: [{ address: '['.repeat(500) }] }))).toBe(1);
    expect(parse).toHaveBeenCalledTimes(1);
  });
});
