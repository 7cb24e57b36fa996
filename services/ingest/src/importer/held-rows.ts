// Rows of a parcel met again after other parcels' rows (a sales file sorted by date, as many counties publish theirs):
// the importer's reader (import-batches.ts readBatches) holds them here (past HELD_LIMITS, on disk: held-spill.ts) and
// sends them at the file's end, each parcel's together and in the file's order, so that such a parcel is merged and
// written once or twice in a first load, not once for every batch its rows fall in, and once on a re-import. Which
// rows are held, and by which key, is hold-policy.ts's.
import { type HeldGroup, type HeldRow, HeldSpill, SPILL_PARTS } from './held-spill.js';

/**
 * Rows held in memory at most, and characters of their text (UTF-16 code units; a sales file of 500,000 rows sorted
 * by date is ~75 million): past either, what is held is written to disk (held-spill.ts), and read back by part at
 * the file's end, so that a parcel's rows still come together however many rows are held.
 */
export const HELD_LIMITS: HeldLimits = { rows: 500_000, chars: 128 * 2 ** 20 };

export interface HeldLimits {
  rows: number;
  chars: number;
}

/**
 * How the reader holds rows back: in memory at most `limits` (HELD_LIMITS), the rest on disk in a directory made in
 * `spillParent` (the system's temporary one, TMPDIR, by default); a part of them read back into memory at most
 * `readBackLimits` (HELD_LIMITS, whatever `limits` say). Smaller in tests and in bench:import-order.
 */
export interface HeldOptions {
  limits?: HeldLimits;
  spillParent?: string;
  readBackLimits?: HeldLimits;
}

/**
 * Levels of spills a part too large to read back is spread over (held-spill.ts): 64^4 parts in all. A part still
 * past the limits at the last level is one parcel's rows (or parcels that share every level's hash): sent in groups.
 */
const SPILL_LEVELS = 4;

/** What the reader has read when it holds a row: the rows before it, and the bytes of the file read before it. */
export interface ReadPosition {
  rows: number;
  bytes: number;
}

/**
 * The rows held, by parcel (its key), each parcel's sent together and in the file's order at the file's end (which
 * rows are held: hold-policy.ts). Past the limits (`full`), the rows held are written to disk (spill()); take() then
 * reads them back part by part.
 */
export class HeldRows {
  /** Rows held in memory by parcel, in the order the parcels were first held; their rows and characters. */
  private groups = new Map<string, HeldGroup>();
  private groupRows = 0;
  private groupChars = 0;
  private peakRows = 0;
  /** Rows held and not yet sent (in `groups`, on disk, or taken and not yet in a batch), and where the earliest was read. */
  private unsent = 0;
  private earliest: ReadPosition | null = null;
  private readonly spilled: HeldSpill;

  private readonly limits: HeldLimits;
  private readonly readBackLimits: HeldLimits;
  private readonly spillParent: string | undefined;

  constructor(options: HeldOptions = {}) {
    this.limits = options.limits ?? HELD_LIMITS;
    this.readBackLimits = options.readBackLimits ?? HELD_LIMITS;
    this.spillParent = options.spillParent;
    this.spilled = new HeldSpill(this.spillParent);
  }

  /** Holds a row of `parcel`; `at`: what was read before it. */
  hold(parcel: string, text: string, line: number, at: ReadPosition): void {
    // Copies of their own: a string read is a slice of a chunk of the file, which it would keep whole.
    this.group(parcel, copied(text), line, true);
    if (this.unsent === 0) this.earliest = at;
    this.unsent++;
  }

  /** Puts a row in its parcel's group in memory; `copyKey`: a new group's key is copied (a slice of the file's). */
  private group(parcel: string, text: string, line: number, copyKey = false): void {
    let group = this.groups.get(parcel);
    if (!group) {
      group = { texts: [], lines: [] };
      this.groups.set(copyKey ? copied(parcel) : parcel, group);
    }
    group.texts.push(text);
    group.lines.push(line);
    this.groupRows++;
    this.groupChars += text.length;
  }

  /** Held in memory past the limits: to be spilled now. */
  get full(): boolean {
    return this.past(this.limits);
  }

  private past(limits: HeldLimits): boolean {
    return this.groupRows >= limits.rows || this.groupChars >= limits.chars;
  }

  /** Writes the rows held in memory to disk (`to`: a spill of a part read back), and lets them go. */
  async spill(to = this.spilled): Promise<void> {
    await to.write(this.takeGroups());
  }

  /** The rows held in memory at most at once, so far (holding, and reading back). */
  get memoryPeak(): number {
    return Math.max(this.peakRows, this.groupRows);
  }

  /** The groups held in memory, let go of. */
  private takeGroups(): Map<string, HeldGroup> {
    // The peak as the groups go (each is at its largest then), not counted a row at a time.
    this.peakRows = Math.max(this.peakRows, this.groupRows);
    const groups = this.groups;
    this.groups = new Map();
    this.groupRows = 0;
    this.groupChars = 0;
    return groups;
  }

  /**
   * Where the earliest row held and not yet in a batch was read: a batch cut now holds every row of the file before
   * it, and none from it on is sure to be in one. Null when none is.
   */
  get pending(): ReadPosition | null {
    return this.unsent > 0 ? this.earliest : null;
  }

  /**
   * The rows held, each parcel's together and in the file's order; each counts as sent once the next is asked for.
   * Rows spilled are read back a part at a time (those held in memory spilled with them); `stopped`: the reader was
   * stopped, and no more is read back.
   */
  async *take(stopped: () => boolean = () => false): AsyncGenerator<HeldRow> {
    if (!this.spilled.used) {
      yield* this.sendGroups();
      return;
    }
    await this.spill();
    yield* this.readBack(this.spilled, stopped);
  }

  /**
   * A spill's rows, part by part, and the spill let go. A part within the limits is grouped in memory and sent; one
   * past them is spread over a spill of its own by the next level's hash, and read back likewise, so that a parcel's
   * rows still come together (SPILL_LEVELS; past the last, what is grouped is sent at the limits).
   */
  private async *readBack(spill: HeldSpill, stopped: () => boolean): AsyncGenerator<HeldRow> {
    try {
      for (let part = 0; part < SPILL_PARTS; part++) {
        const { rows, bytes } = spill.sizeOf(part);
        if (rows === 0) continue;
        // Bytes on disk (UTF-8, with each row's head and key) are at least the characters they hold in memory.
        const fits = rows <= this.readBackLimits.rows && bytes <= this.readBackLimits.chars;
        const spread =
          fits || spill.level === SPILL_LEVELS - 1 ? null : new HeldSpill(this.spillParent, spill.level + 1);
        try {
          for await (const row of spill.read(part)) {
            // A stop (the import failed) is not kept waiting on a part's spreading.
            if (stopped()) return;
            this.group(row.parcel, row.text, row.line);
            if (!this.past(this.readBackLimits)) continue;
            if (spread) await this.spill(spread);
            else yield* this.sendGroups();
          }
          await spill.drop(part);
          if (spread) {
            await this.spill(spread);
            yield* this.readBack(spread, stopped);
          } else yield* this.sendGroups();
        } finally {
          await spread?.close();
        }
      }
    } finally {
      await spill.close();
    }
  }

  /** The rows held in memory, each parcel's together; let go as they are sent. */
  private *sendGroups(): Generator<HeldRow> {
    for (const [parcel, { texts, lines }] of this.takeGroups())
      for (let i = 0; i < texts.length; i++) {
        yield { parcel, text: texts[i]!, line: lines[i]! };
        this.unsent--;
      }
  }

  /** Lets go of what was spilled (its directory), whether or not it was read back. */
  async close(): Promise<void> {
    await this.spilled.close();
  }
}

/** A string's copy in memory of its own (not a slice of the text it was cut from). */
export const copied = (s: string): string => Buffer.from(s).toString();
