// The writer's side of the change feed (records.changes, migration 0005): every write, removal and rekey of
// properties adds the ids it touched, in its own transaction, so the row exists exactly when the write committed.
// Readers of the feed (the type-ahead indexer) apply the current state of those ids, so the feed says only which.
import { idArrayLiteral, type PoolClient, runStatements } from '@pra/platform/db';

/** Ids per feed row: a 5M-record load is a few hundred rows, and a consumer reads one row's array at once. */
export const IDS_PER_CHANGE = 10_000;

export type ChangeOrigin = 'write' | 'remove' | 'rekey';

/** The statements that add feed rows for `propertyIds` (duplicates dropped), the ids in their text. */
export function recordChangesStatements(propertyIds: Iterable<number | string>, origin: ChangeOrigin): string[] {
  const ids = [...new Set([...propertyIds].map(Number))];
  const out: string[] = [];
  for (let i = 0; i < ids.length; i += IDS_PER_CHANGE) {
    const chunk = ids.slice(i, i + IDS_PER_CHANGE);
    out.push(
      `INSERT INTO records.changes (property_ids, id_count, origin) VALUES (${idArrayLiteral(chunk)}::bigint[], ${chunk.length}, '${origin}')`,
    );
  }
  return out;
}

/** Adds feed rows for `propertyIds` (duplicates dropped) in the caller's transaction. */
export async function recordChanges(
  client: PoolClient,
  propertyIds: Iterable<number | string>,
  origin: ChangeOrigin,
): Promise<void> {
  const statements = recordChangesStatements(propertyIds, origin);
  if (statements.length > 0) await runStatements(client, statements);
}
