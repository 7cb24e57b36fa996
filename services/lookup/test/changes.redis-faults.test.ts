// GET /changes when billing stops answering (issue 38, with issue 35's rule: a 503 never costs): Redis, a server of
// this test's own, is paused past the time a charge is worked out for while a page of events is being charged. The
// call is answered 503 "not charged" and its charge, if it landed, is reversed once Redis answers; the keyed retry
// then gets the same events, charged once (a second retry is answered from its receipt).
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pool, RedisClient } from '@pra/platform';
import type { RunningApp } from '@pra/platform/testing';
import type { BillingFixture } from '@pra/account-billing/testing';
import { TestRolls } from '../../ingest/test/change-fixtures.js';
import { type ChargeGate, type OwnRedisLookup, ownRedisLookup } from './own-redis-lookup.js';

let pool: Pool;
let admin: RedisClient;
let f: BillingFixture;
let app: RunningApp;
let rolls: TestRolls;
let gate: ChargeGate;
let system: OwnRedisLookup;

beforeAll(async () => {
  system = await ownRedisLookup('cf');
  ({ pool, admin, f, app, gate } = system);
  rolls = new TestRolls(pool);
}, 30_000);
afterAll(async () => {
  rolls?.close();
  await system?.close();
});

describe('GET /changes while billing does not answer', () => {
  it('answers 503 not charged, reverses a charge that landed, and the keyed retry gets the same events once', async () => {
    const name = `faults-${randomBytes(4).toString('hex')}`;
    const street = `FAULT ${randomBytes(3).toString('hex').toUpperCase()}`;
    const roll = (owners: string[]) =>
      owners.map((owner, i) => ({ book: 8, page: i + 1, street, zip: '95814', owner }));
    await rolls.import(name, roll(['ED ONE', 'FLO TWO']));
    const { rows } = await pool.query<{ id: string }>('SELECT id FROM records.properties WHERE source = $1', [
      `import:${name}`,
    ]);
    await rolls.import(name, roll(['ED UNO', 'FLO DOS']));
    // The feed of this roll's two records from before the re-import (a cursor as the API gives it).
    const first = await call(`/api/v1/changes?ids=${rows.map((r) => r.id).join(',')}`);
    expect(first.status).toBe(200);
    const a = await f.fundedAccount(100);
    const headers = (key: string) => ({
      'x-pra-account-id': String(a.accountId),
      'x-pra-tier': 'starter',
      'x-pra-key-id': String(a.keyId),
      'idempotency-key': key,
    });
    const path = `/api/v1/changes?ids=${rows.map((r) => r.id).join(',')}`;
    // The mapping's first load said nothing: the two owner changes.
    expect(first.body.changes.map((e: { parts: string[] }) => e.parts)).toEqual([['owner'], ['owner']]);

    const key = `feed-${randomBytes(6).toString('hex')}`;
    gate.close();
    const pending = call(path, headers(key));
    expect(await gate.waitHeld(1)).toBe(1);
    await admin.call('CLIENT', 'PAUSE', '7000', 'ALL');
    gate.release();
    const failed = await pending;
    expect(failed.status).toBe(503);
    expect(failed.body.status.msg).toMatch(/not charged/);
    for (let i = 0; i < 400 && f.meter.pendingReversals() > 0; i++) await new Promise((r) => setTimeout(r, 50));
    expect(f.meter.pendingReversals()).toBe(0);
    expect(await f.meter.balance(a.accountId)).toBe(100);

    const retry = await call(path, headers(key));
    expect(retry.status).toBe(200);
    expect(retry.body.changes).toEqual(first.body.changes);
    const again = await call(path, headers(key));
    expect(again.body).toEqual(retry.body);
    expect(await f.meter.balance(a.accountId)).toBe(100 - first.body.changes.length);
  }, 60_000);
});

async function call(path: string, headers: Record<string, string> = {}) {
  const res = await fetch(app.url + path, {
    headers: Object.keys(headers).length > 0 ? headers : await devHeaders(),
    signal: AbortSignal.timeout(30_000),
  });
  return { status: res.status, body: JSON.parse(await res.text()) };
}

let dev: Record<string, string> | undefined;
async function devHeaders(): Promise<Record<string, string>> {
  if (!dev) {
    const a = await f.fundedAccount(1_000);
    dev = { 'x-pra-account-id': String(a.accountId), 'x-pra-tier': 'starter', 'x-pra-key-id': String(a.keyId) };
  }
  return dev;
}
