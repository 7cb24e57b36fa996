// npm run bench:import [-- --copies 10 --roll-copies 20 --batch 2000 --workers 2 --keep --only <part or county>
//   --no-baseline --no-cli --profile <dir>]
// County-import speed at steady state. The Brooklyn sample (23,006 rows) is too short for that, so this builds a
// larger file from it in a temp dir: the sample repeated `copies` times, each copy with distinct parcels (its BLOCK
// moved by 10,000 per copy) and distinct addresses (its house numbers prefixed with the copy's number). It then
// imports that file into a fresh database three times, as a county's monthly files would come:
//   1. first import: every parcel new;
//   2. the same file again: every parcel unchanged;
//   3. the file with 1 row in 20 given another sale price (a corrected sale): those parcels updated.
// and prints rows/s for each with the target beside it. Then the real county rolls of the hand-out (issue 36:
// Philadelphia, Charlottesville's four files, Lebanon), each loaded with its shipped mappings into the same database
// (a source each): the first load and a re-load of the same files, rows/s per file and per county, with the target
// for a first load of a one-file roll and the ratio to the Brooklyn first import of the same run. Then each one-file
// roll at a county's size: its sample is a few thousand rows (Philadelphia's roll has ~580,000), too short for the
// importer's threads and V8's optimised code to pay, so it is repeated `--roll-copies` times (20: ~110,000 rows), each
// copy with parcels, site addresses and owners of its own (APN and house number prefixed with the copy's number,
// a letter added to the owner's first word), first loaded then re-loaded; under each pass, node's CPU a row by thread
// (main, the import's worker threads, V8's own: read from /proc on Linux). The time is importCsv's alone (not the
// database's creation or migration); the file is read from disk as the CLI reads it. The database is dropped at the
// end (--keep keeps it). Each one-file roll's first load is also run as a user runs it ("CLI first", --no-cli: not):
// `npm run ingest -- import` in a fresh process and a database of its own, always dropped (ingest's
// test/cli-run.ts); its rate is the one the CLI prints, importCsv's time as above, the process's whole run beside it.
import { gunzipSync } from 'node:zlib';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { Session } from 'node:inspector/promises';
import { createPool, dropDatabase, ensureDatabase, type Pool, withDatabase } from '@pra/platform';
import { DEFAULT_DATABASE_URL } from '@pra/core/config';
import { migrateRecords } from '../../services/ingest/src/data/migrate.js';
import { parseRecord } from '../../services/ingest/src/importer/csv-records.js';
import {
  COUNTY_ROLLS,
  formatReport,
  importCsv,
  type ImportSummary,
  loadMapping,
  SAMPLE_FILES,
  SHIPPED_MAPPINGS,
} from '../../services/ingest/src/importer/index.js';
import { processCpuSeconds } from '@pra/platform/bench';
import { useLocalStack } from '@pra/platform/local-stack';
import { backendCpu, backendCpuSince } from './backend-cpu.js';
import { COUNTY_TARGET_ROWS_PER_SECOND, csvField, multiplyRoll } from './roll-copies.js';
import { cliDatabaseName, cliFirstLoad } from '@pra/ingest/testing/cli-run';

// The PostgreSQL and Redis npm start ran with (.data/local-stack.json), unless DATABASE_URL / REDIS_URL say otherwise.
useLocalStack('bench:import');

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TARGET_ROWS_PER_SECOND = 20_000;

const { values } = parseArgs({
  options: {
    copies: { type: 'string', default: '10' },
    /** The county-sized rolls: each one-file roll's sample this many times over (1: none). */
    'roll-copies': { type: 'string', default: '20' },
    /** `brooklyn` or `counties`: run only that part; or a county of COUNTY_ROLLS (`philadelphia`, `lebanon`...): only it. */
    only: { type: 'string' },
    /** Print each county file's import report (first load): what each field is filled from, and how often. */
    reports: { type: 'boolean', default: false },
    batch: { type: 'string' },
    keep: { type: 'boolean', default: false },
    workers: { type: 'string' },
    /** Write a CPU profile (.cpuprofile, the main thread) of each county's first load into this directory. */
    profile: { type: 'string' },
    /** With --only <county>: the Brooklyn first import first, the baseline of the x Brooklyn ratio (--no-baseline). */
    baseline: { type: 'boolean', default: true },
    /** Each one-file roll's first load by the CLI too, in a fresh process and database (--no-cli: not). */
    cli: { type: 'boolean', default: true },
  },
  allowNegative: true,
});
const copies = Number(values.copies);
if (!Number.isInteger(copies) || copies < 1) throw new Error('--copies must be a positive integer');
const rollCopies = Number(values['roll-copies']);
if (!Number.isInteger(rollCopies) || rollCopies < 1) throw new Error('--roll-copies must be a positive integer');

/** The sample `copies` times over with distinct parcels and addresses; `changed` gives 1 row in 20 a new price. */
function buildFile(sample: string, changed: boolean): string {
  const lines = sample.split(/\r?\n/).filter((l) => l.trim() !== '');
  const header = parseRecord(lines[0]!, ',');
  if (!('fields' in header)) throw new Error('the sample has no header');
  const col = (name: string) => header.fields.findIndex((h) => h.trim() === name);
  const [block, address, price] = [col('BLOCK'), col('ADDRESS'), col('SALE PRICE')];
  const rows = lines.slice(1).map((l) => {
    const r = parseRecord(l, ',');
    if (!('fields' in r)) throw new Error(`the sample has a malformed row: ${l}`);
    return r.fields;
  });
  const out: string[] = [lines[0]!];
  let n = 0;
  for (let c = 0; c < copies; c++) {
    for (const r of rows) {
      const f = [...r];
      f[block] = String(Number(f[block]) + c * 10_000);
      if (c > 0) f[address] = f[address]!.replace(/^(\d)/, `${c}$1`);
      if (changed && n % 20 === 7) {
        const was = Number(f[price]!.replace(/[,\s]/g, '')) || 0;
        f[price] = String(was + 1_000);
      }
      out.push(f.map((v) => csvField(v)).join(','));
      n++;
    }
  }
  return `${out.join('\n')}\n`;
}

/**
 * CPU milliseconds of this process's threads by kind, from /proc/self/task (Linux; empty elsewhere): `main`, the
 * import's worker threads (`WorkerThread`), V8's own (`V8Worker`: garbage collection, compilation) and libuv's.
 * Import workers end with their import, so the threads are read every 200 ms while it runs (threadCpuWhile).
 */
function threadCpu(seen: Map<string, { kind: string; ms: number }>): void {
  let tasks: string[];
  try {
    tasks = readdirSync('/proc/self/task');
  } catch {
    return;
  }
  for (const t of tasks) {
    try {
      const seconds = processCpuSeconds(`self/task/${t}`);
      if (seconds === undefined) continue; // the thread ended
      const kind = t === String(process.pid) ? 'main' : readFileSync(`/proc/self/task/${t}/comm`, 'utf8').trim();
      seen.set(t, { kind, ms: seconds * 1000 });
    } catch {
      // the thread ended
    }
  }
}

/** Runs `work`, and tells the CPU milliseconds each kind of thread of this process spent meanwhile. */
async function threadCpuWhile<T>(work: () => Promise<T>): Promise<{ result: T; byKind: Map<string, number> }> {
  const before = new Map<string, { kind: string; ms: number }>();
  threadCpu(before);
  const after = new Map(before);
  const timer = setInterval(() => threadCpu(after), 200);
  try {
    const result = await work();
    threadCpu(after);
    const byKind = new Map<string, number>();
    for (const [t, { kind, ms }] of after) byKind.set(kind, (byKind.get(kind) ?? 0) + ms - (before.get(t)?.ms ?? 0));
    return { result, byKind };
  } finally {
    clearInterval(timer);
  }
}

async function main() {
  const sample = gunzipSync(readFileSync(SAMPLE_FILES.brooklynSales)).toString('utf8');
  const dir = mkdtempSync(join(tmpdir(), 'pra-bench-import-'));
  const base = process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL;
  const url = withDatabase(base, `pra_bench_import_${process.pid}`);
  const mapping = loadMapping(SHIPPED_MAPPINGS.nycRollingSales);
  try {
    const file = join(dir, 'brooklyn-x.csv');
    const changedFile = join(dir, 'brooklyn-x-changed.csv');
    const brooklyn = values.only === undefined || values.only === 'brooklyn';
    // The counties' rates are also given over the Brooklyn first import's of the same run (x Brooklyn), a ratio that
    // the machine's speed cancels out of (these VMs differ by up to 2x, and drift): with --only <county>, that first
    // import alone runs before them, as the baseline (--no-baseline: not).
    const baselineOnly = !brooklyn && values.baseline;
    // Built only when a Brooklyn import runs (a few seconds of CPU).
    if (brooklyn || baselineOnly) writeFileSync(file, buildFile(sample, false));
    if (brooklyn) writeFileSync(changedFile, buildFile(sample, true));
    await dropDatabase(url);
    await ensureDatabase(url);
    // As the CLI opens it.
    const pool = createPool(url, 4, 'bench-import');
    try {
      await migrateRecords(pool);
      const batchSize = values.batch ? Number(values.batch) : undefined;
      const workers = values.workers === undefined ? undefined : Number(values.workers);
      const results: { pass: string; s: ImportSummary; seconds: number; nodeMs: number; pgMs: number | null }[] = [];
      for (const [pass, f] of (brooklyn
        ? [
            ['first import', file],
            ['same file again', file],
            ['1 row in 20 changed', changedFile],
          ]
        : baselineOnly
          ? [['first import', file]]
          : []) as [string, string][]) {
        const pgBefore = await backendCpu(pool);
        const cpuBefore = process.cpuUsage();
        const started = performance.now();
        const s = await importCsv(pool, mapping, f, { batchSize, workers });
        const seconds = (performance.now() - started) / 1000;
        const cpu = process.cpuUsage(cpuBefore);
        const pg = await backendCpuSince(pool, pgBefore);
        results.push({ pass, s, seconds, nodeMs: (cpu.user + cpu.system) / 1000, pgMs: pg });
        console.error(`${pass}: ${Math.round(s.rowsRead / seconds).toLocaleString('en-US')} rows/s`);
      }
      const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
      const baseline = results[0] ? results[0].s.rowsRead / results[0].seconds : null;
      if (values.only !== 'brooklyn') await benchCounties(pool, batchSize, workers, baseline, dir, base);
      if (!brooklyn) return;
      console.log(
        `\nimport of the Brooklyn sample x${copies} (${fmt(results[0]!.s.rowsRead)} rows), ${mapping.name} mapping, ` +
          `batch ${batchSize ?? 'default'}; target ${fmt(TARGET_ROWS_PER_SECOND)} rows/s\n`,
      );
      console.log(
        `${'pass'.padEnd(22)}${'rows/s'.padStart(9)}${'target'.padStart(9)}${'seconds'.padStart(9)}` +
          `${'node us'.padStart(9)}${'pg us'.padStart(7)}${'cpu-bound'.padStart(11)}  new / updated / unchanged / skipped`,
      );
      for (const { pass, s, seconds, nodeMs, pgMs } of results) {
        const rate = s.rowsRead / seconds;
        const mark = rate >= TARGET_ROWS_PER_SECOND ? 'ok' : 'below';
        const perRow = (ms: number) => ((ms * 1000) / s.rowsRead).toFixed(0);
        // The rate if this import had the machine's cores to itself: its CPU (node threads and PostgreSQL) spread
        // over them. The wall-clock rate is lower when others use the cores, or when the pipeline leaves one idle.
        const bound = pgMs === null ? null : (s.rowsRead / (nodeMs + pgMs)) * 1000 * availableParallelism();
        console.log(
          `${pass.padEnd(22)}${fmt(rate).padStart(9)}${fmt(TARGET_ROWS_PER_SECOND).padStart(9)}${seconds.toFixed(1).padStart(9)}` +
            `${perRow(nodeMs).padStart(9)}${(pgMs === null ? '-' : perRow(pgMs)).padStart(7)}${(bound === null ? '-' : fmt(bound)).padStart(11)}  ` +
            `${fmt(s.added)} / ${fmt(s.updated)} / ${fmt(s.unchanged)} / ${fmt(s.skipped)}  ${mark}`,
        );
      }
      const [load1] = loadavg();
      console.log(
        `\nnode us, pg us: CPU time per row of this process (all threads) and of its PostgreSQL backends (read from ` +
          `/proc, so only when the server runs here); cpu-bound: rows/s with ${availableParallelism()} cores to itself. ` +
          `Load average now ${load1!.toFixed(1)}: above ${availableParallelism()}, others share the cores and rows/s is lower.`,
      );
      const { rows } = await pool.query<{ parcels: number; total: string; input: string }>(
        `SELECT count(*)::int AS parcels, pg_total_relation_size('records.import_state') AS total,
                avg(pg_column_size(input)) AS input
           FROM records.import_state`,
      );
      const st = rows[0]!;
      console.log(
        `\nimport_state: ${fmt(st.parcels)} parcels, ${fmt(Number(st.total) / st.parcels)} bytes each on disk ` +
          `(table, TOAST and index), of which the stored input ${fmt(Number(st.input))} bytes`,
      );
    } finally {
      await pool.end();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
    if (values.keep) console.error(`kept ${url}`);
    else await dropDatabase(url);
  }
}

async function startProfile(): Promise<Session> {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 200 });
  await session.post('Profiler.start');
  return session;
}

async function stopProfile(session: Session, file: string): Promise<void> {
  const { profile } = await session.post('Profiler.stop');
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(profile));
  session.disconnect();
  console.error(`CPU profile of the main thread: ${file}`);
}

/**
 * Each county's files loaded twice (first load, then the same files again), timed as importCsv alone; then each
 * one-file roll at a county's size (multiplyRoll), the same way.
 */
async function benchCounties(
  pool: Pool,
  batchSize: number | undefined,
  workers: number | undefined,
  baseline: number | null,
  dir: string,
  baseUrl: string,
) {
  const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
  const lines: string[] = [];
  const only = values.only !== undefined && values.only in COUNTY_ROLLS ? values.only : null;
  /** One line of the table: a pass over a county's files (CPU columns '-' where not measured). */
  const row = (
    county: string,
    pass: string,
    rows: number,
    seconds: number,
    rate: number,
    target: number | null,
    cpu?: string[],
  ) => {
    const mark = target === null ? '' : rate >= target ? 'ok' : 'below';
    const ratio = baseline === null ? '' : `${(rate / baseline).toFixed(2)}x`;
    const [nodeUs, pgUs, bound] = cpu ?? ['-', '-', '-'];
    console.error(`${county} ${pass}: ${fmt(rate)} rows/s`);
    return (
      `${county.padEnd(18)}${pass.padEnd(12)}${fmt(rows).padStart(9)}${seconds.toFixed(1).padStart(9)}${fmt(rate).padStart(9)}` +
      `${(target === null ? '-' : fmt(target)).padStart(9)}${ratio.padStart(11)}${nodeUs!.padStart(9)}${pgUs!.padStart(7)}${bound!.padStart(11)}  ${mark}`
    );
  };
  const measure = async (county: string, files: readonly { mapping: string; file: string }[]) => {
    for (const pass of ['first load', 're-load']) {
      let rows = 0;
      let seconds = 0;
      const parts: string[] = [];
      const threads = new Map<string, number>();
      const pgBefore = await backendCpu(pool);
      const cpuBefore = process.cpuUsage();
      for (const { mapping, file } of files) {
        const m = loadMapping(mapping);
        const profiling = values.profile !== undefined && pass === 'first load' ? await startProfile() : null;
        const started = performance.now();
        const { result: s, byKind } = await threadCpuWhile(() => importCsv(pool, m, file, { batchSize, workers }));
        const t = (performance.now() - started) / 1000;
        for (const [kind, ms] of byKind) threads.set(kind, (threads.get(kind) ?? 0) + ms);
        if (profiling) await stopProfile(profiling, join(values.profile!, `${county}-${m.name}-first-load.cpuprofile`));
        rows += s.rowsRead;
        seconds += t;
        if (values.reports && pass === 'first load') {
          console.log(
            `\nimport report of ${m.name} (${s.rowsRead} rows, ${s.skipped} skipped, ${s.notInStore} not in store):`,
          );
          for (const l of formatReport(s.report, Object.keys(m.fields))) console.log(`  ${l}`);
        }
        parts.push(
          `${m.name} ${fmt(s.rowsRead)} rows ${fmt(s.rowsRead / t)}/s (${fmt(s.added)} new, ${fmt(s.updated)} updated, ${fmt(s.unchanged)} unchanged)`,
        );
      }
      const cpu = process.cpuUsage(cpuBefore);
      const pgMs = await backendCpuSince(pool, pgBefore);
      // The rate with the machine's cores to itself: this import's CPU (node threads and PostgreSQL) spread over them.
      const nodeMs = (cpu.user + cpu.system) / 1000;
      const bound = pgMs === null ? null : (rows / (nodeMs + pgMs)) * 1000 * availableParallelism();
      const perRow = (ms: number) => ((ms * 1000) / rows).toFixed(0);
      const target = pass === 'first load' && files.length === 1 ? COUNTY_TARGET_ROWS_PER_SECOND : null;
      lines.push(
        row(county, pass, rows, seconds, rows / seconds, target, [
          perRow(nodeMs),
          pgMs === null ? '-' : perRow(pgMs),
          bound === null ? '-' : fmt(bound),
        ]),
        ...parts.map((p) => `${''.padEnd(30)}${p}`),
      );
      // Node's CPU a row by thread (Linux): where the process's share goes.
      const byThread = [...threads].filter(([, ms]) => ms > 0).map(([kind, ms]) => `${kind} ${perRow(ms)}`);
      if (byThread.length > 0) lines.push(`${''.padEnd(30)}node us a row by thread: ${byThread.join(', ')}`);
    }
  };
  for (const [county, files] of Object.entries(COUNTY_ROLLS)) {
    if (only !== null && county !== only) continue;
    await measure(county, files);
    if (!values.cli || files.length !== 1) continue;
    const { mapping, file } = files[0]!;
    const c = await cliFirstLoad(ROOT, withDatabase(baseUrl, cliDatabaseName('bench')), mapping, file);
    lines.push(
      row(county, 'CLI first', c.rows, c.rows / c.rowsPerSecond, c.rowsPerSecond, COUNTY_TARGET_ROWS_PER_SECOND),
      `${''.padEnd(30)}npm run ingest -- import, a fresh process and database: the process ran ${c.processSeconds.toFixed(1)} s in all`,
    );
  }
  if (rollCopies > 1) {
    for (const [county, files] of Object.entries(COUNTY_ROLLS)) {
      if (files.length !== 1 || (only !== null && county !== only)) continue;
      const { mapping, file } = files[0]!;
      // A mapping of its own name (and so a source of its own): the sample's parcels are in the store already.
      const m = loadMapping(mapping);
      const name = `${m.name}-x${rollCopies}`;
      const bigMapping = join(dir, `${name}.json`);
      writeFileSync(bigMapping, JSON.stringify({ ...JSON.parse(readFileSync(mapping, 'utf8')), name }));
      const big = join(dir, `${name}.csv`);
      const rows = await multiplyRoll(m, file, rollCopies, big);
      console.error(`${county} x${rollCopies}: ${fmt(rows)} rows`);
      await measure(`${county} x${rollCopies}`, [{ mapping: bigMapping, file: big }]);
    }
  }
  console.log(
    `\nreal county rolls, shipped mappings; target ${fmt(COUNTY_TARGET_ROWS_PER_SECOND)} rows/s for a first load of a one-file roll; ` +
      `"x${rollCopies}": the roll's sample ${rollCopies} times over, each copy with parcels, addresses and owners of its own (a roll at a county's size); ` +
      `x Brooklyn: rows/s over the Brooklyn first import's of this run (${baseline === null ? 'not run' : `${fmt(baseline)} rows/s, the sample x${copies}`}); node us, pg us: CPU time a row of this process (all threads) and of its PostgreSQL backends; ` +
      `cpu-bound: rows/s with the ${availableParallelism()} cores to itself (this import's CPU, node and PostgreSQL backends, spread over them); load average now ${loadavg()[0]!.toFixed(1)}\n`,
  );
  console.log(
    `${'county'.padEnd(18)}${'pass'.padEnd(12)}${'rows'.padStart(9)}${'seconds'.padStart(9)}${'rows/s'.padStart(9)}${'target'.padStart(9)}${'x Brooklyn'.padStart(11)}${'node us'.padStart(9)}${'pg us'.padStart(7)}${'cpu-bound'.padStart(11)}`,
  );
  for (const l of lines) console.log(l);
}

main().catch((err: Error) => {
  console.error(`bench:import failed: ${err.stack ?? err.message}`);
  process.exit(1);
});
