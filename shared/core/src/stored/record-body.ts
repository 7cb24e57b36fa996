// The body alone of a stored record document (stored-json.ts: "<body>\n<sales>\n<assessments>", one compressed value),
// for the reads that serve only the body: address, owner and parcel pages, and a repeat's re-read. The histories come
// after the body in the value, and a property's sale history has no bound (an import merges every row of a parcel's
// sales into it): decoding the whole value for a page would make every lookup of such a property pay for its
// whole history, synchronously, on the event loop. So the work is bounded by the body: a zstd value (encoding 2) is
// decoded chunk by chunk until the body's end is in one (zstd-v1.ts); a deflated one (encoding 1) by inflating a
// growing prefix of its bytes (a partial inflate gives a prefix of the text).
import { asBuffer, DEFLATE_V1, inflateV1, RAW, unknownEncoding, ZSTD_V1 } from './stored-format.js';
import { zstdDecodeUntil } from './zstd-v1.js';

const NEWLINE = 0x0a;
/** Deflated bytes inflated first: a whole typical body (~0.3 KB deflated) and more. */
const FIRST_PREFIX = 2_048;

/** The body of a stored record document (any encoding), without decoding the histories after it. */
export function decodeRecordBody(stored: Uint8Array): string {
  const buf = asBuffer(stored);
  if (buf[0] === RAW) {
    // A newline byte is never part of a multi-byte UTF-8 sequence: the body's end is the first one.
    const end = buf.indexOf(NEWLINE, 1);
    return buf.toString('utf8', 1, end < 0 ? buf.length : end);
  }
  if (buf[0] === ZSTD_V1) return zstdDecodeUntil(buf.subarray(1), NEWLINE).toString('utf8');
  if (buf[0] !== DEFLATE_V1) throw unknownEncoding(buf[0]);
  const packed = buf.subarray(1);
  for (let take = Math.min(FIRST_PREFIX, packed.length); ; take = Math.min(take * 4, packed.length)) {
    const whole = take === packed.length;
    const text = inflateV1(packed.subarray(0, take), !whole);
    const end = text.indexOf(NEWLINE);
    if (end >= 0) return text.toString('utf8', 0, end);
    if (whole) return text.toString('utf8');
  }
}
