// The stores bench:scale measures: the bench databases property_records_bench_<N> (the ones bench:readpath and
// bench:autocomplete use), built when missing and reused otherwise. A build is timed and its time kept in
// public.bench_meta, so a later run that reuses the store still reports it. Also: the free disk a build needs, the
// type-ahead index the system builds, and the bytes each table and index of schemas records and search take.
import { statfsSync } from 'node:fs';
import { createPool, type Pool } from '@pra/platform';
import { benchDatabaseUrl, prepareBenchDatabase } from '../lookup/bench-database.js';

type Log = (line: string) => void;

/** A timed build step (the store's load, or the type-ahead index), as kept in bench_meta. */
export interface Timed {
  seconds: number;
  /** Records written by the step. */
  rows: number;
  /** True when the load went into an empty store (so it includes the index rebuild, and is comparable). */
  fromEmpty: boolean;
  /** When it was measured; not this run when the store was reused. */
  measuredAt: string;
  now: boolean;
}

export interface Store {
  records: number;
  url: string;
  pool: Pool;
  /** The store's load time: undefined when it was reused and no run of bench:scale timed its build. */
  load: Timed | undefined;
}

/** Margin over the estimated size a new store needs (WAL, index builds' temporary files, estimate error). */
const DISK_MARGIN = 1.3;

const META_TABLE = `CREATE TABLE IF NOT EXISTS public.bench_meta (
  key text PRIMARY KEY, value jsonb NOT NULL, recorded_at timestamptz NOT NULL DEFAULT now())`;

async function readMeta(pool: Pool, key: string): Promise<Timed | undefined> {
  await pool.query(META_TABLE);
  const { rows } = await pool.query<{ value: Timed }>('SELECT value FROM public.bench_meta WHERE key = $1', [key]);
  return rows[0] ? { ...rows[0].value, now: false } : undefined;
}

async function writeMeta(pool: Pool, key: string, value: Timed): Promise<void> {
  await pool.query(META_TABLE);
  await pool.query(
    `INSERT INTO public.bench_meta (key, value) VALUES ($1, $2)
     ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, recorded_at = now()`,
    [key, JSON.stringify({ ...value, now: undefined })],
  );
}

/** Records the bench database of this size holds, without creating it (a refused size leaves nothing behind). */
async function recordsHeld(admin: Pool, records: number): Promise<number> {
  const name = new URL(benchDatabaseUrl(records)).pathname.slice(1);
  const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
  if (!rowCount) return 0;
  // The same count prepareBenchDatabase goes by (the ingest's statistics row), read through a short-lived pool.
  const pool = createPool(benchDatabaseUrl(records), 1, 'bench-scale');
  try {
    const { rows } = await pool.query<{ n: number | null }>(
      `SELECT CASE WHEN to_regclass('records.dataset_stats') IS NULL THEN 0
              ELSE (SELECT property_count FROM records.dataset_stats LIMIT 1) END AS n`,
    );
    return Number(rows[0]?.n ?? 0);
  } finally {
    await pool.end();
  }
}

/**
 * Bytes per record (all in) of an existing bench store, to plan the first build of a run with: the smallest one of
 * at least 10,000 records (quick to measure; the figure hardly moves with size). Undefined when there is none.
 */
export async function existingStoreEstimate(
  admin: Pool,
): Promise<{ bytesPerRecord: number; basis: string } | undefined> {
  const { rows } = await admin.query<{ records: string }>(
    `SELECT substring(datname FROM '^property_records_bench_([0-9]+)$') AS records FROM pg_database
      WHERE datname ~ '^property_records_bench_[0-9]+$' ORDER BY length(datname), datname`,
  );
  const size = rows.map((r) => Number(r.records)).find((n) => n >= 10_000);
  if (size === undefined) return undefined;
  const pool = createPool(benchDatabaseUrl(size), 1, 'bench-scale');
  try {
    const { rows: ok } = await pool.query<{ t: string | null }>(`SELECT to_regclass('records.properties') AS t`);
    if (!ok[0]?.t) return undefined;
    const records = await recordCount(pool);
    if (records === 0) return undefined;
    const fp = await footprint(pool, records);
    return {
      bytesPerRecord: fp.allIn / records,
      basis: `a record (measured on the ${size.toLocaleString('en-US')} store)`,
    };
  } finally {
    await pool.end();
  }
}

/** Bytes free for PostgreSQL on its data directory's file system; undefined when this process cannot see it. */
export function freeDiskBytes(dataDirectory: string): number | undefined {
  try {
    const s = statfsSync(dataDirectory);
    return s.bavail * s.bsize;
  } catch {
    return undefined;
  }
}

const gb = (bytes: number) => `${(bytes / 1e9).toFixed(1)} GB`;

/**
 * Whether `missing` more records fit on the data directory's disk, at `bytesPerRecord` (the smaller store's, all in)
 * times the margin. When the disk cannot be read (PostgreSQL on another machine), sizes up to 5,000,000 go ahead
 * (the defaults) and larger ones are refused.
 */
export function diskVerdict(
  records: number,
  missing: number,
  bytesPerRecord: number,
  basis: string,
  dataDirectory: string,
): { ok: boolean; line: string } {
  const need = missing * bytesPerRecord * DISK_MARGIN;
  const free = freeDiskBytes(dataDirectory);
  const size = records.toLocaleString('en-US');
  if (free === undefined) {
    const ok = records <= 5_000_000;
    return {
      ok,
      line: `${size} records: free disk on ${dataDirectory} cannot be read from here; ${ok ? 'building anyway (default size)' : 'refused (sizes above 5,000,000 need the check)'}`,
    };
  }
  const what = `needs about ${gb(need)} (${missing.toLocaleString('en-US')} records x ${Math.round(bytesPerRecord)} bytes ${basis} x ${DISK_MARGIN}), ${gb(free)} free on ${dataDirectory}`;
  return need <= free
    ? { ok: true, line: `${size} records: ${what}: building` }
    : { ok: false, line: `${size} records: refused, ${what}` };
}

/**
 * The store of this size: reused when it holds the records, built (timed) when not and the disk allows it.
 * `estimate` gives the bytes per record to plan a build with, and where that figure comes from (asked only for a build).
 */
export async function openStore(
  records: number,
  admin: Pool,
  dataDirectory: string,
  estimate: () => Promise<{ bytesPerRecord: number; basis: string }>,
  log: Log,
): Promise<Store | { refused: string }> {
  const have = await recordsHeld(admin, records);
  if (have >= records) {
    log(`${records.toLocaleString('en-US')} records: reusing ${benchDatabaseUrl(records).replace(/\/\/[^@]*@/, '//')}`);
    const { url, pool } = await prepareBenchDatabase(records, 4);
    return { records, url, pool, load: await readMeta(pool, 'load') };
  }
  const { bytesPerRecord, basis } = await estimate();
  const verdict = diskVerdict(records, records - have, bytesPerRecord, basis, dataDirectory);
  log(verdict.line);
  if (!verdict.ok) return { refused: verdict.line };
  if (have > 0) log(`the store holds ${have.toLocaleString('en-US')} records: generating the rest`);
  const started = performance.now();
  const { url, pool } = await prepareBenchDatabase(records, 4);
  const load: Timed = {
    seconds: (performance.now() - started) / 1000,
    rows: records - have,
    fromEmpty: have === 0,
    measuredAt: new Date().toISOString(),
    now: true,
  };
  await writeMeta(pool, 'load', load);
  log(`loaded ${load.rows.toLocaleString('en-US')} records in ${load.seconds.toFixed(1)} s`);
  return { records, url, pool, load };
}

/** Rows in records.properties: counted once per size (a count reads the whole heap: seconds at 5,000,000). */
export async function recordCount(pool: Pool): Promise<number> {
  const { rows } = await pool.query<{ n: string }>('SELECT count(*) AS n FROM records.properties');
  return Number(rows[0]!.n);
}

/** Rows in the PostgreSQL adapter's type-ahead table (0 before the service has created it). */
async function indexedCount(pool: Pool): Promise<number> {
  const { rows } = await pool.query<{ n: string }>(
    `SELECT CASE WHEN to_regclass('search.address_suggestions') IS NULL THEN 0
                 ELSE (SELECT count(*) FROM search.address_suggestions) END AS n`,
  );
  return Number(rows[0]!.n);
}

/**
 * How far a build has gone, cheaply (two probes of primary keys): a rebuild writes in id order, so the highest id
 * indexed against the highest id stored says how far along it is.
 */
async function indexedShare(pool: Pool): Promise<number> {
  const { rows } = await pool.query<{ done: string | null; last: string | null }>(
    `SELECT (SELECT max(property_id) FROM search.address_suggestions) AS done,
            (SELECT max(id) FROM records.properties) AS last`,
  );
  return Number(rows[0]!.done ?? 0) / Math.max(1, Number(rows[0]!.last ?? 1));
}

/** How long the progress may stand still before the wait gives up (a rebuild writes a batch every few seconds). */
const STALL_MS = 10 * 60_000;
const POLL_MS = 5_000;
const LOG_EVERY_MS = 30_000;

/**
 * Polls until the index holds `records` rows, with a progress line every 30 s; throws when it stalls. Progress is
 * read cheaply (by the highest id indexed) until the build reaches the last record, then by counting rows (what a
 * catch-up still has to fill in).
 */
async function waitForIndex(pool: Pool, records: number, log: Log): Promise<number> {
  let best = { progress: -1, at: Date.now() };
  let logged = 0;
  for (;;) {
    const share = await indexedShare(pool).catch(() => 0); // the table may not exist yet
    const indexed = share >= 1 ? await indexedCount(pool) : undefined;
    if (indexed !== undefined && indexed >= records) return indexed;
    const progress = indexed === undefined ? share : 1 + indexed / records;
    if (progress > best.progress) best = { progress, at: Date.now() };
    else if (Date.now() - best.at > STALL_MS) throw new Error('the type-ahead index stopped growing (see the log)');
    if (Date.now() - logged >= LOG_EVERY_MS) {
      logged = Date.now();
      log(
        indexed === undefined
          ? `type-ahead index: ${(share * 100).toFixed(1)}% (by record id)`
          : `type-ahead index: at the last record, ${indexed.toLocaleString('en-US')} of ${records.toLocaleString('en-US')} rows`,
      );
    }
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

/**
 * Waits until the type-ahead index holds every record (its row count equals `records`). The running system builds
 * it: the autocomplete service asks for a full rebuild when the index is empty, and its catch-up job fills in what a
 * cut-short rebuild left. Returns the build's time (from `since`, the system's start) when it was built now, or the
 * time an earlier run recorded.
 */
export async function typeAheadIndex(pool: Pool, records: number, since: number, log: Log): Promise<Timed | undefined> {
  const from = await indexedCount(pool);
  if (from >= records) return readMeta(pool, 'typeahead_index');
  log(
    `type-ahead index: ${from.toLocaleString('en-US')} of ${records.toLocaleString('en-US')} rows: the system builds it`,
  );
  const indexed = await waitForIndex(pool, records, log);
  const built: Timed = {
    seconds: (performance.now() - since) / 1000,
    rows: indexed - from,
    fromEmpty: from === 0,
    measuredAt: new Date().toISOString(),
    now: true,
  };
  log(`type-ahead index complete: ${indexed.toLocaleString('en-US')} rows, ${built.seconds.toFixed(1)} s`);
  // As autovacuum would leave it: statistics for the planner, a visibility map for index-only scans.
  await pool.query('VACUUM (ANALYZE) search.address_suggestions');
  await writeMeta(pool, 'typeahead_index', built);
  return built;
}

/** One row of the size table: a table's heap, its TOAST, or one index. */
export interface Relation {
  name: string;
  bytes: number;
}

export interface Footprint {
  /** Rows in records.properties: what every size is divided by. */
  records: number;
  relations: Relation[];
  /** Everything in schemas records and search (tables with their TOAST and indexes, sequences). */
  allIn: number;
}

interface CatalogRow {
  schema: string;
  name: string;
  kind: string;
  of_table: string | null;
  table_bytes: string;
  total_bytes: string;
  toast_bytes: string;
}

/**
 * Every table, TOAST table, index and sequence of schemas records and search, from the catalog (no names written
 * here: a migration that adds a table or an index shows up by itself). pg_table_size counts a table's heap with its
 * free-space and visibility maps and its TOAST; the TOAST (with its own index) is shown on its own line.
 */
export async function footprint(pool: Pool, records: number): Promise<Footprint> {
  const { rows } = await pool.query<CatalogRow>(
    `SELECT n.nspname AS schema, c.relname AS name, c.relkind AS kind, tn.nspname || '.' || t.relname AS of_table,
            pg_table_size(c.oid) AS table_bytes, pg_total_relation_size(c.oid) AS total_bytes,
            CASE WHEN c.reltoastrelid = 0 THEN 0 ELSE pg_total_relation_size(c.reltoastrelid) END AS toast_bytes
       FROM pg_class c
       JOIN pg_namespace n ON n.oid = c.relnamespace
       LEFT JOIN pg_index ix ON ix.indexrelid = c.oid
       LEFT JOIN pg_class t ON t.oid = ix.indrelid
       LEFT JOIN pg_namespace tn ON tn.oid = t.relnamespace
      WHERE n.nspname IN ('records', 'search') AND c.relkind IN ('r', 'p', 'm', 'i', 'I', 'S')`,
  );
  const tables = rows.filter((r) => ['r', 'p', 'm'].includes(r.kind));
  const relations: Relation[] = [];
  // Largest table first; each followed by its TOAST and its indexes, largest first.
  for (const t of tables.sort((a, b) => Number(b.total_bytes) - Number(a.total_bytes))) {
    const full = `${t.schema}.${t.name}`;
    relations.push({ name: full, bytes: Number(t.table_bytes) - Number(t.toast_bytes) });
    if (Number(t.toast_bytes) > 0) relations.push({ name: `${full} (TOAST)`, bytes: Number(t.toast_bytes) });
    const indexes = rows.filter((r) => ['i', 'I'].includes(r.kind) && r.of_table === full);
    for (const i of indexes.sort((a, b) => Number(b.total_bytes) - Number(a.total_bytes)))
      relations.push({ name: `${full}: index ${i.name}`, bytes: Number(i.total_bytes) });
  }
  const sequences = rows.filter((r) => r.kind === 'S').reduce((s, r) => s + Number(r.total_bytes), 0);
  if (sequences > 0) relations.push({ name: 'sequences', bytes: sequences });
  const allIn = tables.reduce((s, t) => s + Number(t.total_bytes), 0) + sequences;
  return { records, relations, allIn };
}
