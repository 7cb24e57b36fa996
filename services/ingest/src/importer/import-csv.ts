// Loads a county extract (CSV) through a mapping. Bad rows are reported with their line number and reason and
// skipped; good rows become properties (one per parcel: see import-merge.ts) written in batches, each batch one
// transaction, so a failure never half-commits one. A re-import updates what changed and adds nothing twice.
//
// A property import is a pipeline. The main thread reads the file's records and sends them, a batch at a time, to
// worker threads (for a large file; in the main thread for a small one), which turn rows into parcels (import-work.ts;
// the reader: import-batches.ts). Each batch then goes through two stages, one batch apart (importProperties): its
// front reads its stored state (import-store.ts), takes a joined file's rows whose parcel the store lacks out of the
// report (unreport), reserves and registers its ids and has its owner mentions made, while the batch before it is in
// the back: owners resolved, records built, then written, one batch after the other in the file's order. A batch
// that shares a parcel with one not yet written waits for that write, so every batch reads the state the batches
// before it left.
import { type Stats, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import type { Pool } from '@pra/platform/db';
import { reserveIds, writeTracts } from '../data/loader.js';
import { registerParcels } from '../data/parcels.js';
import { resolveOwners } from '../data/owner-registry.js';
import { loadNameLists } from '../domain/name-frequencies.js';
import type { OwnerMention } from '../domain/owner-keys.js';
import { type SourceLock, withSourceLock } from '../data/source-lock.js';
import type { TractInput } from '../domain/property-input.js';
import type { ZipEvidenceEntry } from '../domain/zip-evidence.js';
import { cellMask, readCsvValues, readHeader } from './csv-records.js';
import {
  type BatchPosition,
  type BatchReader,
  type BatchReading,
  type BatchWork,
  KeptBatches,
  type ReadBatch,
  readBatches,
  replayBatches,
} from './import-batches.js';
import {
  addReport,
  applyCompiled,
  type CompiledRules,
  compileRules,
  type FieldReport,
  latestDateOf,
  subtractReport,
  reportOfRows,
} from './apply-rules.js';
import { spokenFor } from './import-merge.js';
import { readAddressIndex } from './import-join.js';
import { toTract } from './import-row.js';
import { needsZipEvidence, prescanZipEvidence } from './zip-prescan.js';
import {
  type BatchState,
  importStateOf,
  mappingLoadedBefore,
  readBatchState,
  recordMappingLoad,
  writeBuiltBatch,
} from './import-store.js';
import {
  type BuildRequest,
  type OwnersResolved,
  type BuiltBatch,
  ImportWork,
  type ParsedBatch,
  type RowError,
  type RowBatch,
  type WorkSetup,
} from './import-work.js';
import type { WorkerRequest } from './import-worker.js';
import { type Mapping, readsNames } from './mapping.js';
import type { HeldOptions } from './held-rows.js';
import { heldApnColumn, type ScatteredParcels, scatteredParcels } from './hold-policy.js';
import { identityColumns, mappingColumns } from './mapping-rules.js';
import { loaderWorker } from './worker-argv.js';

export { splitAddressLine, toProperty, toTract } from './import-row.js';
export type { RowError } from './import-work.js';

export interface ImportSummary {
  mapping: string;
  rowsRead: number;
  /** Properties (or tract vintages) not in the store before. */
  added: number;
  /** Properties already in the store whose record changed: a new sale, another owner, a new assessment... */
  updated: number;
  /** Properties already in the store exactly as this file has them. */
  unchanged: number;
  /** Rows that could not be read or converted; each is in `errors` with its line. */
  skipped: number;
  errors: RowError[];
  /**
   * Values refused (a date that cannot be right, a type the mapping does not name), their rows imported without
   * them: the first REFUSALS_KEPT, by line (a roll whose mapping misses a common code refuses a value a row).
   */
  refusals: RowError[];
  /** How many values were refused in all. */
  refusedValues: number;
  /** A joined file: rows naming a parcel the store lacks (each is in `errors`); they add nothing. */
  notInStore: number;
  /**
   * A joined file: the mapping whose parcels it joins, and whether the store held any when the import began (none: the
   * files were imported out of order, and every row is one the store lacks).
   */
  joins?: { mapping: string; loaded: boolean };
  /** Per target of the mapping: cells filled, empty and refused, with the first few reasons, of the rows kept. */
  report: FieldReport;
  /** Nothing was written (--dry-run). */
  dryRun: boolean;
}

export interface ImportProgressEvent {
  /** Rows written (or read, in a dry run), in batches. */
  rowsRead: number;
  /**
   * The file's first rows, every one written: fewer than rowsRead while rows of parcels met again are held back to the
   * file's end (held-rows.ts). bytesRead is the bytes they take.
   */
  rowsWhole: number;
  bytesRead: number;
  /** The bytes of the file read: those of the rows written, and of the rows held back to be written (rowsHeld). */
  bytesPassed: number;
  rowsHeld: number;
  /** The file's size in bytes, when it could be read (not for a pipe). */
  totalBytes: number | null;
  /** The file's rows, when they were counted before its import (a re-import whose rows may be held: held-rows.ts). */
  totalRows?: number;
}

/**
 * A read of the file before its rows are worked: `apart`, which parcels' rows are apart in it (a re-import whose rows
 * may be held: hold-policy.ts scatteredParcels); `zip-evidence`, the evidence of a roll without site ZIPs
 * (zip-prescan.ts). `bytesRead` of `totalBytes` (null: a size not known).
 */
export interface ImportPrereadEvent {
  step: 'apart' | 'zip-evidence';
  bytesRead: number;
  totalBytes: number | null;
}

/** A regular file's stat; null for anything else (a pipe) or a file that cannot be read. */
function regularFile(file: string): Stats | null {
  try {
    const st = statSync(file);
    return st.isFile() ? st : null;
  } catch {
    return null;
  }
}

/** The CPU side of an import: in worker threads, or in the main thread (a small file, or `workers: 0`). */
interface Executor {
  /** It reads the cells the reader copied out of each record (in this thread), not the records' text again. */
  readsCells: boolean;
  /** `cells`: each record's cells, as the reader read them (a worker thread reads them again from the text). */
  parse(batch: number, rows: RowBatch, cells?: string[][]): Promise<ParsedBatch>;
  /** A batch's ZIP evidence (a roll without site ZIPs is read for it first: zip-prescan.ts). */
  zipEvidence(batch: number, rows: RowBatch, cells?: string[][]): Promise<ZipEvidenceEntry[]>;
  /** The roll's ZIP evidence, all of it, before the first batch is parsed. */
  useZipEvidence(entries: ZipEvidenceEntry[]): Promise<void>;
  /**
   * What the rules counted of the rows of a joined file's parcels the store lacks (errors found after the parse), to
   * take out of the batch's report; before the batch's mentions.
   */
  unreport(batch: number, identities: string[]): Promise<FieldReport>;
  /** Merges the batch's parcels over their stored state: the owner mentions of what it will write. */
  mentions(req: BuildRequest): Promise<(OwnerMention | null)[]>;
  build(req: OwnersResolved): Promise<BuiltBatch>;
  close(): Promise<void>;
}

/**
 * `keepRead`: what the ZIP evidence's read makes of each batch's rows is kept for the batch's parse (a small file: its
 * rows' values, ~2 KB a row of heap, for at most KEPT_ROWS rows).
 */
function inlineExecutor(setup: WorkSetup, keepRead: boolean): Executor {
  const work = new ImportWork(setup);
  return {
    readsCells: true,
    parse: async (batch, rows, cells) => work.parse(batch, rows, cells),
    zipEvidence: async (_batch, rows, cells) => work.zipEvidence(rows, cells, keepRead),
    useZipEvidence: async (entries) => work.useZipEvidence(entries),
    unreport: async (batch, identities) => work.unreport(batch, identities),
    mentions: async (req) => work.mentions(req),
    build: async (req) => work.build(req),
    close: async () => {},
  };
}

type WorkerReply =
  | { batch: number; kind: 'parsed'; result: ParsedBatch }
  | { batch: number; kind: 'evidence'; result: ZipEvidenceEntry[] }
  | { batch: number; kind: 'used'; result: null }
  | { batch: number; kind: 'unreported'; result: FieldReport }
  | { batch: number; kind: 'mentions'; result: (OwnerMention | null)[] }
  | { batch: number; kind: 'built'; result: BuiltBatch }
  | { batch: number; kind: 'error'; message: string };

/** The request each reply answers (an error answers none: it fails them all). */
const REQUEST_OF_REPLY: Record<WorkerReply['kind'], WorkerRequest['kind'] | ''> = {
  parsed: 'parse',
  evidence: 'evidence',
  used: 'use-evidence',
  unreported: 'unreport',
  mentions: 'mentions',
  built: 'build',
  error: '',
};

export function workerExecutor(setup: WorkSetup): Executor {
  const worker = loaderWorker(new URL('./import-worker.mjs', import.meta.url), { workerData: setup });
  const waiting = new Map<string, { resolve: (v: never) => void; reject: (e: Error) => void }>();
  // Once the worker has failed or exited, every later request fails at once: posted to a dead worker it would never
  // be answered, and the import would hang holding its source's lock.
  let dead: Error | null = null;
  const failAll = (err: Error) => {
    dead ??= err;
    for (const w of waiting.values()) w.reject(err);
    waiting.clear();
  };
  worker.on('message', (msg: WorkerReply) => {
    const kind = REQUEST_OF_REPLY[msg.kind];
    const key = `${kind}:${msg.batch}`;
    if (msg.kind === 'error') {
      failAll(new Error(`import worker failed on batch ${msg.batch}: ${msg.message}`));
      return;
    }
    const w = waiting.get(key);
    waiting.delete(key);
    w?.resolve(msg.result as never);
  });
  worker.on('error', failAll);
  worker.on('exit', (code) => failAll(new Error(`import worker exited with code ${code}`)));
  const ask = <T>(req: WorkerRequest) =>
    new Promise<T>((resolve, reject) => {
      if (dead) return reject(dead);
      waiting.set(`${req.kind}:${req.batch}`, { resolve: resolve as (v: never) => void, reject });
      worker.postMessage(req);
    });
  return {
    readsCells: false,
    parse: (batch, rows) => ask<ParsedBatch>({ kind: 'parse', batch, rows }),
    zipEvidence: (batch, rows) => ask<ZipEvidenceEntry[]>({ kind: 'evidence', batch, rows }),
    useZipEvidence: (entries) => ask<void>({ kind: 'use-evidence', batch: 0, entries }),
    unreport: (batch, identities) => ask<FieldReport>({ kind: 'unreport', batch, identities }),
    mentions: (req) => ask<(OwnerMention | null)[]>({ kind: 'mentions', ...req }),
    build: (req) => ask<BuiltBatch>({ kind: 'build', ...req }),
    close: async () => {
      worker.removeAllListeners('exit');
      await worker.terminate();
    },
  };
}

/**
 * A file is small under this much text: worked in the main thread (starting worker threads costs more than they
 * save), and, read twice for its ZIP evidence, read from the file once (what its rows were read as is kept).
 */
const SMALL_FILE_BYTES = 8_000_000;
/**
 * The rows a small file's evidence read keeps for its import, at most (~2 KB a row of heap: Lebanon's roll is 5,660
 * rows); a file of more is read again.
 */
const KEPT_ROWS = 25_000;
/** The file is small (SMALL_FILE_BYTES); a pipe, whose size is unknown, is not. */
function smallFile(file: string, totalBytes: number | null): boolean {
  // A gzipped county file is about a sixth of its text.
  return totalBytes !== null && totalBytes * (file.endsWith('.gz') ? 6 : 1) < SMALL_FILE_BYTES;
}
/** Worker threads for a file: none for a small one. */
function defaultWorkers(file: string, totalBytes: number | null): number {
  const cores = availableParallelism();
  return !smallFile(file, totalBytes) && cores >= 2 ? Math.min(2, cores) : 0;
}

/** How many refused values an import keeps by line (its report counts them all). */
export const REFUSALS_KEPT = 1_000;

function keepRefusals(summary: ImportSummary, refusals: readonly RowError[]): void {
  summary.refusedValues += refusals.length;
  for (const r of refusals) summary.refusals.push(r);
  if (summary.refusals.length > 2 * REFUSALS_KEPT) keepFirstRefusals(summary);
}

/**
 * The refusals of the first lines: rows held back to the file's end (held-rows.ts HeldRows) are worked after
 * later lines.
 */
function keepFirstRefusals(summary: ImportSummary): void {
  summary.refusals.sort((a, b) => a.line - b.line);
  summary.refusals.length = Math.min(summary.refusals.length, REFUSALS_KEPT);
}

export async function importCsv(
  pool: Pool,
  mapping: Mapping,
  file: string,
  opts: {
    /** Rows per batch (a transaction each): at least, as a batch ends where a parcel's rows end (import-batches.ts). */
    batchSize?: number;
    onProgress?: (p: ImportProgressEvent) => void;
    /** Told, as it goes, of a read of the whole file before its rows are worked (ImportPrereadEvent). */
    onPreread?: (p: ImportPrereadEvent) => void;
    /** Told when another import or remove of the source holds its lock, before this one waits for it. */
    onWait?: (message: string) => void;
    /** Worker threads that parse rows and build records; by default 2 for a large file, none for a small one. */
    workers?: number;
    /** Read and check the file against its mapping and report, writing nothing. */
    dryRun?: boolean;
    /** How rows of a parcel apart in the file are held back (held-rows.ts HeldOptions; the defaults, but in tests). */
    held?: HeldOptions;
  } = {},
): Promise<ImportSummary> {
  const batchSize = opts.batchSize ?? 2_000;
  const summary: ImportSummary = {
    mapping: mapping.name,
    rowsRead: 0,
    added: 0,
    updated: 0,
    unchanged: 0,
    skipped: 0,
    errors: [],
    refusals: [],
    refusedValues: 0,
    notInStore: 0,
    report: {},
    dryRun: opts.dryRun === true,
  };
  // A joined file writes the parcels of the mapping it joins (import-join.ts).
  const source = `import:${mapping.kind === 'property' && mapping.join ? mapping.join.mapping : mapping.name}`;
  const now = new Date().toISOString();
  const headerColumns = await readHeader(file, mapping.delimiter);
  const header = new Set(headerColumns);
  const missing = mappingColumns(mapping).filter((c) => !header.has(c));
  if (missing.length > 0) {
    throw new Error(
      `${file} has no column ${missing.map((c) => `'${c}'`).join(', ')} that mapping ${mapping.name} reads; its columns are: ${[...header].join(', ')}`,
    );
  }
  // The owner-name parser's name lists, read before the first row: a missing one fails the import here, naming it
  // (worker threads read their own copy as they start: import-worker.ts).
  if (readsNames(mapping)) loadNameLists();
  const totalBytes = regularFile(file)?.size ?? null;
  /** A read of the file before its rows, told as it goes. */
  const prereadOf = (step: ImportPrereadEvent['step']) => (bytesRead: number) =>
    opts.onPreread?.({ step, bytesRead, totalBytes });
  /** Progress told by batch; `totalRows`, the file's rows when counted before its import. */
  const progressOf =
    (totalRows?: number) =>
    ({ rowsRead, rowsWhole, bytesRead, bytesPassed, rowsHeld }: BatchPosition) =>
      opts.onProgress?.({
        rowsRead,
        rowsWhole,
        bytesRead,
        bytesPassed,
        rowsHeld,
        totalBytes,
        ...(totalRows === undefined ? {} : { totalRows }),
      });
  // One import or remove of a source at a time: two imports would both take a parcel for new.
  await withSourceLock(
    pool,
    source,
    async (lock) => {
      if (mapping.kind === 'tract') {
        await importTracts(lock, mapping, file, batchSize, summary, progressOf(), summary.dryRun);
        return;
      }
      const { hasState } = await importStateOf(pool, source);
      if (mapping.join) summary.joins = { mapping: mapping.join.mapping, loaded: hasState };
      const spoken = spokenFor(mapping.fields);
      const setup: WorkSetup = {
        mapping,
        header: headerColumns,
        source,
        now,
        // What this file speaks for: an empty cell in a mapped column clears the stored value; an unmapped one keeps
        // it, and so does one whose rule only fills.
        mapped: [...spoken.mapped],
        fillOnly: [...spoken.fillOnly],
        emitEvents: await mappingLoadedBefore(pool, mapping.name),
      };
      if (mapping.join?.on === 'address') setup.addressIndex = await readAddressIndex(pool, source);
      const heldCell = heldCellOf(mapping, headerColumns);
      // A re-import reads first which parcels' rows are apart in the file, and holds all their rows, so that each
      // parcel is merged over its stored state once, as a file grouped by parcel has it. Merged in two steps (its
      // rows up to where the reader finds it apart, then the rest), a sale a later row of the file corrects would
      // replace the stored one at the second step only, and every import of the same file would change the parcel
      // and send its change events again. A first load needs no such read: its parcels are new, and merging their
      // rows in steps makes what merging them at once makes (import-pipeline.property.test.ts). Only a file (not a
      // pipe) is read ahead: once more than it is read otherwise (a roll without site ZIPs is read for its evidence
      // too).
      const ahead =
        hasState && heldCell !== undefined
          ? await readAhead(file, mapping.delimiter, headerColumns.length, heldCell, prereadOf('apart'))
          : null;
      const workers = opts.workers ?? defaultWorkers(file, totalBytes);
      // A small file read for its ZIP evidence before its import: its batches, and what its rows were read as, are
      // kept (up to KEPT_ROWS rows and SMALL_FILE_BYTES of text), and the file is read once.
      const keepRead = workers === 0 && needsZipEvidence(mapping) && smallFile(file, totalBytes);
      const executors =
        workers > 0 ? Array.from({ length: workers }, () => workerExecutor(setup)) : [inlineExecutor(setup, keepRead)];
      // The cells the reader copies out of each record: worker threads parse the records' text again.
      const reading: BatchReading<Executor> = {
        file,
        delimiter: mapping.delimiter,
        batchSize,
        executors,
        cellsRead: cellMask(headerColumns, executors.some((e) => e.readsCells) ? mappingColumns(mapping) : []),
        parcelCells: identityColumns(mapping).map((c) => headerColumns.lastIndexOf(c)),
        ...(heldCell === undefined ? {} : { heldCell }),
        ...(ahead ? { scattered: ahead.parcels } : {}),
        ...(opts.held ? { held: opts.held } : {}),
      };
      const parse: BatchWork<Executor, ParsedBatch> = (e, batch, rows, cells) => e.parse(batch, rows, cells);
      try {
        let startBatches: () => BatchReader<Executor> = () => readBatches(reading, parse);
        if (needsZipEvidence(mapping)) {
          // Kept, the evidence's batches are the import's: its executor finds what it read of them by their rows.
          const kept = keepRead ? new KeptBatches(KEPT_ROWS, SMALL_FILE_BYTES) : undefined;
          const entries = await prescanZipEvidence(reading, kept, prereadOf('zip-evidence'));
          await Promise.all(executors.map((e) => e.useZipEvidence(entries)));
          const batches = kept?.batches;
          if (batches) startBatches = () => replayBatches(batches, executors, parse);
        }
        await importProperties(pool, lock, startBatches, source, summary, progressOf(ahead?.rows), {
          joined: mapping.join !== undefined,
          sourceHasState: hasState,
        });
        // Its next import is news for the change feed (a failed one leaves the first load to finish first; so does
        // one that found none of its parcels: a joined file imported before the file it joins made nothing, and its
        // import once the parcels are in is still their first load of it, not 8,000 changes for the feed).
        if (!summary.dryRun && summary.added + summary.updated + summary.unchanged > 0)
          await recordMappingLoad(lock.client, mapping.name);
      } finally {
        await Promise.all(executors.map((e) => e.close()));
      }
    },
    opts.onWait,
  );
  // A parcel's rows held back to the file's end (held-rows.ts HeldRows) report their errors after later lines'.
  summary.errors.sort((a, b) => a.line - b.line);
  keepFirstRefusals(summary);
  return summary;
}

/**
 * A re-import's read ahead (hold-policy.ts scatteredParcels) of a file, unless it changed while it was read (its size or
 * time): the rows counted and the parcels found apart would not be those the import reads, and the reader then holds
 * as it does without. None of a pipe, which cannot be read twice.
 */
async function readAhead(
  file: string,
  delimiter: string,
  columns: number,
  cell: number,
  onRead: (bytes: number) => void,
): Promise<ScatteredParcels | null> {
  const before = fileStamp(file);
  if (before === null) return null;
  const scan = await scatteredParcels(file, delimiter, columns, cell, undefined, onRead);
  return scan && fileStamp(file) === before ? scan : null;
}

/** A regular file's size and time of change; null for anything else (a pipe) or a file that cannot be read. */
function fileStamp(file: string): string | null {
  const st = regularFile(file);
  return st ? `${st.size}:${st.mtimeMs}` : null;
}

/** The cell of the APN the reader may hold rows apart by (hold-policy.ts), if any. */
function heldCellOf(mapping: Mapping & { kind: 'property' }, header: readonly string[]): number | undefined {
  const column = heldApnColumn(mapping);
  return column === null ? undefined : header.lastIndexOf(column);
}

/** A batch whose state is read, ids reserved and registered, and owner mentions made: to be resolved and written. */
interface FrontBatch {
  read: ReadBatch<Executor>;
  parsed: ParsedBatch;
  state: BatchState;
  rowErrors: RowError[];
  /** The values refused in the batch's kept rows. */
  refusals: RowError[];
  notInStore: number;
  /** The first property id reserved for the added records (`state.added`, consecutive); 0 when none or a dry run. */
  firstId: number;
  mentions: (OwnerMention | null)[];
}

async function importProperties(
  pool: Pool,
  /** Each batch is written on its connection: a lock lost stops the import there (source-lock.ts). */
  lock: SourceLock,
  /** Starts the file's batches, each sent to be parsed: read from the file, or those the evidence's read kept. */
  startBatches: () => BatchReader<Executor>,
  source: string,
  summary: ImportSummary,
  progress: (at: BatchPosition) => void,
  mode: {
    joined: boolean;
    /**
     * The source had import state when the import began. Without it (its first load), a batch's parcels that no
     * earlier batch of this import wrote are new, and their state is not read.
     */
    sourceHasState: boolean;
  },
): Promise<void> {
  const batches = startBatches();
  let stopped = false;

  // What happened to each parcel over the whole file: one whose rows span batches is added once, not then updated.
  const seen = { added: new Set<string>(), updated: new Set<string>(), unchanged: new Set<string>() };
  const seenBefore = (id: string) => seen.added.has(id) || seen.updated.has(id) || seen.unchanged.has(id);
  // Two stages, one batch apart: while a batch's owners are resolved, its records built and written (the back), the
  // next batch's state is read, its ids reserved and registered and its owner mentions made (the front). The
  // database's round trips of one batch so overlap the other's CPU work. A front reads what the batches before it
  // left: it starts once the batch before the one in the back is built, and, when it shares a parcel with a batch
  // not yet written (rows of one parcel span batches), once that batch is written.
  /**
   * The writes, chained: each settles only after the one before it has, even when its own build fails, so that the
   * import does not end (and let its source's lock go) while a write it started is still open.
   */
  let writing: Promise<void> = Promise.resolve();
  /** The parcels of the batches whose writes may not be committed yet: the one in the back, and the two before it. */
  let unwritten: ReadonlySet<string>[] = [];
  /**
   * `before`: the build of the batch before the one in the back (then every batch before the back's is in `seen`);
   * `backWritten`: settles once the batch in the back is written, and so every batch before it (or a write has
   * failed, or the import stops).
   */
  const nextFront = async (before: Promise<void>, backWritten: Promise<void>): Promise<FrontBatch | null> => {
    const next = await batches.take();
    if (!next) return null;
    const parsed = await next.parsed;
    // Not what makes `seen` right for this batch's parcels (one it shares with a batch not yet built is in
    // `unwritten`, and waits below), but it keeps a front from starting beside two builds.
    await before;
    // A parcel of a batch not yet written: its state must be committed (and the batch built) before it is read here.
    if (parsed.identities.some((id) => unwritten.some((ids) => ids.has(id)))) await backWritten;
    if (stopped) return null;
    return frontOf(next, parsed);
  };
  const frontOf = async (next: ReadBatch<Executor>, parsed: ParsedBatch): Promise<FrontBatch> => {
    const rowErrors = [...next.unreadable, ...parsed.errors];
    const continued = parsed.identities.map(seenBefore);
    // A parcel an earlier batch wrote is in `seen` by now (see nextFront): `continued` tells each such parcel.
    const state = await readBatchState(
      pool,
      source,
      parsed.identities,
      parsed.fileDigests,
      continued,
      mode.sourceHasState,
    );
    for (const s of state.stored) if (seen.added.has(s.identity)) s.addedHere = true;
    let notInStore = 0;
    let refusals = parsed.refusals;
    if (mode.joined) {
      // A joined file adds no parcel: the rows of one the store lacks are reported, and nothing is made of them (nor
      // do their cells count in the report's targets).
      const missing = new Set(state.added);
      if (missing.size > 0) subtractReport(parsed.report, await next.executor.unreport(next.batch, state.added));
      parsed.identities.forEach((id, i) => {
        if (!missing.has(id)) return;
        const lines = parsed.lines![i]!;
        notInStore += lines.length;
        for (const line of lines)
          rowErrors.push({ line, reason: `${id.replace(/^apn:\d+:/, 'APN ')} is not in the store` });
      });
      // Those rows are errors: they list no refused value (a row that is an error reports its error alone).
      if (notInStore > 0) {
        const errorLines = new Set(rowErrors.map((e) => e.line));
        refusals = refusals.filter((r) => !errorLines.has(r.line));
      }
      state.added = [];
    }
    // The parcel ids of the records the batch may write: every parcel of it is registered (one round trip); those
    // the merge finds unchanged are not rewritten, and their ids go unused.
    const parcelOfId = new Map(parsed.identities.map((id, i) => [id, parsed.parcels[i]!]));
    const rendered = [...state.added, ...state.stored.map((s) => s.identity)];
    // The new records' ids and the parcels' at once, on two connections of the pool: neither waits for the other's
    // round trip (the main thread reads each answer only between rows). A dry run reserves and registers nothing: its
    // records are built (to count them) and dropped.
    const [firstId, parcelIds] = await Promise.all([
      state.added.length > 0 && !summary.dryRun ? reserveIds(pool, state.added.length) : 0,
      summary.dryRun
        ? rendered.map(() => 0)
        : registerParcels(
            pool,
            rendered.map((id) => parcelOfId.get(id)!),
          ),
    ]);
    const mentions = await next.executor.mentions({
      batch: next.batch,
      added: state.added,
      firstId,
      stored: state.stored,
      parcelIds,
    });
    return { read: next, parsed, state, rowErrors, refusals, notInStore, firstId, mentions };
  };

  /** The build of the batch last sent to be built: its parcels are in `seen` once it settles. */
  let built: Promise<void> = Promise.resolve();
  /** The write of the batch before the one last sent to be written: awaited before the next build, so that at most
   * two batches wait to be written. */
  let olderWrite: Promise<void> = Promise.resolve();
  let front = nextFront(built, Promise.resolve());
  let release = () => {};
  try {
    for (;;) {
      const cur = await front;
      // Stopped: a write failed (its error is thrown below), nothing more is resolved or built.
      if (!cur || stopped) break;
      const { read: next, parsed, state, rowErrors, mentions } = cur;
      summary.rowsRead = next.rowsRead;
      addReport(summary.report, parsed.report);
      keepRefusals(summary, cur.refusals);
      summary.notInStore += cur.notInStore;
      for (const e of rowErrors.sort((a, b) => a.line - b.line)) summary.errors.push(e);
      summary.skipped = summary.errors.length;
      // The two batches before this one may still be being written; those before them are.
      unwritten = [...unwritten.slice(-2), new Set(parsed.identities)];
      // The next batch's front, while this one's owners are resolved and its records built.
      const backWritten = new Promise<void>((r) => (release = r));
      front = nextFront(built, backWritten);
      front.catch(() => {}); // awaited at the top of the loop, or below on a failure
      // The resolver step (issue 37): the owners of the records about to be written, before their bodies are rendered
      // with the ids. A dry run resolves nothing (it would make owners of records it does not write).
      // The added records' property ids were reserved for this batch: no owner mention is stored under them yet.
      const newIds = { first: cur.firstId, count: state.added.length };
      const ownerIds = summary.dryRun ? mentions.map(() => null) : await resolveOwners(pool, mentions, { newIds });
      // One batch built at a time, and at most two waiting to be written.
      await built;
      await olderWrite;
      const making = next.executor.build({ batch: next.batch, ownerIds }).then((b) => {
        for (const id of b.added) seen.added.add(id);
        // A parcel a batch found unchanged that a later batch's rows change is updated, not both.
        for (const id of b.updated) {
          seen.unchanged.delete(id);
          if (!seen.added.has(id)) seen.updated.add(id);
        }
        for (const id of [...state.unchanged, ...b.unchanged])
          if (!seen.added.has(id) && !seen.updated.has(id)) seen.unchanged.add(id);
        return b;
      });
      built = making.then(() => {});
      built.catch(() => {}); // awaited by the next batch, or below
      // A failed build stops the import at once, though its error reaches `writing` only once the write before it
      // has ended: the batches after it resolve no owners (which are never deleted) and do no more work for nothing.
      making.catch(() => {
        stopped = true;
        batches.stop();
        release();
      });
      if (summary.dryRun) {
        built.then(() => progress(next)).then(release, release);
        continue;
      }
      // Its records are written once built, after the batches before it, in the file's order.
      olderWrite = writing;
      writing = writing
        .then(() => making)
        .then((b) => writeBuiltBatch(lock.client, source, b, ownerIds))
        .then(() => progress(next));
      // A failed write stops the import: the fronts and batches after it do no more work for nothing.
      writing.then(release, () => {
        stopped = true;
        batches.stop();
        release();
      });
    }
    await built;
    await writing;
  } finally {
    // On a failure, the reader stops where it is, and the batch in the front finishes, and every write ends, before
    // the source's lock (and the connection the writes run on) is let go.
    stopped = true;
    batches.stop();
    release();
    await front.catch(() => {});
    await built.catch(() => {});
    await writing.catch(() => {});
    // And the reader has let go of what it held on disk (held-spill.ts) before the failure goes up: the CLI exits on it.
    await batches.finished.catch(() => {});
  }
  await batches.finished;
  summary.added = seen.added.size;
  summary.updated = seen.updated.size;
  summary.unchanged = seen.unchanged.size;
}

/** Tract vintages: small files, read and written in the main thread, a batch at a time. */
async function importTracts(
  lock: SourceLock,
  mapping: Mapping & { kind: 'tract' },
  file: string,
  batchSize: number,
  summary: ImportSummary,
  progress: (at: BatchPosition) => void,
  dryRun: boolean,
): Promise<void> {
  let tracts: TractInput[] = [];
  let bytesRead = 0;
  const latestDate = latestDateOf(new Date().toISOString());
  const flush = async () => {
    if (!dryRun) await writeTracts(lock.client, tracts);
    summary.added += tracts.length;
    tracts = [];
    progress({
      rowsRead: summary.rowsRead,
      rowsWhole: summary.rowsRead,
      bytesRead,
      bytesPassed: bytesRead,
      rowsHeld: 0,
    });
  };
  // The rules compiled once, against the file's header (its first item).
  let rules: CompiledRules | null = null;
  for await (const item of readCsvValues(file, mapping.delimiter)) {
    if ('header' in item) {
      rules = compileRules(mapping.fields, item.header);
      continue;
    }
    summary.rowsRead++;
    bytesRead = item.bytes;
    try {
      if ('error' in item) throw new Error(item.error);
      const refusals: RowError[] = [];
      const ctx = { line: item.line, latestDate, report: summary.report, refusals };
      tracts.push(toTract(applyCompiled(rules!, item.values, ctx), mapping.source));
      keepRefusals(summary, refusals);
    } catch (err) {
      summary.skipped++;
      summary.errors.push({ line: item.line, reason: (err as Error).message });
      // A row that is an error counts in no target.
      if (!('error' in item))
        subtractReport(summary.report, reportOfRows(rules!, [{ cells: item.values, line: item.line }], latestDate));
    }
    if (tracts.length >= batchSize) await flush();
  }
  await flush();
}
