// PostgreSQL's binary COPY format (COPY ... FROM STDIN (FORMAT binary)), for a load's records.properties and
// records.import_state rows.
// In COPY text, a record's stored body (~400 bytes of zstd) is ~800 hex digits behind `\\x`, which the worker writes
// out, the worker and the main thread then carry as UTF-8, and PostgreSQL scans, unescapes and decodes again; in
// binary it is its own bytes. Measured on Philadelphia x20's rows with psql's \copy into an unindexed copy of the
// table: 6.4-6.8 against 3.3-3.5 us a row, for 1,041 against 660 bytes (docs/benchmarks.md, issue 36's seventh pass).
// The data: a signature, flags and a header extension (none), then each row as its number of fields and each field
// as its length in bytes (-1: NULL) and its value in the type's binary form ("send" form), then -1 as the trailer.
import { maxUtf8Bytes } from '@pra/core/stored';

/** The signature, 0 flags (no OIDs) and a header extension of 0 bytes. */
const HEADER = Buffer.from([
  ...Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1'),
  ...[0, 0, 0, 0], // flags
  ...[0, 0, 0, 0], // header extension length
]);
const HEADER_BYTES = HEADER.length;
/** timestamptz counts microseconds from 2000-01-01 00:00 UTC. */
const PG_EPOCH_MS = Date.UTC(2000, 0, 1);
const TWO_32 = 2 ** 32;

/**
 * The rows of one COPY in binary, written into one buffer of its own (so that it can be transferred out of a worker
 * thread: a Buffer of Node's shared pool cannot). Each row is `row(n)` followed by exactly n fields: a row given
 * more or fewer throws here (PostgreSQL would say only "unexpected EOF in COPY data", or read the rows askew).
 */
export class BinaryCopyWriter {
  private buf: Buffer;
  private at = HEADER_BYTES;
  /** Fields the current row still owes. */
  private owed = 0;
  /** The last time written, as the two halves of its int64 of microseconds. */
  private lastTime: { text: string; high: number; low: number } | null = null;

  /** `expectedBytes`: the rows' bytes, about (the header and trailer are added). */
  constructor(expectedBytes = 64 * 1024) {
    this.buf = Buffer.allocUnsafeSlow(HEADER_BYTES + Math.max(0, expectedBytes) + 2);
    HEADER.copy(this.buf, 0);
  }

  private room(n: number): void {
    if (this.at + n <= this.buf.length) return;
    const next = Buffer.allocUnsafeSlow(Math.max(this.buf.length * 2, this.at + n));
    this.buf.copy(next, 0, 0, this.at);
    this.buf = next;
  }

  row(fields: number): void {
    this.rowDone();
    this.room(2);
    this.at = this.buf.writeInt16BE(fields, this.at);
    this.owed = fields;
  }

  private rowDone(): void {
    if (this.owed !== 0) throw new Error(`a binary COPY row is ${this.owed} field(s) short`);
  }

  /** One more field of the current row, with room for its `bytes`. */
  private field(bytes: number): void {
    if (--this.owed < 0) throw new Error('a binary COPY row was given more fields than it declared');
    this.room(bytes);
  }

  null(): void {
    this.field(4);
    this.at = this.buf.writeInt32BE(-1, this.at);
  }

  /** text or char(n) (PostgreSQL pads and checks a char(n) as it does a text cell); null or undefined: NULL. */
  text(s: string | null | undefined): void {
    if (s === null || s === undefined) {
      this.null();
      return;
    }
    // Where the bound on the text's UTF-8 does not fit, its exact length is taken before the buffer is grown: a writer
    // sized for its rows' text is then not doubled (and copied, into fresh memory) for a bound its last rows never reach.
    const most = maxUtf8Bytes(s);
    this.field(4 + (this.at + 4 + most <= this.buf.length ? most : Buffer.byteLength(s, 'utf8')));
    const n = this.buf.write(s, this.at + 4, 'utf8');
    this.buf.writeInt32BE(n, this.at);
    this.at += 4 + n;
  }

  /** bigint, from a safe integer. */
  int8(v: number): void {
    if (!Number.isSafeInteger(v)) throw new Error(`${v} is not an integer a bigint column can take exactly`);
    const high = Math.floor(v / TWO_32);
    this.int64(high, v - high * TWO_32);
  }

  /** An 8-byte field: an int64 as its signed high and unsigned low 32 bits. */
  private int64(high: number, low: number): void {
    this.field(12);
    this.at = this.buf.writeInt32BE(8, this.at);
    this.at = this.buf.writeInt32BE(high, this.at);
    this.at = this.buf.writeUInt32BE(low, this.at);
  }

  /** point (x, y), as PostgreSQL reads a text cell's numbers (where -0 was written "0"). */
  point(x: number, y: number): void {
    this.field(20);
    this.at = this.buf.writeInt32BE(16, this.at);
    this.at = this.buf.writeDoubleBE(x + 0, this.at);
    this.at = this.buf.writeDoubleBE(y + 0, this.at);
  }

  /**
   * timestamptz, from a time as toISOString writes it (UTC, to the millisecond: how every time a load stores is
   * made). Any other text is refused, not read by Date.parse, which reads more than PostgreSQL would (February 30th
   * as March 2nd) and leaves a time without a zone to the machine's.
   */
  timestamptz(iso: string): void {
    // A load's rows mostly share one time (the import's): parsed once.
    if (this.lastTime?.text !== iso) {
      const ms = Date.parse(iso);
      // 24 characters: a year of four digits (toISOString signs the others).
      if (Number.isNaN(ms) || iso.length !== 24 || new Date(ms).toISOString() !== iso) {
        throw new Error(`'${iso}' is not a time as toISOString writes it (YYYY-MM-DDTHH:MM:SS.sssZ)`);
      }
      // In BigInt: microseconds from 2000 pass 2^53 before 1715 and after 2285.
      const micros = BigInt(ms - PG_EPOCH_MS) * 1000n;
      this.lastTime = { text: iso, high: Number(micros >> 32n), low: Number(micros & 0xffffffffn) };
    }
    this.int64(this.lastTime.high, this.lastTime.low);
  }

  /** bytea, its bytes as they are. */
  bytes(b: Uint8Array): void {
    this.field(4 + b.length);
    this.at = this.buf.writeInt32BE(b.length, this.at);
    this.buf.set(b, this.at);
    this.at += b.length;
  }

  /** The COPY data, trailer included; the writer is done. Its ArrayBuffer is its own (transferable). */
  finish(): Uint8Array {
    this.rowDone();
    this.room(2);
    this.at = this.buf.writeInt16BE(-1, this.at);
    return new Uint8Array(this.buf.buffer, this.buf.byteOffset, this.at);
  }
}

/**
 * The first field of each row of binary COPY data, as a bigint (the property id of a records.properties COPY), read
 * by the fields' lengths without decoding the rest.
 */
export function binaryCopyFirstInt8s(data: Uint8Array): number[] {
  const ids: number[] = [];
  if (data.length === 0) return ids;
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  let at = HEADER_BYTES - 4;
  at += 4 + view.getInt32(at);
  for (;;) {
    const fields = view.getInt16(at);
    at += 2;
    if (fields === -1) return ids;
    if (view.getInt32(at) !== 8) throw new Error('binary COPY data whose first field is not a bigint');
    ids.push(view.getInt32(at + 4) * TWO_32 + view.getUint32(at + 8));
    at += 12;
    for (let f = 1; f < fields; f++) at += 4 + Math.max(0, view.getInt32(at));
  }
}
