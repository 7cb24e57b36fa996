// Consecutive ids drawn from a sequence in one statement: one nextval moved on by n - 1 (setval). nextval and setval
// are two steps, so a block is whole only while every draw from that sequence is made here under the caller's lock:
// a nextval of another session between the two (an INSERT taking the column's default) would take an id of the
// block. Both sequences drawn this way are drawn only here: records.property_id_seq (reserveIds, its own advisory
// lock) and the owner_entities identity (owner-registry.ts, under the resolver's lock). One nextval a row cost ~6 us
// an owner of a first load (docs/benchmarks.md).
import { escapeLiteral, type PoolClient } from '@pra/platform/db';

/** The first of `n` consecutive ids drawn from `sequence` (a regclass name); the caller holds the draws' lock. */
export async function drawIdBlock(c: PoolClient, sequence: string, n: number): Promise<number> {
  return firstOfBlock(await c.query(drawIdBlockStatement(sequence, n)), n);
}

/** The statement that draws a block of `n` (its values in its text, for a script of statements: write-script.ts). */
export function drawIdBlockStatement(sequence: string, n: number): string {
  if (!Number.isSafeInteger(n) || n < 1) throw new Error(`a block of ids is a whole number of them: ${n}`);
  const seq = `${escapeLiteral(sequence)}::regclass`;
  return `SELECT setval(${seq}, nextval(${seq}) + ${n - 1}) AS last`;
}

/** The first id of the block drawn by drawIdBlockStatement, from its result. */
export function firstOfBlock(drawn: { rows: unknown[] }, n: number): number {
  return Number((drawn.rows[0] as { last: string | number }).last) - n + 1;
}
