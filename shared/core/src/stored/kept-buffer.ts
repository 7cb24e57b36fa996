/**
 * A buffer kept for the thread's life, for work done within one synchronous call: `take(size)` gives one of at least
 * `size` bytes, the same one call after call (grown when too small, at least doubling, up to `limit`), or, for a size
 * over `limit`, a buffer of its own. Its bytes are the caller's until its next call.
 */
export function keptBuffer(first: number, limit: number): (size: number) => Buffer {
  let kept: Buffer | null = null;
  return (size) => {
    if (size > limit) return Buffer.allocUnsafeSlow(size);
    if (kept === null || kept.length < size)
      kept = Buffer.allocUnsafeSlow(Math.min(limit, Math.max(size, kept ? 2 * kept.length : first)));
    return kept;
  };
}
