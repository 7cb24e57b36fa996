// Rows the importer's reader holds back past its limits in memory (held-rows.ts HeldRows), written to files of a
// directory of their own by their parcel's part (a hash of its key), and read back one part at a time at the file's
// end: a part holds every row spilled of its parcels, in the order they were held, so that a parcel's rows come back
// together and in the file's order however many times the reader spilled. A part too large to be read back into
// memory is spread over a spill of its own, one level down, by another hash of the key (HeldRows.readBack). The
// directory goes when the reader is done with it, or fails (close()), or the process exits or is stopped by a signal
// (removeHeldOnSignals); an importer killed outright leaves it (`pra-held-<host>-<pid>-*` in the temporary directory),
// until the next import that spills there on the same host removes it (sweepAbandoned). Text
// is written as UTF-8: the reader's text is decoded from UTF-8, so holds no lone surrogate, and comes back as it went.
import { rmSync } from 'node:fs';
import { type FileHandle, lstat, mkdtemp, open, readdir, rm, utimes } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { hash32 } from '../generator/random.js';

/** Parts of the spilled rows, by the top SPILL_BITS of a hash of the parcel's key (partOf). */
const SPILL_BITS = 6;
export const SPILL_PARTS = 2 ** SPILL_BITS;

/** A row held back: its parcel's key, its record's text and its line. */
export interface HeldRow {
  parcel: string;
  text: string;
  line: number;
}

/** A parcel's rows held: their texts and lines, in the order they were read. */
export interface HeldGroup {
  texts: string[];
  lines: number[];
}

/** Rows held, by parcel (its key). */
export type HeldGroups = ReadonlyMap<string, HeldGroup>;

/** A spilled row's head: its line, and the bytes of its parcel's key and of its text (UTF-8), 32 bits each. */
const HEAD = 12;

/** Errors of the place written to, which the user can fix there. */
const PLACE_ERRORS = new Set(['ENOSPC', 'EDQUOT', 'EACCES', 'EPERM', 'EROFS', 'ENOENT']);

/**
 * Directories of spills not yet let go: removed as the process exits (process.exit, which the CLI calls on a failure,
 * runs no `finally`), or stops on a signal (removeHeldOnSignals). Only a process killed outright leaves one.
 */
const live = new Set<string>();
let removedAtExit = false;
function removeAtExit(dir: string): void {
  live.add(dir);
  if (removedAtExit) return;
  removedAtExit = true;
  process.on('exit', removeHeldDirs);
  // A live spill's directory is touched every TOUCHED_EVERY_MS, however long the import waits between its writes, so
  // that one untouched for ABANDONED_AFTER_MS is no live import's (sweepAbandoned). Unref'd: it keeps no process up.
  setInterval(touchLiveSpills, TOUCHED_EVERY_MS).unref();
}

/** How often a live spill's directory is touched (its times set to now). */
export const TOUCHED_EVERY_MS = 5 * 60 * 1000;

/** Sets the times of every live spill's directory to now (every TOUCHED_EVERY_MS); resolves when all are done. */
export async function touchLiveSpills(): Promise<void> {
  const now = new Date();
  await Promise.allSettled([...live].map((d) => utimes(d, now, now)));
}

/** Removes, now, every spill's directory not yet let go (the process is ending). */
function removeHeldDirs(): void {
  for (const d of live) {
    try {
      rmSync(d, { recursive: true, force: true });
      live.delete(d);
    } catch {
      // Ending: nothing more can be done for it, and the other directories still go.
    }
  }
}

/**
 * On SIGINT or SIGTERM (Ctrl-C, a job stopped), the spills' directories are removed, and the signal then does what it
 * would have done: with no other listener, it ends the process as killed by it, so that a shell's loop of imports
 * stops too (an exit code would let it go on to the next file). A second signal kills the process where it is.
 */
export function removeHeldOnSignals(): void {
  const signals = ['SIGINT', 'SIGTERM'] as const;
  const listeners = signals.map((signal) => {
    const listener = () => {
      removeHeldDirs();
      for (const [i, s] of signals.entries()) process.off(s, listeners[i]!);
      process.kill(process.pid, signal);
    };
    process.on(signal, listener);
    return listener;
  });
}

/** The host in a spill directory's name: its name's letters, digits, dots and dashes (`pra-held-<host>-<pid>-*`). */
export const SPILL_HOST = hostname().replace(/[^A-Za-z0-9.-]/g, '_') || 'host';
/** A spill directory's name: its host, the process id, mkdtemp's six characters. */
const SPILL_DIR = /^pra-held-(.+)-(\d+)-[A-Za-z0-9]{6}$/;
/**
 * How long a spill directory must have been left alone (it and its files) before another importer removes it. A live
 * spill's is touched every TOUCHED_EVERY_MS (removeAtExit), so it is never this old while its process runs, even where
 * the process id check cannot tell (another PID namespace sharing the directory and the host's name: a pod's
 * containers sharing an emptyDir).
 */
export const ABANDONED_AFTER_MS = 60 * 60 * 1000;

/** When this process last swept each parent (sweepAbandoned), and that sweep: once each ABANDONED_AFTER_MS at most. */
const sweeps = new Map<string, { at: number; done: Promise<string[]> }>();

/** The last sweep of `parent` this process began, if any (it runs beside the import, which never waits for it). */
export function lastSweep(parent: string): Promise<string[]> | undefined {
  return sweeps.get(parent)?.done;
}

/** Whether a process of that id runs here (EPERM: it does, as another user). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The latest change to a spill directory or to a file in it (ms); null when it is gone, or is no directory of this
 * process's user (a symbolic link, another user's entry of a shared /tmp): not one to remove.
 */
async function lastTouched(dir: string): Promise<number | null> {
  try {
    const own = await lstat(dir);
    if (!own.isDirectory() || (process.getuid !== undefined && own.uid !== process.getuid())) return null;
    let latest = own.mtimeMs;
    for (const name of await readdir(dir)) {
      const s = await lstat(join(dir, name)).catch(() => null);
      if (s) latest = Math.max(latest, s.mtimeMs);
    }
    return latest;
  } catch {
    return null;
  }
}

/**
 * Removes the spill directories in `parent` that importers killed outright left (SIGKILL, the machine lost): those
 * made on this host by a process that no longer runs, untouched for ABANDONED_AFTER_MS. Begun at a spill's first
 * write, once an ABANDONED_AFTER_MS at most for each parent, and not waited for; whatever fails is left (another
 * importer may sweep it), never the import's failure. Returns the names removed.
 */
export async function sweepAbandoned(parent: string, now = Date.now()): Promise<string[]> {
  const removed: string[] = [];
  let names: string[];
  try {
    names = await readdir(parent);
  } catch {
    return removed;
  }
  for (const name of names) {
    const m = SPILL_DIR.exec(name);
    if (!m || m[1] !== SPILL_HOST) continue;
    const pid = Number(m[2]);
    if (pid === process.pid || running(pid)) continue;
    const dir = join(parent, name);
    const touched = await lastTouched(dir);
    if (touched === null || now - touched < ABANDONED_AFTER_MS) continue;
    try {
      await rm(dir, { recursive: true, force: true });
      removed.push(name);
    } catch {
      // Not ours to insist on: left for the next sweep or for someone to remove.
    }
  }
  return removed;
}

/** Murmur3's finalizer: every bit of `h` reaches every bit of the result (FNV-1a's last characters reach few). */
function fmix32(h: number): number {
  let x = h ^ (h >>> 16);
  x = Math.imul(x, 0x85ebca6b);
  x ^= x >>> 13;
  x = Math.imul(x, 0xc2b2ae35);
  return (x ^ (x >>> 16)) >>> 0;
}

/** Parts' writes going on at once (libuv's threads, 4 by default). */
const WRITES_AT_ONCE = 4;

/** A part's rows encoded into one buffer of its exact size: each row's head, its parcel's key, its text. */
function encodePart(entries: readonly [string, HeldGroup][]): {
  buf: Buffer;
  rows: number;
} {
  let size = 0;
  let rows = 0;
  for (const [parcel, { texts }] of entries) {
    const keyBytes = Buffer.byteLength(parcel);
    for (const text of texts) size += HEAD + keyBytes + Buffer.byteLength(text);
    rows += texts.length;
  }
  const buf = Buffer.allocUnsafe(size);
  let o = 0;
  for (const [parcel, { texts, lines }] of entries) {
    const keyBytes = Buffer.byteLength(parcel);
    for (let i = 0; i < texts.length; i++) {
      buf.write(parcel, o + HEAD);
      const textBytes = buf.write(texts[i]!, o + HEAD + keyBytes);
      buf.writeUInt32LE(lines[i]!, o);
      buf.writeUInt32LE(keyBytes, o + 4);
      buf.writeUInt32LE(textBytes, o + 8);
      o += HEAD + keyBytes + textBytes;
    }
  }
  return { buf, rows };
}

export class HeldSpill {
  private dir: string | null = null;
  /** Each part's rows and bytes written. */
  private readonly rows = new Array<number>(SPILL_PARTS).fill(0);
  private readonly bytes = new Array<number>(SPILL_PARTS).fill(0);
  /** Each part's file, open to append to, once written. */
  private handles = new Array<FileHandle | undefined>(SPILL_PARTS);
  /** A write failed: the files may hold bytes the counts do not. */
  private failed = false;

  /**
   * `parent`: where the directory is made (the system's temporary directory, TMPDIR, by default). `level`: which hash
   * of a parcel's key tells its part (partOf; a part too large read back is spread by the next level's).
   */
  constructor(
    private readonly parent = tmpdir(),
    readonly level = 0,
  ) {}

  /** Whether any row was spilled (and not yet let go). */
  get used(): boolean {
    return this.dir !== null;
  }

  /** A part's rows and bytes on disk. */
  sizeOf(part: number): { rows: number; bytes: number } {
    return { rows: this.rows[part]!, bytes: this.bytes[part]! };
  }

  /**
   * A parcel's part at this level: the top 6 bits of its key's hash, seeded by the level and finalized, so that keys
   * one part holds at one level (APNs that differ in their last digit, say) are spread at the next.
   */
  partOf(parcel: string): number {
    return fmix32(hash32(parcel) ^ Math.imul(this.level + 1, 0x9e3779b9)) >>> (32 - SPILL_BITS);
  }

  /** Appends `groups`' rows to their parts' files (WRITES_AT_ONCE parts' buffers in memory at once, at most). */
  async write(groups: HeldGroups): Promise<void> {
    if (this.failed) throw new Error('rows held back on disk were not all written: this spill is not written to again');
    try {
      // The host and the importer's process id in its name: one left by an importer killed tells whose it was, and
      // the next import that spills here removes it once that process is gone (sweepAbandoned).
      if (this.dir === null) {
        const now = Date.now();
        if (now - (sweeps.get(this.parent)?.at ?? Number.NEGATIVE_INFINITY) >= ABANDONED_AFTER_MS) {
          // Beside the import, not before its spill: a temporary directory of many entries, or a slow one, delays
          // nothing (sweepAbandoned never throws).
          sweeps.set(this.parent, { at: now, done: sweepAbandoned(this.parent, now) });
        }
        this.dir = await mkdtemp(join(this.parent, `pra-held-${SPILL_HOST}-${process.pid}-`));
        removeAtExit(this.dir);
      }
      const byPart: [string, HeldGroup][][] = Array.from({ length: SPILL_PARTS }, () => []);
      for (const entry of groups) byPart[this.partOf(entry[0])]!.push(entry);
      // Parts encoded one after the other, and written WRITES_AT_ONCE at a time: their buffers in memory, no more
      // (one at a time, spills of 1,000 rows took ~1.7 times as long).
      const writing = new Set<Promise<void>>();
      let failure: { err: unknown } | null = null;
      try {
        for (const [part, entries] of byPart.entries()) {
          if (entries.length === 0) continue;
          const { buf, rows } = encodePart(entries);
          const write: Promise<void> = this.append(part, buf, rows)
            .catch((err: unknown) => {
              failure ??= { err };
            })
            .finally(() => writing.delete(write));
          writing.add(write);
          if (writing.size >= WRITES_AT_ONCE) await Promise.race(writing);
          if (failure) break;
        }
      } finally {
        // No write left going on, whatever failed: the reader's clean-up may follow at once.
        await Promise.allSettled(writing);
      }
      if (failure) {
        // A part's file may hold bytes its count does not: nothing more is written to or read from this spill.
        this.failed = true;
        throw (failure as { err: unknown }).err;
      }
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      const fix = PLACE_ERRORS.has(code ?? '')
        ? ': free space there, or set TMPDIR to a directory with room that the importer may write, and import again'
        : '';
      throw new Error(
        `holding a parcel's rows back on disk, in ${this.dir ?? this.parent}, failed (${(err as Error).message})${fix}`,
        { cause: err },
      );
    }
  }

  /** Appends a part's rows (`buf`, `rows` of them) to its file. */
  private async append(part: number, buf: Buffer, rows: number): Promise<void> {
    // Through a handle kept open: an open and a close each time took ~4 times as long.
    this.handles[part] ??= await open(this.fileOf(part), 'a');
    const handle = this.handles[part];
    // A write may take fewer bytes than asked (a disk all but full): the rest is written again.
    for (let done = 0; done < buf.length; ) {
      const { bytesWritten } = await handle.write(buf, done, buf.length - done);
      if (bytesWritten === 0) throw new Error(`no byte of ${this.fileOf(part)} could be written`);
      done += bytesWritten;
    }
    this.rows[part]! += rows;
    this.bytes[part]! += buf.length;
  }

  /** The rows spilled of one part, in the order they were written; fails on a part not as it was written. */
  async *read(part: number): AsyncGenerator<HeldRow> {
    if (this.failed) throw new Error('rows held back on disk were not all written: they are not read back');
    const written = this.bytes[part]!;
    if (this.dir === null || written === 0) return;
    const name = this.fileOf(part);
    const file = await open(name, 'r');
    try {
      let buf = Buffer.allocUnsafe(Math.min(1 << 20, written));
      /** Bytes in `buf` read and not yet taken, from `start` to `end`; bytes of the file taken before `start`. */
      let start = 0;
      let end = 0;
      let taken = 0;
      /** Makes `n` bytes from `start` readable, if the file holds them: false at its end. */
      const fill = async (n: number): Promise<boolean> => {
        while (end - start < n) {
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
          if (bytesRead === 0) return false;
          end += bytesRead;
        }
        return true;
      };
      while (taken < written) {
        if (!(await fill(HEAD))) break;
        const line = buf.readUInt32LE(start);
        const size = HEAD + buf.readUInt32LE(start + 4) + buf.readUInt32LE(start + 8);
        // A length past what was written is a damaged head: not read (it could ask for gigabytes).
        if (taken + size > written || !(await fill(size))) break;
        const keyEnd = start + HEAD + buf.readUInt32LE(start + 4);
        const parcel = buf.toString('utf8', start + HEAD, keyEnd);
        const text = buf.toString('utf8', keyEnd, start + size);
        start += size;
        taken += size;
        yield { parcel, text, line };
      }
      if (taken !== written)
        throw new Error(`the rows held back in ${name} are not as they were written (${taken} of ${written} bytes)`);
    } finally {
      await file.close();
    }
  }

  /** Lets go of a part once read back or spread: its handle, and its file (the disk it takes). */
  async drop(part: number): Promise<void> {
    const handle = this.handles[part];
    this.handles[part] = undefined;
    await handle?.close();
    if (this.dir !== null && this.bytes[part]! > 0) await rm(this.fileOf(part), { force: true });
    this.rows[part] = 0;
    this.bytes[part] = 0;
  }

  /**
   * Removes the directory and what it holds. A failure to is told (a warning on stderr), not thrown: it must not hide
   * the failure that made the reader stop, nor fail an import whose rows were all sent.
   */
  async close(): Promise<void> {
    const dir = this.dir;
    this.dir = null;
    this.rows.fill(0);
    this.bytes.fill(0);
    const handles = this.handles;
    this.handles = new Array(SPILL_PARTS);
    await Promise.allSettled(handles.map((h) => h?.close()));
    if (dir === null) return;
    try {
      await rm(dir, { recursive: true, force: true });
      // Known to the exit's clean-up until it is gone: a process exiting while it is removed still removes it.
      live.delete(dir);
    } catch (err) {
      process.emitWarning(`${dir}, rows an import held back on disk, could not be removed (${(err as Error).message})`);
    }
  }

  private fileOf(part: number): string {
    return join(this.dir!, `part-${part}`);
  }
}
