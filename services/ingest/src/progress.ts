// Progress lines on stderr: redrawn in place on a terminal; in a log (CI), a line every 10% (or every 10 s when the
// total is not known) and one at the end.
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;

abstract class ProgressLine {
  private started = performance.now();
  private lastPercent = -10;
  private lastLogged = 0;

  constructor(private readonly stream: NodeJS.WriteStream) {}

  /** Counts time and logged shares anew: another step of the work begins (`at`: when it began). */
  protected restart(at = performance.now()): void {
    this.started = at;
    this.lastPercent = -10;
    this.lastLogged = 0;
  }

  protected elapsed(): number {
    return (performance.now() - this.started) / 1000;
  }

  /** Draws `text`; `percent` is null when the total is not known. */
  protected draw(text: string, percent: number | null, final: boolean): void {
    if (this.stream.isTTY) {
      this.stream.write(`\r${text}\x1b[K${final ? '\n' : ''}`);
      return;
    }
    const now = this.elapsed();
    const due = percent === null ? now - this.lastLogged >= 10 : percent >= this.lastPercent + 10;
    // The closing line, unless the line at 100% was just written.
    const closing = final && !(percent === 100 && this.lastPercent === 100);
    if (due || closing) {
      if (percent !== null) this.lastPercent = percent;
      this.lastLogged = now;
      this.stream.write(`${text}\n`);
    }
  }
}

/** Items done out of a known total: `label [#####...] 40% 4,000/10,000 1,200/s ETA 5s`. */
export class Progress extends ProgressLine {
  private finished = false;

  constructor(
    private readonly label: string,
    private readonly total: number,
    stream: NodeJS.WriteStream = process.stderr,
  ) {
    super(stream);
  }

  update(done: number, final = false): void {
    const rate = done / Math.max(this.elapsed(), 0.001);
    const percent = this.total > 0 ? Math.min(100, Math.floor((done / this.total) * 100)) : 100;
    const eta = rate > 0 ? Math.max(0, this.total - done) / rate : 0;
    const filled = Math.round((percent / 100) * 24);
    const bar = `[${'#'.repeat(filled)}${'.'.repeat(24 - filled)}]`;
    this.draw(
      `${this.label} ${bar} ${percent}% ${fmt(done)}/${fmt(this.total)} ${fmt(rate)}/s ETA ${eta.toFixed(0)}s`,
      percent,
      final || done === this.total,
    );
    this.finished ||= final || done === this.total;
  }

  done(done: number): number {
    if (!this.finished) this.update(done, true);
    return this.elapsed();
  }
}

/** What a read of the file before its rows (import-csv.ts ImportPrereadEvent) is said to read. */
const PREREAD_STEPS = {
  apart: "which parcels' rows are apart",
  'zip-evidence': 'its ZIP evidence',
} as const;

/**
 * Rows of a file read so far: `label: 12,000 rows, 8,100 rows/s, 1.4 MB of 2.9 MB (48%), ETA 2s`; and before them, a
 * read of the whole file first: `label: reading which parcels' rows are apart first, 20.0 MB of 52.0 MB (38%), ETA 3s`.
 * Each starts its clock anew, so the rows' rate counts the time they take.
 */
export class FileProgress extends ProgressLine {
  /** The read before the rows going on, if one is, and when it was last told of (its end, once the rows are). */
  private preread: keyof typeof PREREAD_STEPS | null = null;
  private prereadTold = 0;

  constructor(
    private readonly label: string,
    stream: NodeJS.WriteStream = process.stderr,
  ) {
    super(stream);
  }

  /** A read of the file before its rows: `bytesRead` of `totalBytes` (null: not known). */
  reading(p: { step: keyof typeof PREREAD_STEPS; bytesRead: number; totalBytes: number | null }): void {
    if (this.preread !== p.step) {
      this.preread = p.step;
      this.restart();
    }
    this.prereadTold = performance.now();
    const what = `${this.label}: reading ${PREREAD_STEPS[p.step]} first`;
    if (p.totalBytes === null || p.totalBytes <= 0) {
      this.draw(`${what}, ${mb(p.bytesRead)} read`, null, false);
      return;
    }
    const share = Math.min(1, p.bytesRead / p.totalBytes);
    const percent = Math.floor(share * 100);
    this.draw(`${what}, ${mb(p.bytesRead)} of ${mb(p.totalBytes)} (${percent}%), ${this.eta(share)}`, percent, false);
  }

  /** The time left, from the share done so far. */
  private eta(share: number): string {
    const seconds = Math.max(this.elapsed(), 0.001);
    return `ETA ${Math.max(0, share > 0 ? (seconds * (1 - share)) / share : 0).toFixed(0)}s`;
  }

  /**
   * `rowsRead`: rows written. `totalRows`: the file's rows, when counted before (a re-import: import-csv.ts); the
   * share done is then told by rows. Otherwise by the bytes read (`bytesPassed`, or `bytesRead`), and, while rows are
   * held back to be written at the file's end (`rowsHeld`: a parcel's rows apart, held-rows.ts), the share of the rows
   * read that are written: bytes alone would tell a file read to its end as done while its held rows are not written,
   * and the bytes of the rows written alone (`bytesRead`) stop at the earliest row held.
   */
  update(
    p: {
      rowsRead: number;
      bytesRead: number;
      bytesPassed?: number;
      rowsHeld?: number;
      totalBytes: number | null;
      totalRows?: number;
    },
    final = false,
  ): void {
    // The rows' clock starts where the read before them ended, not at their first batch written (its rows would
    // count as taking no time).
    if (this.preread !== null) {
      this.preread = null;
      this.restart(this.prereadTold);
    }
    const seconds = Math.max(this.elapsed(), 0.001);
    const rate = `${fmt(p.rowsRead / seconds)} rows/s`;
    // Rows counted before the import, unless the file has grown since (more rows written than counted).
    if (p.totalRows !== undefined && p.totalRows > 0 && p.rowsRead <= p.totalRows) {
      const share = p.rowsRead / p.totalRows;
      const percent = Math.floor(share * 100);
      const text = `${this.label}: ${fmt(p.rowsRead)} of ${fmt(p.totalRows)} rows (${percent}%), ${rate}, ${this.eta(share)}`;
      this.draw(text, percent, final);
      return;
    }
    const parts = [`${this.label}: ${fmt(p.rowsRead)} rows`, rate];
    let percent: number | null = null;
    const held = p.rowsHeld ?? 0;
    if (p.totalBytes !== null && p.totalBytes > 0) {
      const passed = p.bytesPassed ?? p.bytesRead;
      const written = held > 0 ? p.rowsRead / (p.rowsRead + held) : 1;
      const share = Math.min(1, (passed / p.totalBytes) * written);
      percent = Math.floor(share * 100);
      const heldBack = held > 0 ? `, ${fmt(held)} rows held back` : '';
      parts.push(`${mb(passed)} of ${mb(p.totalBytes)}${heldBack} (${percent}%)`, this.eta(share));
    } else parts.push(`${mb(p.bytesPassed ?? p.bytesRead)} read${held > 0 ? `, ${fmt(held)} rows held back` : ''}`);
    this.draw(parts.join(', '), percent, final);
  }
}
