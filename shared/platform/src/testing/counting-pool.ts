// A pool that records what runs through it: tests count statements (a batch is one statement, a refusal none).
import type { Pool } from '../db.js';

/**
 * The pool, recording the name (or text) of every statement run through it, and every connection taken from it
 * (as 'connect'). `before`, when given, runs before each statement is sent (a test may hold statements there).
 */
export function countingPool(pool: Pool, statements: string[], before?: () => Promise<void>): Pool {
  return new Proxy(pool, {
    get(target, prop) {
      if (prop === 'query') {
        return async (q: string | { name?: string; text: string }, ...rest: unknown[]) => {
          statements.push(typeof q === 'string' ? q : (q.name ?? q.text));
          await before?.();
          return (target.query as (...a: unknown[]) => unknown)(q, ...rest);
        };
      }
      if (prop === 'connect') {
        return (...a: unknown[]) => {
          statements.push('connect');
          return (target.connect as (...a: unknown[]) => unknown)(...a);
        };
      }
      const v = Reflect.get(target, prop);
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
}
