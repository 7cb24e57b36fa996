// The stored format's encoding 0x02 (stored-format.ts): a zstd frame made with DICTIONARY_V1 as a raw-content
// dictionary. A deflate with that dictionary (0x01) cost ~23 us a record of ~1.6 KB on a quiet machine, a fifth of an
// import worker's time, and its inflate ~20 us a read; zstd at level 3 takes ~7 and ~5, for ~16% more bytes (~390
// against ~340 a record: docs/benchmarks.md, issue 36's fifth pass).
//
// Both directions keep one zstd context for the thread's life: a new one a value (zstdCompressSync) builds its
// tables and loads the dictionary anew, 70 us a record, more than the compression. node:zlib reuses a context only
// through its stream's native handle, driven here as its own synchronous calls drive it. A frame ended (ZSTD_e_end)
// leaves the context ready for the next frame with the same dictionary; reset() would drop the dictionary, so a
// context left mid-frame (an error, a prefix read) is given up and a new one made for the next value.
import {
  constants,
  createZstdCompress,
  createZstdDecompress,
  type ZstdCompress,
  type ZstdDecompress,
  zstdCompressSync,
  zstdDecompressSync,
} from 'node:zlib';
import { dictionary } from './stored-format.js';

/** zstd's default level: ~7 us a record against level 5's ~13 for 12% fewer bytes (docs/benchmarks.md). */
const LEVEL = 3;
const COMPRESS_OPTIONS = {
  dictionary,
  params: {
    [constants.ZSTD_c_compressionLevel]: LEVEL,
    // No checksum (deflate's raw stream had none: PostgreSQL checks its pages); the content size is kept (the
    // reader sizes its output by it).
    [constants.ZSTD_c_checksumFlag]: 0,
  },
};
const DECOMPRESS_OPTIONS = { dictionary };

/** A value decoded is at most this large: a damaged frame header claiming more is refused, not allocated. */
const MAX_CONTENT_BYTES = 256 * 1024 * 1024;

/** The native side of a zstd stream, as node:zlib's own synchronous calls drive it. */
interface ZstdHandle {
  writeSync(
    flush: number,
    input: Uint8Array,
    inOffset: number,
    inLength: number,
    out: Uint8Array,
    outOffset: number,
    outLength: number,
  ): void;
}

type ZstdStream = ZstdCompress | ZstdDecompress;

/**
 * One zstd context kept for the thread's life. `run` drives one call; the stream reports a zstd error by destroying
 * itself (node:zlib's error handler), so a destroyed stream after a call is a failed call, and the context is then
 * dropped. null from `open` (a Node whose stream has no such handle): the callers use node:zlib's one-shot calls.
 */
class KeptContext<S extends ZstdStream> {
  private stream: S | null = null;
  private handle: ZstdHandle | null = null;
  private state: Uint32Array | null = null;
  private unavailable = false;

  constructor(private readonly make: () => S) {}

  /** The context, made when none is kept; false when this Node's streams expose no handle. */
  private open(): boolean {
    if (this.stream !== null) return true;
    if (this.unavailable) return false;
    const stream = this.make();
    const inner = stream as unknown as { _handle?: Partial<ZstdHandle>; _writeState?: unknown };
    if (typeof inner._handle?.writeSync !== 'function' || !(inner._writeState instanceof Uint32Array)) {
      this.unavailable = true;
      stream.destroy();
      return false;
    }
    // Errors are read off `destroyed` after each call; the event itself is not needed (nor left unhandled).
    stream.on('error', () => {});
    this.stream = stream;
    this.handle = inner._handle as ZstdHandle;
    this.state = inner._writeState;
    return true;
  }

  /** Drops the context: the next call makes a new one. */
  drop(): void {
    this.stream?.destroy();
    this.stream = null;
    this.handle = null;
    this.state = null;
  }

  /**
   * One call: `input` from `inOffset` into `out` from `outOffset`. Returns the bytes written and the input left, or
   * null when this Node has no handle to drive; throws (the context dropped) when zstd reports an error.
   */
  run(
    flush: number,
    input: Uint8Array,
    inOffset: number,
    out: Uint8Array,
    outOffset: number,
  ): { written: number; inLeft: number } | null {
    if (!this.open()) return null;
    const outLength = out.length - outOffset;
    try {
      this.handle!.writeSync(flush, input, inOffset, input.length - inOffset, out, outOffset, outLength);
    } catch (err) {
      this.drop();
      throw err;
    }
    if (this.stream!.destroyed) {
      const reported = this.stream!.errored?.message ?? 'zstd reported an error';
      this.drop();
      throw new Error(reported);
    }
    const [outLeft, inLeft] = this.state!;
    return { written: outLength - outLeft!, inLeft: inLeft! };
  }
}

const compressor = new KeptContext(() => createZstdCompress(COMPRESS_OPTIONS));
const decompressor = new KeptContext(() => createZstdDecompress(DECOMPRESS_OPTIONS));

/** The output buffer of the compressor, kept; grown for a larger value, let go past 1 MB. */
let compressOut = Buffer.allocUnsafe(16 * 1024);

/** zstd's bound on a frame's size for `n` bytes of input (ZSTD_COMPRESSBOUND), plus room for the frame header. */
const compressBound = (n: number) => n + (n >>> 8) + (n < 128 * 1024 ? (128 * 1024 - n) >>> 11 : 0) + 32;

/** The zstd frame of `input` (its bytes valid until the next call: copy them). */
export function zstdEncode(input: Buffer): Buffer {
  const bound = compressBound(input.length);
  if (compressOut.length < bound) compressOut = Buffer.allocUnsafe(bound);
  const out = compressOut;
  if (compressOut.length > 1024 * 1024) compressOut = Buffer.allocUnsafe(16 * 1024);
  const r = compressor.run(constants.ZSTD_e_end, input, 0, out, 0);
  if (r === null) return zstdCompressSync(input, COMPRESS_OPTIONS);
  // With room for the bound, one call ends the frame: all input read, and room left.
  if (r.inLeft !== 0 || r.written === out.length) {
    compressor.drop();
    return zstdCompressSync(input, COMPRESS_OPTIONS);
  }
  return out.subarray(0, r.written);
}

/**
 * The content size a frame's header gives (RFC 8878 3.1.1.1), or null when it gives none (a frame written as a
 * stream; the encoder above always writes it) or the header is cut short.
 */
function frameContentSize(frame: Uint8Array): number | null {
  if (frame.length < 6 || frame[0] !== 0x28 || frame[1] !== 0xb5 || frame[2] !== 0x2f || frame[3] !== 0xfd) {
    return null;
  }
  const descriptor = frame[4]!;
  const fcsFlag = descriptor >>> 6;
  const singleSegment = (descriptor >>> 5) & 1;
  const dictIdBytes = [0, 1, 2, 4][descriptor & 3]!;
  const fcsBytes = [singleSegment ? 1 : 0, 2, 4, 8][fcsFlag]!;
  if (fcsBytes === 0) return null;
  const at = 5 + (singleSegment ? 0 : 1) + dictIdBytes;
  if (frame.length < at + fcsBytes) return null;
  let size = 0;
  for (let i = fcsBytes - 1; i >= 0; i--) size = size * 256 + frame[at + i]!;
  return fcsBytes === 2 ? size + 256 : size;
}

const damaged = (why: string) =>
  new Error(`a stored value (zstd, encoding 2) is damaged: ${why}; rewrite the record (import its file again)`);

/** node:zlib's one-shot decode (a new context): for a frame without its size, or a Node without a handle. */
function decodeOneShot(frame: Uint8Array): Buffer {
  try {
    return zstdDecompressSync(frame, DECOMPRESS_OPTIONS);
  } catch (err) {
    throw damaged((err as Error).message);
  }
}

/** The bytes of a frame written by zstdEncode (or any zstd frame with DICTIONARY_V1). */
export function zstdDecode(frame: Uint8Array): Buffer {
  const size = frameContentSize(frame);
  if (size === null) return decodeOneShot(frame);
  if (size > MAX_CONTENT_BYTES) throw damaged(`its header claims ${size} bytes`);
  // One byte more than the frame says: a frame that decodes to more is damaged, not cut to its claimed size.
  const out = Buffer.allocUnsafe(size + 1);
  let r: { written: number; inLeft: number } | null;
  try {
    r = decompressor.run(constants.ZSTD_e_end, frame, 0, out, 0);
  } catch (err) {
    throw damaged((err as Error).message);
  }
  if (r === null) return decodeOneShot(frame);
  if (r.written !== size || r.inLeft !== 0) {
    decompressor.drop();
    throw damaged(`${r.written} bytes decoded where its header says ${size}`);
  }
  return out.subarray(0, size);
}

/**
 * A prefix of a frame's bytes up to the first `stop` byte (excluded), decoding no more than it must: chunk after
 * chunk until the byte is in one. For a body before its histories (record-body.ts): a history has no bound. The
 * whole content when no such byte is in it.
 */
export function zstdDecodeUntil(frame: Uint8Array, stop: number, chunkBytes = 64 * 1024): Buffer {
  const size = frameContentSize(frame);
  if (size === null || size <= chunkBytes) {
    const whole = zstdDecode(frame);
    const end = whole.indexOf(stop);
    return end < 0 ? whole : whole.subarray(0, end);
  }
  if (size > MAX_CONTENT_BYTES) throw damaged(`its header claims ${size} bytes`);
  const parts: Buffer[] = [];
  let inOffset = 0;
  let decoded = 0;
  for (;;) {
    // Never more than the frame says is left (past its end a call would wait for a next frame).
    const chunk = Buffer.allocUnsafe(Math.min(chunkBytes, size - decoded + 1));
    let r: { written: number; inLeft: number } | null;
    try {
      r = decompressor.run(constants.ZSTD_e_end, frame, inOffset, chunk, 0);
    } catch (err) {
      throw damaged((err as Error).message);
    }
    if (r === null) {
      const whole = decodeOneShot(frame);
      const end = whole.indexOf(stop);
      return end < 0 ? whole : whole.subarray(0, end);
    }
    decoded += r.written;
    inOffset = frame.length - r.inLeft;
    const ended = decoded === size;
    if (decoded > size || (ended && r.inLeft !== 0) || (!ended && r.written === 0)) {
      decompressor.drop();
      throw damaged(`${decoded} bytes decoded where its header says ${size}`);
    }
    const got = chunk.subarray(0, r.written);
    const end = got.indexOf(stop);
    if (end >= 0) {
      // The context is mid-frame unless the frame ended here: given up, a new one for the next value.
      if (!ended) decompressor.drop();
      parts.push(got.subarray(0, end));
      return Buffer.concat(parts);
    }
    parts.push(got);
    if (ended) return Buffer.concat(parts);
  }
}
