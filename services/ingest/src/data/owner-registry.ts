// The owner registry (migration 0012): a batch's owner mentions to owner ids, at import time, one transaction per
// batch under one lock (resolutions are serial: two loads never make two owners of one key). The rules:
// 1. A mention's key (domain/owner-keys.ts) already names an owner: that owner, subject to the middle initial (a
//    mention with a middle initial joins an owner with the same one, or one registered without any; a mention
//    without one joins the first owner of the key).
// 2. Otherwise, when the record was stored before and the same place (property, owner1/owner2) named an owner of
//    the same name: that owner, and the new key becomes its evidence too. A re-import, a changed mailing address
//    never renames an owner.
// 3. Both: evidence joins the two owners. The younger id is merged into the older: its keys and mentions move, and
//    the younger id answers as the older from then on (owner_redirects), never a 404.
// 4. Neither: a new owner.
import { withTransaction, type Pool, type PoolClient } from '@pra/platform/db';
import type { PropertyInput } from '../domain/property-input.js';
import { idPairs, type OwnerMention, recordMentions } from '../domain/owner-keys.js';
import type { RecordOwnerIds } from './copy-rows.js';
import { drawIdBlock } from './id-blocks.js';

/** The owner ids of records about to be written (ids: consecutive from a first id, or one per record). */
export async function resolveRecordOwners(
  pool: Pool,
  ids: number | readonly number[],
  items: readonly PropertyInput[],
): Promise<RecordOwnerIds[]> {
  return idPairs(await resolveOwners(pool, recordMentions(ids, items)));
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
  return withTransaction(pool, async (c) => {
    await c.query("SELECT pg_advisory_xact_lock(hashtext('records.owner_entities'))");
    const keys = [...new Set(present.map((m) => m.key))];
    const { rows: found } = await c.query<{ key: string; middle: string; owner_id: string }>(
      'SELECT key, middle, owner_id FROM records.owner_keys WHERE key = ANY($1::text[])',
      [keys],
    );
    const byKey = new Map<string, KeyRow[]>();
    for (const r of found) {
      const list = byKey.get(r.key) ?? [];
      list.push({ middle: r.middle, ownerId: Number(r.owner_id) });
      byKey.set(r.key, list);
    }
    const previous = await previousOwners(
      c,
      present.filter((m) => !isNew(m.propertyId)),
    );
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
    if (newOwners.length > 0) {
      await c.query(
        `INSERT INTO records.owner_entities (owner_id, kind, name_key) OVERRIDING SYSTEM VALUE
         SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[])`,
        [drawn, newOwners.map((o) => o.kind), newOwners.map((o) => o.nameKey)],
      );
    }
    if (newKeys.length > 0) {
      // A plain insert: records.owner_keys has no other writer than this function, which inserts under the lock this
      // transaction holds and read the keys under it, so none of these exists. (ON CONFLICT DO NOTHING made each a
      // speculative insertion, about twice the cost, and would hide a key the registry already holds instead of
      // failing the batch.)
      await c.query(
        `INSERT INTO records.owner_keys (key, middle, owner_id)
         SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[])`,
        [newKeys.map((k) => k.key), newKeys.map((k) => k.middle), newKeys.map((k) => idOf(k.slot))],
      );
    }
    await mergeOwnerIds(
      c,
      [...merged.keys()].map((gone) => [rawId(gone), idOf(gone)]),
    );
    return answer.map((id) => (id === null ? null : idOf(id)));
  });
}

/**
 * Taken by a merge of owners (exclusive, in the resolver's transaction) and by each write of owner mentions (shared,
 * first thing in its transaction, before it holds any row: see lockAgainstMerges). The owner ids a write carries
 * were resolved before it: one of them may be merged away by another batch's resolver before the write commits, and
 * that merge's UPDATE of owner_mentions cannot see the write's rows. With the lock, either the merge waits for the
 * write to commit (its UPDATE then sees them) or the write waits for the merge and settles its own mentions through
 * the redirect (settleMergedOwners). Taken late, after a write's DELETE of a record's mentions, it deadlocked: the
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
export async function lockAgainstMerges(c: PoolClient): Promise<void> {
  await c.query(`SELECT pg_advisory_xact_lock_shared(${MERGE_LOCK})`);
}

/**
 * In a write's transaction (which took lockAgainstMerges), once its owner mentions are copied: mentions of an owner
 * merged away since its ids were resolved name the owner it was merged into (`ownerIds`: the owner ids the write's
 * mentions carry, nulls ignored).
 */
export async function settleMergedOwners(
  c: PoolClient,
  propertyIds: readonly number[],
  ownerIds: readonly (number | null)[],
): Promise<void> {
  const owners = [...new Set(ownerIds.filter((id): id is number => id !== null))];
  if (owners.length === 0) return;
  // Redirects first, and the UPDATE only when one names an owner of this write: merges are rare, and the UPDATE over
  // the batch's mentions cost as much when it changed nothing. No merge can commit while this transaction holds the
  // shared MERGE_LOCK (taken first, lockAgainstMerges): the redirects read here are all there will be until it commits.
  const { rows: gone } = await c.query<{ from_id: string; to_id: string }>(
    'SELECT from_id, to_id FROM records.owner_redirects WHERE from_id = ANY($1::bigint[])',
    [owners],
  );
  if (gone.length === 0) return;
  await c.query(
    `UPDATE records.owner_mentions m SET owner_id = g.to_id
       FROM unnest($2::bigint[], $3::bigint[]) AS g(from_id, to_id)
      WHERE m.owner_id = g.from_id AND m.property_id = ANY($1::bigint[])`,
    [propertyIds, gone.map((g) => g.from_id), gone.map((g) => g.to_id)],
  );
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

/** What each stored place (property, seq) of the batch named before this write: its owner, kind and name. */
async function previousOwners(
  c: PoolClient,
  mentions: readonly OwnerMention[],
): Promise<Map<string, { ownerId: number; kind: string; nameKey: string }>> {
  const ids = [...new Set(mentions.map((m) => m.propertyId))];
  if (ids.length === 0) return new Map();
  const { rows } = await c.query<{
    property_id: string;
    seq: number;
    owner_id: string;
    kind: string;
    name_key: string;
  }>(
    `SELECT m.property_id, m.seq, m.owner_id, e.kind, e.name_key
       FROM records.owner_mentions m JOIN records.owner_entities e USING (owner_id)
      WHERE m.property_id = ANY($1::bigint[])`,
    [ids],
  );
  return new Map(
    rows.map((r) => [`${r.property_id}:${r.seq}`, { ownerId: Number(r.owner_id), kind: r.kind, nameKey: r.name_key }]),
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
