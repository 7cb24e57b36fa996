// A token bucket in one process: `rate` tokens a second, holding at most `rate` (one second's worth). What bounds
// how many keys a gateway asks account-billing about (client/key-cache.ts) and how many key lookups one
// account-billing process sends to PostgreSQL (domain/key-lookup.ts). No I/O: the gateway plugin's bundle carries it.
export class TokenBucket {
  private tokens: number;
  private at: number;
  constructor(
    private readonly rate: number,
    private readonly now: () => number = Date.now,
  ) {
    this.tokens = rate;
    this.at = now();
  }

  /** Takes a token: false (and nothing taken) when fewer than one is left. */
  take(): boolean {
    const now = this.now();
    this.tokens = Math.min(this.rate, this.tokens + (Math.max(0, now - this.at) * this.rate) / 1000);
    this.at = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}
