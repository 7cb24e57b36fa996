// A newer file over what an import stored: an empty cell clears what its column mapped, a corrected sale price
// replaces the sale, a normaliser change (rekey) leaves re-imports finding their parcels, and a remove never
// interleaves with an import of its source. Issue 22, point 8.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { createPool, dropDatabase, ensureDatabase, type Pool, withDatabase } from '@pra/platform';
import type {} from '@pra/platform/testing';
import { migrateRecords } from '../src/data/migrate.js';
import { rekeyAddresses } from '../src/data/rekey.js';
import { removeSource } from '../src/data/remove-source.js';
import { importCsv } from '../src/importer/import-csv.js';
import { digestBasis, encodeState, parcelIdentity, spokenFor, stateDigest } from '../src/importer/import-merge.js';
import { applyRules } from '../src/importer/apply-rules.js';
import { toParcel } from '../src/importer/import-row.js';
import { loadMapping } from '../src/importer/mapping.js';
import { decodeRecordDoc, encodeRecordDoc } from '@pra/core/stored';
import { makeProperty, uniqueStreet } from './make-property.js';
import { recordsOf, saleHistory, storedHistories } from './stored-records.js';

let pool: Pool;
beforeAll(() => {
  pool = createPool(inject('databaseUrl'), 4);
});
afterAll(async () => {
  await pool.end();
  rmSync(dir, { recursive: true, force: true });
});

const dir = mkdtempSync(join(tmpdir(), 'pra-reimport-'));
let files = 0;
const write = (lines: string[]) => {
  const file = join(dir, `f${++files}.csv`);
  writeFileSync(file, lines.join('\n'));
  return file;
};
const tagged = () =>
  uniqueStreet()
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');
/** A mapping file with a name of its own (and so a source of its own). */
const mappingNamed = (base: object, name: string) => {
  const file = join(dir, `${name}-${++files}.json`);
  writeFileSync(file, JSON.stringify({ ...base, name }));
  return loadMapping(file);
};

const NOW = new Date().toISOString();
const HEADER = 'BOOK,PAGE,SITUS,ZIP,OWNER,ASSESSED,SALE DATE,SALE PRICE,YEAR,LOAN,LENDER';
const FIELDS = {
  apn: { template: '{BOOK}-{PAGE:03}', required: true },
  line1: { column: 'SITUS', format: 'upper', required: true },
  zip: { column: 'ZIP', format: 'zip5', required: true },
  ownerName: { column: 'OWNER', order: 'first-last' },
  assessedTotal: { column: 'ASSESSED', format: 'integer' },
  saleDate: { column: 'SALE DATE', format: 'date-us' },
  salePrice: { column: 'SALE PRICE', format: 'integer' },
  yearBuilt: { column: 'YEAR', format: 'integer' },
  mortgageAmount: { column: 'LOAN', format: 'number' },
  mortgageLender: { column: 'LENDER' },
};
const base = { kind: 'property', fields: FIELDS };

describe('a newer file over the stored state', () => {
  it('clears a field whose mapped column is empty in the newer file; keeps one whose column the mapping dropped', async () => {
    const street = uniqueStreet();
    const name = `clear-${tagged()}`;
    const source = `import:${name}`;
    const mapping = mappingNamed(base, name);
    const first = write([
      HEADER,
      `1,1,1 ${street} ST,95814,ANN LEE,300000,1/2/2020,410000,1950,300000,FIRST BANK`,
      `1,2,2 ${street} ST,95814,BOB RAY,250000,2/3/2020,390000,1960,,`,
    ]);
    expect(await importCsv(pool, mapping, first)).toMatchObject({ added: 2, updated: 0, skipped: 0 });
    const [before] = await recordsOf(pool, source);
    expect(before.summary.yearbuilt).toBe(1950);
    expect(before.mortgage.amount).toBe('300000');

    // The county no longer knows the year built, the loan was paid off, the owner is not recorded: empty cells.
    const cleared = write([
      HEADER,
      `1,1,1 ${street} ST,95814,,300000,1/2/2020,410000,,,`,
      `1,2,2 ${street} ST,95814,BOB RAY,250000,2/3/2020,390000,1960,,`,
    ]);
    expect(await importCsv(pool, mapping, cleared)).toMatchObject({ added: 0, updated: 1, unchanged: 1 });
    const [after] = await recordsOf(pool, source);
    expect(after.id).toBe(before.id);
    expect(after.summary.yearbuilt).toBeNull();
    expect(after.mortgage.amount).toBeNull();
    expect(after.owner.owner1.fullName).toBeNull();
    expect(after.assessment.assessed.total).toBe(300_000); // still given
    expect(await importCsv(pool, mapping, cleared)).toMatchObject({ added: 0, updated: 0, unchanged: 2 });

    // A mapping that no longer reads the year built or the owner says nothing about them: the stored values stay.
    const refilled = write([HEADER, `1,1,1 ${street} ST,95814,CAT POE,300000,1/2/2020,410000,1955,,`]);
    expect(await importCsv(pool, mapping, refilled)).toMatchObject({ updated: 1 });
    const { yearBuilt: _y, ownerName: _o, ...narrower } = FIELDS;
    const dropped = mappingNamed({ kind: 'property', fields: narrower }, name);
    const silent = write([HEADER, `1,1,1 ${street} ST,95814,,300000,1/2/2020,410000,,,`]);
    expect(await importCsv(pool, dropped, silent)).toMatchObject({ added: 0, updated: 0, unchanged: 1 });
    const [kept] = await recordsOf(pool, source);
    expect(kept.summary.yearbuilt).toBe(1955);
    expect(kept.owner.owner1.fullName).toBe('CAT POE');
  });

  it('takes the tax year a mapping now names: the same file again rewrites the assessments it labelled none', async () => {
    const street = uniqueStreet();
    const name = `tax-year-${tagged()}`;
    const source = `import:${name}`;
    const file = write([
      HEADER,
      `3,1,1 ${street} ST,95814,ANN LEE,300000,1/2/2020,410000,1950,,`,
      `3,2,2 ${street} ST,95814,BOB RAY,,2/3/2020,390000,1960,,`,
    ]);
    // An upgrade from the importer that labelled values with the year of the import: a mapping that names no year.
    expect(await importCsv(pool, mappingNamed(base, name), file)).toMatchObject({ added: 2 });
    const years = async () => {
      const out: unknown[] = [];
      for (const r of await recordsOf(pool, source))
        out.push((await storedHistories(pool, r.id)).assessments.map((a) => a.taxYear));
      return out;
    };
    expect(await years()).toEqual([[null], []]);
    // The mapping now says the roll's year: the parcel with values is rewritten, the one without is unchanged.
    const named = mappingNamed({ kind: 'property', fields: { ...FIELDS, taxYear: { value: 2025 } } }, name);
    expect(await importCsv(pool, named, file)).toMatchObject({ added: 0, updated: 1, unchanged: 1 });
    expect(await years()).toEqual([[2025], []]);
    expect(await importCsv(pool, named, file)).toMatchObject({ added: 0, updated: 0, unchanged: 2 });
  });

  it("splits, on the next import, a day's two deeds a store kept as one sale before sales named their deed", async () => {
    const street = uniqueStreet();
    const name = `deed-refs-${tagged()}`;
    const source = `import:${name}`;
    const header = `${HEADER},DEED`;
    // A sales file: one deed a row, two deeds of one day at one price on one parcel.
    const file = write([
      header,
      `6,1,1 ${street} ST,95814,ANN LEE,300000,2/10/2016,,1950,,,2016:418`,
      `6,1,1 ${street} ST,95814,ANN LEE,300000,2/10/2016,,1950,,,2016:419`,
    ]);
    // The store as the importer before this one left it: the mapping read no deed, the day's deeds were one sale, and
    // neither the state nor the history had a `documentNumber`.
    await importCsv(pool, mappingNamed(base, name), file);
    const [record] = await recordsOf(pool, source);
    const unnamed = ',"documentNumber":null';
    await pool.query(
      `UPDATE records.import_state SET input = replace(input, $2, ''), file_digest = 'written-before' WHERE source = $1`,
      [source, unnamed],
    );
    const { rows } = await pool.query<{ body: Buffer }>('SELECT body FROM records.properties WHERE id = $1', [
      record.id,
    ]);
    const doc = decodeRecordDoc(rows[0]!.body);
    await pool.query('UPDATE records.properties SET body = $2 WHERE id = $1', [
      record.id,
      encodeRecordDoc(doc.body, { sales: doc.sales.replace(unnamed, ''), assessments: doc.assessments }),
    ]);
    expect((await storedHistories(pool, record.id)).sales).toEqual([
      {
        date: '2016-02-10',
        price: null,
        documentType: null,
        recordingDate: null,
        buyerName: 'ANN LEE',
        sellerName: null,
      },
    ]);
    const events = async () =>
      (
        await pool.query<{ parts: string[] }>('SELECT parts FROM records.change_events WHERE property_id = $1', [
          record.id,
        ])
      ).rows.map((r) => r.parts);
    const eventsBefore = (await events()).length;
    // The mapping now reads the deed: the stored sale is the first deed, the second is a sale of its own.
    const named = mappingNamed({ kind: 'property', fields: { ...FIELDS, saleBookPage: { column: 'DEED' } } }, name);
    expect(await importCsv(pool, named, file)).toMatchObject({ added: 0, updated: 1 });
    expect((await storedHistories(pool, record.id)).sales.map((s) => [s.date, s.buyerName, s.documentNumber])).toEqual([
      ['2016-02-10', 'ANN LEE', '2016:419'],
      ['2016-02-10', 'ANN LEE', '2016:418'],
    ]);
    // The history the API serves changed: a sale event, the last sale (date and price) as it was.
    expect((await events()).slice(eventsBefore)).toEqual([['sale']]);
    expect(await importCsv(pool, named, file)).toMatchObject({ added: 0, updated: 0, unchanged: 1 });
  });

  it("a roll's sale without its book and page over last year's two sales of its day: the same file again changes nothing", async () => {
    const street = uniqueStreet();
    const name = `deeds-twice-${tagged()}`;
    const header = `${HEADER},DEED,D2,P2,DEED2`;
    const fields = {
      ...FIELDS,
      saleBookPage: { column: 'DEED' },
      sale2Date: { column: 'D2', format: 'date-us' },
      sale2Price: { column: 'P2', format: 'integer' },
      sale2BookPage: { column: 'DEED2' },
    };
    const mapping = mappingNamed({ kind: 'property', fields }, name);
    const row = (rest: string) => `7,1,1 ${street} ST,95814,ANN LEE,300000,${rest}`;
    // Last year: two sales of one day, one naming its deed; this year the roll names one sale of that day, no deed.
    await importCsv(pool, mapping, write([header, row('1/2/2020,150001,1950,,,,1/2/2020,150000,793:231')]));
    const thisYear = write([header, row('1/2/2020,150000,1950,,,,,,')]);
    expect(await importCsv(pool, mapping, thisYear)).toMatchObject({ updated: 1 });
    const [record] = await recordsOf(pool, `import:${name}`);
    expect((await storedHistories(pool, record.id)).sales.map((s) => [s.price, s.documentNumber])).toEqual([
      [150_000, null],
    ]);
    expect(await importCsv(pool, mapping, thisYear)).toMatchObject({ updated: 0, unchanged: 1 });
  });

  it('rewrites once, with no change event, a sale an earlier import made up a deed for (DEED, its sale date)', async () => {
    const street = uniqueStreet();
    const mapping = mappingNamed(base, `deeds-${tagged()}`);
    const source = `import:${mapping.name}`;
    const file = write([HEADER, `4,1,1 ${street} ST,95814,ANN LEE,300000,1/2/2020,410000,1950,,`]);
    expect(await importCsv(pool, mapping, file)).toMatchObject({ added: 1 });
    const [record] = await recordsOf(pool, source);
    expect((await storedHistories(pool, record.id)).sales).toMatchObject([{ documentType: null, recordingDate: null }]);
    // The store as the importer before this one left it: the state, its file digest and the record say DEED.
    const legacy = '"documentType":"DEED","recordingDate":"2020-01-02"';
    await pool.query(
      `UPDATE records.import_state SET input = replace(input, '"documentType":null,"recordingDate":null', $2),
              file_digest = 'written-by-the-importer-before' WHERE source = $1`,
      [source, legacy],
    );
    const { rows } = await pool.query<{ body: Buffer }>('SELECT body FROM records.properties WHERE id = $1', [
      record.id,
    ]);
    const doc = decodeRecordDoc(rows[0]!.body);
    const sales = doc.sales.replace('"documentType":null,"recordingDate":null', legacy);
    expect(sales).toContain(legacy);
    await pool.query('UPDATE records.properties SET body = $2 WHERE id = $1', [
      record.id,
      encodeRecordDoc(doc.body, { sales, assessments: doc.assessments }),
    ]);
    const events = async () =>
      Number(
        (await pool.query('SELECT count(*) FROM records.change_events WHERE property_id = $1', [record.id])).rows[0]
          .count,
      );
    const eventsBefore = await events();
    // The same file again: the record is rewritten as the file says it (one sale, no deed), announced to no one.
    expect(await importCsv(pool, mapping, file)).toMatchObject({ added: 0, updated: 1, unchanged: 0 });
    expect((await storedHistories(pool, record.id)).sales).toEqual([
      {
        date: '2020-01-02',
        price: 410_000,
        documentType: null,
        recordingDate: null,
        buyerName: 'ANN LEE',
        sellerName: null,
        documentNumber: null,
      },
    ]);
    expect(await events()).toBe(eventsBefore);
    expect(await importCsv(pool, mapping, file)).toMatchObject({ added: 0, updated: 0, unchanged: 1 });
  });

  it('reads again a state whose row says nothing new, under a file digest the earlier merge rules wrote', async () => {
    const street = uniqueStreet();
    const mapping = mappingNamed(base, `digest-version-${tagged()}`);
    const source = `import:${mapping.name}`;
    const row = (sale: string) => `5,1,1 ${street} ST,95814,ANN LEE,300000,${sale},1950,,`;
    await importCsv(pool, mapping, write([HEADER, row('1/2/2020,410000')]));
    // The county's next file names no sale: the stored one stays, and the state is known to settle (its digest).
    const next = write([HEADER, row(',')]);
    expect(await importCsv(pool, mapping, next)).toMatchObject({ updated: 0, unchanged: 1 });
    // What the file says of the parcel, as the import digests it (import-work.ts), checked against the stored digest.
    const cells = Object.fromEntries(HEADER.split(',').map((c, i) => [c, row(',').split(',')[i]!]));
    const fileState = encodeState(toParcel(applyRules(mapping.fields, cells), NOW, { ownerOrder: 'first-last' }).input);
    const basis = digestBasis(spokenFor(mapping.fields));
    const stored = async () =>
      (await pool.query('SELECT input, file_digest FROM records.import_state WHERE source = $1', [source])).rows[0];
    expect((await stored()).file_digest).toBe(stateDigest(basis, fileState));
    // The store as the earlier importer left it: a made-up deed, and the digest taken under the earlier rules' version.
    const earlier = stateDigest(basis.replace(/^\d+\|/, '2|'), fileState);
    await pool.query(
      `UPDATE records.import_state SET input = replace(input, '"documentType":null,"recordingDate":null',
              '"documentType":"DEED","recordingDate":"2020-01-02"'), file_digest = $2 WHERE source = $1`,
      [source, earlier],
    );
    expect((await stored()).input).toContain('"documentType":"DEED"');
    // The digest's version is not the earlier one: the state is read, and its made-up deed dropped.
    expect(await importCsv(pool, mapping, next)).toMatchObject({ updated: 1, unchanged: 0 });
    expect((await stored()).input).not.toContain('DEED');
    expect(await importCsv(pool, mapping, next)).toMatchObject({ updated: 0, unchanged: 1 });
  });

  it('replaces a sale whose price a newer file corrects instead of adding a second sale', async () => {
    const street = uniqueStreet();
    const mapping = mappingNamed(base, `corrected-${tagged()}`);
    const source = `import:${mapping.name}`;
    const first = write([HEADER, `2,1,1 ${street} ST,95814,ANN LEE,300000,1/2/2020,410000,1950,,`]);
    expect(await importCsv(pool, mapping, first)).toMatchObject({ added: 1 });
    const fixed = write([HEADER, `2,1,1 ${street} ST,95814,ANN LEE,300000,1/2/2020,415000,1950,,`]);
    expect(await importCsv(pool, mapping, fixed)).toMatchObject({ added: 0, updated: 1, unchanged: 0 });
    const [record] = await recordsOf(pool, source);
    expect(record.sale.lastSale).toEqual({ date: '2020-01-02', price: 415_000 });
    expect(await saleHistory(pool, record.id)).toEqual([['2020-01-02', 415_000]]);
    // A later sale in a later file is added; the corrected one stays corrected.
    const later = write([HEADER, `2,1,1 ${street} ST,95814,DAN ORR,300000,6/7/2021,455000,1950,,`]);
    expect(await importCsv(pool, mapping, later)).toMatchObject({ updated: 1 });
    expect(await saleHistory(pool, record.id)).toEqual([
      ['2021-06-07', 455_000],
      ['2020-01-02', 415_000],
    ]);
    expect(await importCsv(pool, mapping, fixed)).toMatchObject({ unchanged: 1 });
  });

  it('reads rows of one parcel in different batches of one file as one file: same-day sales kept, nothing cleared', async () => {
    const street = uniqueStreet();
    const mapping = mappingNamed(base, `batches-${tagged()}`);
    const source = `import:${mapping.name}`;
    // One co-op lot: two apartments sold on one day, the second row without the year built; a batch per parcel.
    const file = write([
      HEADER,
      `3,1,1 ${street} ST,95814,ANN LEE,300000,1/2/2020,410000,1950,,`,
      `3,2,2 ${street} ST,95814,BOB RAY,300000,1/2/2020,390000,1960,,`,
      `3,1,1 ${street} ST,95814,CAT POE,300000,1/2/2020,500000,,,`,
    ]);
    expect(await importCsv(pool, mapping, file, { batchSize: 1 })).toMatchObject({ added: 2, updated: 0 });
    const [lot] = await recordsOf(pool, source);
    expect(await saleHistory(pool, lot.id)).toEqual([
      ['2020-01-02', 410_000],
      ['2020-01-02', 500_000],
    ]);
    expect(lot.summary.yearbuilt).toBe(1950);
    // Again: the lot ends as it was (its first row alone replaces the day's sales, its third row adds one back).
    expect(await importCsv(pool, mapping, file, { batchSize: 1 })).toMatchObject({ added: 0 });
    const [again] = await recordsOf(pool, source);
    expect(again.id).toBe(lot.id);
    expect(await saleHistory(pool, lot.id)).toEqual([
      ['2020-01-02', 410_000],
      ['2020-01-02', 500_000],
    ]);
    expect(again.summary.yearbuilt).toBe(1950);
  });
});

describe('remove and import of one source', () => {
  it('remove takes the import lock: it waits, saying so, while an import of the source holds it', async () => {
    const street = uniqueStreet();
    const mapping = mappingNamed(base, `locked-${tagged()}`);
    const source = `import:${mapping.name}`;
    const file = write([HEADER, `4,1,1 ${street} ST,95814,ANN LEE,300000,1/2/2020,410000,1950,,`]);
    expect(await importCsv(pool, mapping, file)).toMatchObject({ added: 1 });
    // The lock an import of the source holds while it runs, taken here on a connection of the test's own.
    const holder = await pool.connect();
    const waits: string[] = [];
    let settled = false;
    try {
      await holder.query('SELECT pg_advisory_lock(hashtext($1))', [source]);
      const removing = removeSource(pool, source, { onWait: (m) => waits.push(m) }).finally(() => {
        settled = true;
      });
      const importing = importCsv(pool, mapping, file, { onWait: (m) => waits.push(m) });
      // Both are told that they wait, and both do: PostgreSQL shows them blocked behind the holder's lock.
      const holderPid = (await holder.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
      await vi.waitFor(
        async () => {
          expect(waits).toHaveLength(2);
          const { rows } = await pool.query<{ n: number }>(
            'SELECT count(*)::int AS n FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))',
            [holderPid],
          );
          expect(rows[0]!.n).toBe(2);
        },
        { timeout: 20_000, interval: 50 },
      );
      expect(settled).toBe(false);
      expect((await recordsOf(pool, source)).length).toBe(1);
      expect(waits).toEqual([
        `another import or remove of ${source} is running: waiting for it to finish`,
        `another import or remove of ${source} is running: waiting for it to finish`,
      ]);
      await holder.query('SELECT pg_advisory_unlock(hashtext($1))', [source]);
      // One after the other, in whichever order they got the lock: never interleaved.
      const [removed, imported] = await Promise.all([removing, importing]);
      const left = (await recordsOf(pool, source)).length;
      // Either way one record was removed; the import tells the order: it re-added the record (remove first) or
      // found it unchanged (import first, then removed).
      if (imported.added === 1) expect([removed, left]).toEqual([1, 1]);
      else expect([removed, imported.unchanged, left]).toEqual([1, 1, 0]);
    } finally {
      await holder.query('SELECT pg_advisory_unlock_all()');
      holder.release();
    }
  });
});

describe('a normaliser change (ADDRESS_KEYS_VERSION) between two imports of a mapping without an APN', () => {
  const url = withDatabase(inject('databaseUrl'), `${new URL(inject('databaseUrl')).pathname.slice(1)}_rekey`);
  let own: Pool;
  beforeAll(async () => {
    await ensureDatabase(url);
    own = createPool(url, 3);
    await migrateRecords(own);
  });
  afterAll(async () => {
    await own.end();
    await dropDatabase(url);
  });

  it('leaves the re-import finding its parcels: no duplicate, reported unchanged or updated', async () => {
    const mapping = mappingNamed(
      {
        kind: 'property',
        fields: {
          line1: { column: 'ADDRESS', format: 'upper', required: true },
          zip: { column: 'ZIP', format: 'zip5', required: true },
          ownerName: { column: 'OWNER', order: 'first-last' },
          saleDate: { column: 'DATE', format: 'date-us' },
          salePrice: { column: 'PRICE', format: 'integer' },
        },
      },
      `noapn-${tagged()}`,
    );
    const source = `import:${mapping.name}`;
    const file = write([
      'ADDRESS,ZIP,OWNER,DATE,PRICE',
      '131 74 STREET,11209,ANN LEE,1/2/2020,800000',
      '9 OCEAN AVE,11209,BOB RAY,2/3/2020,700000',
    ]);
    expect(await importCsv(own, mapping, file)).toMatchObject({ added: 2 });
    // As a store written by an older normaliser holds it: "74" was not read as "74TH" then, in the record's keys
    // and in the identity the import stored for the parcel.
    await own.query(
      "UPDATE records.properties SET line_key = '131 74 ST', loose_key = '' WHERE line_key = '131 74TH ST'",
    );
    const { rowCount } = await own.query(
      "UPDATE records.import_state SET identity = 'addr:131 74 ST|11209|' WHERE identity = 'addr:131 74TH ST|11209|'",
    );
    expect(rowCount).toBe(1);
    // The parcel registry holds the identity as the parcel's key (issue 26): the rekey moves it, the id stays.
    const registered = await own.query(
      "UPDATE records.parcels SET parcel_key = 'addr:131 74 ST|11209|' WHERE parcel_key = 'addr:131 74TH ST|11209|' RETURNING parcel_id",
    );
    expect(registered.rowCount).toBe(1);
    const parcelId = registered.rows[0].parcel_id;
    await own.query('UPDATE records.dataset_stats SET address_keys_version = 0');
    const count = async () =>
      (await own.query('SELECT count(*)::int AS n FROM records.properties WHERE source = $1', [source])).rows[0].n;

    await rekeyAddresses(own);
    const moved = await own.query("SELECT parcel_id FROM records.parcels WHERE parcel_key LIKE 'addr:131 74%'");
    expect(moved.rows).toEqual([{ parcel_id: parcelId }]);
    expect(
      (await own.query('SELECT parcel_key FROM records.parcels WHERE parcel_id = $1', [parcelId])).rows[0].parcel_key,
    ).toBe('addr:131 74TH ST|11209|');
    expect(await importCsv(own, mapping, file)).toMatchObject({ added: 0, updated: 0, unchanged: 2 });
    expect(await count()).toBe(2);
    const sold = write(['ADDRESS,ZIP,OWNER,DATE,PRICE', '131 74TH ST,11209,CAT POE,5/6/2021,900000']);
    expect(await importCsv(own, mapping, sold)).toMatchObject({ added: 0, updated: 1 });
    expect(await count()).toBe(2);
    const stats = await own.query('SELECT property_count::int AS n FROM records.dataset_stats');
    expect(stats.rows[0].n).toBe(2);
  });

  it('moves the registry key once when two sources held old keys that now fold into one (third review)', async () => {
    const fields = {
      line1: { column: 'ADDRESS', format: 'upper', required: true },
      zip: { column: 'ZIP', format: 'zip5', required: true },
    };
    const [a, b] = [0, 1].map(() => mappingNamed({ kind: 'property', fields }, `fold-${tagged()}`));
    const file = write(['ADDRESS,ZIP', '77 81 STREET,11209']);
    for (const m of [a!, b!]) expect(await importCsv(own, m, file)).toMatchObject({ added: 1 });
    const now = 'addr:77 81ST ST|11209|';
    // As two older normalisers' stores held it: each source's identity, and the registry, under its own old key.
    await own.query("UPDATE records.import_state SET identity = 'addr:77 81 ST|11209|' WHERE source = $1", [
      `import:${a!.name}`,
    ]);
    await own.query("UPDATE records.import_state SET identity = 'addr:77 81 STREET|11209|' WHERE source = $1", [
      `import:${b!.name}`,
    ]);
    const { rows } = await own.query(
      "UPDATE records.parcels SET parcel_key = 'addr:77 81 ST|11209|' WHERE parcel_key = $1 RETURNING fips, parcel_id",
      [now],
    );
    const other = await own.query(
      "INSERT INTO records.parcels (fips, parcel_key) VALUES ($1, 'addr:77 81 STREET|11209|') RETURNING parcel_id",
      [rows[0].fips],
    );
    await own.query('UPDATE records.dataset_stats SET address_keys_version = 0');
    await rekeyAddresses(own);
    // No duplicate key (the rekey would fail on it at every resume): one of the two ids moves, the parcel keeps it.
    const after = await own.query('SELECT parcel_id FROM records.parcels WHERE parcel_key = $1', [now]);
    expect(after.rows).toHaveLength(1);
    expect([rows[0].parcel_id, other.rows[0].parcel_id]).toContain(after.rows[0].parcel_id);
  });

  // Read in one batch, or a batch each: the lower id wins however the rows fall (the lowest id is read last).
  it.each([
    ['read in one batch', undefined],
    ['each read in a batch of its own', 1],
  ])(
    'gives an identity two stored parcels now share to the lower property id; the other keeps its own (%s)',
    async (_how, batchSize) => {
      const source = `import:collide-${tagged()}`;
      const input = JSON.stringify(makeProperty({ line1: '131 74 STREET', zip: '11209' }));
      const current = 'addr:131 74TH ST|11209|';
      await own.query(
        `INSERT INTO records.import_state (source, identity, property_id, input)
       VALUES ($1, 'addr:written by v1', 900002, $2), ($1, 'addr:written by v2', 900001, $2),
              ($1, 'addr:written by v0', 900003, $2)`,
        [source, input],
      );
      await own.query('UPDATE records.dataset_stats SET address_keys_version = 0');
      await rekeyAddresses(own, undefined, { batchSize });
      const { rows } = await own.query(
        'SELECT property_id::int AS id, identity FROM records.import_state WHERE source = $1 ORDER BY property_id',
        [source],
      );
      expect(rows).toEqual([
        { id: 900001, identity: current },
        { id: 900002, identity: 'addr:written by v1' },
        { id: 900003, identity: 'addr:written by v0' },
      ]);
    },
  );

  it.each([
    ['read in one batch', undefined],
    ['each read in a batch of its own', 1],
  ])(
    'moves a parcel onto an identity another parcel moves away from; a parcel already under its identity keeps it (%s)',
    async (_how, batchSize) => {
      const source = `import:chain-${tagged()}`;
      const ocean = makeProperty({ line1: '9 OCEAN AVE', zip: '11209' });
      const elm = makeProperty({ line1: '1 ELM ST', zip: '11209' });
      const street = makeProperty({ line1: '131 74 STREET', zip: '11209' });
      const [oceanId, elmId, streetId] = [ocean, elm, street].map((p) => parcelIdentity(p, false));
      const state = [
        // Holds the identity the Ocean Ave parcel now has, but is the Elm St parcel: it moves away first ...
        { id: 900012, identity: oceanId, input: elm },
        // ... and the Ocean Ave parcel, stored under an older spelling, takes the identity it leaves.
        { id: 900011, identity: 'addr:written by v1', input: ocean },
        // Already under its identity: it keeps it, though a parcel of a lower id now has it too.
        { id: 900019, identity: streetId, input: street },
        { id: 900010, identity: 'addr:written by v0', input: street },
      ];
      await own.query(
        `INSERT INTO records.import_state (source, identity, property_id, input)
       SELECT $1, identity, id, input FROM unnest($2::text[], $3::bigint[], $4::text[]) AS u(identity, id, input)`,
        [source, state.map((r) => r.identity), state.map((r) => r.id), state.map((r) => JSON.stringify(r.input))],
      );
      await own.query('UPDATE records.dataset_stats SET address_keys_version = 0');
      await rekeyAddresses(own, undefined, { batchSize });
      const { rows } = await own.query(
        'SELECT property_id::int AS id, identity FROM records.import_state WHERE source = $1 ORDER BY property_id',
        [source],
      );
      expect(rows).toEqual([
        { id: 900010, identity: 'addr:written by v0' },
        { id: 900011, identity: oceanId },
        { id: 900012, identity: elmId },
        { id: 900019, identity: streetId },
      ]);
    },
  );
});
