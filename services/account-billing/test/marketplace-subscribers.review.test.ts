// Review of marketplace subscribers (issue 27, part 5): a subscriber an operator disabled keeps calling through the
// marketplace after its period ended. Its answer (403) is known from the cache: it must not cost a provisioning (an
// advisory lock and transactions in PostgreSQL) and a token of the lookup budget that every unknown key shares.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createPool, type Pool } from '@pra/platform';
import type { MarketplaceSubscriber } from '@pra/core/auth';
import { KeyLookupService } from '../src/domain/key-lookup.js';
import { setKeyStatus } from '../src/domain/accounts.js';
import { billingFixture, type BillingFixture } from './billing-fixtures.js';

const DAY = 86_400_000;
let pool: Pool;
let f: BillingFixture;
let clock = Date.UTC(2027, 2, 10, 12, 0, 0);
const now = () => clock;

beforeAll(async () => {
  pool = createPool(inject('databaseUrl'), 4);
  f = await billingFixture(pool, inject('redisUrl'), `${inject('redisPrefix')}mpr${randomBytes(3).toString('hex')}:`);
});
afterAll(async () => {
  await f.close();
  await pool.end();
});

describe('a disabled marketplace subscriber (review)', () => {
  it('past its period, is answered disabled from the cache: no provisioning, no lookup budget spent', async () => {
    // One process whose budget (frozen clock: no refill) covers the first call and two more lookups.
    const service = new KeyLookupService(
      { pool, redis: f.redis, prefix: f.layout.prefix },
      { perProcessPerSecond: 3, systemPerSecond: 1_000_000 },
      now,
    );
    const s: MarketplaceSubscriber = { user: `off-${randomBytes(4).toString('hex')}`, plan: 'free' };
    const entry = await service.subscriber(s);
    await setKeyStatus(f.deps, entry.keyId, 'disabled');
    clock += 31 * DAY;
    for (let i = 0; i < 10; i++) {
      await expect(service.subscriber(s)).resolves.toMatchObject({ status: 'disabled' });
    }
    // The budget is still there for a key nobody has asked about.
    await expect(service.lookup('0'.repeat(64))).resolves.toBeNull();
  });
});
