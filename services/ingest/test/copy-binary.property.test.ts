// records.properties rows go to PostgreSQL as binary COPY data (copy-binary.ts). On generated rows (text with tabs,
// newlines, backslashes, `\N`, accents and astral characters; ids up to 2^53 - 1; any coordinates; times of any
// millisecond with any zone), what PostgreSQL stores from them is what it stores from the COPY text of the same cells
// (copyLine, with the body in hex as it went before): every column, compared by PostgreSQL itself. Through the real
// buildCopyChunks for whole properties too, and its ids read back from the data.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { createPool, type Pool, type PoolClient } from '@pra/platform';
import { decodeRecordDoc } from '@pra/core/stored';
import { copyText } from '../src/data/loader.js';
import { BinaryCopyWriter, binaryCopyFirstInt8s } from '../src/data/copy-binary.js';
import { buildCopyChunks, COLUMNS, copyLine } from '../src/data/copy-rows.js';
import { makeProperty } from './make-property.js';

let pool: Pool;
beforeAll(() => {
  pool = createPool(inject('databaseUrl'), 2);
});
afterAll(async () => {
  await pool.end();
});

// Two tables shaped as records.properties, without its indexes (copyText writes into the records schema).
const tag = randomBytes(4).toString('hex');
const [BY_TEXT, BY_BINARY] = [`copy_check_text_${tag}`, `copy_check_binary_${tag}`];
async function twoTables(c: PoolClient): Promise<void> {
  await dropTables(c);
  await c.query(`CREATE TABLE records.${BY_TEXT} (LIKE records.properties)`);
  await c.query(`CREATE TABLE records.${BY_BINARY} (LIKE records.properties)`);
}
const dropTables = (c: PoolClient) => c.query(`DROP TABLE IF EXISTS records.${BY_TEXT}, records.${BY_BINARY}`);

/** Rows of the two tables that differ in any column (none when the two formats agree); -0 and 0 are one number. */
async function differences(c: PoolClient): Promise<unknown[]> {
  const { rows } = await c.query(
    `SELECT t.id AS text_id, b.id AS binary_id FROM records.${BY_TEXT} t FULL JOIN records.${BY_BINARY} b ON t.id = b.id
      WHERE t.id IS NULL OR b.id IS NULL OR (t.apn, t.apn_key, t.tax_parcel_key, t.fips, t.state, t.county_key,
        t.city_key, t.zip, t.line_key, t.street_key, t.unit_key, t.loose_key, t.street_type, t.census_tract, t.source,
        t.last_modified, t.location[0], t.location[1], t.proptype, t.body)
        IS DISTINCT FROM (b.apn, b.apn_key, b.tax_parcel_key, b.fips, b.state, b.county_key, b.city_key, b.zip,
        b.line_key, b.street_key, b.unit_key, b.loose_key, b.street_type, b.census_tract, b.source, b.last_modified,
        b.location[0], b.location[1], b.proptype, b.body)`,
  );
  return rows;
}

// Any text PostgreSQL takes (no NUL), the characters COPY text escapes among it.
const text = fc.oneof(
  fc.string({ unit: fc.constantFrom('\t', '\n', '\r', '\\', 'N', 'a', ' ', 'é', '😀', ',', '"') }),
  fc.string({ unit: 'grapheme' }),
  fc.constant('\\N'),
);
const nullableText = fc.option(text, { nil: null });
const fixed = (n: number) => fc.string({ unit: fc.constantFrom('0', '9', 'A', 'z', 'é'), minLength: 0, maxLength: n });
const instant = fc
  .tuple(
    fc.date({ min: new Date('1700-01-01T00:00:00Z'), max: new Date('2200-12-31T23:59:59Z'), noInvalidDate: true }),
    fc.constantFrom('Z', '+00:00', '-05:00', '+05:30', '+14:00'),
  )
  .map(([d, zone]) => {
    const iso = d.toISOString();
    if (zone === 'Z') return iso;
    // The same wall-clock digits read in another zone: another instant, which both formats must agree on.
    return `${iso.slice(0, -1)}${zone}`;
  });
const row = fc.record({
  id: fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
  // NOT NULL but for tax_parcel_key (2) and census_tract (10).
  texts: fc.tuple(text, text, nullableText, text, text, text, text, text, text, text, nullableText, text),
  fips: fixed(5),
  state: fixed(2),
  zip: fixed(5),
  lastModified: instant,
  // What locationPoint lets through: longitude and latitude within their ranges.
  point: fc.option(
    fc.tuple(fc.double({ min: -180, max: 180, noNaN: true }), fc.double({ min: -90, max: 90, noNaN: true })),
    {
      nil: null,
    },
  ),
  body: fc.uint8Array({ maxLength: 600 }),
});

describe('records.properties as binary COPY data', () => {
  it('stores what the COPY text of the same cells stores, for any row', async () => {
    const c = await pool.connect();
    try {
      await fc.assert(
        fc.asyncProperty(fc.uniqueArray(row, { selector: (r) => r.id, minLength: 1, maxLength: 8 }), async (rows) => {
          await twoTables(c);
          const binary = new BinaryCopyWriter(16);
          const lines: string[] = [];
          for (const r of rows) {
            const [apn, apnKey, taxKey, county, city, line, street, unit, loose, type, tract, source] = r.texts;
            const cells = [r.id, apn, apnKey, taxKey, r.fips, r.state, county, city, r.zip, line, street, unit, loose];
            const after = [type, tract, source, r.lastModified, r.point && `(${r.point[0]},${r.point[1]})`, apn];
            lines.push(`${copyLine([...cells, ...after]).slice(0, -1)}\t\\\\x${Buffer.from(r.body).toString('hex')}\n`);
            binary.row(20);
            binary.int8(r.id);
            for (const t of [apn, apnKey, taxKey]) binary.text(t);
            binary.text(r.fips);
            binary.text(r.state);
            for (const t of [county, city]) binary.text(t);
            binary.text(r.zip);
            for (const t of [line, street, unit, loose, type, tract, source]) binary.text(t);
            binary.timestamptz(r.lastModified);
            if (r.point) binary.point(r.point[0], r.point[1]);
            else binary.null();
            binary.text(apn);
            binary.bytes(r.body);
          }
          const data = binary.finish();
          expect(await copyInto(c, BY_TEXT, lines.join(''), 'text')).toBe('stored');
          expect(await copyInto(c, BY_BINARY, data, 'binary')).toBe('stored');
          expect(await differences(c)).toEqual([]);
          expect(binaryCopyFirstInt8s(data)).toEqual(rows.map((r) => r.id));
        }),
        { numRuns: 150 },
      );
    } finally {
      await dropTables(c);
      c.release();
    }
  });

  it("is what buildCopyChunks writes for a batch's properties, read back by their ids", async () => {
    const items = [
      makeProperty({ line1: '1 TAB\tIN ST', apn: 'A\\B', latitude: null }),
      makeProperty({ line1: '2 ÜMLAUT ST', line2: 'APT 😀', longitude: -0.000001, latitude: 89.999999 }),
    ];
    const { properties } = buildCopyChunks([5, 2 ** 40], items, [1, 2], 'test:binary', [
      [null, null],
      [null, null],
    ]);
    expect(binaryCopyFirstInt8s(properties)).toEqual([5, 2 ** 40]);
    const c = await pool.connect();
    try {
      await twoTables(c);
      expect(await copyInto(c, BY_BINARY, properties, 'binary')).toBe('stored');
      const { rows } = await c.query(
        `SELECT id, apn, source, last_modified = '2025-01-01T00:00:00Z' AS at, location::text AS location, body
           FROM records.${BY_BINARY} ORDER BY id`,
      );
      expect(
        rows.map(({ body, ...r }) => ({ ...r, line1: JSON.parse(decodeRecordDoc(body).body).address.line1 })),
      ).toEqual([
        { id: 5, apn: 'A\\B', source: 'test:binary', at: true, location: null, line1: '1 TAB\tIN ST' },
        {
          id: 2 ** 40,
          apn: '001-0002-003-0000',
          source: 'test:binary',
          at: true,
          location: '(-1e-06,89.999999)',
          line1: '2 ÜMLAUT ST',
        },
      ]);
    } finally {
      await dropTables(c);
      c.release();
    }
  });

  it('refuses a time without a zone (its instant would be the server session’s to choose), and an unsafe id', () => {
    const w = new BinaryCopyWriter();
    expect(() => w.timestamptz('2025-01-01T00:00:00')).toThrow(/with a zone/);
    expect(() => w.timestamptz('2025-01-01')).toThrow(/with a zone/);
    expect(() => w.timestamptz('yesterday')).toThrow(/with a zone/);
    expect(() => w.int8(2 ** 53)).toThrow(/bigint/);
    expect(() => w.int8(1.5)).toThrow(/bigint/);
  });
});

/** COPY into one of the tables: 'stored', or the SQLSTATE PostgreSQL refused it with. */
async function copyInto(c: PoolClient, table: string, data: string | Uint8Array, format: 'text' | 'binary') {
  try {
    await c.query('BEGIN');
    await copyText(c, table, COLUMNS.properties, data, format);
    await c.query('COMMIT');
    return 'stored';
  } catch (err) {
    await c.query('ROLLBACK');
    return (err as { code?: string }).code ?? 'error';
  }
}
