// A Redis node's clock as seen from this process: the offset between the node's TIME and this process's monotonic
// clock (performance.now: a step of the host's wall clock, NTP's, moves nothing here), measured again every minute,
// and at once after a deadline was refused as past (a suspended host's monotonic clock stood still while Redis's went
// on; a node's clock stepped). A charge's deadline is sent on it (client/credit-meter.ts): a script compares it with the
// node's own TIME, so the node's clock and this process's need not agree.
/** How often the offset is measured again. */
const CHECK_EVERY_MS = 60_000;
/** A measurement whose round trip took longer is dropped (a slow Redis says little of its clock). */
const MAX_ROUND_TRIP_MS = 250;

export class RedisClock {
  /** The node's time (ms since the epoch) less this process's monotonic time, when known. */
  private offsetMs: number | null = null;
  /** Half the round trip of the measurement: how far off the offset may be. */
  private errorMs = 0;
  private measuredAt = Number.NEGATIVE_INFINITY;
  private measuring = false;

  constructor(
    /** The node's TIME: [seconds, microseconds]. */
    private readonly time: () => Promise<unknown[]>,
    private readonly mono: () => number = () => performance.now(),
  ) {
    this.measure();
  }

  /** Whether the offset has been measured. */
  get known(): boolean {
    return this.offsetMs !== null;
  }

  /**
   * The node's time `inMs` from now, less the measurement's error (a deadline early is safe: the call is then refused
   * a little sooner; late is not); 0 while the offset is not known.
   */
  deadlineIn(inMs: number): number {
    const now = this.mono();
    if (now - this.measuredAt > CHECK_EVERY_MS) this.measure();
    return this.offsetMs === null ? 0 : Math.floor(now + inMs + this.offsetMs - this.errorMs);
  }

  /** Measures again now (not waiting for the minute): a deadline was refused as past, the offset may be stale. */
  measureSoon(): void {
    this.measure();
  }

  private measure(): void {
    if (this.measuring) return;
    this.measuring = true;
    const sent = this.mono();
    this.time()
      .then(
        ([seconds, micros]) => {
          const received = this.mono();
          if (received - sent > MAX_ROUND_TRIP_MS) return;
          this.offsetMs = Number(seconds) * 1000 + Number(micros) / 1000 - (sent + received) / 2;
          this.errorMs = (received - sent) / 2;
          this.measuredAt = received;
        },
        () => {},
      )
      .finally(() => {
        this.measuring = false;
      });
  }
}
