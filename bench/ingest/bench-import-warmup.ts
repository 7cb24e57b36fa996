// npm run bench:import-warmup [-- --county philadelphia|lebanon --imports 6 --roll-copies 1 --workers N]
// What V8's warm-up costs a one-file roll's first load, and how fast a warm process loads it: the same roll's first
// load --imports times in one process, each into a fresh database of its own (created, migrated, dropped), timed as
// importCsv alone. The first import runs the importer's code cold, as `npm run ingest -- import` always does (one
// import a process); the later ones run code V8 has already compiled and optimised, so their rate is the ceiling a
// warm process reaches on this machine, and the first's ratio to them is what the warm-up costs.
//
// Each import's line gives, beside its rate: node's CPU (every thread of the process, so V8's compiler and garbage
// collector too), the main thread's busy and idle time (event-loop utilisation: idle is the main thread waiting, for
// PostgreSQL mostly), the minor page faults (fresh memory touched: each costs ~12 us on some of these VMs) and the
// CPU of the database's PostgreSQL backends (from /proc, so only when the server runs on this machine).
// bench:import gives the rates of each county's first load beside the Brooklyn baseline; bench:import-stages splits a
// worker's CPU by stage. Rates on these VMs differ by up to 2x from one machine to the next: compare ratios.
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { createPool, dropDatabase, ensureDatabase, withDatabase } from '@pra/platform';
import { DEFAULT_DATABASE_URL } from '@pra/core/config';
import { quantile } from '@pra/platform/bench';
import { useLocalStack } from '@pra/platform/local-stack';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migrateRecords } from '../../services/ingest/src/data/migrate.js';
import { COUNTY_ROLLS, importCsv, loadMapping } from '../../services/ingest/src/importer/index.js';
import { backendCpu, backendCpuSince } from './backend-cpu.js';
import { multiplyRoll } from './roll-copies.js';

// The PostgreSQL npm start ran with (.data/local-stack.json), unless DATABASE_URL says otherwise.
useLocalStack('bench:import-warmup');

/** Issue 36: a first load of a one-file county roll on a 2-core machine. */
const TARGET_ROWS_PER_SECOND = 10_000;

const { values } = parseArgs({
  options: {
    /** A one-file roll of COUNTY_ROLLS. */
    county: { type: 'string', default: 'philadelphia' },
    imports: { type: 'string', default: '6' },
    /** The roll's sample this many times over (bench:import's "x20"); 1: the real file. */
    'roll-copies': { type: 'string', default: '1' },
    /** Worker threads (importCsv's default: none for a file this small, two for a large one). */
    workers: { type: 'string' },
  },
});
/** A bad option: said, with what it takes, and the process ends (no stack: nothing failed inside). */
function refuse(message: string): never {
  console.error(`bench:import-warmup: ${message}`);
  process.exit(2);
}
const imports = Number(values.imports);
const rollCopies = Number(values['roll-copies']);
const workers = values.workers === undefined ? undefined : Number(values.workers);
for (const [name, n, least] of [
  ['--imports', imports, 2],
  ['--roll-copies', rollCopies, 1],
  ['--workers', workers ?? 0, 0],
] as const) {
  if (!Number.isInteger(n) || n < least) refuse(`${name} must be an integer of at least ${least}`);
}
const rolls = COUNTY_ROLLS as Record<string, readonly { mapping: string; file: string }[]>;
const files = rolls[values.county];
const roll = files?.length === 1 ? files[0] : undefined;
if (!roll) {
  const oneFile = Object.keys(rolls).filter((c) => rolls[c]!.length === 1);
  refuse(`--county must be a one-file roll: one of ${oneFile.join(', ')}`);
}

interface Run {
  rows: number;
  ms: number;
  nodeMs: number;
  busyMs: number;
  idleMs: number;
  faults: number;
  pgMs: number;
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

async function main() {
  const base = process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL;
  const dir = mkdtempSync(join(tmpdir(), 'pra-bench-warmup-'));
  const runs: Run[] = [];
  try {
    let mappingFile = roll!.mapping;
    let file = roll!.file;
    if (rollCopies > 1) {
      // As bench:import builds its county-sized rolls: each copy with parcels, addresses and owners of its own.
      const m = loadMapping(roll!.mapping);
      const name = `${m.name}-x${rollCopies}`;
      mappingFile = join(dir, `${name}.json`);
      writeFileSync(mappingFile, JSON.stringify({ ...JSON.parse(readFileSync(roll!.mapping, 'utf8')), name }));
      file = join(dir, `${name}.csv`);
      console.error(
        `${values.county} x${rollCopies}: ${fmt(await multiplyRoll(m, roll!.file, rollCopies, file))} rows`,
      );
    }
    const mapping = loadMapping(mappingFile);
    for (let i = 0; i < imports; i++) {
      const url = withDatabase(base, `pra_bench_warmup_${process.pid}_${i}`);
      await dropDatabase(url);
      await ensureDatabase(url);
      // As the CLI opens it.
      const pool = createPool(url, 4, 'bench-import-warmup');
      try {
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
        const faults = process.resourceUsage().minorPageFault - faultsBefore;
        const run: Run = {
          rows: s.rowsRead,
          ms,
          nodeMs: (cpu.user + cpu.system) / 1000,
          busyMs: elu.active,
          idleMs: elu.idle,
          faults,
          pgMs: await backendCpuSince(pool, pgBefore),
        };
        runs.push(run);
        console.error(`import ${i + 1} of ${imports}: ${fmt((run.rows / ms) * 1000)} rows/s`);
      } finally {
        await pool.end();
        await dropDatabase(url);
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const rate = (r: Run) => (r.rows / r.ms) * 1000;
  const first = runs[0]!;
  const warm = runs.slice(1).map(rate);
  const perRow = (ms: number) => ((ms * 1000) / first.rows).toFixed(0);
  console.log(
    `\n${values.county}${rollCopies > 1 ? ` x${rollCopies}` : ''} (${fmt(first.rows)} rows), its first load ${imports} times in one process, ` +
      `each into a fresh database; workers ${workers ?? 'default'}; target ${fmt(TARGET_ROWS_PER_SECOND)} rows/s\n`,
  );
  console.log(
    `${'import'.padEnd(8)}${'rows/s'.padStart(9)}${'x 1st'.padStart(7)}${'ms'.padStart(7)}${'node us'.padStart(9)}` +
      `${'main busy'.padStart(11)}${'main idle'.padStart(11)}${'faults'.padStart(9)}${'pg us'.padStart(7)}`,
  );
  runs.forEach((r, i) => {
    console.log(
      `${String(i + 1).padEnd(8)}${fmt(rate(r)).padStart(9)}${(rate(r) / rate(first)).toFixed(2).padStart(7)}` +
        `${fmt(r.ms).padStart(7)}${perRow(r.nodeMs).padStart(9)}${`${fmt(r.busyMs)} ms`.padStart(11)}` +
        `${`${fmt(r.idleMs)} ms`.padStart(11)}${fmt(r.faults).padStart(9)}${perRow(r.pgMs).padStart(7)}`,
    );
  });
  const median = quantile(warm, 0.5);
  const best = Math.max(...warm);
  console.log(
    `\ncold (the 1st): ${fmt(rate(first))} rows/s; warm (the others): median ${fmt(median)}, best ${fmt(best)} ` +
      `(${(median / rate(first)).toFixed(2)}x the cold one's; the target ${(best / TARGET_ROWS_PER_SECOND).toFixed(2)}x at best). ` +
      `node us, pg us: CPU a row of this process (all threads) and of the PostgreSQL backends; main busy / idle: the ` +
      `main thread's event loop; faults: minor page faults. Load average now ${loadavg()[0]!.toFixed(1)}.`,
  );
}

main().catch((err: Error) => {
  console.error(`bench:import-warmup failed: ${err.stack ?? err.message}`);
  process.exit(1);
});
