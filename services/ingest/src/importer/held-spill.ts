// Rows the importer's reader holds back past its limits in memory (held-rows.ts HeldRows), written to files of a
// directory of their own by their parcel's part (a hash of its key), and read back one part at a time at the file's
// end: a part holds every row spilled of its parcels, in the order they were held, so that a parcel's rows come back
// together and in the file's order however many times the reader spilled. The directory goes when the reader is done
// with it, or fails (close()); an importer killed leaves it (`pra-held-<pid>-*` in the temporary directory).
import { appendFile, mkdtemp, open, rm } from 'node:fs/promises';
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
      const chunks: Buffer[][] = Array.from({ length: SPILL_PARTS }, () => []);
      for (const [parcel, { texts, lines }] of groups) {
        const key = Buffer.from(parcel);
        const part = chunks[partOf(parcel)]!;
        for (let i = 0; i < texts.length; i++) {
          const text = Buffer.from(texts[i]!);
          const head = Buffer.allocUnsafe(HEAD);
          head.writeUInt32LE(lines[i]!, 0);
          head.writeUInt32LE(key.length, 4);
          head.writeUInt32LE(text.length, 8);
          part.push(head, key, text);
        }
      }
      for (const [part, parts] of chunks.entries()) {
        if (parts.length === 0) continue;
        const data = Buffer.concat(parts);
        await appendFile(this.fileOf(part), data);
        this.bytes[part]! += data.length;
      }
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
    if (dir !== null) await rm(dir, { recursive: true, force: true });
  }

  private fileOf(part: number): string {
    return join(this.dir!, `part-${part}`);
  }
}
