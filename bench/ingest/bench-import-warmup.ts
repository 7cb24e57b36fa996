// npm run bench:import-warmup [-- --county <one-file county> --imports 6 --roll-copies 1 --workers N]
// What V8's warm-up costs a one-file roll's first load, and how fast a warm process loads it: the same roll's first
// load --imports times in one process, each into a fresh database of its own (created, migrated, dropped), timed as
// importCsv alone. The npm script starts node with the options `npm run ingest` starts it with, and this process
// loads what the CLI loads (the database helpers, not the services' whole platform), so its first import is as cold
// as a CLI import, which is always the first in its process (bench:import's "CLI first" runs the CLI itself). The
// later imports run main-thread code V8 has compiled and optimised already: their rates are the ceiling a warm process
// reaches on this machine. Worker threads are not kept: an import that runs them (--workers, or by default a roll of
// 8 MB of text or more, --roll-copies 3 and up) starts its workers anew, so their code is cold in every import.
// With --roll-copies above 1, the roll is built by reading the sample in this process first (roll-copies.ts), which
// warms the file reader a little before the first import.
//
// The table, one line an import: rows/s; x 1st, that rate over the first import's; ms, importCsv's time; node us,
// the process's CPU a row (every thread: V8's compiler and garbage collector too); busy ms and idle ms, the main
// thread's event loop (their sum is about ms; idle is the main thread waiting: for PostgreSQL, or for the worker
// threads when there are any); faults, the minor page faults of the import (fresh memory touched: ~12 us each on some
// of these VMs); pg us, the CPU a row of the database's PostgreSQL backends (from /proc: '-' when the server is not
// on this machine). bench:import gives each county's first load beside the Brooklyn baseline; bench:import-stages
// splits a worker's CPU by stage. These VMs differ by up to 2x: compare ratios, not rates, across machines.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createPool, dropDatabase, ensureDatabase, type Pool, withDatabase } from '@pra/platform/db';
import { DEFAULT_DATABASE_URL } from '@pra/core/config';
import { useLocalStack } from '@pra/platform/local-stack';
import { migrateRecords } from '../../services/ingest/src/data/migrate.js';
import { importCsv, loadMapping, type Mapping } from '../../services/ingest/src/importer/index.js';
import { splitNodeArgs } from '../../services/ingest/src/importer/worker-argv.js';
import { backendCpu, backendCpuSince } from './backend-cpu.js';
import { COUNTY_TARGET_ROWS_PER_SECOND, multiplyRoll, ONE_FILE_COUNTIES, oneFileRoll } from './roll-copies.js';

// The PostgreSQL npm start ran with (.data/local-stack.json), unless DATABASE_URL says otherwise.
useLocalStack('bench:import-warmup');

/** A bad option: said, with what it takes, and the process ends (no stack: nothing failed inside). */
function refuse(message: string): never {
  console.error(`bench:import-warmup: ${message}`);
  process.exit(2);
}

function options() {
  try {
    return parseArgs({
      options: {
        county: { type: 'string', default: 'philadelphia' },
        /** At least 2: the first is the cold one the others are compared with. */
        imports: { type: 'string', default: '6' },
        /** The roll's sample this many times over (bench:import's "x20"); 1: the real file. */
        'roll-copies': { type: 'string', default: '1' },
        /** Worker threads (importCsv's default: none below 8 MB of text, two above). */
        workers: { type: 'string' },
      },
    }).values;
  } catch (err) {
    refuse((err as Error).message);
  }
}
const values = options();
const integer = (name: string, text: string, least: number): number => {
  if (!/^\d+$/.test(text) || Number(text) < least) refuse(`${name} must be a whole number of at least ${least}`);
  return Number(text);
};
const imports = integer('--imports (the first is the cold one, compared with the others)', values.imports, 2);
const rollCopies = integer('--roll-copies', values['roll-copies'], 1);
const workers = values.workers === undefined ? undefined : integer('--workers', values.workers, 0);
/** node's options in package.json's `ingest` script (its loaders left out): this process must have them too. */
const ingestScript = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { scripts: { ingest: string } }
).scripts.ingest;
const cliOptions = splitNodeArgs(ingestScript.split(/\s+/).slice(1)).options.flatMap((o) => (o.loader ? [] : o.args));
if (cliOptions.some((o) => !process.execArgv.includes(o)))
  refuse(`node must start with the CLI's options (${cliOptions.join(' ')}): run it as npm run bench:import-warmup`);
const roll = oneFileRoll(values.county);
if (!roll) refuse(`--county must be a one-file roll: one of ${ONE_FILE_COUNTIES.join(', ')}`);

interface Run {
  rows: number;
  ms: number;
  nodeMs: number;
  busyMs: number;
  idleMs: number;
  faults: number;
  /** null: not measured (the server is not on this machine). */
  pgMs: number | null;
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const rate = (r: Run) => (r.rows / r.ms) * 1000;
const median = (xs: readonly number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

/** A connection URL's database name: what is printed of it (the URL may hold a password). */
const dbName = (url: string) => new URL(url).pathname.slice(1);

/** The database an import is working in, dropped by the signal handler if the run is stopped meanwhile. */
let current: string | null = null;
let scratch: string | null = null;
const cleanUp = async () => {
  if (current)
    await dropDatabase(current).catch((err: Error) =>
      console.error(`could not drop ${dbName(current!)}: ${err.message}`),
    );
  if (scratch) rmSync(scratch, { recursive: true, force: true });
};
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    console.error(`bench:import-warmup: ${signal}, dropping its database`);
    void cleanUp().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
  });
}

/** One first load into a database of its own, measured. */
async function timedImport(base: string, mapping: Mapping, file: string): Promise<Run> {
  // A name of this run's own: another run's (another host's same pid) is never dropped.
  const url = withDatabase(base, `pra_bench_warmup_${process.pid}_${randomBytes(4).toString('hex')}`);
  current = url;
  await ensureDatabase(url);
  let pool: Pool | null = null;
  try {
    // As the CLI opens it.
    pool = createPool(url, 4, 'bench-import-warmup');
    await migrateRecords(pool);
    const pgBefore = await backendCpu(pool);
    const faultsBefore = process.resourceUsage().minorPageFault;
    const eluBefore = performance.eventLoopUtilization();
    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    const s = await importCsv(pool, mapping, file, { workers });
    const ms = performance.now() - started;
    const cpu = process.cpuUsage(cpuBefore);
    const elu = performance.eventLoopUtilization(eluBefore);
    return {
      rows: s.rowsRead,
      ms,
      nodeMs: (cpu.user + cpu.system) / 1000,
      busyMs: elu.active,
      idleMs: elu.idle,
      faults: process.resourceUsage().minorPageFault - faultsBefore,
      pgMs: await backendCpuSince(pool, pgBefore),
    };
  } finally {
    await pool?.end();
    // Its own error reported here: the import's, if there was one, is the one thrown.
    await dropDatabase(url).catch((err: Error) => console.error(`could not drop ${dbName(url)}: ${err.message}`));
    current = null;
  }
}

function report(runs: readonly Run[]) {
  const first = runs[0]!;
  const warm = runs.slice(1).map(rate);
  const perRow = (r: Run, ms: number | null) => (ms === null ? '-' : ((ms * 1000) / r.rows).toFixed(0));
  console.log(
    `\n${values.county}${rollCopies > 1 ? ` x${rollCopies}` : ''} (${fmt(first.rows)} rows), its first load ${imports} times in one process, ` +
      `each into a fresh database; workers: ${workers ?? 'the default'}` +
      `${workers === 0 ? '' : ' (worker threads, when there are any, start cold in every import)'}; target ${fmt(COUNTY_TARGET_ROWS_PER_SECOND)} rows/s\n`,
  );
  console.log(
    `${'import'.padEnd(8)}${'rows/s'.padStart(9)}${'x 1st'.padStart(7)}${'ms'.padStart(9)}${'node us'.padStart(9)}` +
      `${'busy ms'.padStart(10)}${'idle ms'.padStart(10)}${'faults'.padStart(12)}${'pg us'.padStart(7)}`,
  );
  runs.forEach((r, i) => {
    console.log(
      `${String(i + 1).padEnd(8)}${fmt(rate(r)).padStart(9)}${(rate(r) / rate(first)).toFixed(2).padStart(7)}` +
        `${fmt(r.ms).padStart(9)}${perRow(r, r.nodeMs).padStart(9)}${fmt(r.busyMs).padStart(10)}` +
        `${fmt(r.idleMs).padStart(10)}${fmt(r.faults).padStart(12)}${perRow(r, r.pgMs).padStart(7)}`,
    );
  });
  const best = Math.max(...warm);
  console.log(
    `\ncold (the 1st): ${fmt(rate(first))} rows/s; warm (the others): median ${fmt(median(warm))}, best ${fmt(best)}; ` +
      `the median ${(median(warm) / rate(first)).toFixed(2)}x the cold one's; the best ${(best / COUNTY_TARGET_ROWS_PER_SECOND).toFixed(2)}x the target. ` +
      `Load average now ${loadavg()[0]!.toFixed(1)} (above 2, others share the cores).`,
  );
}

async function main() {
  const base = process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL;
  const mapping = loadMapping(roll!.mapping);
  let file = roll!.file;
  if (rollCopies > 1) {
    scratch = mkdtempSync(join(tmpdir(), 'pra-bench-warmup-'));
    file = join(scratch, `${mapping.name}-x${rollCopies}.csv`);
    // As bench:import builds its county-sized rolls: each copy with parcels, addresses and owners of its own.
    console.error(
      `${values.county} x${rollCopies}: ${fmt(await multiplyRoll(mapping, roll!.file, rollCopies, file))} rows`,
    );
  }
  const runs: Run[] = [];
  try {
    for (let i = 0; i < imports; i++) {
      const run = await timedImport(base, mapping, file);
      runs.push(run);
      console.error(`import ${i + 1} of ${imports}: ${fmt(rate(run))} rows/s`);
    }
  } finally {
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  }
  report(runs);
}

main().catch((err: Error) => {
  console.error(`bench:import-warmup failed: ${err.stack ?? err.message}`);
  process.exit(1);
});
