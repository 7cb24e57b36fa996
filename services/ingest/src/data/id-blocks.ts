// Consecutive ids drawn from a sequence in one statement: one nextval moved on by n - 1 (setval). nextval and setval
// are two steps, so a block is whole only while every draw from that sequence is made here under the caller's lock:
// a nextval of another session between the two (an INSERT taking the column's default) would take an id of the
// block. Both sequences drawn this way are drawn only here: records.property_id_seq (reserveIds, its own advisory
// lock) and the owner_entities identity (owner-registry.ts, under the resolver's lock). One nextval a row cost ~6 us
// an owner of a first load (docs/benchmarks.md).
import type { PoolClient } from '@pra/platform/db';

/** The first of `n` consecutive ids drawn from `sequence` (a regclass name); the caller holds the draws' lock. */
export async function drawIdBlock(c: PoolClient, sequence: string, n: number): Promise<number> {
  const { rows } = await c.query<{ last: string }>(
    'SELECT setval($1::regclass, nextval($1::regclass) + $2 - 1) AS last',
    [sequence, n],
  );
  return Number(rows[0]!.last) - n + 1;
}
