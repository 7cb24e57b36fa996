// The importer's reader: the file's records, cut into batches and each sent to be parsed as it is cut, at most
// `ahead` batches before the one the pipeline takes (import-csv.ts importProperties); or batches cut before (a small
// file read first for its ZIP evidence: zip-prescan.ts), sent again.
import { type CellMask, parseRecord, readCsvValues } from './csv-records.js';
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
   * The parcel's cells are its APN's: a row of a parcel met again after other parcels' rows is held back and sent
   * with the parcel's other such rows (HeldRows). Not for cells of an address, whose spellings of one parcel differ.
   */
  holdRowsApart?: boolean;
  /** At most this many rows, or characters of their text, held back at once (HELD_LIMITS; smaller in tests). */
  heldLimits?: { rows: number; chars: number };
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
 * (each batch's rows say less of a parcel than the whole), and each batch would merge and write it again. Where the
 * cells are an APN's (`holdRowsApart`), the rows of a parcel met again after other parcels' rows (a sales file sorted
 * by date) are held back and sent at the file's end, each parcel's together (HeldRows): such a parcel is merged
 * twice, its first rows and then the rest, not once for every batch its rows fall in. Other files' rows of one parcel
 * that are not next to each other still fall in batches of their own, and so do a parcel's rows past `maxBatch` rows
 * in a batch. The cells are a heuristic (mapping-rules.ts identityColumns): where they miss, batches are cut as by
 * size alone. Batches go to the executors in turn. `keep`: each batch as cut is added to it too (its rows' text, not
 * their cells), to be sent again by replayBatches, up to its limits.
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
  const held =
    reading.holdRowsApart && parcelCells.length > 0 ? new HeldRows(reading.heldLimits ?? HELD_LIMITS, batchSize) : null;
  const parcelKeyOf = (values: readonly string[]): string | null => {
    if (parcelCells.length === 0) return null;
    const cells = parcelCells.map((i) => values[i]!);
    if (!cells.some((c) => c.trim() !== '')) return null;
    // An APN's cells as its parcel's identity reads them (`01-23` and `0123` one parcel): rows held are grouped by it.
    return held ? apnCells(cells.join('\u0000')) : cells.join('\u0000');
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
    /** The parcel of the row last put in a batch: a batch is not closed between two rows of one parcel. */
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
    /** The rows held back, each parcel's together, into batches. */
    const sendHeld = async () => {
      for (const row of held!.take()) {
        await beforeRow(row.parcel);
        if (isStopped()) return;
        let values: string[] = [];
        if (keepCells) {
          const parsed = parseRecord(row.text, delimiter, cellsRead);
          if ('fields' in parsed) values = parsed.fields;
        }
        putRow(row.text, values, row.line);
      }
    };
    for await (const item of readCsvValues(file, delimiter, cellsRead)) {
      if ('header' in item) continue;
      // An unreadable row has no cells to tell its parcel: it goes with the row before. A row whose cells tell
      // nothing is a parcel of its own.
      const parcel: string | null = 'error' in item ? lastParcel : parcelKeyOf(item.values);
      // A row of a parcel whose rows ended before: held back, sent with the parcel's other such rows.
      if (held && !('error' in item) && held.holds(parcel)) {
        rowsRead++;
        bytesRead = item.bytes;
        held.hold(parcel!, item.text, item.line);
        if (held.full) await sendHeld();
        if (isStopped()) return;
        continue;
      }
      await beforeRow(parcel);
      if (isStopped()) return;
      rowsRead++;
      bytesRead = item.bytes;
      if ('error' in item) unreadable.push({ line: item.line, reason: item.error });
      else putRow(item.text, item.values, item.line);
    }
    if (held) await sendHeld();
    if (isStopped()) return;
    if (lines.length > 0 || unreadable.length > 0) await cut();
  });
}

/**
 * Rows held back at most, or their text's characters (a sales file of 500,000 rows sorted by date, ~75 MB): past
 * either, they are sent then, and holding starts again.
 */
const HELD_LIMITS = { rows: 500_000, chars: 128 * 2 ** 20 };

/**
 * Parcels whose run of rows ended, remembered at most (~60 MB; a Set holds 2^24 at most, and a state's roll may hold
 * more parcels): the rows of a parcel whose run ends after that are not held when met again.
 */
const ENDED_KEPT = 4_000_000;

/**
 * Rows of a parcel met again after other parcels' rows, held back to be sent each parcel's together (readBatches).
 * A parcel's run of rows, once another's row follows, is remembered by a 30-bit hash of its key: a number a parcel,
 * not its text, for a roll of millions. Two parcels may share a hash: a parcel whose first row meets another's hash
 * is held whole, which changes nothing but when it is sent. A parcel's rows are held in the file's order, after its
 * first run's, so its rows are merged in the file's order. The key is the APN's cells, not the APN a template makes
 * of them: a file that writes one parcel's page `5` in one row and `05` in another (`{PAGE:03}`) gives the reader
 * two parcels, and their rows may be merged out of the file's order.
 */
class HeldRows {
  /** Hashes of the parcels whose run of rows has ended. */
  private readonly ended = new Set<number>();
  /** The parcel of the run of rows going on, and its hash. */
  private run: string | null = null;
  private runHash = 0;
  /** Held rows by parcel, in the order the parcels were first held. */
  private groups = new Map<string, { texts: string[]; lines: number[] }>();
  private rows = 0;
  private chars = 0;

  /** Rows read, held and not; and whether every row of a parcel is held now (see holds). */
  private rowsHeld = 0;
  private rowsRead = 0;
  private all = false;

  constructor(
    private readonly limits: { rows: number; chars: number },
    /** Rows read before the file's order is judged (a batch's). */
    private readonly judgeAfter: number,
  ) {}

  /**
   * Whether a row of `parcel` is to be held: one of a parcel whose run of rows ended before. A row that is not held
   * goes on the run, or starts one (and so ends the run before it). Once an eighth of the rows read (a batch's at
   * least) were held, the file's parcels come apart (a sales file sorted by date): from then on every parcel's rows
   * are held, the run going on's apart, so that a parcel first met then is merged once, its rows all together.
   */
  holds(parcel: string | null): boolean {
    const held = this.held(parcel);
    this.rowsRead++;
    if (held) this.rowsHeld++;
    if (!this.all && this.rowsRead >= this.judgeAfter && this.rowsHeld * 8 >= this.rowsRead) this.all = true;
    return held;
  }

  private held(parcel: string | null): boolean {
    if (parcel !== null && parcel === this.run) return false;
    if (parcel !== null && this.all) return true;
    const hash = parcel === null ? 0 : hashOf(parcel);
    if (parcel !== null && this.ended.has(hash)) return true;
    if (this.run !== null && this.ended.size < ENDED_KEPT) this.ended.add(this.runHash);
    this.run = parcel;
    this.runHash = hash;
    return false;
  }

  hold(parcel: string, text: string, line: number): void {
    let group = this.groups.get(parcel);
    if (!group) {
      group = { texts: [], lines: [] };
      this.groups.set(parcel, group);
    }
    // A copy of its own: the text read is a slice of a chunk of the file, which it would keep whole.
    group.texts.push(Buffer.from(text).toString());
    group.lines.push(line);
    this.rows++;
    this.chars += text.length;
  }

  get full(): boolean {
    return this.rows >= this.limits.rows || this.chars >= this.limits.chars;
  }

  /** The rows held, each parcel's together, and holds none after. */
  *take(): Generator<{ parcel: string; text: string; line: number }> {
    const groups = this.groups;
    this.groups = new Map();
    this.rows = 0;
    this.chars = 0;
    for (const [parcel, { texts, lines }] of groups)
      for (let i = 0; i < texts.length; i++) yield { parcel, text: texts[i]!, line: lines[i]! };
  }
}

/** A parcel's cells as apnKey reads an APN (its letters and digits, in upper case), the cells kept apart. */
function apnCells(cells: string): string {
  for (let i = 0; i < cells.length; i++) {
    const c = cells.charCodeAt(i);
    // Most APNs are digits alone: no copy.
    if (!((c >= 48 && c <= 57) || (c >= 65 && c <= 90) || c === 0))
      return cells
        .split('\u0000')
        .map((cell) => cell.toUpperCase().replace(/[^0-9A-Z]/g, ''))
        .join('\u0000');
  }
  return cells;
}

/** FNV-1a of a string's UTF-16 code units, in 30 bits (a small integer to V8: no heap number in a Set). */
function hashOf(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return (h >>> 2) & 0x3fffffff;
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
