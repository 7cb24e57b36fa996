// Reads that may lag a little (lookups, the type-ahead's PostgreSQL index, /usage) go to a streaming replica
// (DATABASE_READ_URL) when there is one; writes, imports, migrations, the ledger, the key lookup and the admin API
// stay on the primary, because they are never given the read side. A ReadPool has pg.Pool's `query`, so the code
// that reads does not change shape: requestPathClients gives each service `reads` (a ReadPool, or the request pool
// itself when there is no replica: everything then behaves as before), and the service hands it to what reads.
//
// Never a wrong answer, never a 5xx the primary could have given:
// - A read the replica cannot answer (refused, reset, timed out, shutting down, its pool's queue full, canceled by a
//   recovery conflict, a table it does not have yet) is run again on the primary. Errors that are the statement's
//   own (bad data, syntax) are not: the primary would say the same.
// - A replica that failed that way (not merely busy or in conflict) is marked down: for `downMs` (3 s) reads go
//   straight to the primary, at no cost. A probe every second measures its lag; it serves reads again once it has
//   answered a probe after the down time.
// - A replica further behind than `maxLagSeconds` (DATABASE_READ_MAX_LAG_SECONDS, 30 s) serves nothing until it has
//   caught up, and so does one not yet measured: a process starts on the primary and moves within a probe.
// - The replica gets half the primary's statement timeout (and a client-side wait just past it), so that a hung
//   replica leaves the rest of a lookup's deadline (the statement timeout, for all its statements) to the primary.
import { type Counter, metrics } from '@opentelemetry/api';
import type pg from 'pg';
import type { RequestPoolLimits } from '@pra/core/config';
import { createPool, isPoolQueueFull, isStoreUnavailable, type Pool } from './db.js';
import { logger } from './telemetry/logger.js';
import { observeGauges } from './telemetry/metrics.js';

/** What a reader uses of a pool: pg's promise `query` (text and values, or a query config, named or not). */
export type Queryable = Pick<pg.Pool, 'query'>;

export interface ReadPoolOptions {
  /** Further behind than this (seconds), the replica serves no reads (DATABASE_READ_MAX_LAG_SECONDS). */
  maxLagSeconds: number;
  /** How long reads skip a replica that failed (milliseconds). */
  downMs?: number;
  /** How often the replica's lag is measured (milliseconds); the probe is also what finds it answering again. */
  probeIntervalMs?: number;
  /** The process's name, in log lines (the pool's application_name). */
  name?: string;
}

export const READ_POOL_DEFAULTS = { downMs: 3_000, probeIntervalMs: 1_000 } as const;

/**
 * Where reads go now: `serving` (the replica), or the primary because the replica is `starting` (not measured yet),
 * `down` (failed within the down time, or not answering since) or `lagging` (further behind than the bound).
 */
export type ReplicaState = 'starting' | 'serving' | 'down' | 'lagging';

/** Why a read the replica failed was run on the primary (the reason attribute of pra.db.replica.fallbacks). */
export type FallbackReason = 'down' | 'busy' | 'conflict' | 'behind';

// SQLSTATE classes of a statement's own errors, the same on any server: data exception (22), integrity (23),
// syntax or access rule (42), program limit (54), feature not supported (0A), PL/pgSQL (P0), cardinality (21).
const OWN_ERROR = /^(22|23|42|54|0A|P0|21)/;
// ...except undefined objects: a replica that has not replayed a migration yet lacks its table, column or function.
const BEHIND = new Set(['42P01', '42703', '42883', '42704', '3F000']);
// A hot standby cancels a query whose snapshot or locks conflict with the WAL it replays ("conflict with recovery").
const RECOVERY_CONFLICT = new Set(['40001', '40P01']);
const SQLSTATE = /^[0-9A-Z]{5}$/;

/** Whether a read the replica failed goes to the primary, and why; null: the statement's own error, thrown. */
export function fallbackReason(err: unknown): FallbackReason | null {
  if (isPoolQueueFull(err)) return 'busy';
  const code = typeof err === 'object' && err !== null ? (err as { code?: unknown }).code : undefined;
  if (typeof code === 'string' && RECOVERY_CONFLICT.has(code)) return 'conflict';
  if (typeof code === 'string' && BEHIND.has(code)) return 'behind';
  if (isStoreUnavailable(err)) return 'down';
  // Any other server error (authentication, a dropped database, an internal error) or socket error (a name that
  // does not resolve): the replica cannot answer, the primary may.
  if (typeof code === 'string' && (SQLSTATE.test(code) || /^E[A-Z]+$/.test(code)))
    return OWN_ERROR.test(code) ? null : 'down';
  return null;
}

/**
 * The replica's limits, from the request pool's: half its statement timeout (a client-side wait an eighth past
 * that), and a connect timeout no longer than that, so a read the replica does not answer still has time left on
 * the primary within a lookup's deadline. 4 s by default: 2 s on the replica, given up after 2.5 s.
 */
export function replicaLimits(l: RequestPoolLimits): RequestPoolLimits & { queryTimeoutMs: number } {
  const statementTimeoutMs = Math.max(1, Math.floor(l.statementTimeoutMs / 2));
  return {
    ...l,
    statementTimeoutMs,
    connectTimeoutMs: Math.min(l.connectTimeoutMs, statementTimeoutMs),
    queryTimeoutMs: statementTimeoutMs + Math.max(1, Math.floor(l.statementTimeoutMs / 8)),
  };
}

interface ProbeRow {
  standby: boolean;
  /** Bytes of WAL received and replayed (LSNs as numbers); null on a primary, or before streaming has started. */
  received: number | null;
  replayed: number | null;
  /** Whether a WAL receiver runs (the view lists one, whatever its state, to any role). */
  receiving: boolean;
}

// Measured on the replica itself. `now() - pg_last_xact_replay_timestamp()` is wrong both ways: a primary that
// wrote nothing for an hour makes an up-to-date replica look an hour behind, and so does one long import
// transaction (no commit to replay while it runs). Instead each probe notes the WAL position the replica has
// received; once it has replayed everything it received, it is 0 behind; otherwise its lag is the time since the
// oldest probe that saw WAL it still has not replayed (a lower bound, to the probe interval: the commits in that WAL
// were made before that probe). What it cannot see is WAL not received yet: while it has no WAL receiver (the
// primary unreachable, replication broken), the time since it lost it counts as lag, so that a replica cut off
// from its primary stops serving after the bound instead of answering from an ever older store.
const PROBE = `SELECT pg_is_in_recovery() AS standby,
  pg_wal_lsn_diff(pg_last_wal_receive_lsn(), '0/0') AS received,
  pg_wal_lsn_diff(pg_last_wal_replay_lsn(), '0/0') AS replayed,
  EXISTS (SELECT 1 FROM pg_stat_wal_receiver) AS receiving`;

/** At most this many WAL positions are remembered while replay is behind (the oldest is always kept). */
const MAX_BACKLOG = 600;

const fallbackCounter = (() => {
  let made: Counter | undefined;
  return () =>
    (made ??= metrics.getMeter('property-api').createCounter('pra.db.replica.fallbacks', {
      description:
        'Reads the replica (DATABASE_READ_URL) failed and the primary answered, by reason: down (unreachable, timed out, shutting down), busy (its pool queue full), conflict (canceled by WAL replay), behind (a table or column it has not replayed yet)',
      unit: '{read}',
    }));
})();

/** Reads on a replica, falling back to the primary (see the top of this file). */
export class ReadPool implements Queryable {
  /** Reads answered by each (a fallback counts on the primary), and the reads that fell back. */
  readonly counts = { replica: 0, primary: 0, fallbacks: 0 };
  private readonly maxLagSeconds: number;
  private readonly downMs: number;
  private readonly probeIntervalMs: number;
  private readonly name: string;
  private downUntil = 0;
  private failedAt = Number.NEGATIVE_INFINITY;
  /** When the last probe that succeeded was sent (performance.now()). */
  private answeredAt: number | undefined;
  private lag: number | undefined;
  private backlog: { position: number; at: number }[] = [];
  private notReceivingSince: number | undefined;
  private probing: Promise<void> | undefined;
  private reported: ReplicaState = 'starting';
  private readonly timer: NodeJS.Timeout;
  private readonly stopGauges: () => void;
  private ended = false;

  /** The read side of `primary`, on `replica`. */
  constructor(
    readonly primary: Pool,
    readonly replica: Pool,
    opts: ReadPoolOptions,
  ) {
    this.maxLagSeconds = opts.maxLagSeconds;
    this.downMs = opts.downMs ?? READ_POOL_DEFAULTS.downMs;
    this.probeIntervalMs = opts.probeIntervalMs ?? READ_POOL_DEFAULTS.probeIntervalMs;
    this.name = opts.name ?? 'property-records';
    this.timer = setInterval(() => void this.probe(), this.probeIntervalMs);
    this.timer.unref();
    void this.probe();
    this.stopGauges = observeGauges(
      [
        {
          name: 'pra.db.replica.lag',
          description:
            'How far the read replica (DATABASE_READ_URL) is behind, measured on it: how long WAL it received has waited to be replayed (0 when it replayed all it received), or since it lost its WAL receiver. Not reported while it does not answer',
          unit: 's',
        },
        {
          name: 'pra.db.replica.serving',
          description:
            'Whether reads go to the replica (1), or to the primary (0): the replica is down, further behind than DATABASE_READ_MAX_LAG_SECONDS, or not measured yet',
          unit: '1',
        },
      ],
      async () => {
        const state = this.state();
        const values: Record<string, number> = { 'pra.db.replica.serving': state === 'serving' ? 1 : 0 };
        if (state !== 'down' && this.lag !== undefined) values['pra.db.replica.lag'] = this.lag;
        return values;
      },
    );
  }

  /** pg.Pool's query, promise forms only: on the replica when it serves, else (or when it fails) on the primary. */
  readonly query = ((...args: unknown[]) => this.read(args)) as Queryable['query'];

  state(now = performance.now()): ReplicaState {
    if (this.answeredAt === undefined && this.failedAt === Number.NEGATIVE_INFINITY) return 'starting';
    if (this.answeredAt === undefined || this.answeredAt < this.failedAt || now < this.downUntil) return 'down';
    if (this.lag === undefined || this.lag > this.maxLagSeconds) return 'lagging';
    // Not measured for longer than the bound (its probes refused: its pool is busy): how far behind it is now is
    // unknown, so it serves nothing until a probe gets through.
    if (now - this.answeredAt > this.maxLagSeconds * 1000 + this.probeIntervalMs) return 'lagging';
    return 'serving';
  }

  /** The lag of the last probe (seconds); undefined while the replica is down or not measured yet. */
  lagSeconds(): number | undefined {
    return this.state() === 'down' ? undefined : this.lag;
  }

  /** Measures the replica now (the timer does it every probe interval); resolves when done. */
  probe(): Promise<void> {
    if (this.ended) return Promise.resolve();
    this.probing ??= this.measure().finally(() => {
      this.probing = undefined;
    });
    return this.probing;
  }

  /** Stops measuring and closes the replica's connections (not the primary's). */
  async end(): Promise<void> {
    if (this.ended) return;
    this.ended = true;
    clearInterval(this.timer);
    this.stopGauges();
    await this.probing;
    await this.replica.end();
  }

  private async read(args: unknown[]): Promise<unknown> {
    const last = args[args.length - 1];
    if (typeof last === 'function' || typeof (args[0] as { submit?: unknown } | undefined)?.submit === 'function')
      throw new TypeError('ReadPool.query takes neither a callback nor a submittable: await its promise');
    const run = (pool: Pool) => (pool.query as (...a: unknown[]) => Promise<unknown>)(...args);
    if (this.state() !== 'serving') {
      this.counts.primary++;
      return run(this.primary);
    }
    try {
      const result = await run(this.replica);
      this.counts.replica++;
      return result;
    } catch (err) {
      const reason = fallbackReason(err);
      if (reason === null) throw err;
      if (reason === 'down') this.markDown(err);
      this.counts.fallbacks++;
      fallbackCounter().add(1, { reason });
      this.counts.primary++;
      return run(this.primary);
    }
  }

  private markDown(err: unknown): void {
    const now = performance.now();
    this.failedAt = now;
    this.downUntil = Math.max(this.downUntil, now + this.downMs);
    this.report(err);
  }

  private async measure(): Promise<void> {
    const sent = performance.now();
    try {
      const { rows } = await this.replica.query<ProbeRow>(PROBE);
      this.lag = this.lagOf(rows[0]!, performance.now());
      this.answeredAt = sent;
    } catch (err) {
      // A full queue says the replica is busy serving reads, not that it is gone.
      if (!isPoolQueueFull(err)) this.markDown(err);
    }
    this.report();
  }

  private lagOf(r: ProbeRow, now: number): number {
    if (!r.standby) {
      // A primary (a replica promoted, or DATABASE_READ_URL naming the primary): nothing to wait for.
      this.backlog = [];
      this.notReceivingSince = undefined;
      return 0;
    }
    const replayed = r.replayed ?? 0;
    const received = r.received ?? replayed;
    while (this.backlog.length > 0 && this.backlog[0]!.position <= replayed) this.backlog.shift();
    if (received > replayed && (this.backlog.at(-1)?.position ?? -1) < received) {
      if (this.backlog.length >= MAX_BACKLOG) this.backlog.splice(1, 1);
      this.backlog.push({ position: received, at: now });
    }
    let lag = this.backlog.length > 0 ? (now - this.backlog[0]!.at) / 1000 : 0;
    if (r.receiving) this.notReceivingSince = undefined;
    else {
      this.notReceivingSince ??= now;
      lag = Math.max(lag, (now - this.notReceivingSince) / 1000);
    }
    return lag;
  }

  /** One log line when where reads go changes. */
  private report(err?: unknown): void {
    const state = this.state();
    if (state === this.reported) return;
    const was = this.reported;
    this.reported = state;
    const fields = { pool: this.name, state, was, lagSeconds: this.lag };
    if (state === 'serving') logger.info(fields, 'read replica serving reads');
    else if (state === 'lagging')
      logger.warn(fields, `read replica more than ${this.maxLagSeconds} s behind: reads go to the primary`);
    else if (state === 'down')
      logger.warn(
        { ...fields, err: err instanceof Error ? err.message : String(err ?? 'no answer') },
        `read replica not answering: reads go to the primary for at least ${this.downMs} ms`,
      );
  }
}

export interface ReadReplicaOptions extends ReadPoolOptions {
  /** Connections to the replica (the request pool's size). */
  size: number;
  /** The request pool's limits; the replica gets replicaLimits() of them. */
  limits?: RequestPoolLimits;
}

/** The read side of a request pool: a pool on the replica at `url` (its limits from the request pool's). */
export function createReadPool(pool: Pool, url: string, opts: ReadReplicaOptions): ReadPool {
  const name = opts.name ?? 'property-records';
  const replica = createPool(url, opts.size, name, opts.limits ? replicaLimits(opts.limits) : undefined);
  return new ReadPool(pool, replica, { ...opts, name });
}
