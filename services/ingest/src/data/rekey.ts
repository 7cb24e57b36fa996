// Recomputes the address keys of stored records when the normaliser changed (ADDRESS_KEYS_VERSION), so that stored
// and queried spellings keep meeting on one key, and the parcel identities of the import state, which hold the same
// keys, so that a re-import finds the parcels it wrote.
//
// It runs online, beside lookups and loads, not in the migration step: at 150M records it takes hours. Small
// transactions (one batch each: its updates, its change-feed row and the checkpoint's advance commit together), so a
// killed run resumes where its checkpoint says (records.rekey_checkpoint) and lookups never wait behind it. Phases:
//   records     keys of records.properties, in id order
//   identities  the import state's new identities, planned into records.rekey_moves (a table, so a plan survives)
//   moves       the planned moves made, a batch per transaction
// then the stored version is set and the checkpoint dropped. One run at a time (an advisory lock); an empty store
// only records the version. Until the version is set, imports of sources with import state are refused
// (rekey-gate.ts), since they would look their parcels up by identities not yet moved.
import { ADDRESS_KEYS_VERSION, parseStreetLine } from '@pra/core/address';
import { storedAddress } from '@pra/core/stored';
import { inTransaction, sessionConnection, withTransaction, type Pool, type PoolClient } from '@pra/platform/db';
import { streetWithUnit } from '../domain/street-lines.js';
import { decodeState, parcelIdentity } from '../importer/import-merge.js';
import { recordChanges } from './change-feed.js';
import { fillLocations } from './fill-locations.js';

const BATCH = 5_000;
const LOCK = "hashtext('records.rekey')";

export interface RekeyOptions {
  /** Rows read per transaction; 5,000 unless a test wants several batches of a few. */
  batchSize?: number;
  /** A pause after each batch, to leave a busy primary's I/O to lookups (REKEY_PAUSE_MS for the CLI). */
  pauseMs?: number;
  /** How often progress is logged while records are recomputed. */
  progressEveryMs?: number;
}

interface Checkpoint {
  version: number;
  phase: 'records' | 'identities' | 'moves';
  last_id: string;
  last_source: string;
  last_identity: string;
  records_done: string;
  records_changed: string;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const n = (x: number | string) => Number(x).toLocaleString('en-US');

/** Returns how many records changed keys over the whole rekey (resumed runs included); 0 when none was due. */
export async function rekeyAddresses(
  unguarded: Pool,
  log: (line: string) => void = () => {},
  { batchSize = BATCH, pauseMs = 0, progressEveryMs = 10_000 }: RekeyOptions = {},
): Promise<number> {
  const session = await sessionConnection(unguarded);
  const lock = session.client;
  // The lock lives as long as its connection. Lost (the server restarted, the backend was terminated), it is the
  // server's to give to another rekey: this one stops before its next statement (every step goes through `pool`,
  // which checks first), stamps its version on the lock's own connection (so never without the lock), and resumes at
  // its checkpoint when run again. Found by review: with the error event listened to by every pooled client, the
  // rekey went on to its end beside a second one. A connection dropped silently (no error until it is used) is not
  // noticed before the stamp: the lock's connection is idle meanwhile, and the pools set no TCP keepalive.
  const check = () => {
    const lost = session.lost();
    if (lost)
      throw new Error(
        `the connection holding the rekey's lock was lost (${lost.message}): the rekey stopped at its checkpoint; ` +
          'run it again to resume (npm run ingest -- rekey)',
      );
  };
  const pool = lockedPool(unguarded, check);
  let unlockFailed: Error | null = null;
  try {
    const { rows: got } = await lock.query<{ got: boolean }>(`SELECT pg_try_advisory_lock(${LOCK}) AS got`);
    if (!got[0]?.got) {
      log('address keys: another rekey is running: waiting for it to finish');
      await lock.query(`SELECT pg_advisory_lock(${LOCK})`);
    }
    // The location columns of records stored before them (0011), the same kind of online pass: first, since it is
    // due once, at the upgrade, and area search waits for it.
    await fillLocations(pool, log, { batchSize, pauseMs, progressEveryMs });
    if (await recordKeysVersionIfEmpty(pool)) {
      // Current: what a run for another version left (the normaliser changed back) is of no use.
      await pool.query('DELETE FROM records.rekey_checkpoint');
      await pool.query('DELETE FROM records.rekey_moves');
      return 0;
    }
    const cp = await startOrResume(pool, log);
    if (!cp) return 0;
    const step = { batchSize, pauseMs, progressEveryMs, log };
    if (cp.phase === 'records') await rekeyRecords(pool, cp, step);
    if (cp.phase !== 'moves') await planIdentityMoves(pool, cp, step);
    const { moved, kept } = await makeIdentityMoves(pool, step);
    if (moved + kept > 0)
      log(
        `address keys: ${n(moved)} import parcel identities recomputed` +
          (kept > 0 ? `, ${n(kept)} kept their old one (the new keys make them one parcel with another)` : ''),
      );
    // The version stamped on the lock's own connection: it commits only while the session holding the lock is alive.
    check();
    const { rows } = await inTransaction(lock, async () => {
      await lock.query('DELETE FROM records.rekey_moves');
      await lock.query('UPDATE records.dataset_stats SET address_keys_version = $1', [ADDRESS_KEYS_VERSION]);
      return lock.query<{ done: string; changed: string }>(
        'DELETE FROM records.rekey_checkpoint RETURNING records_done AS done, records_changed AS changed',
      );
    });
    const changed = Number(rows[0]?.changed ?? 0);
    log(`address keys: v${ADDRESS_KEYS_VERSION} done, ${n(changed)} of ${n(rows[0]?.done ?? 0)} records changed keys`);
    return changed;
  } finally {
    await lock.query(`SELECT pg_advisory_unlock(${LOCK})`).catch((err: Error) => {
      unlockFailed = err;
    });
    // Lost, or still holding the lock it could not let go: closed, not pooled again.
    session.end(unlockFailed);
  }
}

/** The pool, checking `check` before each statement or transaction it is asked for (a rekey's lock still held). */
function lockedPool(pool: Pool, check: () => void): Pool {
  return new Proxy(pool, {
    get(target, prop) {
      if (prop === 'query' || prop === 'connect') check();
      const v = Reflect.get(target, prop, target) as unknown;
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
}

/**
 * A store without records or import state has nothing to recompute: its version is this code's (the migration
 * step calls this too, so a new store never waits for a rekey). True when the stored version is now current.
 */
export async function recordKeysVersionIfEmpty(pool: Pool): Promise<boolean> {
  const { rows } = await pool.query<{ current: boolean }>(
    `WITH empty AS (
       UPDATE records.dataset_stats SET address_keys_version = $1
        WHERE address_keys_version <> $1 AND NOT EXISTS (SELECT 1 FROM records.properties)
          AND NOT EXISTS (SELECT 1 FROM records.import_state)
       RETURNING 1
     )
     SELECT EXISTS (SELECT 1 FROM empty) OR (SELECT address_keys_version = $1 FROM records.dataset_stats) AS current`,
    [ADDRESS_KEYS_VERSION],
  );
  return rows[0]?.current ?? false;
}

/** The checkpoint of a rekey to this version: the one a killed run left, or a new one from the start. */
async function startOrResume(pool: Pool, log: (line: string) => void): Promise<Checkpoint | null> {
  const { rows } = await pool.query<Checkpoint & { stored: number; total: string }>(
    `SELECT s.address_keys_version AS stored, s.property_count AS total, c.*
       FROM records.dataset_stats s LEFT JOIN records.rekey_checkpoint c ON true`,
  );
  const r = rows[0]!;
  if (r.version === ADDRESS_KEYS_VERSION) {
    log(
      `address keys: resuming the rekey to v${ADDRESS_KEYS_VERSION} at phase ${r.phase}` +
        (r.phase === 'records' ? `, after property id ${r.last_id} (${n(r.records_done)}/${n(r.total)} records)` : ''),
    );
    return r;
  }
  // No checkpoint, or one of another version (the normaliser changed again, or was rolled back): from the start.
  log(`address keys: recomputing ${n(r.total)} records (v${r.stored} -> v${ADDRESS_KEYS_VERSION})`);
  return withTransaction(pool, async (c) => {
    await c.query('TRUNCATE records.rekey_moves');
    const { rows: fresh } = await c.query<Checkpoint>(
      `INSERT INTO records.rekey_checkpoint (version, phase) VALUES ($1, 'records')
       ON CONFLICT (singleton) DO UPDATE SET version = EXCLUDED.version, phase = 'records', last_id = 0,
         last_source = '', last_identity = '', records_done = 0, records_changed = 0, started_at = now(),
         updated_at = now()
       RETURNING *`,
      [ADDRESS_KEYS_VERSION],
    );
    return fresh[0]!;
  });
}

interface Step {
  batchSize: number;
  pauseMs: number;
  progressEveryMs: number;
  log: (line: string) => void;
}

/** SQLSTATEs of a batch that met a writer's row locks (NOWAIT) or lost to it: the batch is simply tried again. */
const RETRYABLE = new Set(['55P03', '40P01', '40001']);

async function retrying<T>(what: string, log: (line: string) => void, work: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (err) {
      const code = (err as { code?: string }).code;
      if (!code || !RETRYABLE.has(code) || attempt >= 60) throw err;
      if (attempt === 1) log(`address keys: ${what} is locked by a writer: trying again`);
      await sleep(Math.min(100 * attempt, 2_000));
    }
  }
}

async function rekeyRecords(pool: Pool, cp: Checkpoint, s: Step): Promise<void> {
  let after = Number(cp.last_id);
  let done = Number(cp.records_done);
  const { rows: stats } = await pool.query<{ total: string }>(
    'SELECT property_count AS total FROM records.dataset_stats',
  );
  const total = Number(stats[0]!.total);
  const started = performance.now();
  let doneHere = 0;
  let lastLog = started;
  for (;;) {
    const batch = await retrying(`the batch after property id ${after}`, s.log, () =>
      withTransaction(pool, (c) => rekeyBatch(c, after, s.batchSize)),
    );
    if (batch === null) break;
    after = batch.last;
    done += batch.read;
    doneHere += batch.read;
    const now = performance.now();
    if (now - lastLog >= s.progressEveryMs) {
      lastLog = now;
      const rate = doneHere / ((now - started) / 1000);
      s.log(
        `address keys: ${n(done)}/${n(total)} records (${total > 0 ? Math.min(100, Math.floor((done / total) * 100)) : 100}%), ` +
          `${n(Math.round(rate))}/s, up to property id ${after}`,
      );
    }
    if (s.pauseMs > 0) await sleep(s.pauseMs);
  }
  await pool.query(
    "UPDATE records.rekey_checkpoint SET phase = 'identities', last_source = '', last_identity = '', updated_at = now()",
  );
  cp.phase = 'identities';
  cp.last_source = '';
  cp.last_identity = '';
  s.log(`address keys: ${n(done)} records recomputed; now the import state's parcel identities`);
}

/**
 * One batch in one transaction. Its rows are locked (NOWAIT: a writer holding one, a removal or an in-place
 * rewrite, makes the batch wait and retry rather than deadlock with it), so no writer rewrites a row between the
 * read of its address and the update of its keys. Lookups read on: row locks do not block readers.
 */
async function rekeyBatch(c: PoolClient, after: number, limit: number): Promise<{ read: number; last: number } | null> {
  const { rows: stored } = await c.query<{ id: string; body: Buffer }>(
    'SELECT id, body FROM records.properties WHERE id > $1 ORDER BY id LIMIT $2 FOR UPDATE NOWAIT',
    [after, limit],
  );
  const batch = stored.map((r) => ({ id: r.id, ...storedAddress(r.body) }));
  if (batch.length === 0) return null;
  const keys = batch.map((r) => parseStreetLine(streetWithUnit({ line1: r.line1, line2: r.line2 ?? '' })));
  const { rows: changed } = await c.query<{ id: string }>(
    `UPDATE records.properties p SET line_key = u.line_key, street_key = u.street_key, unit_key = u.unit_key,
            loose_key = u.loose_key, street_type = u.street_type
       FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[])
            AS u(id, line_key, street_key, unit_key, loose_key, street_type)
      WHERE p.id = u.id AND (p.line_key, p.street_key, p.unit_key, p.loose_key, p.street_type)
            IS DISTINCT FROM (u.line_key, u.street_key, u.unit_key, u.loose_key, u.street_type)
      RETURNING p.id`,
    [
      batch.map((r) => r.id),
      keys.map((k) => k.lineKey),
      keys.map((k) => k.streetKey),
      keys.map((k) => k.unitKey),
      keys.map((k) => k.looseKey),
      keys.map((k) => k.streetType),
    ],
  );
  // New keys are new suggestions: the type-ahead index learns of them through the feed.
  await recordChanges(
    c,
    changed.map((r) => r.id),
    'rekey',
  );
  const last = Number(batch[batch.length - 1]!.id);
  await c.query(
    `UPDATE records.rekey_checkpoint SET last_id = $1, records_done = records_done + $2,
            records_changed = records_changed + $3, updated_at = now()`,
    [last, batch.length, changed.length],
  );
  return { read: batch.length, last };
}

/**
 * The import state's identities ("addr:<line key>|<zip>|<unit key>" for a mapping without an APN) are address keys
 * too: each is recomputed from the parcel it stores, with the keys of this normaliser, as an import now computes it.
 * Left as it was, a re-import would not find the parcel and would add it a second time. The new identities are
 * planned batch by batch into records.rekey_moves, each batch with the checkpoint's advance.
 */
async function planIdentityMoves(pool: Pool, cp: Checkpoint, s: Step): Promise<void> {
  let after: [string, string] = [cp.last_source, cp.last_identity];
  for (;;) {
    const more = await withTransaction(pool, async (c) => {
      const { rows } = await c.query<{ source: string; identity: string; property_id: string; input: string }>(
        `SELECT source, identity, property_id, input FROM records.import_state
          WHERE (source, identity) > ($1::text, $2::text) ORDER BY source, identity LIMIT $3`,
        [...after, s.batchSize],
      );
      if (rows.length === 0) return false;
      after = [rows[rows.length - 1]!.source, rows[rows.length - 1]!.identity];
      const moves = rows
        .map((r) => ({ ...r, to: parcelIdentity(decodeState(r.input), r.identity.startsWith('apn:')) }))
        .filter((r) => r.to !== r.identity);
      await c.query(
        `INSERT INTO records.rekey_moves (source, from_identity, to_identity, property_id)
         SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[]) ON CONFLICT DO NOTHING`,
        [
          moves.map((m) => m.source),
          moves.map((m) => m.identity),
          moves.map((m) => m.to),
          moves.map((m) => m.property_id),
        ],
      );
      await c.query(
        'UPDATE records.rekey_checkpoint SET last_source = $1, last_identity = $2, updated_at = now()',
        after,
      );
      return true;
    });
    if (!more) break;
    if (s.pauseMs > 0) await sleep(s.pauseMs);
  }
  await pool.query("UPDATE records.rekey_checkpoint SET phase = 'moves', updated_at = now()");
}

/**
 * Makes the planned moves. Where the new keys make two stored parcels of one source one (the normaliser now reads
 * two spellings alike), the one with the lower property id takes the identity, whichever batch each was read in,
 * and the other keeps its old one: both records stay, as they were, and later imports update the first. A parcel
 * already stored under the identity (its keys did not change) keeps it.
 *
 * Passes over the plan in (source, new identity) order, a batch of identities per transaction: per identity no
 * parcel holds, the lowest property id moves to it and its plan row goes. A move whose identity another parcel
 * still holds waits for a later pass: that parcel may be moving away itself (a chain). A pass that moves nothing
 * ends it; what is left of the plan is kept. The plan itself is the checkpoint: a killed run starts a new pass.
 */
async function makeIdentityMoves(pool: Pool, s: Step): Promise<{ moved: number; kept: number }> {
  let moved = 0;
  for (;;) {
    let after: [string, string] = ['', ''];
    let movedInPass = 0;
    for (;;) {
      const { rows } = await pool.query<{ groups: number; moved: number; source: string; identity: string }>(
        `WITH grp AS (
           SELECT DISTINCT ON (source, to_identity) source, from_identity, to_identity
             FROM records.rekey_moves WHERE (source, to_identity) > ($1::text, $2::text)
            ORDER BY source, to_identity, property_id LIMIT $3
         ), pick AS (
           SELECT g.* FROM grp g
            WHERE NOT EXISTS (SELECT 1 FROM records.import_state t WHERE t.source = g.source AND t.identity = g.to_identity)
         ), moved AS (
           UPDATE records.import_state s SET identity = p.to_identity
             FROM pick p
            WHERE s.source = p.source AND s.identity = p.from_identity
           RETURNING p.source, p.from_identity
         ), made AS (
           DELETE FROM records.rekey_moves m USING moved d
            WHERE m.source = d.source AND m.from_identity = d.from_identity
         ), registered AS (
           -- An address identity is also the parcel's registry key (parcels.ts): it moves with it, keeping its id,
           -- unless the new key is registered already (then that parcel's id is the one the next render takes).
           -- One old key per new key: two sources' old keys that fold into one would both take it (a duplicate).
           UPDATE records.parcels r SET parcel_key = d.to_identity
             FROM (SELECT DISTINCT ON (p.to_identity) p.from_identity, p.to_identity FROM pick p JOIN moved m
                     ON m.source = p.source AND m.from_identity = p.from_identity
                    ORDER BY p.to_identity, p.from_identity) d
            WHERE r.parcel_key = d.from_identity AND d.from_identity LIKE 'addr:%'
              AND NOT EXISTS (SELECT 1 FROM records.parcels q WHERE q.fips = r.fips AND q.parcel_key = d.to_identity)
         ), last AS (
           SELECT source, to_identity FROM grp ORDER BY source DESC, to_identity DESC LIMIT 1
         )
         SELECT (SELECT count(*) FROM grp)::int AS groups, (SELECT count(*) FROM moved)::int AS moved,
                (SELECT source FROM last) AS source, (SELECT to_identity FROM last) AS identity`,
        [...after, s.batchSize],
      );
      const r = rows[0]!;
      if (r.groups === 0) break;
      movedInPass += r.moved;
      after = [r.source, r.identity];
      if (s.pauseMs > 0) await sleep(s.pauseMs);
    }
    moved += movedInPass;
    if (movedInPass === 0) break;
  }
  const { rows } = await pool.query<{ kept: number }>('SELECT count(*)::int AS kept FROM records.rekey_moves');
  return { moved, kept: rows[0]!.kept };
}
