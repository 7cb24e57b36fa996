// The importer's reader: the file's records, cut into batches and each sent to be parsed as it is cut, at most
// `ahead` batches before the one the pipeline takes (import-csv.ts importProperties); or batches cut before (a small
// file read first for its ZIP evidence: zip-prescan.ts), sent again.
import { type CellMask, parseRecord, readCsvValues } from './csv-records.js';
import { copied, type HeldOptions, HeldRows } from './held-rows.js';
import { type HoldPolicy, heldKey, holdScattered, JudgedOrder } from './hold-policy.js';
import type { ParsedBatch, RowBatch, RowError } from './import-work.js';

/**
 * What is made of a batch as it is cut (its parse, by an executor of import-csv.ts). `cells`: each record's cells, as
 * the reader read them; none when the executors read no cell (a worker thread reads them again from the text).
 */
export type BatchWork<E, R> = (executor: E, batch: number, rows: RowBatch, cells: string[][]) => Promise<R>;

/** A batch read from the file and sent to be worked (parsed). */
export interface ReadBatch<E, R = ParsedBatch> extends BatchPosition {
  batch: number;
  executor: E;
  /** What the executor made of it. */
  parsed: Promise<R>;
  /** Records the reader could not read (malformed CSV), by line. */
  unreadable: RowError[];
}

/** How far into the file a batch goes (rows held back to the file's end aside, they are the file's rows read). */
export interface BatchPosition {
  /** Rows in this batch and the ones before it (unreadable ones too). */
  rowsRead: number;
  /** The file's first rows, every one in this batch or one before it; and the bytes of the file they take. */
  rowsWhole: number;
  bytesRead: number;
  /** The bytes of the file the reader had read when this batch was cut (rows held back included). */
  bytesPassed: number;
  /** Rows read and held back (held-rows.ts), not in this batch or one before it. */
  rowsHeld: number;
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
   * The cell (by index) of an APN as written (hold-policy.ts heldApnColumn): a row of a parcel met again after other
   * parcels' rows is held back and sent with the parcel's other such rows (HeldRows), the parcel keyed by that cell.
   */
  heldCell?: number;
  /** With `heldCell`: how rows are held back, in memory and past its limits on disk (the defaults, but in tests). */
  held?: HeldOptions;
  /**
   * With `heldCell`: the parcels whose rows are apart in the file (hold-policy.ts scatteredParcels), read before. Every
   * row of theirs is held, and each is sent once, its rows together.
   */
  scattered?: ReadonlySet<number>;
  /**
   * The cells the executors read of `cells` (none, when they read the records' text again in another thread); the
   * parcel's cells are read too. Undefined: every cell.
   */
  cellsRead?: CellMask;
}

/** A batch as the reader cut it from the file (what readBatches' `keep` collects, and replayBatches sends again). */
export interface CutBatch extends BatchPosition {
  rows: RowBatch;
  /** Records the reader could not read (malformed CSV), by line. */
  unreadable: RowError[];
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
 * (each batch's rows say less of a parcel than the whole), and each batch would merge and write it again. Where the
 * cells are one APN as written (`heldCell`), rows of a parcel met again after other parcels' rows are held back
 * (held-rows.ts HeldRows) and sent at the file's end, each parcel's together (past the limits held in memory, they
 * wait on disk). Other files' rows of one parcel that are not next to each other fall in batches of their own, and so do
 * a parcel's rows past `maxBatch` rows in a batch. The cells are a heuristic (mapping-rules.ts identityColumns):
 * where they miss, batches are cut as by size alone. Batches go to the executors in turn. `keep`: each batch as cut is
 * added to it too (its rows' text, not their cells), to be sent again by replayBatches, up to its limits.
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
    if (reading.heldCell !== undefined) cellsRead[reading.heldCell] = true;
  }
  // Room for a parcel of a quarter of a batch's rows (at least 64, for tests' tiny batches) after a batch all but
  // full. A parcel of more rows is cut: a batch is one unit of a worker's work and one write, held whole until
  // written, so its size stays near the batch size whatever a parcel's rows (docs/data.md, "Batches end where a
  // parcel's rows end").
  const maxBatch = batchSize + Math.max(Math.ceil(batchSize / 4), 64);
  const { heldCell } = reading;
  const held = heldCell === undefined ? null : new HeldRows(reading.held);
  // Which rows are held: every row of the parcels read before as apart (a re-import), or those the file's order shows
  // as it is read.
  const policy: HoldPolicy = reading.scattered ? holdScattered(reading.scattered) : new JudgedOrder(batchSize);
  /**
   * The row's parcel as its cells tell it; null when they tell nothing (no cells: batches by size alone; all empty: an
   * APN column left empty), a parcel of its own. Where rows are held, they are grouped by it, and it is the APN cell's
   * key (`01-23` and `0123` one parcel, as the import's identity reads them).
   */
  const parcelKeyOf = (values: readonly string[]): string | null => {
    if (heldCell !== undefined) return heldKey(values[heldCell]!);
    if (parcelCells.length === 0) return null;
    const cells = parcelCells.map((i) => values[i]!);
    return cells.some((c) => c.trim() !== '') ? cells.join('\u0000') : null;
  };
  /** A record's cells, read again from its text (a row held, or copied out of the file's chunk). */
  const cellsOf = (text: string, line: number): string[] => {
    const parsed = parseRecord(text, delimiter, cellsRead);
    if (!('fields' in parsed)) throw new Error(`line ${line} was read, and then could not be (${parsed.error})`);
    return parsed.fields;
  };
  return sendBatches(executors, work, async (send, isStopped) => {
    try {
      await cutBatches(send, isStopped);
    } finally {
      // What was held on disk goes, whether the file was read to its end or the reader stopped.
      await held?.close();
    }
  });

  /** Reads the file's rows and cuts them into batches, each sent as it is cut. */
  async function cutBatches(
    send: (batch: CutBatch, cells: string[][]) => Promise<void>,
    isStopped: () => boolean,
  ): Promise<void> {
    let texts: string[] = [];
    let cells: string[][] = [];
    let ends: number[] = [];
    let lines: number[] = [];
    let length = 0;
    let unreadable: RowError[] = [];
    /** Rows read (held ones too), and rows sent in batches; the bytes of the file read. */
    let rowsRead = 0;
    let rowsSent = 0;
    let bytesRead = 0;
    /** The parcel of the row last put in a batch: a batch is not closed between two rows of one parcel. */
    let lastParcel: string | null = null;
    const cut = async () => {
      rowsSent += lines.length + unreadable.length;
      // While rows are held, the file's rows from the earliest on are not all sent.
      const pending = held?.pending;
      const batch: CutBatch = {
        rows: { text: texts.join(''), ends: Int32Array.from(ends), lines: Int32Array.from(lines) },
        unreadable,
        rowsRead: rowsSent,
        rowsWhole: pending ? pending.rows : rowsSent,
        bytesRead: pending ? pending.bytes : bytesRead,
        bytesPassed: bytesRead,
        rowsHeld: rowsRead - rowsSent,
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
    /** Before a row of `parcel` is put in the batch: the batch is closed if full, and not within a parcel's rows. */
    const beforeRow = async (parcel: string | null) => {
      // Unreadable rows count too: a long run of them would make one batch of their errors.
      const size = lines.length + unreadable.length;
      const another = parcel === null || parcel !== lastParcel;
      if (size >= batchSize && (another || size >= maxBatch)) await cut();
      lastParcel = parcel;
    };
    const putRow = (text: string, values: string[], line: number) => {
      texts.push(text);
      if (keepCells) cells.push(values);
      length += text.length;
      ends.push(length);
      lines.push(line);
    };
    /** The rows held, each parcel's together, into batches. */
    const sendHeld = async () => {
      for await (const row of held!.take(isStopped)) {
        await beforeRow(row.parcel);
        if (isStopped()) return;
        putRow(row.text, keepCells ? cellsOf(row.text, row.line) : [], row.line);
      }
    };
    for await (const item of readCsvValues(file, delimiter, cellsRead)) {
      if ('header' in item) continue;
      // An unreadable row has no cells to tell its parcel: it goes with the row put before it. A row whose cells
      // tell nothing is a parcel of its own.
      const parcel: string | null = 'error' in item ? lastParcel : parcelKeyOf(item.values);
      if (held && !('error' in item) && policy.holds(parcel)) {
        held.hold(parcel, item.text, item.line, { rows: rowsRead, bytes: bytesRead });
        rowsRead++;
        bytesRead = item.bytes;
        if (held.full) await held.spill();
        if (isStopped()) return;
        continue;
      }
      await beforeRow(parcel);
      if (isStopped()) return;
      rowsRead++;
      bytesRead = item.bytes;
      if ('error' in item) unreadable.push({ line: item.line, reason: item.error });
      else if (held?.pending) {
        // While rows are held, a batch may take in rows from much of the file: each a copy, and its cells read from
        // the copy, not slices of the file's chunk.
        const text = copied(item.text);
        putRow(text, keepCells ? cellsOf(text, item.line) : [], item.line);
      } else putRow(item.text, item.values, item.line);
    }
    if (held) await sendHeld();
    if (isStopped()) return;
    if (lines.length > 0 || unreadable.length > 0) await cut();
  }
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

/** What cuts a reader's batches: `send` sends each as it is cut; `isStopped` tells that the reader was stopped. */
type Produce = (send: (batch: CutBatch, cells: string[][]) => Promise<void>, isStopped: () => boolean) => Promise<void>;

/**
 * The pipeline's side of a reader: each batch `produce` cuts is sent to be worked by the executors in turn, and
 * queued for take(), the producer kept at most `ahead` batches before the pipeline. Once the reader is stopped
 * (`isStopped`), `send` sends nothing and the producer reads no further.
 */
function sendBatches<E, R>(executors: readonly E[], work: BatchWork<E, R>, produce: Produce): BatchReader<E, R> {
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
  const send = async ({ rows, unreadable, ...position }: CutBatch, cells: string[][]) => {
    while (queue.length >= ahead && !stopped) await new Promise<void>((r) => (wakeReader = r));
    if (stopped) return;
    const executor = executors[batch % executors.length]!;
    const parsed = work(executor, batch, rows, cells);
    parsed.catch(() => {}); // a failure is reported by the pipeline when it takes the batch
    queue.push({ batch, executor, parsed, unreadable, ...position });
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
