// npm run bench:import-stages [-- --county philadelphia --roll-copies 20 --rounds 7 --batch 2000 --against <checkout>]
// What a row of a county roll's first load costs in node, stage by stage, in one thread and without the database:
// the main thread's reading of the file into batches (read; import-batches.ts, as it reads for worker threads), then
// a worker thread's work: for a roll without site ZIPs, its ZIP evidence read from every row first (evidence;
// zip-prescan.ts), then on each batch (import-work.ts) rows to parcels (parse), the parcels merged into what is
// written and their owner mentions (mentions; all parcels new, as on a first load), and the records' COPY data
// (build, with made-up owner ids). Each stage is timed in this thread's CPU time; the first round (V8's code not yet
// optimised, as in an import's fresh worker threads), the best and the median of --rounds are printed.
//
// bench:import times the whole import, and these VMs drift: its rows/s moved by 15% within minutes, and even one
// thread's CPU time a row by 15-25% between runs a few minutes apart. --against <checkout> loads the importer of
// another checkout of the repository into this same process beside this one's, and every round runs both, one after
// the other (which runs first alternates), and the ratio of each round's pair is printed: pairing takes out the drift
// of minutes, not that of seconds (single pairs still ranged 0.80-1.30 on one VM), so read the median over many
// rounds. The other checkout: a git worktree with its own node_modules, e.g. `git worktree add ../base <commit> &&
// (cd ../base && npm ci)`; its importer must have the modules and functions this bench calls (a checkout from before
// the bench's own commit may not: it is refused, naming what it lacks). The mapping, the roll and the file are this
// checkout's for both. Its figures are node's CPU a row in the stages the importer's threads run in parallel, not a
// rate of the import.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { quantile } from '@pra/platform/bench';
import type { MappedField } from '../../services/ingest/src/importer/import-merge.js';
import type { RowBatch, WorkSetup } from '../../services/ingest/src/importer/import-work.js';
import { loadMapping } from '../../services/ingest/src/importer/index.js';
import type { ZipEvidenceEntry } from '../../services/ingest/src/domain/zip-evidence.js';
import { multiplyRoll, ONE_FILE_COUNTIES, oneFileRoll } from './roll-copies.js';
import { firstLoadSetup, type ReaderModules, readAllBatches } from '@pra/ingest/testing/work-batches';

const { values } = parseArgs({
  options: {
    /** A one-file roll of COUNTY_ROLLS. */
    county: { type: 'string', default: 'philadelphia' },
    'roll-copies': { type: 'string', default: '20' },
    rounds: { type: 'string', default: '7' },
    batch: { type: 'string', default: '2000' },
    /** Another checkout of the repository (with its node_modules), measured beside this one, round by round. */
    against: { type: 'string' },
  },
});
const rounds = Number(values.rounds);
const rollCopies = Number(values['roll-copies']);
const batchSize = Number(values.batch);
for (const [name, n] of [
  ['--rounds', rounds],
  ['--roll-copies', rollCopies],
  ['--batch', batchSize],
] as const) {
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a positive integer`);
}
const roll = oneFileRoll(values.county);
if (!roll) throw new Error(`--county must be a one-file roll: one of ${ONE_FILE_COUNTIES.join(', ')}`);

/** The importer's modules that the stages run, as one checkout of the repository has them. */
interface Importer {
  label: string;
  csv: typeof import('../../services/ingest/src/importer/csv-records.js');
  batches: typeof import('../../services/ingest/src/importer/import-batches.js');
  merge: typeof import('../../services/ingest/src/importer/import-merge.js');
  work: typeof import('../../services/ingest/src/importer/import-work.js');
  rules: typeof import('../../services/ingest/src/importer/mapping-rules.js');
  prescan: typeof import('../../services/ingest/src/importer/zip-prescan.js');
}

/** What the bench calls of an importer's modules: a checkout lacking one is refused before any round. */
const CALLED = {
  csv: ['cellMask', 'readHeader'],
  batches: ['readBatches'],
  // spokenFor, or mappedFields in an importer before the rule option fillOnly (readerOf).
  merge: [],
  work: ['ImportWork', 'encodeBuilt'],
  rules: ['identityColumns'],
  prescan: ['needsZipEvidence'],
} as const;

/** The importer of the checkout at `root` (this one's, or --against's). */
async function importerAt(root: string, label: string): Promise<Importer> {
  if (!existsSync(join(root, 'node_modules'))) {
    throw new Error(`${root} has no node_modules: run npm ci there first`);
  }
  const load = async (file: string) => {
    const path = join(root, 'services/ingest/src/importer', file);
    if (!existsSync(path)) throw new Error(`${root} has no ${file}: its importer predates this bench`);
    return import(pathToFileURL(path).href);
  };
  const im = {
    label,
    csv: await load('csv-records.ts'),
    batches: await load('import-batches.ts'),
    merge: await load('import-merge.ts'),
    work: await load('import-work.ts'),
    rules: await load('mapping-rules.ts'),
    prescan: await load('zip-prescan.ts'),
  };
  for (const [module, names] of Object.entries(CALLED)) {
    const exports = im[module as keyof typeof CALLED] as Record<string, unknown>;
    const lacking = names.filter((n) => typeof exports[n] !== 'function');
    if (lacking.length > 0) throw new Error(`${root}'s importer has no ${lacking.join(', ')}: it predates this bench`);
  }
  return im;
}

/** The reader's functions of one importer (work-batches.ts takes them, so that --against's are its own). */
const readerOf = (im: Importer): ReaderModules => ({
  readHeader: im.csv.readHeader,
  cellMask: im.csv.cellMask,
  readBatches: im.batches.readBatches,
  identityColumns: im.rules.identityColumns,
  spokenFor: spokenForOf(im),
});

/**
 * What a mapping's file speaks for, as the importer at hand tells it: an importer before the rule option `fillOnly`
 * has mappedFields (the mapped fields alone) in place of spokenFor.
 */
function spokenForOf(im: Importer): ReaderModules['spokenFor'] {
  const merge = im.merge as Partial<Importer['merge']> & {
    mappedFields?: (targets: Iterable<string>) => ReadonlySet<MappedField>;
  };
  if (typeof merge.spokenFor === 'function') return merge.spokenFor;
  const mappedFields = merge.mappedFields;
  if (typeof mappedFields !== 'function')
    throw new Error(`${im.label}'s importer has neither spokenFor nor mappedFields: it predates this bench`);
  return (fields) => ({ mapped: mappedFields(Object.keys(fields)), fillOnly: new Set() });
}

/** The main thread's reading of `file` into batches, as it reads them for worker threads (no cells kept). */
const readAll = (im: Importer, file: string, setup: WorkSetup): Promise<RowBatch[]> =>
  readAllBatches(readerOf(im), file, setup, batchSize);

/** This thread's CPU milliseconds: not the wall clock, which counts the time other processes hold the cores. */
const cpuMs = () => {
  const { user, system } = process.threadCpuUsage();
  return (user + system) / 1000;
};

type Stage = 'read' | 'evidence' | 'parse' | 'mentions' | 'build';

/** A worker's work on every batch, stage by stage (milliseconds), as a first load asks it. */
function workAll(im: Importer, setup: WorkSetup, batches: RowBatch[], times: Map<Stage, number>): void {
  const work = new im.work.ImportWork(setup);
  const add = (stage: Stage, since: number) => times.set(stage, (times.get(stage) ?? 0) + cpuMs() - since);
  if (im.prescan.needsZipEvidence(setup.mapping)) {
    const started = cpuMs();
    const entries: ZipEvidenceEntry[] = [];
    for (const rows of batches) entries.push(...work.zipEvidence(rows));
    work.useZipEvidence(entries);
    add('evidence', started);
  }
  let nextId = 1;
  batches.forEach((rows, batch) => {
    let t = cpuMs();
    const parsed = work.parse(batch, rows);
    add('parse', t);
    t = cpuMs();
    const ids = parsed.identities.map((_, i) => nextId + i);
    const mentions = work.mentions({ batch, added: parsed.identities, firstId: nextId, stored: [], parcelIds: ids });
    nextId += ids.length;
    add('mentions', t);
    t = cpuMs();
    // An owner id a mention, as the registry gives each mention one.
    im.work.encodeBuilt(work.build({ batch, ownerIds: mentions.map((m, i) => (m ? i + 1 : null)) }));
    add('build', t);
  });
}

interface Round {
  stages: Map<Stage, number>;
  /** This thread's CPU milliseconds, all stages. */
  thread: number;
  /** The process's (V8's own threads too: the garbage collector's, the compiler's). */
  process: number;
}

/** One round of one importer: the file read into batches, and every batch worked. */
async function round(im: Importer, file: string, setup: WorkSetup): Promise<Round> {
  const stages = new Map<Stage, number>();
  const processBefore = process.cpuUsage();
  const started = cpuMs();
  const batches = await readAll(im, file, setup);
  stages.set('read', cpuMs() - started);
  workAll(im, setup, batches, stages);
  const thread = cpuMs() - started;
  const cpu = process.cpuUsage(processBefore);
  return { stages, thread, process: (cpu.user + cpu.system) / 1000 };
}

const median = (xs: number[]) => quantile(xs, 0.5);

async function main() {
  const here = resolve(fileURLToPath(new URL('../..', import.meta.url)));
  const importers = [await importerAt(here, 'this checkout')];
  if (values.against) importers.push(await importerAt(resolve(values.against), values.against));
  const mapping = loadMapping(roll!.mapping);
  if (mapping.kind !== 'property') throw new Error(`${mapping.name} is not a property mapping`);
  const dir = mkdtempSync(join(tmpdir(), 'pra-bench-stages-'));
  try {
    const file = join(dir, `${mapping.name}-x${rollCopies}.csv`);
    const rows = await multiplyRoll(mapping, roll!.file, rollCopies, file);
    const setups = await Promise.all(importers.map((im) => firstLoadSetup(readerOf(im), mapping, file)));
    const results: Round[][] = importers.map(() => []);
    console.error(`${values.county} x${rollCopies}: ${rows.toLocaleString('en-US')} rows, ${rounds} rounds`);
    for (let r = 0; r < rounds; r++) {
      // Which importer goes first alternates: neither always runs on a warmer (or more crowded) machine.
      const order = importers.map((_, i) => i);
      if (r % 2 === 1) order.reverse();
      const perRow: string[] = [];
      for (const i of order) {
        const result = await round(importers[i]!, file, setups[i]!);
        results[i]!.push(result);
        perRow.push(`${importers[i]!.label} ${((result.thread * 1000) / rows).toFixed(1)}`);
      }
      console.error(`round ${r + 1}: us a row, ${perRow.join(', ')}`);
    }
    const us = (ms: number) => ((ms * 1000) / rows).toFixed(1).padStart(9);
    const stageNames = [...results[0]![0]!.stages.keys()];
    const measures: [string, (p: Round) => number][] = [
      ...stageNames.map((s): [string, (p: Round) => number] => [s, (p) => p.stages.get(s) ?? 0]),
      ['all (this thread)', (p) => p.thread],
      ["all (and V8's own threads)", (p) => p.process],
    ];
    importers.forEach((im, i) => {
      const rs = results[i]!;
      console.log(
        `\n${im.label}: ${mapping.name} x${rollCopies} (${rows.toLocaleString('en-US')} rows, batches of ${batchSize}), ` +
          `node's CPU a row by stage, one thread, ${rounds} rounds\n`,
      );
      console.log(
        `${'stage'.padEnd(30)}${'first'.padStart(9)}${'best'.padStart(9)}${'median'.padStart(9)}  (us a row)`,
      );
      for (const [name, f] of measures) {
        const xs = rs.map(f);
        console.log(`${name.padEnd(30)}${us(xs[0]!)}${us(Math.min(...xs))}${us(median(xs))}`);
      }
    });
    if (importers.length === 2) {
      console.log(
        `\nthis checkout over ${importers[1]!.label}, the two rounds of each pair (run one after the other) divided: ` +
          `median and range over ${rounds} pairs (below 1: this checkout takes less CPU a row)\n`,
      );
      for (const [name, f] of measures) {
        const ratios = results[0]!.map((p, r) => f(p) / f(results[1]![r]!));
        const range = `${Math.min(...ratios).toFixed(3)}-${Math.max(...ratios).toFixed(3)}`;
        console.log(`${name.padEnd(30)}${median(ratios).toFixed(3).padStart(9)}  ${range}`);
      }
    }
    console.log(
      `\nfirst: the first round, with V8's code not yet optimised (as in each import's fresh worker threads); best ` +
        `and median over all rounds. "V8's own threads": the process's CPU, with the garbage collector's and ` +
        `compiler's threads.`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
