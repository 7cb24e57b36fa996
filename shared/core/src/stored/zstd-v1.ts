// The stored format's encoding 0x02 (stored-format.ts): a zstd frame made with DICTIONARY_V1 as a raw-content
// dictionary, with its content size and a checksum. A deflate with that dictionary (0x01) cost ~23 us a record of
// ~1.6 KB on a quiet machine, a fifth of an import worker's time, and its inflate ~17 us a read; zstd at level 3 takes
// about a third of each, for ~16% more bytes a value (docs/benchmarks.md, issue 36's fifth pass).
//
// Both directions keep one zstd context for the thread's life: a new one a value (zstdCompressSync) builds its
// tables and loads the dictionary anew, ~70 us a record, more than the compression. node:zlib reuses a context only
// through its stream's native handle (`_handle.writeSync`, `_writeState`: undocumented internals, driven here as
// node:zlib's own synchronous calls drive them; a Node without them gets the one-shot calls). A frame ended
// (ZSTD_e_end) leaves the context ready for the next frame with the same dictionary. reset() would not: it drops the
// dictionary, and the compressor then silently writes frames without it. So a context left mid-frame (an error, a
// body read that stops early) is given up, and a new one made for the next value: fed the next frame, it would
// decode wrong bytes without an error.
import {
  constants,
  createZstdCompress,
  createZstdDecompress,
  type ZstdCompress,
  type ZstdDecompress,
  zstdCompressSync,
  zstdDecompressSync,
} from 'node:zlib';
import { keptBuffer } from './kept-buffer.js';
import { damagedValue, dictionary, ZSTD_V1 } from './stored-format.js';

/** zstd's default level: level 5 took ~1.8 times as long for 12% fewer bytes (docs/benchmarks.md). */
const LEVEL = 3;
const COMPRESS_OPTIONS = {
  dictionary,
  params: {
    [constants.ZSTD_c_compressionLevel]: LEVEL,
    // A checksum of the content (4 bytes, xxhash: well under a microsecond a record): a damaged value read whole is
    // refused instead of read as other text (deflate's raw stream had none, and PostgreSQL checks no page unless its
    // cluster was made with checksums). A body read alone (zstdDecodeUntil) of a value over CHUNK_BYTES stops before the
    // checksum at its end, so damage in its first block can go unseen there, as with deflate. The content size is
    // written too: the reader sizes its output by it.
    [constants.ZSTD_c_checksumFlag]: 1,
  },
};
const DECOMPRESS_OPTIONS = { dictionary };

/** A value decoded is at most this large: a frame header claiming more is refused, not allocated. */
const MAX_CONTENT_BYTES = 256 * 1024 * 1024;
/** A read that stops at a byte (zstdDecodeUntil) decodes this much at a time. */
const CHUNK_BYTES = 64 * 1024;
/** The compressor's output buffer is kept for values up to this size (a larger one gets a buffer of its own). */
const KEPT_OUT_BYTES = 1024 * 1024;

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

/** One call's outcome: the bytes written, and the input left unread. */
interface Step {
  written: number;
  inLeft: number;
}

/**
 * One zstd context kept for the thread's life. `run` drives one call that ends the frame (ZSTD_e_end); the stream
 * reports a zstd error by destroying itself (node:zlib's error handler, during the call), so a destroyed stream after
 * a call is a failed call, and the context is then dropped.
 */
class KeptContext {
  private stream: ZstdCompress | ZstdDecompress | null = null;
  private handle: ZstdHandle | null = null;
  private state: Uint32Array | null = null;
  private unavailable = false;

  constructor(private readonly make: () => ZstdCompress | ZstdDecompress) {}

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
    // Errors are read off `destroyed` after each call; the event itself (emitted later) is not needed.
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
   * One call: `input` from `inOffset` into `out` from `outOffset`. null when this Node has no handle to drive (the
   * caller uses node:zlib's one-shot call); throws, the context dropped, when zstd reports an error.
   */
  run(input: Uint8Array, inOffset: number, out: Uint8Array, outOffset: number): Step | null {
    if (!this.open()) return null;
    const outLength = out.length - outOffset;
    try {
      this.handle!.writeSync(constants.ZSTD_e_end, input, inOffset, input.length - inOffset, out, outOffset, outLength);
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
/** The compressor's output: a frame is copied out of it (zstdEncode returns a buffer of its own). */
const compressOut = keptBuffer(16 * 1024, KEPT_OUT_BYTES);

/** zstd's bound on a frame's size for `n` bytes of input (ZSTD_COMPRESSBOUND), and a margin. */
const compressBound = (n: number) => n + (n >>> 8) + (n < 128 * 1024 ? (128 * 1024 - n) >>> 11 : 0) + 32;

/**
 * A stored value: its encoding byte (ZSTD_V1), then the zstd frame of `input`. A buffer of its own; `input` is read
 * during the call only, never returned or kept (encodeStoredJson passes a buffer it writes over for the next value).
 */
export function zstdEncode(input: Buffer): Buffer {
  // Never write what the reader refuses as damaged (storedContentSize): the value would be stored, then fail every read.
  if (input.length > MAX_CONTENT_BYTES)
    throw new Error(
      `a stored value of ${input.length.toLocaleString('en-US')} bytes is more than the ${MAX_CONTENT_BYTES.toLocaleString('en-US')} a stored value may hold`,
    );
  const size = 1 + compressBound(input.length);
  const out = compressOut(size);
  const r = compressor.run(input, 0, out, 1);
  // With room for the bound, one call ends the frame: all input read, and room left.
  if (r !== null && r.inLeft === 0 && r.written < out.length - 1) {
    out[0] = ZSTD_V1;
    return Buffer.from(out.subarray(0, 1 + r.written));
  }
  if (r !== null) compressor.drop();
  return Buffer.concat([Buffer.from([ZSTD_V1]), zstdCompressSync(input, COMPRESS_OPTIONS)]);
}

/**
 * The content size a frame's header gives (RFC 8878 3.1.1.1), or null when it gives none (a frame written as a
 * stream, a skippable frame) or the header is cut short.
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

const damaged = (why: string) => damagedValue('zstd, encoding 2', why);

/**
 * The content size of a stored frame, which zstdEncode always writes: a frame without one (a skippable frame, one
 * written as a stream) or claiming more than MAX_CONTENT_BYTES is damaged, never decoded without a bound.
 */
function storedContentSize(frame: Uint8Array): number {
  const size = frameContentSize(frame);
  if (size === null) throw damaged('its frame header gives no content size');
  if (size > MAX_CONTENT_BYTES) throw damaged(`its header claims ${size} bytes`);
  return size;
}

/** node:zlib's one-shot decode (a new context, for a Node without a handle), bounded by the frame's size. */
function decodeOneShot(frame: Uint8Array, size: number): Buffer {
  let out: Buffer;
  try {
    out = zstdDecompressSync(frame, { ...DECOMPRESS_OPTIONS, maxOutputLength: size + 1, rejectGarbageAfterEnd: true });
  } catch (err) {
    throw damaged((err as Error).message);
  }
  if (out.length !== size) throw damaged(`${out.length} bytes decoded where its header says ${size}`);
  return out;
}

/** `bytes` up to the first `stop` byte (excluded); all of them when `stop` is null or not in them. */
const upTo = (bytes: Buffer, stop: number | null) => {
  const end = stop === null ? -1 : bytes.indexOf(stop);
  return end < 0 ? bytes : bytes.subarray(0, end);
};

/**
 * A stored frame's content, all of it (`stop` null: one call into a buffer of its size), or up to the first `stop`
 * byte, decoding no more than it must: CHUNK_BYTES at a time until the byte is in a chunk.
 */
function decodeFrame(frame: Uint8Array, stop: number | null): Buffer {
  const size = storedContentSize(frame);
  const parts: Buffer[] = [];
  let inOffset = 0;
  let decoded = 0;
  for (;;) {
    // One byte more than the frame says is left: a frame that decodes to more is damaged, not cut to its size.
    const left = size - decoded + 1;
    const chunk = Buffer.allocUnsafe(stop === null ? left : Math.min(CHUNK_BYTES, left));
    let r: Step | null;
    try {
      r = decompressor.run(frame, inOffset, chunk, 0);
    } catch (err) {
      throw damaged((err as Error).message);
    }
    if (r === null) return upTo(decodeOneShot(frame, size), stop);
    decoded += r.written;
    inOffset = frame.length - r.inLeft;
    const ended = decoded === size;
    // (zstd itself refuses a frame cut short or decoding to another size than its header's, in the call above.)
    if (decoded > size || (ended && r.inLeft !== 0) || (!ended && r.written === 0)) {
      decompressor.drop();
      throw damaged(
        ended ? `${r.inLeft} bytes follow its end` : `${decoded} bytes decoded where its header says ${size}`,
      );
    }
    const got = upTo(chunk.subarray(0, r.written), stop);
    parts.push(got);
    if (got.length < r.written) {
      // The stop byte: the context is mid-frame unless the frame ended here, so it is given up.
      if (!ended) decompressor.drop();
      break;
    }
    if (ended) break;
  }
  return parts.length === 1 ? parts[0]! : Buffer.concat(parts);
}

/** The content of a stored frame (written by zstdEncode). */
export const zstdDecode = (frame: Uint8Array): Buffer => decodeFrame(frame, null);

/**
 * A stored frame's content up to its first `stop` byte (excluded), or all of it when none: for a body before its
 * histories (record-body.ts), whose length has no bound.
 */
export const zstdDecodeUntil = (frame: Uint8Array, stop: number): Buffer => decodeFrame(frame, stop);
