// How record documents (a property's pre-rendered body, its sale and assessment histories) are stored: JSON text,
// deflated with a preset dictionary of typical records. A body is ~1.3 KB of JSON whose key names and shape repeat
// in every record; PostgreSQL compresses nothing under ~2 KB a row (TOAST starts above that), so the store held it
// raw, and it was two thirds of the records' bytes. With the dictionary a body is ~300 bytes and inflates in ~10 us.
// The first byte says how the rest is encoded, so a later dictionary can be added beside this one and rows written
// raw (by a migration, which cannot deflate in SQL) are read as they are:
//   0x00  the JSON as UTF-8
//   0x01  deflate (raw) with DICTIONARY_V1, 8 KB window
// The dictionary is part of the stored format: never change it; add a version.
import { constants, createDeflateRaw, type DeflateRaw, deflateRawSync, inflateRawSync } from 'node:zlib';
import { decodeRecordBody } from './record-body.js';
import { asBuffer, DEFLATE_V1, dictionary, RAW, unknownEncoding, WINDOW_BITS } from './stored-format.js';

const DEFLATE_OPTIONS = { dictionary, windowBits: WINDOW_BITS, level: 6, memLevel: 8 } as const;

/** The native side of a zlib stream, as node:zlib's own synchronous calls drive it. */
interface ZlibHandle {
  reset(): void;
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

/** The longest value the kept deflater takes: with the dictionary, it stays within the 8 KB window (no slide). */
const REUSED_MAX_BYTES = 4_096;

/**
 * One deflater kept for the thread's life, reset before each value: deflateRawSync makes a deflater a call (its
 * stream object, 150 KB of zlib state, the dictionary loaded anew) and closes it, which costs more than the
 * compression itself (a first import of a small roll: ~130 us a record of its ~600). node:zlib reuses a deflater
 * only through its stream's native handle, driven here as its own deflateRawSync drives it. reset() restores the
 * state a new deflater starts from (deflateReset, then the dictionary), all but the window past the value's end:
 * a new deflater has zeros there, a kept one the bytes of the values before. zlib's match finder may read there
 * but never matches past the value's end (a match is cut at the input's end), so a value deflates to a stream that
 * inflates alone, with the dictionary, to the value; only its choice among equal matches may differ from a new
 * deflater's, so the bytes may (a test inflates every value of generated sequences). Deflating zeros over that
 * window first, to write a new deflater's very bytes, cost a second reset and dictionary load a value: 5-10 us a
 * record of a first load. A value longer than REUSED_MAX_BYTES (the window would slide), or a Node without that
 * handle, takes deflateRawSync.
 */
class ReusedDeflater {
  /** Kept referenced: the handle is the stream's. */
  private stream: DeflateRaw | null = null;
  private handle: ZlibHandle | null = null;
  private state: Uint32Array | null = null;
  private readonly out = Buffer.allocUnsafe(2 * REUSED_MAX_BYTES);
  private broken = false;

  /** The raw deflate of `input` (valid until the next call), or null when deflateRawSync must make it. */
  deflate(input: Buffer): Buffer | null {
    if (this.broken || input.length > REUSED_MAX_BYTES) return null;
    if (this.stream === null && !this.open()) return null;
    try {
      this.handle!.reset();
      this.handle!.writeSync(constants.Z_FINISH, input, 0, input.length, this.out, 0, this.out.length);
    } catch {
      this.broken = true;
    }
    const [outLeft, inLeft] = this.state!;
    // Finished: all input read, and room left (deflate with Z_FINISH returns with room only at the stream's end).
    if (this.broken || inLeft !== 0 || outLeft === 0) {
      this.broken = true;
      return null;
    }
    return this.out.subarray(0, this.out.length - outLeft!);
  }

  private open(): boolean {
    const stream = createDeflateRaw(DEFLATE_OPTIONS);
    const inner = stream as unknown as { _handle?: Partial<ZlibHandle>; _writeState?: unknown };
    const handle = inner._handle;
    if (
      typeof handle?.reset !== 'function' ||
      typeof handle.writeSync !== 'function' ||
      !(inner._writeState instanceof Uint32Array)
    ) {
      this.broken = true;
      stream.destroy();
      return false;
    }
    // A zlib error is reported on the stream: this deflater is then given up, never thrown from an event.
    stream.on('error', () => {
      this.broken = true;
    });
    this.stream = stream;
    this.handle = handle as ZlibHandle;
    this.state = inner._writeState;
    return true;
  }
}

const deflater = new ReusedDeflater();

/** The stored form of a JSON text. */
export function encodeStoredJson(json: string): Buffer {
  const input = Buffer.from(json);
  const packed = deflater.deflate(input) ?? deflateRawSync(input, DEFLATE_OPTIONS);
  const out = Buffer.allocUnsafe(packed.length + 1);
  out[0] = DEFLATE_V1;
  packed.copy(out, 1);
  return out;
}

/** The JSON text of a stored value (either encoding). */
export function decodeStoredJson(stored: Uint8Array): string {
  const buf = asBuffer(stored);
  switch (buf[0]) {
    case DEFLATE_V1:
      return inflateRawSync(buf.subarray(1), { dictionary, windowBits: WINDOW_BITS }).toString('utf8');
    case RAW:
      return buf.toString('utf8', 1);
    default:
      throw unknownEncoding(buf[0]);
  }
}

/** A stored value as a PostgreSQL COPY text cell (bytea in hex: `\\x...`). */
export function storedCopyCell(stored: Buffer): string {
  return `\\\\x${stored.toString('hex')}`;
}

/** A property's stored document: its body and both histories, deflated together (one call a record). */
export interface RecordDoc {
  /** The record body (SPEC 2.1 without demographics), as JSON. */
  body: string;
  /** The sale history as /sale/history returns it, newest first ('[]' when none). */
  sales: string;
  /** The assessment history as /assessment/detail returns it, newest first ('[]' when none). */
  assessments: string;
}

/**
 * The stored form of a property: "<body>\n<sales>\n<assessments>", or the body alone when it has no history. One
 * value, so a load deflates once a record: each deflate call costs tens of microseconds before it compresses
 * anything, more than the compression itself at this size. JSON.stringify never writes a newline, so the first two
 * are the separators.
 */
export function encodeRecordDoc(body: string, histories: { sales: string; assessments: string } | null): Buffer {
  return encodeStoredJson(histories === null ? body : `${body}\n${histories.sales}\n${histories.assessments}`);
}

export function decodeRecordDoc(stored: Uint8Array): RecordDoc {
  const text = decodeStoredJson(stored);
  const first = text.indexOf('\n');
  if (first < 0) return { body: text, sales: '[]', assessments: '[]' };
  const second = text.indexOf('\n', first + 1);
  return { body: text.slice(0, first), sales: text.slice(first + 1, second), assessments: text.slice(second + 1) };
}

/** The address of a stored record, as its body renders it (SPEC 2.1); the fields the callers outside lookups read. */
export interface StoredAddress {
  line1: string;
  /** The unit ('' or, in bodies written by older loaders, null when there is none). */
  line2: string | null;
  locality: string;
  countrySubd: string;
  postal1: string;
  oneLine: string;
}

/**
 * The address of a stored record: what the rekey, the type-ahead index, fixtures and benchmarks read of a body. The
 * body alone is inflated (record-body.ts): the rekey and a rebuild read every record, histories of any length.
 */
export function storedAddress(stored: Uint8Array): StoredAddress {
  return (JSON.parse(decodeRecordBody(stored)) as { address: StoredAddress }).address;
}
