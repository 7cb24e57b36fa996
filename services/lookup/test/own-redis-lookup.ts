// The lookup app on a redis-server of the test's own (for faults made to Redis: CLIENT PAUSE, a restart), with the
// real credit meter behind a gate a test may close: charges then wait after their pre-check and search, so that a
// test can send them all into a paused Redis at once. Shared by lookup.redis-faults and changes.redis-faults.
import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { createPool, createRedis, type Pool, type RedisClient } from '@pra/platform';
import { startApp, startRedisServer, type OwnRedis, type RunningApp } from '@pra/platform/testing';
import { billingFixture, type BillingFixture } from '@pra/account-billing/testing';
import type { CreditMeter } from '@pra/account-billing/client';
import { createLookupApp } from '../src/app.js';

/** Charges held before they reach the meter while closed. */
export class ChargeGate {
  /** Charges waiting at the gate since it was closed. */
  held = 0;
  private gate: Promise<void> | undefined;
  private open = () => {};

  close(): void {
    this.held = 0;
    this.gate = new Promise<void>((resolve) => {
      this.open = resolve;
    });
  }

  /** Until `n` charges wait at the gate (about 5 s at most); how many do. */
  async waitHeld(n: number): Promise<number> {
    for (let i = 0; i < 500 && this.held < n; i++) await new Promise((r) => setTimeout(r, 10));
    return this.held;
  }

  /** Lets every held charge (and every later one) through. */
  release(): void {
    this.gate = undefined;
    this.open();
  }

  async pass<T>(charge: () => Promise<T>): Promise<T> {
    if (this.gate) {
      this.held++;
      await this.gate;
    }
    return charge();
  }
}

export interface OwnRedisLookup {
  pool: Pool;
  own: OwnRedis;
  /** A client of the test's Redis, for CLIENT PAUSE and reading keys. */
  admin: RedisClient;
  f: BillingFixture;
  app: RunningApp;
  gate: ChargeGate;
  close(): Promise<void>;
}

/** The app, its own Redis and billing under a key prefix starting with `name`. */
export async function ownRedisLookup(name: string): Promise<OwnRedisLookup> {
  const pool = createPool(inject('databaseUrl'), 4);
  const own = await startRedisServer();
  const admin = createRedis(own.url, 'worker');
  const f = await billingFixture(pool, own.url, `${name}${randomBytes(3).toString('hex')}:`);
  const gate = new ChargeGate();
  const meter: CreditMeter = {
    precheck: (r) => f.meter.precheck(r),
    balance: (a) => f.meter.balance(a),
    charge: (r) => gate.pass(() => f.meter.charge(r)),
  };
  const app = await startApp(
    createLookupApp({ pool, meter, calls: f.calls, auth: { development: true, keys: f.keys } }),
  );
  return {
    pool,
    own,
    admin,
    f,
    app,
    gate,
    async close() {
      await app.close();
      await f.close();
      admin.disconnect();
      await own.stop();
      await pool.end();
    },
  };
}
