// npm run bench:import-stages [-- --county philadelphia --roll-copies 20 --rounds 7 --batch 2000]
// What a row of a county roll's first load costs in node, stage by stage, in one thread and without the database:
// the main thread's reading of the file into batches (import-batches.ts, as it reads for worker threads), then a
// worker thread's work on each batch (import-work.ts): rows to parcels (parse), the parcels merged into what is written
// and their owner mentions (mentions; all parcels new, as on a first load), and the records' COPY data (build, with
// made-up owner ids). bench:import times the whole import, whose rows/s on these VMs drift by 15% within minutes and
// hide a change of a few percent; one thread repeating the same work, best of --rounds, is steady to ~1%. Its figures
// are node's CPU a row in the stages the importer's threads run in parallel, not a rate of the import.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { cellMask, readHeader } from '../../services/ingest/src/importer/csv-records.js';
import { readBatches } from '../../services/ingest/src/importer/import-batches.js';
import { mappedFields } from '../../services/ingest/src/importer/import-merge.js';
import {
  encodeBuilt,
  ImportWork,
  type RowBatch,
  type WorkSetup,
} from '../../services/ingest/src/importer/import-work.js';
import { COUNTY_ROLLS, loadMapping } from '../../services/ingest/src/importer/index.js';
import { identityColumns } from '../../services/ingest/src/importer/mapping-rules.js';
import { needsZipEvidence } from '../../services/ingest/src/importer/zip-prescan.js';
import type { ZipEvidenceEntry } from '../../services/ingest/src/domain/zip-evidence.js';
import { multiplyRoll } from './roll-copies.js';

const { values } = parseArgs({
  options: {
    /** A one-file roll of COUNTY_ROLLS. */
    county: { type: 'string', default: 'philadelphia' },
    'roll-copies': { type: 'string', default: '20' },
    rounds: { type: 'string', default: '7' },
    batch: { type: 'string', default: '2000' },
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
const rolls = COUNTY_ROLLS as Record<string, readonly { mapping: string; file: string }[]>;
const files = rolls[values.county];
const roll = files?.length === 1 ? files[0] : undefined;
if (!roll) {
  const oneFile = Object.keys(rolls).filter((c) => rolls[c]!.length === 1);
  throw new Error(`--county must be a one-file roll: one of ${oneFile.join(', ')}`);
}

/** The main thread's reading of `file` into batches, as it reads them for worker threads (no cells kept). */
async function readAll(file: string, setup: WorkSetup): Promise<RowBatch[]> {
  const { mapping, header } = setup;
  const reader = readBatches<number, RowBatch>(
    {
      file,
      delimiter: mapping.delimiter,
      batchSize,
      executors: [0],
      cellsRead: cellMask(header, []),
      parcelCells: identityColumns(mapping).map((c) => header.lastIndexOf(c)),
    },
    async (_executor, _batch, rows) => rows,
  );
  const out: RowBatch[] = [];
  for (let b = await reader.take(); b !== null; b = await reader.take()) out.push(await b.parsed);
  await reader.finished;
  return out;
}

/** This thread's CPU milliseconds: not the wall clock, which counts the time other processes hold the cores. */
const cpuMs = () => {
  const { user, system } = process.threadCpuUsage();
  return (user + system) / 1000;
};

type Stage = 'read' | 'evidence' | 'parse' | 'mentions' | 'build';

/** A worker's work on every batch, stage by stage (milliseconds), as a first load asks it. */
function workAll(setup: WorkSetup, batches: RowBatch[], times: Map<Stage, number>): void {
  const work = new ImportWork(setup);
  const add = (stage: Stage, since: number) => times.set(stage, (times.get(stage) ?? 0) + cpuMs() - since);
  if (needsZipEvidence(setup.mapping)) {
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
    encodeBuilt(work.build({ batch, ownerIds: mentions.map((m, i) => (m ? i + 1 : null)) }));
    add('build', t);
  });
}

async function main() {
  const { mapping: mappingFile, file: sample } = roll!;
  const mapping = loadMapping(mappingFile);
  if (mapping.kind !== 'property') throw new Error(`${mapping.name} is not a property mapping`);
  const dir = mkdtempSync(join(tmpdir(), 'pra-bench-stages-'));
  try {
    const file = join(dir, `${mapping.name}-x${rollCopies}.csv`);
    const rows = await multiplyRoll(mapping, sample, rollCopies, file);
    const setup: WorkSetup = {
      mapping,
      header: await readHeader(file, mapping.delimiter),
      source: `import:${mapping.name}`,
      now: new Date().toISOString(),
      mapped: [...mappedFields(Object.keys(mapping.fields))],
      emitEvents: false,
    };
    const perRound: { stages: Map<Stage, number>; thread: number; cpu: number }[] = [];
    let batches: RowBatch[] = [];
    console.error(`${values.county} x${rollCopies}: ${rows.toLocaleString('en-US')} rows, ${rounds} rounds`);
    for (let r = 0; r < rounds; r++) {
      const stages = new Map<Stage, number>();
      const cpuBefore = process.cpuUsage();
      const started = cpuMs();
      batches = await readAll(file, setup);
      stages.set('read', cpuMs() - started);
      workAll(setup, batches, stages);
      const thread = cpuMs() - started;
      const cpu = process.cpuUsage(cpuBefore);
      perRound.push({ stages, thread, cpu: (cpu.user + cpu.system) / 1000 });
      const total = ((thread * 1000) / rows).toFixed(1);
      console.error(`round ${r + 1}: ${total} us a row`);
    }
    const us = (ms: number) => ((ms * 1000) / rows).toFixed(1).padStart(9);
    const best = (f: (p: (typeof perRound)[number]) => number) => Math.min(...perRound.map(f));
    const median = (f: (p: (typeof perRound)[number]) => number) => {
      const s = perRound.map(f).sort((a, b) => a - b);
      return s[Math.floor(s.length / 2)]!;
    };
    const stageNames = [...perRound[0]!.stages.keys()];
    console.log(
      `\n${mapping.name} x${rollCopies} (${rows.toLocaleString('en-US')} rows, batches of ${batchSize}): node's CPU ` +
        `a row by stage, one thread, ${rounds} rounds\n`,
    );
    console.log(`${'stage'.padEnd(30)}${'first'.padStart(9)}${'best'.padStart(9)}${'median'.padStart(9)}  (us a row)`);
    const line = (name: string, f: (p: (typeof perRound)[number]) => number) =>
      console.log(`${name.padEnd(30)}${us(f(perRound[0]!))}${us(best(f))}${us(median(f))}`);
    for (const s of stageNames) line(s, (p) => p.stages.get(s) ?? 0);
    line('all (this thread)', (p) => p.thread);
    line("all (and V8's own threads)", (p) => p.cpu);
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
