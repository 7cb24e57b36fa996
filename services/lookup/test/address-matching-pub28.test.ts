// Address matching on the spellings of USPS Publication 28 that the Brooklyn/Sacramento set lacks (issue 26): units
// without a designator, floors and rooms, descriptors (REAR, UPPR, ...), a designator with nothing after it, a house
// number's letter written apart, a post-directional with a unit or on one side only, the unit written first, the
// lobby of a building, a unit the store lacks, one building stored under two spellings. matching/pub28-store.csv (a
// synthetic county file in Pub 28 standard form, see matching/build-pub28-variants.ts) is imported with the real
// importer and matching/pub28-mapping.json into a database of this test's own, then every labelled query of
// matching/pub28-variants.csv is looked up as the API looks it up. The labels are the records the queries were
// written for, never the normaliser's output.
// Expectations: `apn:X` X is answered and nothing else; `all:X|Y` exactly these records; `none` a 404.
// Found: the expectation is met. Wrong: a record came back that the expectation excludes (another record, a part
// of an `all:` set, anything for `none`). Missed: no answer (a 404, or a 400) where one was expected.
// Target: >= 99.5% found, 0 wrong. The figures are printed by class.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { ApiError } from '@pra/core/errors';
import { AddressQuery } from '@pra/core/contracts';
import { importCsv, loadMapping } from '@pra/ingest/import';
import { RecordStore } from '../src/data/record-queries.js';
import { findByAddress } from '../src/domain/find-records.js';
import { type ClassTally, readLabelled, reportFigures, useRecordsDatabase } from './matching/labelled-db.js';

const file = (name: string) => fileURLToPath(new URL(`matching/${name}`, import.meta.url));
const STORE = file('pub28-store.csv');
const MAPPING = file('pub28-mapping.json');

const VARIANTS = readLabelled(file('pub28-variants.csv'));
const STORED = (parse(readFileSync(STORE), { columns: true }) as { APN: string }[]).length;

const db = useRecordsDatabase('pra_pub28');

/** What the expectation asks: the records that must be answered (none for `none`). */
const wanted = (expect: string): Set<string> =>
  expect === 'none' ? new Set() : new Set(expect.replace(/^(apn|all):/, '').split('|'));

// Before the folds of issue 26 (9fc8f5c) it found 353/590 with 43 wrong.
describe('USPS Pub 28 spellings', () => {
  it('imports the county file in Pub 28 form, one property per APN', async () => {
    const summary = await importCsv(db.pool(), loadMapping(MAPPING), STORE);
    expect(summary).toMatchObject({ rowsRead: STORED, added: STORED, skipped: 0, updated: 0, unchanged: 0 });
  }, 60_000);

  it(`finds >= 99.5% of ${VARIANTS.length} labelled Pub 28 spellings, and never a wrong property`, async () => {
    const store = new RecordStore(db.pool());
    const tally = new Map<string, ClassTally>();
    const wrongs: string[] = [];
    for (const v of VARIANTS) {
      const t = tally.get(v.class) ?? { n: 0, found: 0, wrong: 0, missed: [] };
      tally.set(v.class, t);
      t.n++;
      const where = v.zip || `${v.city}, ${v.state}`;
      const q = AddressQuery.parse({
        address: v.address,
        ...(v.zip ? { zip: v.zip } : { city: v.city, state: v.state }),
        pagesize: '100',
      });
      let bodies: any[] = [];
      let refused = '';
      try {
        bodies = (await findByAddress(store, q)).rows.map((r) => JSON.parse(r.body));
      } catch (err) {
        // A 404 is no answer; so is a 400 (a line the parser refuses, "Apt 4 10A ..."), counted as a miss.
        if (!(err instanceof ApiError) || (err.status !== 404 && err.status !== 400)) throw err;
        if (err.status === 400) refused = ` [400: ${err.message}]`;
      }
      const want = wanted(v.expect);
      const got = new Set<string>(bodies.map((b) => b.identifier.apn));
      const extra = [...got].filter((a) => !want.has(a));
      const exact = extra.length === 0 && [...want].every((a) => got.has(a));
      if (bodies.length === 0 && v.expect === 'none' && refused === '') t.found++;
      else if (bodies.length === 0) t.missed.push(`${v.address} (${where}) expected ${v.expect}${refused}`);
      else if (v.expect.startsWith('apn:') ? extra.length === 0 : exact) t.found++;
      else {
        t.wrong++;
        wrongs.push(
          `${v.address} (${where}) expected ${v.expect} -> ${bodies
            .map((b) => `${b.identifier.apn} ${b.address.line1}${b.address.line2 ? ` ${b.address.line2}` : ''}`)
            .join(' | ')}`,
        );
      }
    }
    const all = reportFigures('Pub 28 address matching', tally, wrongs);
    expect(wrongs).toEqual([]);
    expect(all.found / all.n).toBeGreaterThanOrEqual(0.995);
  }, 300_000);
});
