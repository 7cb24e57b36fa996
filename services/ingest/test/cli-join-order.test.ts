// A county's files imported out of order, as a user may: a joined file (Charlottesville's residential details) into
// a store without the parcels it joins reports every row as a parcel the store lacks, and the CLI says the fix is
// the other file first, not this file's rows. Once the parcels are in, the rows left over are parcels the parcels'
// file does not list, said so; and that import is the file's first load (no change events), as the early one made
// nothing.
import { afterAll, expect, inject, it } from 'vitest';
import { createPool, dropDatabase, withDatabase } from '@pra/platform';
import { COUNTY_ROLLS } from '../src/importer/index.js';
import { freshStore, runIngest } from './cli-run.js';

const url = withDatabase(inject('databaseUrl'), `${new URL(inject('databaseUrl')).pathname.slice(1)}_join_order`);
afterAll(() => dropDatabase(url));

it('a joined file before the file it joins: nothing made, and the other file named as the one to import first', async () => {
  const [parcels, details] = COUNTY_ROLLS.charlottesville!;
  await freshStore(url);
  const early = runIngest(url, 'import', '--mapping', details!.mapping, '--file', details!.file);
  expect(early.status, early.stderr).toBe(0);
  expect(early.stdout).toContain('8,386 rows name a parcel the store lacks: nothing was made of them');
  expect(early.stdout).toContain(
    'The store holds no parcels of charlottesville-parcels yet, and this file only adds to them: import the file of ' +
      'mapping charlottesville-parcels first, then this one again',
  );
  // Not the advice for rows that are wrong in the file.
  expect(early.stdout).not.toContain('fix them in the file');
  // Joined by address: the points it cannot place are errors, of the same cause, and get the same advice only.
  const points = COUNTY_ROLLS.charlottesville![3]!;
  const earlyPoints = runIngest(url, 'import', '--mapping', points.mapping, '--file', points.file);
  expect(earlyPoints.status, earlyPoints.stderr).toBe(0);
  expect(earlyPoints.stdout).toContain('24,282 rows skipped');
  expect(earlyPoints.stdout).toContain('import the file of mapping charlottesville-parcels first');
  expect(earlyPoints.stdout).not.toContain('fix them in the file');

  expect(runIngest(url, 'import', '--mapping', parcels!.mapping, '--file', parcels!.file).status).toBe(0);
  const after = runIngest(url, 'import', '--mapping', details!.mapping, '--file', details!.file);
  expect(after.status, after.stderr).toBe(0);
  const left = /([\d,]+) rows name a parcel the store lacks/.exec(after.stdout);
  expect(left, after.stdout).not.toBeNull();
  expect(Number(left![1]!.replace(/,/g, ''))).toBeLessThan(8_386);
  expect(after.stdout).not.toContain('The store holds no parcels');
  expect(after.stdout).toContain('parcels the file of charlottesville-parcels does not list (or not yet)');
  const pool = createPool(url, 1, 'join-order-test');
  try {
    // The import that made nothing was not the mapping's first load: the one after the parcels is, and a first load
    // tells the change feed nothing (8,174 events, a credit each to a client of /changes, before this was so).
    const events = await pool.query('SELECT count(*) AS n FROM records.change_events');
    expect(Number(events.rows[0].n)).toBe(0);
    const loads = await pool.query('SELECT mapping FROM records.mapping_loads ORDER BY 1');
    // The address points, imported before the parcels only, are not loaded either.
    expect(loads.rows.map((r) => r.mapping)).toEqual(['charlottesville-details', 'charlottesville-parcels']);
  } finally {
    await pool.end();
  }
}, 180_000);
