// The importer's reader: the file's records, cut into batches and each sent to be parsed as it is cut, at most
// `ahead` batches before the one the pipeline takes (import-csv.ts importProperties); or batches cut before (a small
// file read first for its ZIP evidence: zip-prescan.ts), sent again.
import { type CellMask, readCsvValues } from './csv-records.js';
import type { ParsedBatch, RowBatch, RowError } from './import-work.js';

/**
 * What is made of a batch as it is cut (its parse, by an executor of import-csv.ts). `cells`: each record's cells, as
 * the reader read them; none when the executors read no cell (a worker thread reads them again from the text).
 */
export type BatchWork<E, R> = (executor: E, batch: number, rows: RowBatch, cells: string[][]) => Promise<R>;

/** A batch read from the file and sent to be worked (parsed). */
export interface ReadBatch<E, R = ParsedBatch> {
  batch: number;
  executor: E;
  /** What the executor made of it. */
  parsed: Promise<R>;
  /** Records the reader could not read (malformed CSV), by line. */
  unreadable: RowError[];
  /** Rows read up to the end of this batch, and the bytes of the file read then. */
  rowsRead: number;
  bytesRead: number;
}

/** What readBatches reads, and how. */
export interface BatchReading<E> {
  file: string;
  delimiter: string;
  /** Rows a batch, at least (see readBatches). */
  batchSize: number;
  /** What works the batches, in turn. */
  executors: readonly E[];
  /** The cells (by index) that tell a row's parcel (mapping-rules.ts identityColumns); none: batches cut by size alone. */
  parcelCells?: readonly number[];
  /**
   * The cells the executors read of `cells` (none, when they read the records' text again in another thread); the
   * parcel's cells are read too. Undefined: every cell.
   */
  cellsRead?: CellMask;
}

/** A batch as the reader cut it from the file (what readBatches' `keep` collects, and replayBatches sends again). */
export interface CutBatch {
  rows: RowBatch;
  /** Records the reader could not read (malformed CSV), by line. */
  unreadable: RowError[];
  rowsRead: number;
  bytesRead: number;
}

/**
 * The batches readBatches cuts, kept to be sent again (replayBatches), up to `maxRows` rows and `maxChars` of text:
 * past either, none (`batches` null), and the file is read again. What an executor keeps of a batch's rows it finds
 * by the batch's rows (ImportWork's `kept`), and lets go with them. A file's size does not bound its rows: a gzip of
 * a few MB can hold a hundred times its size.
 */
export class KeptBatches {
  batches: CutBatch[] | null = [];
  private rows = 0;
  private chars = 0;

  constructor(
    private readonly maxRows: number,
    private readonly maxChars: number,
  ) {}

  add(batch: CutBatch): void {
    if (this.batches === null) return;
    this.rows += batch.rows.ends.length;
    this.chars += batch.rows.text.length;
    if (this.rows > this.maxRows || this.chars > this.maxChars) this.batches = null;
    else this.batches.push(batch);
  }
}

export interface BatchReader<E, R = ParsedBatch> {
  /** The next batch, in the file's order; null once the file is read (or the reader stopped). */
  take(): Promise<ReadBatch<E, R> | null>;
  /** Reads no further (a failure): a take() waiting returns null. */
  stop(): void;
  /** Settles once the reader has stopped; rejects with the error that stopped the reading, if one did. */
  finished: Promise<void>;
}

/**
 * Reads `file` in batches of `batchSize` rows or a little more: a batch is closed where a parcel's rows end. A parcel
 * whose rows spanned two batches would be merged right, but a re-import of the same file could not tell it unchanged
 * (each batch's rows say less of a parcel than the whole). Rows of one parcel that are not next to each other in the file still
 * fall in batches of their own, and so do a parcel's rows past `maxBatch` rows in a batch. The cells are a
 * heuristic (mapping-rules.ts identityColumns): where they miss, batches are cut as by size alone. Batches go to the
 * executors in turn. `keep`: each batch as cut is added to it too (its rows' text, not their cells), to be sent again
 * by replayBatches, up to its limits.
 */
export function readBatches<E, R = ParsedBatch>(
  reading: BatchReading<E>,
  work: BatchWork<E, R>,
  keep?: KeptBatches,
): BatchReader<E, R> {
  const { file, delimiter, batchSize, executors, parcelCells = [] } = reading;
  // Executors that read no cell (worker threads parse the records' text again) are given none: a batch's cells would
  // wait in the queue with it, several batches of them, and survive the garbage collector's young generation.
  const keepCells = reading.cellsRead === undefined || reading.cellsRead.some(Boolean);
  // The parcel's cells are read too, whatever the executors read.
  let cellsRead: boolean[] | undefined;
  if (reading.cellsRead) {
    cellsRead = [...reading.cellsRead];
    for (const i of parcelCells) cellsRead[i] = true;
  }
  // Room for a parcel of a quarter of a batch's rows (at least 64, for tests' tiny batches) after a batch all but
  // full. A parcel of more rows is cut: a batch is one unit of a worker's work and one write, held whole until
  // written, so its size stays near the batch size whatever a parcel's rows (docs/data.md, "Batches end where a
  // parcel's rows end").
  const maxBatch = batchSize + Math.max(Math.ceil(batchSize / 4), 64);
  /**
   * The row's parcel as its cells tell it; null when they tell nothing (no cells: batches by size alone; all empty: an
   * APN column left empty), a parcel of its own.
   */
  const parcelKeyOf = (values: readonly string[]): string | null => {
    if (parcelCells.length === 0) return null;
    const cells = parcelCells.map((i) => values[i]!);
    return cells.some((c) => c.trim() !== '') ? cells.join('\u0000') : null;
  };
  return sendBatches(executors, work, async (send, isStopped) => {
    let texts: string[] = [];
    let cells: string[][] = [];
    let ends: number[] = [];
    let lines: number[] = [];
    let length = 0;
    let unreadable: RowError[] = [];
    let rowsRead = 0;
    let bytesRead = 0;
    let lastParcel: string | null = null;
    const cut = async () => {
      const batch: CutBatch = {
        rows: { text: texts.join(''), ends: Int32Array.from(ends), lines: Int32Array.from(lines) },
        unreadable,
        rowsRead,
        bytesRead,
      };
      keep?.add(batch);
      await send(batch, cells);
      texts = [];
      cells = [];
      ends = [];
      lines = [];
      length = 0;
      unreadable = [];
    };
    for await (const item of readCsvValues(file, delimiter, cellsRead)) {
      if ('header' in item) continue;
      // An unreadable row has no cells to tell its parcel: it goes with the row before. A row whose cells tell
      // nothing is a parcel of its own.
      const parcel: string | null = 'error' in item ? lastParcel : parcelKeyOf(item.values);
      // Unreadable rows count too: a long run of them would make one batch of their errors.
      const size = lines.length + unreadable.length;
      const another = parcel === null || parcel !== lastParcel;
      if (size >= batchSize && (another || size >= maxBatch)) await cut();
      if (isStopped()) return;
      lastParcel = parcel;
      rowsRead++;
      bytesRead = item.bytes;
      if ('error' in item) unreadable.push({ line: item.line, reason: item.error });
      else {
        texts.push(item.text);
        if (keepCells) cells.push(item.values);
        length += item.text.length;
        ends.push(length);
        lines.push(item.line);
      }
    }
    if (lines.length > 0 || unreadable.length > 0) await cut();
  });
}

/**
 * The batches readBatches kept (its `keep`), sent to be worked again as it sent them, without the file: a small file
 * read twice (a roll without site ZIPs, read first for its evidence), whose executor kept what it read of them.
 * They are sent without their cells.
 */
export function replayBatches<E, R = ParsedBatch>(
  kept: CutBatch[],
  executors: readonly E[],
  work: BatchWork<E, R>,
): BatchReader<E, R> {
  return sendBatches(executors, work, async (send, isStopped) => {
    // Each let go once sent: the pipeline holds it no longer than the batches it reads from the file.
    for (let batch = kept.shift(); batch !== undefined; batch = kept.shift()) {
      await send(batch, []);
      if (isStopped()) return;
      // As the file's reader does between its reads: the pipeline's replies are read between batches.
      await new Promise<void>((r) => setImmediate(r));
    }
  });
}

/**
 * The pipeline's side of a reader: each batch `produce` cuts is sent to be worked by the executors in turn, and
 * queued for take(), the producer kept at most `ahead` batches before the pipeline. Once the reader is stopped
 * (`isStopped`), `send` sends nothing and the producer reads no further.
 */
function sendBatches<E, R>(
  executors: readonly E[],
  work: BatchWork<E, R>,
  produce: (send: (batch: CutBatch, cells: string[][]) => Promise<void>, isStopped: () => boolean) => Promise<void>,
): BatchReader<E, R> {
  // Batches read and sent to be parsed, not yet taken; the reader stays at most this far ahead.
  const ahead = executors.length * 2 + 1;
  const queue: ReadBatch<E, R>[] = [];
  let readDone = false;
  let stopped = false;
  let wakeTaker: (() => void) | null = null;
  let wakeReader: (() => void) | null = null;
  const wake = (which: 'taker' | 'reader') => {
    const w = which === 'taker' ? wakeTaker : wakeReader;
    if (which === 'taker') wakeTaker = null;
    else wakeReader = null;
    w?.();
  };
  let batch = 0;
  const send = async ({ rows, unreadable, rowsRead, bytesRead }: CutBatch, cells: string[][]) => {
    while (queue.length >= ahead && !stopped) await new Promise<void>((r) => (wakeReader = r));
    if (stopped) return;
    const executor = executors[batch % executors.length]!;
    const parsed = work(executor, batch, rows, cells);
    parsed.catch(() => {}); // a failure is reported by the pipeline when it takes the batch
    queue.push({ batch, executor, parsed, unreadable, rowsRead, bytesRead });
    batch++;
    wake('taker');
  };
  const finished = (async () => {
    try {
      await produce(send, () => stopped);
    } finally {
      readDone = true;
      wake('taker');
    }
  })();
  finished.catch(() => {}); // awaited by the pipeline once it is done

  return {
    take: async () => {
      while (queue.length === 0 && !readDone && !stopped) await new Promise<void>((r) => (wakeTaker = r));
      const next = stopped ? undefined : queue.shift();
      wake('reader');
      return next ?? null;
    },
    stop: () => {
      stopped = true;
      wake('reader');
      wake('taker');
    },
    finished,
  };
}
