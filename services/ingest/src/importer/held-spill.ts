// Rows the importer's reader holds back past its limits in memory (held-rows.ts HeldRows), written to files of a
// directory of their own by their parcel's part (a hash of its key), and read back one part at a time at the file's
// end: a part holds every row spilled of its parcels, in the order they were held, so that a parcel's rows come back
// together and in the file's order however many times the reader spilled. The directory goes when the reader is done
// with it, or fails (close()); an importer killed leaves it (`pra-held-<pid>-*` in the temporary directory).
import { type FileHandle, mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hash32 } from '../generator/random.js';

/** Parts of the spilled rows (a parcel's part: its key's hash's top 6 bits, the best mixed of FNV-1a's). */
export const SPILL_PARTS = 64;

/** A row held back: its parcel's key, its record's text and its line. */
export interface HeldRow {
  parcel: string;
  text: string;
  line: number;
}

/** Rows held, by parcel (its key), each parcel's in the order they were read. */
export type HeldGroups = ReadonlyMap<string, { texts: readonly string[]; lines: readonly number[] }>;

/** A spilled row's head: its line, and the bytes of its parcel's key and of its text (UTF-8), 32 bits each. */
const HEAD = 12;

const partOf = (parcel: string) => hash32(parcel) >>> 26;

export class HeldSpill {
  private dir: string | null = null;
  private readonly bytes = new Array<number>(SPILL_PARTS).fill(0);
  /** Each part's file, open to append to, once written. */
  private handles = new Array<FileHandle | undefined>(SPILL_PARTS);

  /** `parent`: where the directory is made (the system's temporary directory, TMPDIR, by default). */
  constructor(private readonly parent = tmpdir()) {}

  /** Whether any row was spilled (and not yet read back). */
  get used(): boolean {
    return this.dir !== null;
  }

  /** Appends `groups`' rows to their parts' files. */
  async write(groups: HeldGroups): Promise<void> {
    try {
      // The importer's process id in its name: one left by an importer killed tells whose it was.
      this.dir ??= await mkdtemp(join(this.parent, `pra-held-${process.pid}-`));
      // Each part's rows encoded into one buffer of its exact size: a row's head, its parcel's key, its text.
      const sizes = new Array<number>(SPILL_PARTS).fill(0);
      const parts: { part: number; keyBytes: number }[] = [];
      for (const [parcel, { texts }] of groups) {
        const keyBytes = Buffer.byteLength(parcel);
        const part = partOf(parcel);
        parts.push({ part, keyBytes });
        for (const text of texts) sizes[part]! += HEAD + keyBytes + Buffer.byteLength(text);
      }
      const buffers = sizes.map((size) => (size > 0 ? Buffer.allocUnsafe(size) : null));
      const at = new Array<number>(SPILL_PARTS).fill(0);
      let g = 0;
      for (const [parcel, { texts, lines }] of groups) {
        const { part, keyBytes } = parts[g++]!;
        const buf = buffers[part]!;
        let o = at[part]!;
        for (let i = 0; i < texts.length; i++) {
          buf.write(parcel, o + HEAD);
          const textBytes = buf.write(texts[i]!, o + HEAD + keyBytes);
          buf.writeUInt32LE(lines[i]!, o);
          buf.writeUInt32LE(keyBytes, o + 4);
          buf.writeUInt32LE(textBytes, o + 8);
          o += HEAD + keyBytes + textBytes;
        }
        at[part] = o;
      }
      // Appended through handles kept open (an open and a close a part each time took ~4 times as long), the parts'
      // writes at once.
      const written = await Promise.allSettled(
        buffers.map(async (buf, part) => {
          if (buf === null) return;
          this.handles[part] ??= await open(this.fileOf(part), 'a');
          await this.handles[part].write(buf);
          this.bytes[part]! += buf.length;
        }),
      );
      const failed = written.find((w) => w.status === 'rejected');
      if (failed) throw failed.reason;
    } catch (err) {
      throw new Error(
        `holding a parcel's rows back on disk, in ${this.dir ?? this.parent}, failed (${(err as Error).message}): free space there, or set TMPDIR to a directory with room, and import again`,
      );
    }
  }

  /** The rows spilled of one part, in the order they were written. */
  async *read(part: number): AsyncGenerator<HeldRow> {
    if (this.dir === null || this.bytes[part] === 0) return;
    const file = await open(this.fileOf(part), 'r');
    try {
      let buf = Buffer.allocUnsafe(1 << 20);
      /** Bytes in `buf` read and not yet taken, from `start` to `end`. */
      let start = 0;
      let end = 0;
      let eof = false;
      /** Makes `n` bytes from `start` readable, if the file holds them: false at its end. */
      const fill = async (n: number): Promise<boolean> => {
        while (end - start < n && !eof) {
          if (start > 0) {
            buf.copy(buf, 0, start, end);
            end -= start;
            start = 0;
          }
          if (n > buf.length) {
            const bigger = Buffer.allocUnsafe(Math.max(n, buf.length * 2));
            buf.copy(bigger, 0, 0, end);
            buf = bigger;
          }
          const { bytesRead } = await file.read(buf, end, buf.length - end, null);
          if (bytesRead === 0) eof = true;
          end += bytesRead;
        }
        return end - start >= n;
      };
      while (await fill(HEAD)) {
        const line = buf.readUInt32LE(start);
        const keyBytes = buf.readUInt32LE(start + 4);
        const textBytes = buf.readUInt32LE(start + 8);
        if (!(await fill(HEAD + keyBytes + textBytes))) break;
        const at = start + HEAD;
        const parcel = buf.toString('utf8', at, at + keyBytes);
        const text = buf.toString('utf8', at + keyBytes, at + keyBytes + textBytes);
        start = at + keyBytes + textBytes;
        yield { parcel, text, line };
      }
      if (end > start) throw new Error(`the rows held back in ${this.fileOf(part)} end cut short`);
    } finally {
      await file.close();
    }
  }

  /** Removes the directory and what it holds. */
  async close(): Promise<void> {
    const dir = this.dir;
    this.dir = null;
    this.bytes.fill(0);
    const handles = this.handles;
    this.handles = new Array(SPILL_PARTS);
    await Promise.allSettled(handles.map((h) => h?.close()));
    if (dir !== null) await rm(dir, { recursive: true, force: true });
  }

  private fileOf(part: number): string {
    return join(this.dir!, `part-${part}`);
  }
}
