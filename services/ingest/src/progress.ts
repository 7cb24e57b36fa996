// A progress line with rate and ETA on stderr: redrawn in place on a terminal, every 10% otherwise (CI logs).
export class Progress {
  private readonly started = performance.now();
  private lastPercent = -10;

  constructor(
    private readonly label: string,
    private readonly total: number,
    private readonly stream: NodeJS.WriteStream = process.stderr,
  ) {}

  update(done: number): void {
    const elapsed = (performance.now() - this.started) / 1000;
    const rate = done / Math.max(elapsed, 0.001);
    const percent = this.total > 0 ? Math.floor((done / this.total) * 100) : 100;
    const eta = rate > 0 ? (this.total - done) / rate : 0;
    const width = 24;
    const filled = Math.round((percent / 100) * width);
    const text = `${this.label} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${percent}% ${done.toLocaleString('en-US')}/${this.total.toLocaleString('en-US')} ${Math.round(rate).toLocaleString('en-US')}/s ETA ${eta.toFixed(0)}s`;
    if (this.stream.isTTY) this.stream.write(`\r${text}`);
    else if (percent >= this.lastPercent + 10 || done === this.total) {
      this.lastPercent = percent;
      this.stream.write(`${text}\n`);
    }
  }

  done(done: number): number {
    if (this.stream.isTTY || this.lastPercent < 100) this.update(done);
    if (this.stream.isTTY) this.stream.write('\n');
    return (performance.now() - this.started) / 1000;
  }
}
