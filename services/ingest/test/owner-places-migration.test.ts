// Migration 0021 lets records.owners and records.owner_mentions hold a record's third and fourth owners (seq 3 and 4).
// A store migrated before it refuses them (seq 1 or 2 only); this puts that store's checks back, writes a record the
// old way, applies 0021's own SQL, and writes a record of four owners through the import's write path: every owner a
// row of both tables, found by owner search's key, and the record's body naming all four with their ids.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { createPool, dropDatabase, ensureDatabase, type Pool, withDatabase } from '@pra/platform';
import type {} from '@pra/platform/testing';
import { decodeRecordDoc } from '@pra/core/stored';
import { migrateRecords, RECORDS_MIGRATIONS_DIR } from '../src/data/migrate.js';
import { insertProperties, makeProperty, uniqueSurname } from './make-property.js';

const url = withDatabase(inject('databaseUrl'), `pra_owner_places_${randomBytes(4).toString('hex')}`);
let pool: Pool;

beforeAll(async () => {
  await ensureDatabase(url);
  pool = createPool(url, 4, 'owner-places-migration');
  await migrateRecords(pool);
});
afterAll(async () => {
  await pool.end();
  await dropDatabase(url);
});

const person = (firstName: string, lastName: string) => ({
  firstName,
  lastName,
  fullName: `${firstName} ${lastName}`,
  type: 'Individual',
});

const checks = async () =>
  (
    await pool.query<{ def: string }>(
      `SELECT conrelid::regclass || ': ' || pg_get_constraintdef(oid) AS def FROM pg_constraint
        WHERE conname IN ('owners_seq_check', 'owner_mentions_seq_check') ORDER BY 1`,
    )
  ).rows.map((r) => r.def);

it('0021 lets a store migrated before it keep four owners a record, and no more', async () => {
  // The store as 0012 and 0001 left it.
  await pool.query(`ALTER TABLE records.owners DROP CONSTRAINT owners_seq_check,
                      ADD CONSTRAINT owners_seq_check CHECK (seq IN (1, 2))`);
  await pool.query(`ALTER TABLE records.owner_mentions DROP CONSTRAINT owner_mentions_seq_check,
                      ADD CONSTRAINT owner_mentions_seq_check CHECK (seq IN (1, 2))`);
  const last = uniqueSurname('FOUR');
  const four = makeProperty({
    owner1: person('ANN', last),
    owner2: person('BOB', uniqueSurname('TWO')),
    owner3: person('CY', last),
    owner4: { firstName: null, lastName: null, fullName: `${last} FAMILY TRUST`, type: 'Trust' },
  });
  // Before 0021 a record of more than two owners cannot be written; one of two can.
  await expect(insertProperties(pool, [four])).rejects.toThrow(/owners_seq_check|owner_mentions_seq_check/);
  const [two] = await insertProperties(pool, [makeProperty({ owner1: person('DI', last), owner2: null })]);

  const sql = readFileSync(join(RECORDS_MIGRATIONS_DIR, '0021_owner_places_four.sql'), 'utf8');
  await pool.query(`BEGIN; ${sql}; COMMIT`);
  const wider = /^records\.(owner_mentions|owners): CHECK \(+seq >= 1\)? AND \(?seq <= 4\)+ NOT VALID$/;
  expect(await checks()).toEqual([expect.stringMatching(wider), expect.stringMatching(wider)]);

  const [id] = await insertProperties(pool, [four]);
  const owners = await pool.query<{ seq: number; last_name_key: string | null; name_words: string[] | null }>(
    'SELECT seq, last_name_key, name_words FROM records.owners WHERE property_id = $1 ORDER BY seq',
    [id],
  );
  expect(owners.rows.map((r) => r.seq)).toEqual([1, 2, 3, 4]);
  expect(owners.rows[2]!.last_name_key).toBe(last);
  expect(owners.rows[3]!.name_words).toEqual(expect.arrayContaining([last, 'FAMILY', 'TRUST']));
  const mentions = await pool.query<{ seq: number; owner_id: string; name: string }>(
    'SELECT seq, owner_id, name FROM records.owner_mentions WHERE property_id = $1 ORDER BY seq',
    [id],
  );
  expect(mentions.rows.map((r) => [r.seq, r.name])).toEqual([
    [1, `ANN ${last}`],
    [2, four.owner2!.fullName],
    [3, `CY ${last}`],
    [4, `${last} FAMILY TRUST`],
  ]);
  expect(new Set(mentions.rows.map((r) => r.owner_id)).size).toBe(4);
  // The body names them with the same ids; a record of one owner has no owner3 or owner4 at all.
  const bodies = await pool.query<{ id: string; body: Buffer }>(
    'SELECT id, body FROM records.properties WHERE id = ANY($1) ORDER BY id',
    [[two, id]],
  );
  const [one, all] = bodies.rows.map((r) => JSON.parse(decodeRecordDoc(r.body).body).owner);
  expect(one).not.toHaveProperty('owner3');
  expect(one).not.toHaveProperty('owner4');
  expect([all.owner3.fullName, all.owner4.fullName, all.owner4.type]).toEqual([
    `CY ${last}`,
    `${last} FAMILY TRUST`,
    'Trust',
  ]);
  expect([all.owner1.id, all.owner2.id, all.owner3.id, all.owner4.id]).toEqual(
    mentions.rows.map((r) => Number(r.owner_id)),
  );
  // A fifth place is still refused by the store.
  await expect(
    pool.query(`INSERT INTO records.owners (property_id, seq, state, city_key) VALUES ($1, 5, 'PA', 'X')`, [id]),
  ).rejects.toThrow(/owners_seq_check/);
});
