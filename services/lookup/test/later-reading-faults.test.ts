// A later reading of an address (the line as a query may also mean it: `1299 D X Ct` as house 1299D) that fails is
// the lookup's answer: its deadline is a 503, never the first reading's 404. The store is
// the real one; the lookup's clock is the test's, moved past the deadline while the later reading runs.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { AddressQuery } from '@pra/core/contracts';
import { ApiError } from '@pra/core/errors';
import { createPool, type Pool } from '@pra/platform';
import { insertProperties, makeProperty, uniqueStreet } from '@pra/ingest/testing';
import { type AddressCriteria, RecordStore } from '../src/data/record-queries.js';
import { findByAddress, LookupDeadline } from '../src/domain/find-records.js';

let pool: Pool;
beforeAll(() => {
  pool = createPool(inject('databaseUrl'), 2);
});
afterAll(() => pool.end());

/** The real store, whose first read of the line `lateLine` moves the lookup's clock past its deadline. */
class LateStore extends RecordStore {
  clock = 0;
  constructor(
    pool: Pool,
    private readonly lateLine: string,
  ) {
    super(pool, 5_000);
  }
  override async byAddress(c: AddressCriteria, limit: number, offset: number) {
    if (c.lineKey === this.lateLine) this.clock += 10_000;
    return super.byAddress(c, limit, offset);
  }
}

const ask = (address: string) => AddressQuery.parse({ address, zip: '60604' });

describe('a later reading past the deadline', () => {
  it("is the deadline's 503, not the first reading's 404", async () => {
    const name = `${uniqueStreet()}ING`;
    // Stored without its type: the house-letter reading needs more than its exact line (one statement) to find it.
    await insertProperties(pool, [
      makeProperty({ line1: `1299D ${name}`, zip: '60604', city: 'CHICAGO', state: 'IL' }),
    ]);
    // The clock never moved: the later reading answers.
    const store = new LateStore(pool, '');
    const found = await findByAddress(store, ask(`1299 D ${name} Ct`), new LookupDeadline(5_000, () => store.clock));
    expect(found.rows).toHaveLength(1);

    const late = new LateStore(pool, `1299D ${name} CT`);
    const failed = await findByAddress(
      late,
      ask(`1299 D ${name} Ct`),
      new LookupDeadline(5_000, () => late.clock),
    ).then(
      () => null,
      (err: unknown) => err,
    );
    // Past the deadline from the later reading's first statement on: its next statement is refused.
    expect(failed).toBeInstanceOf(ApiError);
    expect((failed as ApiError).status).toBe(503);
    expect((failed as ApiError).message).toMatch(/not charged/);
  });
});
