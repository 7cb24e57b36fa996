// A worker that runs one loop in the background until stopped: the ledger writer and the call flusher. stop() ends
// a sleep at once and waits for the round in flight, so a process shutting down never cuts a write in half.
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';

export abstract class StoppableLoop {
  /** This worker's name among its peers; unique per process by default (a replaced process is a new consumer). */
  readonly consumer: string;
  protected running = false;
  private loop: Promise<void> = Promise.resolve();
  private sleeping?: { timer: NodeJS.Timeout; wake: () => void };

  constructor(consumer?: string) {
    this.consumer = consumer ?? `${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  /** Stops; the round in flight is finished first. */
  async stop(): Promise<void> {
    this.running = false;
    if (this.sleeping) {
      clearTimeout(this.sleeping.timer);
      this.sleeping.wake();
    }
    await this.loop;
  }

  /** The loop: runs while `running`. */
  protected abstract run(): Promise<void>;

  /** Waits `ms`, or less if stop() is called meanwhile (at once when already stopped). */
  protected sleep(ms: number): Promise<void> {
    if (!this.running) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.sleeping = undefined;
        resolve();
      }, ms);
      this.sleeping = { timer, wake: resolve };
    });
  }
}
