// The owner registry (migration 0012): a batch's owner mentions to owner ids, at import time, one transaction per
// batch under one lock (resolutions are serial: two loads never make two owners of one key). The rules:
// 1. A mention's key (domain/owner-keys.ts) already names an owner: that owner, subject to the middle initial (a
//    mention with a middle initial joins an owner with the same one, or one registered without any; a mention
//    without one joins the first owner of the key).
// 2. Otherwise, when the record was stored before and the same place (property, owner1 ... owner4) named an owner of
//    the same name: that owner, and the new key becomes its evidence too. A re-import, a changed mailing address
//    never renames an owner.
// 3. Both: evidence joins the two owners. The younger id is merged into the older: its keys and mentions move, and
//    the younger id answers as the older from then on (owner_redirects), never a 404.
// 4. Neither: a new owner.
import {
  idArrayLiteral,
  inBatchedTransaction,
  onConnection,
  type Pool,
  type PoolClient,
  runStatements,
  textArrayLiteral,
} from '@pra/platform/db';
import type { PropertyInput } from '../domain/property-input.js';
import { idsByRecord, type OwnerMention, type RecordOwnerIds, recordMentions } from '../domain/owner-keys.js';
import { drawIdBlock } from './id-blocks.js';

/** The owner ids of records about to be written (ids: consecutive from a first id, or one per record). */
export async function resolveRecordOwners(
  pool: Pool,
  ids: number | readonly number[],
  items: readonly PropertyInput[],
): Promise<RecordOwnerIds[]> {
  return idsByRecord(await resolveOwners(pool, recordMentions(ids, items)));
}

interface KeyRow {
  middle: string;
  ownerId: number;
}

/** Picks the owner of a key for a mention with `middle` (rule 1); undefined when none fits. */
export function pickByMiddle(rows: readonly KeyRow[], middle: string): number | undefined {
  if (middle !== '') {
    return (rows.find((r) => r.middle === middle) ?? rows.find((r) => r.middle === ''))?.ownerId;
  }
  return (
    rows.find((r) => r.middle === '')?.ownerId ??
    rows.reduce<number | undefined>((min, r) => (min === undefined || r.ownerId < min ? r.ownerId : min), undefined)
  );
}

/**
 * Owner ids of `mentions`, in their order (null stays null). `newIds`: the block of property ids reserved for the
 * records being added (reserveIds), which no write has stored yet: rule 2 has nothing to read for them, so their
 * earlier owners are not looked up. A stored record wrongly inside it would lose rule 2 (its owner would get a new id
 * when its key changed); one left out only costs the read.
 */
export async function resolveOwners(
  pool: Pool,
  mentions: readonly (OwnerMention | null)[],
  opts: { newIds?: { first: number; count: number } } = {},
): Promise<(number | null)[]> {
  const { first = 0, count = 0 } = opts.newIds ?? {};
  const isNew = (propertyId: number) => propertyId >= first && propertyId < first + count;
  const present = mentions.filter((m): m is OwnerMention => m !== null);
  if (present.length === 0) return mentions.map(() => null);
  // Three round trips on a first load (the importer's main thread reads each answer only between rows): the lock and
  // what is known of the keys (and of the stored records' owners); the new owners' ids; what is new, and the commit.
  // The values are in the statements' text (@pra/platform/db's literals).
  return onConnection(pool, (c) =>
    inBatchedTransaction(c, async (tx) => {
      const keys = [...new Set(present.map((m) => m.key))];
      const stored = [...new Set(present.filter((m) => !isNew(m.propertyId)).map((m) => m.propertyId))];
      const [, , found, earlier] = await tx.begin([
        "SELECT pg_advisory_xact_lock(hashtext('records.owner_entities'))",
        `SELECT key, middle, owner_id FROM records.owner_keys WHERE key = ANY(${textArrayLiteral(keys)}::text[])`,
        ...(stored.length > 0 ? [previousOwnersStatement(stored)] : []),
      ]);
      const byKey = new Map<string, KeyRow[]>();
      for (const r of found!.rows as { key: string; middle: string; owner_id: string | number }[]) {
        const list = byKey.get(r.key) ?? [];
        list.push({ middle: r.middle, ownerId: Number(r.owner_id) });
        byKey.set(r.key, list);
      }
      const previous = previousOwnersOf(earlier?.rows ?? []);
      const merged = new Map<number, number>();
      const final = (id: number): number => {
        let at = id;
        for (let next = merged.get(at); next !== undefined; next = merged.get(at)) at = next;
        return at;
      };
      const newOwners: { kind: string; nameKey: string; slot: number }[] = [];
      const newKeys: { key: string; middle: string; slot: number }[] = [];
      // Ids are numbers for known owners, negative slots for owners made in this batch (ids drawn below).
      const answer = mentions.map((m) => {
        if (!m) return null;
        const rows = byKey.get(m.key) ?? [];
        let id = pickByMiddle(rows, m.middle);
        if (id !== undefined) id = final(id);
        const prev = previous.get(`${m.propertyId}:${m.seq}`);
        const before = prev && prev.kind === m.kind && prev.nameKey === m.nameKey ? final(prev.ownerId) : undefined;
        if (id !== undefined && before !== undefined && id !== before) {
          const [keep, gone] = oldestFirst(id, before);
          merged.set(gone, keep);
          id = keep;
        } else if (id === undefined) id = before;
        if (id === undefined) {
          id = -(newOwners.length + 1);
          newOwners.push({ kind: m.kind, nameKey: m.nameKey, slot: id });
        }
        if (!rows.some((r) => r.middle === m.middle)) {
          rows.push({ middle: m.middle, ownerId: id });
          byKey.set(m.key, rows);
          newKeys.push({ key: m.key, middle: m.middle, slot: id });
        }
        return id;
      });
      const drawn = await drawIds(c, newOwners.length);
      const rawId = (slotOrId: number) => (slotOrId < 0 ? drawn[-slotOrId - 1]! : slotOrId);
      const idOf = (slotOrId: number) => rawId(final(slotOrId));
      const writes: string[] = [];
      if (newOwners.length > 0) {
        writes.push(
          `INSERT INTO records.owner_entities (owner_id, kind, name_key) OVERRIDING SYSTEM VALUE
         SELECT * FROM unnest(${idArrayLiteral(drawn)}::bigint[], ${textArrayLiteral(newOwners.map((o) => o.kind))}::text[],
                              ${textArrayLiteral(newOwners.map((o) => o.nameKey))}::text[])`,
        );
      }
      if (newKeys.length > 0) {
        // A plain insert: records.owner_keys has no other writer than this function, which inserts under the lock this
        // transaction holds and read the keys under it, so none of these exists. (ON CONFLICT DO NOTHING made each a
        // speculative insertion, about twice the cost, and would hide a key the registry already holds instead of
        // failing the batch.)
        writes.push(
          `INSERT INTO records.owner_keys (key, middle, owner_id)
         SELECT * FROM unnest(${textArrayLiteral(newKeys.map((k) => k.key))}::text[],
                              ${textArrayLiteral(newKeys.map((k) => k.middle))}::text[],
                              ${idArrayLiteral(newKeys.map((k) => idOf(k.slot)))}::bigint[])`,
        );
      }
      const merges = [...merged.keys()].map((gone): [number, number] => [rawId(gone), idOf(gone)]);
      if (merges.length > 0) {
        // Rare (evidence joining two owners): the inserts, then the merges statement by statement.
        if (writes.length > 0) await runStatements(c, writes);
        await mergeOwnerIds(c, merges);
        await tx.commit([]);
      } else await tx.commit(writes);
      return answer.map((id) => (id === null ? null : idOf(id)));
    }),
  );
}

/**
 * Taken by a merge of owners (exclusive, in the resolver's transaction) and by each write of owner mentions (shared,
 * first thing in its transaction, before it holds any row: see LOCK_AGAINST_MERGES). The owner ids a write carries
 * were resolved before it: one of them may be merged away by another batch's resolver before the write commits, and
 * that merge's UPDATE of owner_mentions cannot see the write's rows. With the lock, either the merge waits for the
 * write to commit (its UPDATE then sees them) or the write waits for the merge and settles its own mentions through
 * the redirect (settleMergedOwnersStatement). Taken late, after a write's DELETE of a record's mentions, it deadlocked: the
 * merge's UPDATE waited for the deleted rows, the write for the lock.
 */
const MERGE_LOCK = "hashtext('records.owner_merges')";

/** Merges owners (`[gone, keep]` pairs, mergeOwners), once the writes holding mentions have committed. */
export async function mergeOwnerIds(c: PoolClient, merges: readonly (readonly [number, number])[]): Promise<void> {
  if (merges.length === 0) return;
  await c.query(`SELECT pg_advisory_xact_lock(${MERGE_LOCK})`);
  for (const [gone, keep] of merges) await mergeOwners(c, gone, keep);
}

/** First thing in a write's transaction that replaces or adds owner mentions (see MERGE_LOCK). */
export const LOCK_AGAINST_MERGES = `SELECT pg_advisory_xact_lock_shared(${MERGE_LOCK})`;

/**
 * The statement that settles a write's owner mentions, in its transaction (which took LOCK_AGAINST_MERGES), once they
 * are copied: mentions of an owner merged away since its ids were resolved name the owner it was merged into
 * (`ownerIds`: the owner ids the write's mentions carry, nulls ignored); null when they name no owner. The redirects
 * are looked up first (the EXISTS, which does not depend on the row, is a filter the plan applies once): merges are
 * rare, and without a redirect naming an owner of the write the batch's mentions are not read (an UPDATE over them
 * cost as much when it changed nothing). No merge can commit while the write holds the shared MERGE_LOCK: the
 * redirects read here are all there will be until it commits. The ids are in its text (a write is one script:
 * write-script.ts).
 */
export function settleMergedOwnersStatement(
  propertyIds: readonly number[],
  ownerIds: readonly (number | null)[],
): string | null {
  const owners = [...new Set(ownerIds.filter((id): id is number => id !== null))];
  if (owners.length === 0) return null;
  const gone = `SELECT from_id, to_id FROM records.owner_redirects WHERE from_id = ANY(${idArrayLiteral(owners)}::bigint[])`;
  return `UPDATE records.owner_mentions m SET owner_id = g.to_id FROM (${gone}) g
     WHERE EXISTS (${gone}) AND m.owner_id = g.from_id AND m.property_id = ANY(${idArrayLiteral(propertyIds)}::bigint[])`;
}

/** The older id first: it is the one that stays (an owner made in this batch, a negative slot, is the youngest). */
const oldestFirst = (a: number, b: number): [number, number] => {
  const age = (x: number) => (x < 0 ? Number.MAX_SAFE_INTEGER + x : x);
  return age(a) < age(b) ? [a, b] : [b, a];
};

/** The owner_entities identity's sequence, looked up once a process (its name never changes). */
let ownerIdSequence: string | null = null;

/** Ids for `n` new owners, consecutive, drawn at once (id-blocks.ts): under the resolver's lock, as every draw is. */
async function drawIds(c: PoolClient, n: number): Promise<number[]> {
  if (n === 0) return [];
  if (ownerIdSequence === null) {
    const { rows } = await c.query<{ seq: string }>(
      "SELECT pg_get_serial_sequence('records.owner_entities', 'owner_id') AS seq",
    );
    ownerIdSequence = rows[0]!.seq;
  }
  const first = await drawIdBlock(c, ownerIdSequence, n);
  return Array.from({ length: n }, (_, i) => first + i);
}

/** The owners stored records had (rule 2), by property and seq, as one statement of resolveOwners' first round trip. */
function previousOwnersStatement(propertyIds: readonly number[]): string {
  return `SELECT m.property_id, m.seq, m.owner_id, e.kind, e.name_key
            FROM records.owner_mentions m JOIN records.owner_entities e USING (owner_id)
           WHERE m.property_id = ANY(${idArrayLiteral(propertyIds)}::bigint[])`;
}

function previousOwnersOf(
  rows: readonly Record<string, unknown>[],
): Map<string, { ownerId: number; kind: string; nameKey: string }> {
  return new Map(
    rows.map((r) => [
      `${r.property_id}:${r.seq}`,
      { ownerId: Number(r.owner_id), kind: String(r.kind), nameKey: String(r.name_key) },
    ]),
  );
}

/**
 * Merges owner `gone` into `keep`: its keys and mentions move, and it answers as `keep` (as do the owners merged into
 * it before: a redirect is always one step).
 */
export async function mergeOwners(c: PoolClient, gone: number, keep: number): Promise<void> {
  if (gone === keep) return;
  await c.query('UPDATE records.owner_redirects SET to_id = $2 WHERE to_id = $1', [gone, keep]);
  await c.query(
    'INSERT INTO records.owner_redirects (from_id, to_id) VALUES ($1, $2) ON CONFLICT (from_id) DO UPDATE SET to_id = $2',
    [gone, keep],
  );
  // A key both owners hold (same key, same middle) cannot happen: a key names one owner.
  await c.query('UPDATE records.owner_keys SET owner_id = $2 WHERE owner_id = $1', [gone, keep]);
  await c.query('UPDATE records.owner_mentions SET owner_id = $2 WHERE owner_id = $1', [gone, keep]);
}

/** The owner an id answers as: itself, or the owner it was merged into; null when no owner ever had it. */
export async function currentOwnerId(db: Pool | PoolClient, id: number): Promise<number | null> {
  const { rows } = await db.query<{ id: string }>(
    `SELECT coalesce((SELECT to_id FROM records.owner_redirects WHERE from_id = $1),
                     (SELECT owner_id FROM records.owner_entities WHERE owner_id = $1)) AS id`,
    [id],
  );
  return rows[0]?.id == null ? null : Number(rows[0].id);
}
