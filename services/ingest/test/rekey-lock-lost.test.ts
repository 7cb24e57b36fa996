// A rekey holds a session lock on a connection of its own and works through the pool. Found by review: once every
// pooled client had an error listener (a lost connection no longer ends the process), a rekey whose lock's
// connection was lost went on to its end, its version stamped, while a second rekey could take the lock. It must
// stop before its next statement and say so; run again, it resumes and finishes.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createPool, dropDatabase, ensureDatabase, type Pool, withDatabase } from '@pra/platform';
import type {} from '@pra/platform/testing';
import { ADDRESS_KEYS_VERSION } from '@pra/core/address';
import { migrateRecords } from '../src/data/migrate.js';
import { rekeyAddresses } from '../src/data/rekey.js';
import { advisoryLockHolder } from './advisory-lock-holder.js';
import { makeProperty } from './make-property.js';

let url: string;
let own: Pool;
beforeAll(async () => {
  // A database of its own: a rekey is the whole store's.
  url = withDatabase(inject('databaseUrl'), `pra_rekey_lost_${process.pid}_${Date.now()}`);
  await ensureDatabase(url);
  own = createPool(url, 4);
  await migrateRecords(own);
});
afterAll(async () => {
  await own?.end();
  if (url) await dropDatabase(url);
});

const version = async () =>
  (await own.query<{ v: number }>('SELECT address_keys_version AS v FROM records.dataset_stats')).rows[0]!.v;

describe('a rekey whose lock connection is lost', () => {
  it('stops at its checkpoint with a message, and run again resumes and finishes', async () => {
    const input = JSON.stringify(makeProperty({ line1: '131 74 STREET', zip: '11209' }));
    await own.query(
      `INSERT INTO records.import_state (source, identity, property_id, input)
       SELECT 'import:lost-rekey', 'addr:written by v' || i, 900100 + i, $1 FROM generate_series(1, 8) AS i`,
      [input],
    );
    await own.query('UPDATE records.dataset_stats SET address_keys_version = 0');
    // A batch a row, a pause after each: the lock's connection is cut during one.
    const run = rekeyAddresses(own, undefined, { batchSize: 1, pauseMs: 150 });
    run.catch(() => {});
    let holder: number | null = null;
    for (let i = 0; i < 200 && holder === null; i++) {
      holder = await advisoryLockHolder(own, 'records.rekey');
      if (holder === null) await new Promise((r) => setTimeout(r, 10));
    }
    expect(holder).not.toBeNull();
    await own.query('SELECT pg_terminate_backend($1)', [holder]);
    await expect(run).rejects.toThrow(/the connection holding the rekey's lock was lost.*resume/);
    // Not stamped: the rekey did not finish.
    expect(await version()).toBe(0);
    await rekeyAddresses(own);
    expect(await version()).toBe(ADDRESS_KEYS_VERSION);
  }, 60_000);
});
