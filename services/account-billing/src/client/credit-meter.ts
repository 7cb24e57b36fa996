// The billing client of the services: charge credits for the records a request returns (SPEC 4.10) and read a
// balance. Services and benchmarks depend on the CreditMeter interface; RedisCreditMeter is the real one (one Lua
// script in Redis per charge; account-billing's ledger writer makes it durable).
import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { DEFAULT_BILLING_OUTBOX_LIMIT } from '@pra/core/config';
import type { Identity } from '@pra/core/auth';
import { ApiError } from '@pra/core/errors';
import { currentTraceparent, logger } from '@pra/platform/telemetry';
import { BALANCE_SCRIPT, CHARGE_SCRIPT, PRECHECK_SCRIPT, REVERSE_SCRIPT } from '../data/charge-script.js';
import { layoutFor, type RedisLayout } from '../data/redis-layout.js';
import { newEventId } from '../domain/usage-event.js';
import { RedisClock } from './redis-clock.js';

export { billingBucket, layoutFor, redisLayout, type RedisLayout } from '../data/redis-layout.js';

/**
 * A metered call, in one shape from the route that reads it to the charge script (issue 35: it was renamed twice on
 * the way). The lookup builds it (routes/metered-call.ts), its domain reads the cost parameters, chargePage and the
 * meter read the rest; no layer renames a field.
 */
export interface ChargeRequest {
  who: Identity;
  /** The transaction it is charged under (from its Idempotency-Key, or its request id). */
  transactionId: string;
  /**
   * The call's own id (its X-Request-Id): the charge record keeps it, so that this call's count is its charge's, and
   * only this call can reverse the charge (a 503 whose charge's answer was lost). Default: the transaction id (an
   * unkeyed call's transaction is its request id).
   */
  requestId?: string;
  /** The calls this call counts for in /usage, as the gateway's quota counted it (a batch: by its entries); default 1. */
  calls?: number;
  /** The path served (an alias is billed under its own path). */
  endpoint: string;
  /** What was asked, canonical (path and query): a transaction id repeated for another request is refused. */
  fingerprint: string;
  /** How long the charge is remembered for repeats (default IDEMPOTENCY_TTL_SECONDS; keyed requests: 24 h). */
  keepSeconds?: number;
  /** `preview=true`: answer what the call would cost, charge nothing (the caller never charges a preview). */
  preview?: boolean;
  /** `max_credits`: a call costing more is refused (402) before any charge. */
  maxCredits?: number;
}

/** The page a charge is for. */
export interface ChargedPage {
  /** Records found for this page: the most that can be charged. */
  records: number;
  /** What a repeat needs to answer with the records this charge paid for (opaque here; no '|'). */
  receipt?: string;
}

/** A transaction that was charged: what the pre-check or charge answers a repeat with. */
export interface PaidTransaction {
  /** Credits charged = records returned by the first call. */
  granted: number;
  /** The balance after the first call. */
  remaining: number;
  /** The receipt the first call stored ('' when it stored none). */
  receipt: string;
}

export interface ChargeResult {
  /** Credits charged = records to return (0 only when the balance is empty: the caller answers 402). */
  granted: number;
  /** Balance after this call. */
  remaining: number;
  /** True when this transaction id was charged before; nothing was charged again. */
  repeated: boolean;
  /** A repeat's receipt, as the first charge stored it ('' for a new charge). */
  receipt: string;
}

/** What the pre-check says: a repeat of a charged transaction, or a new one and the balance it may spend. */
export type Precheck = { kind: 'repeat'; paid: PaidTransaction } | { kind: 'new'; balance: number };

/** Who asks, before anything is read: the transaction and the request it belongs to (of the call's ChargeRequest). */
export type PrecheckRequest = Pick<ChargeRequest, 'who' | 'transactionId' | 'requestId' | 'fingerprint'>;

/**
 * How long a transaction id's result is remembered: a replay or retry of the same signed request is accepted for
 * SIGNATURE_MAX_AGE_SECONDS (30 s), so two minutes covers it with clock skew to spare. Each record takes about
 * 170 bytes of Redis memory (measured by the tests: the key, the counts, a 22-character hash of the request) plus
 * the page's receipt, about 18 bytes a record (id and digest; ~2 KB for 100): at 1,000 charged requests a second of 10 records, about
 * 30 MB at any time, flat. Keyed requests keep theirs 24 h: that is what an Idempotency-Key costs.
 */
export const IDEMPOTENCY_TTL_SECONDS = 120;

/** What a charge remembers of its request: a short hash, never the URL itself. */
export const requestFingerprint = (request: string) =>
  createHash('sha256').update(request).digest('base64url').slice(0, 22);

type ChargeRedis = Redis & {
  pra_charge(...args: (string | number)[]): Promise<[number, string, string]>;
  pra_precheck(...args: (string | number)[]): Promise<[number, string, string?]>;
  pra_balance(...args: (string | number)[]): Promise<number>;
  pra_reverse(...args: (string | number)[]): Promise<number>;
};

/** How long a charge's unknown outcome is worked out by asking again (the default of resolveWithinMs). */
export const CHARGE_RESOLVE_WITHIN_MS = 5_000;
/** The charge script's answer to a charge run after its call's deadline (data/charge-script.ts). */
const PAST_DEADLINE = -3;
/** A charge gives up (503) once less than this is left of its resolve window after an attempt failed. */
const GIVE_UP_MARGIN_MS = 250;
/** The longest pause between two attempts at a charge whose outcome is unknown. */
export const CHARGE_RETRY_PAUSE_MAX_MS = 1_000;
/**
 * The longest a charge can take, its outcome worked out: the last attempt may start one pause after the resolve
 * window closes and wait out the Redis command timeout (gateway/kong/kong.yml's read_timeout must cover it).
 */
export const chargeWorstCaseMs = (resolveWithinMs: number, commandTimeoutMs: number) =>
  resolveWithinMs + CHARGE_RETRY_PAUSE_MAX_MS + commandTimeoutMs;

export interface MeterOptions {
  now?: () => number;
  /** How long an unknown outcome (a timeout) is worked out by asking again before the request gives up. */
  resolveWithinMs?: number;
  /**
   * The outbox's high-water mark (all its streams together: each of a cluster's gets an equal part): past it charges
   * are refused (503, Retry-After) until the ledger catches up.
   */
  outboxLimit?: number;
  /**
   * Charges carry their call's deadline (default): one run after it is refused. Off, a charge that ran late is only
   * undone by the call's reversal (what the tests of the reversal path turn it off for).
   */
  deadlines?: boolean;
}

/**
 * How long a stopping process waits for its pending reversals: inside the 10 s a server is given to stop
 * (@pra/platform's runServer exits then), after its connections close.
 */
export const REVERSALS_SETTLE_MS = 5_000;

/** The longest pause between two attempts at a reversal while billing does not answer. */
export const REVERSAL_RETRY_PAUSE_MAX_MS = 5_000;

/** The 402 of an account with nothing left to spend: the charge's, and a metered path's before it reads. */
export const noCreditsLeft = () =>
  new ApiError('insufficient_credits', 'No credits remaining, or every credit grant has expired');

/** A script's refusal as the client's ApiError (the statuses are the scripts', data/charge-script.ts). */
function refusal(status: number): ApiError | undefined {
  switch (status) {
    case 2:
      return new ApiError(
        'idempotency_key_reused',
        'This Idempotency-Key (or request id) was already used for a different request: use a new key for a new request',
      );
    case -1:
      return new ApiError('unavailable', 'Balances are being reloaded; the request was not charged. Retry shortly.');
    case -2:
      return new ApiError(
        'unavailable',
        'Billing is catching up on its ledger; the request was not charged. Retry after the time in Retry-After.',
        0,
        { 'retry-after': '30' },
      );
    case PAST_DEADLINE:
      return new ApiError(
        'unavailable',
        'Billing did not answer in time: this request was not charged. Retry shortly; an Idempotency-Key keeps a retry from being charged twice.',
        0,
        { 'retry-after': '2' },
      );
    case 3:
      return noCreditsLeft();
    default:
      return undefined;
  }
}

const paid = (text: string, receipt: string | undefined): PaidTransaction => {
  const [granted, remaining] = text.split(':').map(Number) as [number, number];
  return { granted, remaining, receipt: receipt ?? '' };
};

/** What a metered service needs of billing. */
export interface CreditMeter {
  /** Charges up to `records` credits once per transaction id; a repeat answers as the first did. */
  charge(r: ChargeRequest & ChargedPage): Promise<ChargeResult>;
  /**
   * Before any store read: the first result of a transaction charged before (a repeat), or the balance to go ahead
   * with.
   * Refuses what the charge would refuse without reading anything: a 402 when the balance is 0, a 503 while
   * balances are not loaded or the outbox is past its mark, a 400 for a transaction id of another request.
   */
  precheck(r: PrecheckRequest): Promise<Precheck>;
  /** The live balance (unexpired credits); null while balances are not loaded. */
  balance(accountId: number): Promise<number | null>;
}

/** A charge answered 503 (its answer lost) that is reversed once billing answers again. */
interface PendingReversal {
  r: ChargeRequest;
  traceparent: string;
  /** The reversal's own event id: the same for every attempt (the ledger writes it once). */
  eventId: string;
  attempt: number;
}

export class RedisCreditMeter implements CreditMeter {
  readonly layout: RedisLayout;
  private readonly redis: ChargeRedis;

  private readonly now: () => number;
  private readonly resolveWithinMs: number;
  private readonly outboxLimit: number;

  constructor(redis: Redis, prefix: string, o: MeterOptions = {}) {
    this.layout = layoutFor(redis, prefix);
    this.now = o.now ?? Date.now;
    this.resolveWithinMs = o.resolveWithinMs ?? CHARGE_RESOLVE_WITHIN_MS;
    // The mark is for all of the outbox: in a cluster each of its streams (one per shard) gets its part, so that
    // Redis as a whole never holds more than the mark, whatever the number of streams.
    this.outboxLimit = Math.max(
      1,
      Math.ceil((o.outboxLimit ?? DEFAULT_BILLING_OUTBOX_LIMIT) / this.layout.shards.length),
    );
    if (!('pra_charge' in redis)) redis.defineCommand('pra_charge', { numberOfKeys: 5, lua: CHARGE_SCRIPT });
    if (!('pra_precheck' in redis)) redis.defineCommand('pra_precheck', { numberOfKeys: 5, lua: PRECHECK_SCRIPT });
    if (!('pra_balance' in redis)) redis.defineCommand('pra_balance', { numberOfKeys: 3, lua: BALANCE_SCRIPT });
    if (!('pra_reverse' in redis)) redis.defineCommand('pra_reverse', { numberOfKeys: 5, lua: REVERSE_SCRIPT });
    this.redis = redis as ChargeRedis;
    this.deadlines = o.deadlines ?? true;
    // Each shard's clock measured from the start, so that the first charges carry their deadline.
    if (this.deadlines) for (const shard of this.layout.shards) this.clockOf(shard.loaded);
  }

  private readonly deadlines: boolean;
  /** The clock of the node that runs the scripts of each shard (by its `loaded` key: the charges' KEYS[3]). */
  private readonly clocks = new Map<string, RedisClock>();

  private clockOf(shardKey: string): RedisClock {
    let clock = this.clocks.get(shardKey);
    if (!clock) {
      // TIME through a script on the shard's key: it runs on the node that runs the shard's charges.
      clock = new RedisClock(() => this.redis.eval("return redis.call('TIME')", 1, shardKey) as Promise<unknown[]>);
      this.clocks.set(shardKey, clock);
    }
    return clock;
  }

  /** Whether the account's charges carry a deadline yet (its shard's clock is measured at start, then every minute). */
  knowsRedisClock(accountId: number): boolean {
    return this.clocks.get(this.layout.shard(accountId).loaded)?.known ?? false;
  }

  /** The charge's keys: all of one slot in a cluster (data/redis-layout.ts). */
  private keys(accountId: number, transactionId: string): string[] {
    const l = this.layout;
    const shard = l.shard(accountId);
    return [l.grants(accountId), l.expiry(accountId), shard.loaded, l.charged(accountId, transactionId), shard.outbox];
  }

  async precheck(r: PrecheckRequest): Promise<Precheck> {
    let reply: [number, string, string?];
    try {
      reply = await this.redis.pra_precheck(
        ...this.keys(r.who.accountId, r.transactionId),
        this.now(),
        requestFingerprint(r.fingerprint),
        this.outboxLimit,
        r.requestId ?? r.transactionId,
      );
    } catch {
      // A read: nothing was charged, whatever happened to it.
      throw new ApiError('unavailable', 'Billing is unavailable; the request was not charged. Retry shortly.');
    }
    const [status, text, receipt] = reply;
    const refused = refusal(status);
    if (refused) throw refused;
    return status === 1 ? { kind: 'repeat', paid: paid(text, receipt) } : { kind: 'new', balance: Number(text) };
  }

  /**
   * Charges once per transaction id. When Redis does not answer in time the charge may have run, or may still run
   * (a command queued in a paused Redis): the outcome is worked out before answering by sending the same charge
   * again, which the script answers with the first result if it ran, and charges once if it did not. Only a charge
   * that was never sent (no connection) is reported as not charged.
   */
  async charge(r: ChargeRequest & ChargedPage): Promise<ChargeResult> {
    const keys = this.keys(r.who.accountId, r.transactionId);
    const fingerprint = requestFingerprint(r.fingerprint);
    const traceparent = currentTraceparent();
    const keep = r.keepSeconds ?? IDEMPOTENCY_TTL_SECONDS;
    // One id for this charge's usage event, whatever the number of attempts (the script charges once anyway);
    // time-ordered, so that the ledger's indexes on it grow at one end (domain/usage-event.ts).
    const eventId = newEventId();
    let reply: [number, string, string] | undefined;
    let mayHaveRun = false;
    // On the monotonic clock, as the deadline below: a step of the wall clock moves neither.
    const giveUpAt = performance.now() + this.resolveWithinMs;
    // The earliest the call may answer 503 "not charged" (below), on the clock of the Redis node that runs the account's
    // charges: an attempt that runs there later (one that waited in a paused Redis) is refused by the script, so it
    // never needs the reversal (which a process that dies meanwhile never sends). 0 (no deadline) until the clock is
    // known, or when deadlines are off.
    const deadline = this.deadlines ? this.clockOf(keys[2]!).deadlineIn(this.resolveWithinMs - GIVE_UP_MARGIN_MS) : 0;
    for (let attempt = 0; reply === undefined; attempt++) {
      try {
        reply = await this.redis.pra_charge(
          ...keys,
          r.transactionId,
          r.records,
          this.now(),
          r.who.accountId,
          r.who.keyId,
          r.endpoint,
          keep,
          fingerprint,
          traceparent,
          eventId,
          r.receipt ?? '',
          this.outboxLimit,
          r.requestId ?? r.transactionId,
          r.calls ?? 1,
          deadline,
        );
      } catch (err) {
        // ioredis refuses at once, without sending, when it has no connection (no offline queue); anything else
        // (a timeout above all) leaves the outcome unknown.
        if (!/Stream isn't writeable|enableOfflineQueue/.test(String(err))) mayHaveRun = true;
        if (!mayHaveRun)
          throw new ApiError('unavailable', 'Billing is unavailable; the request was not charged. Retry shortly.');
        if (performance.now() + GIVE_UP_MARGIN_MS > giveUpAt) {
          // A 503 never costs (SPEC 4.10): the charge, if it landed (or lands: it may still be queued in Redis, ahead
          // of the reversal on the same connection), is reversed once billing answers again.
          this.reverseLater({ r, traceparent, eventId: newEventId(), attempt: 0 });
          throw new ApiError(
            'unavailable',
            'Billing did not answer in time: this request was not charged (a charge that landed is reversed). Retry shortly; an Idempotency-Key keeps a retry from being charged twice.',
            0,
            { 'retry-after': '2' },
          );
        }
        await new Promise((resolve) => setTimeout(resolve, Math.min(CHARGE_RETRY_PAUSE_MAX_MS, 100 * 2 ** attempt)));
      }
    }
    const [status, text, receipt] = reply;
    // Refused for its deadline: nothing was charged by this attempt. An earlier attempt of the call would have been
    // found (and answered) first; the reversal is sent anyway, at no cost, in case a clock moved backwards.
    if (status === PAST_DEADLINE) {
      this.reverseLater({ r, traceparent, eventId: newEventId(), attempt: 0 });
      // Refused by its deadline: the offset may be stale (this host was suspended, the node's clock stepped): the
      // next charges are sent on a new measurement.
      this.clockOf(keys[2]!).measureSoon();
    }
    const refused = refusal(status);
    if (refused) throw refused;
    return { ...paid(text, receipt), repeated: status === 1 };
  }

  /** Reversals sent and not answered yet, by the call's request id. */
  private readonly reversals = new Map<string, PendingReversal>();

  /**
   * Reversals still waiting for billing to answer (a process killed with some left loses them; a stopping one settles
   * them first, for a bounded time: settleReversals).
   */
  pendingReversals(): number {
    return this.reversals.size;
  }

  /**
   * Waits (at most `withinMs`) for the pending reversals to be answered: a stopping process calls it before closing
   * Redis, so that a deploy during a Redis pause does not drop the reversal of a call it answered 503. Returns how
   * many are left, each logged (request, account) so that an operator can reverse it by hand.
   */
  async settleReversals(withinMs: number): Promise<number> {
    const giveUpAt = Date.now() + withinMs;
    while (this.reversals.size > 0 && Date.now() < giveUpAt)
      await new Promise((resolve) => setTimeout(resolve, Math.min(50, Math.max(1, giveUpAt - Date.now()))));
    for (const [requestId, p] of this.reversals)
      logger.error(
        { requestId, accountId: p.r.who.accountId, transactionId: p.r.transactionId },
        'stopping with the reversal of a charge answered 503 not done: a charge that ran after its deadline was refused and needs nothing; one that ran before it (its answer lost) stands: reverse it by hand if billing.usage_events holds it',
      );
    return this.reversals.size;
  }

  /**
   * Sends the reversal of a call's charge now, and again (backing off to REVERSAL_RETRY_PAUSE_MAX_MS) until Redis
   * answers it: the script reverses a charge of that call once, whatever the number of attempts.
   */
  private reverseLater(p: PendingReversal): void {
    const requestId = p.r.requestId ?? p.r.transactionId;
    this.reversals.set(requestId, p);
    const attempt = () => {
      this.reverse(p).then(
        (credits) => {
          this.reversals.delete(requestId);
          if (credits > 0)
            logger.warn(
              { requestId, accountId: p.r.who.accountId, credits },
              'a charge answered 503 (its answer was lost) was reversed',
            );
        },
        () => {
          p.attempt++;
          setTimeout(attempt, Math.min(REVERSAL_RETRY_PAUSE_MAX_MS, 100 * 2 ** p.attempt)).unref();
        },
      );
    };
    attempt();
  }

  private reverse(p: PendingReversal): Promise<number> {
    const { r } = p;
    return this.redis.pra_reverse(
      ...this.keys(r.who.accountId, r.transactionId),
      r.requestId ?? r.transactionId,
      this.now(),
      p.eventId,
      r.who.accountId,
      r.who.keyId,
      r.endpoint,
      r.transactionId,
      p.traceparent,
    );
  }

  /** The live balance (unexpired credits), as the next charge would see it; null while balances are not loaded. */
  async balance(accountId: number): Promise<number | null> {
    const l = this.layout;
    const total = await this.redis.pra_balance(
      l.grants(accountId),
      l.expiry(accountId),
      l.shard(accountId).loaded,
      this.now(),
    );
    return total < 0 ? null : total;
  }
}
