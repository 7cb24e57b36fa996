// records.import_state rows (binary COPY data, import-work.ts mentions()) read back column by column, by name, built
// in the main thread and in worker threads: STATE_COLUMNS' order, and the file digest a first load keeps (without it
// every re-import of an unchanged file reads and merges each parcel's state; no other test reads the column). A dry
// run writes none.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createPool, type Pool } from '@pra/platform';
import type {} from '@pra/platform/testing';
import { importCsv } from '../src/importer/import-csv.js';
import { decodeState } from '../src/importer/import-merge.js';
import { uniqueStreet } from './make-property.js';
import { useTempFiles } from './temp-files.js';

let pool: Pool;
beforeAll(() => {
  pool = createPool(inject('databaseUrl'), 4);
});
afterAll(() => pool.end());
const { write, propertyMapping } = useTempFiles('pra-state-cols');

const mapping = () =>
  propertyMapping('state-cols', {
    apn: { column: 'APN', required: true },
    line1: { column: 'SITUS', format: 'upper', required: true },
    zip: { column: 'ZIP', format: 'zip5', required: true },
    city: { value: 'SACRAMENTO' },
    state: { value: 'CA' },
    ownerName: { column: 'OWNER', order: 'first-last' },
  });

const stateRows = async (source: string) =>
  (
    await pool.query<{
      source: string;
      identity: string;
      property_id: string;
      file_digest: string | null;
      input: string;
    }>(
      'SELECT source, identity, property_id, file_digest, input FROM records.import_state WHERE source = $1 ORDER BY identity',
      [source],
    )
  ).rows;

describe.each([0, 2])('records.import_state as binary COPY data (workers: %i)', (workers) => {
  it('holds each column where STATE_COLUMNS names it, odd text read back as written', async () => {
    const street = uniqueStreet();
    const { mapping: m, source } = mapping();
    const file = write(
      'roll.csv',
      [
        'APN,SITUS,ZIP,OWNER',
        `S-1,"1 ${street} \\N ST",95814,"ANN \\ LEE 😀"`,
        `S-2,2 ${street} ST,95814,"JOSÉ NÚÑEZ"`,
        `S-3,3 ${street} ST,95814,"CAY ""Q"" DOE"`,
      ].join('\n'),
    );
    const summary = await importCsv(pool, m, file, { workers, batchSize: 2 });
    expect(summary).toMatchObject({ added: 3, skipped: 0 });
    const rows = await stateRows(source);
    expect(rows.map((r) => r.source)).toEqual([source, source, source]);
    expect(rows.map((r) => r.identity)).toEqual(
      ['apn:S1', 'apn:S2', 'apn:S3'].map((x) => expect.stringContaining(x.slice(4))),
    );
    const ids = (
      await pool.query<{ id: string; apn: string }>(
        'SELECT id, apn FROM records.properties WHERE source = $1 ORDER BY apn',
        [source],
      )
    ).rows;
    expect(rows.map((r) => r.property_id)).toEqual(ids.map((r) => r.id));
    // The file settles every parcel of a first load of one row each: its digest is kept.
    for (const r of rows) expect(r.file_digest).toMatch(/^\S+$/);
    const inputs = rows.map((r) => decodeState(r.input));
    expect(inputs.map((p) => p.line1)).toEqual([`1 ${street} \\N ST`, `2 ${street} ST`, `3 ${street} ST`]);
    expect(inputs.map((p) => p.owner1?.fullName)).toEqual([
      expect.stringContaining('😀'),
      expect.stringContaining('NÚÑEZ'),
      'CAY Q DOE',
    ]);
    // Again: unchanged, found by the file digest.
    expect(await importCsv(pool, m, file, { workers, batchSize: 2 })).toMatchObject({
      added: 0,
      updated: 0,
      unchanged: 3,
    });
    expect(await stateRows(source)).toEqual(rows);
  }, 60_000);

  it('writes nothing on a dry run', async () => {
    const street = uniqueStreet();
    const { mapping: m, source } = mapping();
    const file = write('dry.csv', ['APN,SITUS,ZIP,OWNER', `D-1,1 ${street} ST,95814,ANN LEE`].join('\n'));
    expect(await importCsv(pool, m, file, { workers, dryRun: true })).toMatchObject({ added: 1, dryRun: true });
    expect(await stateRows(source)).toEqual([]);
    const { rows } = await pool.query('SELECT 1 FROM records.properties WHERE source = $1', [source]);
    expect(rows).toEqual([]);
  }, 60_000);
});
