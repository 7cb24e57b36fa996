// records.properties rows go to PostgreSQL as binary COPY data (copy-binary.ts; import_state's too, of the same
// text and bigint fields: import-state-columns.test.ts reads them back). On
// generated rows (text with tabs, newlines, backslashes, `\N`, accents and astral characters; ids up to 2^53 - 1;
// coordinates anywhere in their ranges, -0 among them; any millisecond of the years 1000 to 9999), what PostgreSQL stores
// from them is what it stores from the COPY text of the same cells (copyLine, the body in hex as it went before):
// every column, compared by PostgreSQL itself. buildCopyChunks' rows are read back column by column, by name. The
// writer's own buffer (sized, grown) is checked without PostgreSQL.
import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { apnKey, countyKey, normalizeCity } from '@pra/core/address';
import { decodeRecordDoc } from '@pra/core/stored';
import { createPool, type Pool, type PoolClient } from '@pra/platform';
import { BinaryCopyWriter, binaryCopyFirstInt8s } from '../src/data/copy-binary.js';
import { buildCopyChunks, COLUMNS, type CopyFormat, copyLine } from '../src/data/copy-rows.js';
import { copyStep, runScript } from '../src/data/write-script.js';
import { streetWithUnit } from '../src/domain/street-lines.js';
import { parsedStreetLine } from '../src/domain/street-lines.js';
import { NO_OWNER_IDS } from '../src/domain/owner-keys.js';
import { makeProperty } from './make-property.js';

let pool: Pool;
beforeAll(() => {
  pool = createPool(inject('databaseUrl'), 2);
});
afterAll(async () => {
  await pool.end();
});

// Two tables shaped as records.properties, without its indexes (the loads write into the records schema).
const tag = randomBytes(4).toString('hex');
const [BY_TEXT, BY_BINARY] = [`copy_check_text_${tag}`, `copy_check_binary_${tag}`];
const dropTables = (c: PoolClient) => c.query(`DROP TABLE IF EXISTS records.${BY_TEXT}, records.${BY_BINARY}`);
async function twoTables(c: PoolClient): Promise<void> {
  await dropTables(c);
  await c.query(`CREATE TABLE records.${BY_TEXT} (LIKE records.properties)`);
  await c.query(`CREATE TABLE records.${BY_BINARY} (LIKE records.properties)`);
}
/** Rows of the two tables that differ in any column (every column, whatever columns the table has). */
async function differences(c: PoolClient): Promise<unknown[]> {
  const { rows } = await c.query(
    `SELECT to_jsonb(t) AS by_text, to_jsonb(b) AS by_binary
       FROM records.${BY_TEXT} t FULL JOIN records.${BY_BINARY} b ON t.id = b.id
      WHERE to_jsonb(t) IS DISTINCT FROM to_jsonb(b)`,
  );
  return rows;
}
/** COPY into a table of the records schema in one transaction: 'stored', or the SQLSTATE PostgreSQL refused it with. */
async function load(
  c: PoolClient,
  table: string,
  data: string | Uint8Array,
  format: CopyFormat,
  columns = COLUMNS.properties,
) {
  try {
    // As an import writes it (write-script.ts).
    await runScript(c, [copyStep(`records.${table}`, columns, data, format === 'binary')]);
    return 'stored';
  } catch (err) {
    return (err as { code?: string }).code ?? 'error';
  }
}
const FIELDS = COLUMNS.properties.split(',').length;

// Any text PostgreSQL takes (no NUL), the characters COPY text escapes among it.
const text = fc.oneof(
  fc.string({ unit: fc.constantFrom('\t', '\n', '\r', '\\', 'N', 'a', ' ', 'é', '😀', ',', '"') }),
  fc.string({ unit: 'grapheme' }),
  fc.constant('\\N'),
);
const nullable = fc.option(text, { nil: null });
const fixed = (n: number) => fc.string({ unit: fc.constantFrom('0', '9', 'A', 'z', 'é'), maxLength: n });
const row = fc.record({
  id: fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
  apn: text,
  apnKey: text,
  taxParcelKey: nullable,
  fips: fixed(5),
  state: fixed(2),
  countyKey: text,
  cityKey: text,
  zip: fixed(5),
  lineKey: text,
  streetKey: text,
  unitKey: text,
  looseKey: text,
  streetType: text,
  censusTract: nullable,
  source: text,
  // What every time a load stores is: toISOString's text.
  lastModified: fc
    .date({ min: new Date('1000-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59Z'), noInvalidDate: true })
    .map((d) => d.toISOString()),
  // What locationPoint lets through: longitude and latitude within their ranges.
  point: fc.option(
    fc.tuple(fc.double({ min: -180, max: 180, noNaN: true }), fc.double({ min: -90, max: 90, noNaN: true })),
    { nil: null },
  ),
  proptype: text,
  body: fc.uint8Array({ maxLength: 600 }),
});
type Row = typeof row extends fc.Arbitrary<infer R> ? R : never;

/** A row's cells in COLUMNS.properties' order, but for the body. */
const cellsOf = (r: Row) => [
  r.id,
  r.apn,
  r.apnKey,
  r.taxParcelKey,
  r.fips,
  r.state,
  r.countyKey,
  r.cityKey,
  r.zip,
  r.lineKey,
  r.streetKey,
  r.unitKey,
  r.looseKey,
  r.streetType,
  r.censusTract,
  r.source,
  r.lastModified,
  r.point && `(${r.point[0]},${r.point[1]})`,
  r.proptype,
];

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
            const cells = cellsOf(r);
            lines.push(`${copyLine(cells).slice(0, -1)}\t\\\\x${Buffer.from(r.body).toString('hex')}\n`);
            binary.row(FIELDS);
            binary.int8(r.id);
            for (const v of cells.slice(1, 16)) binary.text(v as string | null);
            binary.timestamptz(r.lastModified);
            if (r.point) binary.point(r.point[0], r.point[1]);
            else binary.null();
            binary.text(r.proptype);
            binary.bytes(r.body);
          }
          const data = binary.finish();
          expect(await load(c, BY_TEXT, lines.join(''), 'text')).toBe('stored');
          expect(await load(c, BY_BINARY, data, 'binary')).toBe('stored');
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

  it("is buildCopyChunks' rows, every column where COLUMNS.properties names it, and their ids read back", async () => {
    const items = [
      makeProperty({
        apn: 'A\\B-7',
        taxParcelId: 'T-9',
        fips: '06113',
        county: 'Yolo',
        city: 'DAVIS',
        line1: '5 OAK\tAVE',
        line2: 'UNIT 2',
        censusTract: '06113010101',
        proptype: 'Condo',
        longitude: -0,
        latitude: 38.5,
      }),
      makeProperty({ line1: '2 ÜMLAUT ST', line2: 'APT 😀', latitude: null }),
    ];
    const { properties } = buildCopyChunks([5, 2 ** 40], items, [1, 2], 'test:binary', [NO_OWNER_IDS, NO_OWNER_IDS]);
    expect(binaryCopyFirstInt8s(properties)).toEqual([5, 2 ** 40]);
    expect(binaryCopyFirstInt8s(new Uint8Array(0))).toEqual([]);
    const c = await pool.connect();
    try {
      await twoTables(c);
      expect(await load(c, BY_BINARY, properties, 'binary')).toBe('stored');
      const { rows } = await c.query(`SELECT * FROM records.${BY_BINARY} ORDER BY id`);
      expect(
        rows.map(({ body, last_modified, location, ...r }) => ({
          ...r,
          last_modified: (last_modified as Date).toISOString(),
          location: location && [location.x, location.y],
          line1: JSON.parse(decodeRecordDoc(body).body).address.line1,
        })),
      ).toEqual(
        items.map((p, i) => {
          const s = parsedStreetLine(streetWithUnit(p));
          return {
            id: [5, 2 ** 40][i],
            apn: p.apn,
            apn_key: apnKey(p.apn),
            tax_parcel_key: p.taxParcelId && apnKey(p.taxParcelId),
            fips: p.fips,
            state: p.state,
            county_key: countyKey(p.county),
            city_key: normalizeCity(p.city),
            zip: p.zip,
            line_key: s.lineKey,
            street_key: s.streetKey,
            unit_key: s.unitKey,
            loose_key: s.looseKey,
            street_type: s.streetType,
            census_tract: p.censusTract,
            source: 'test:binary',
            last_modified: p.lastModified,
            location: p.latitude === null ? null : [p.longitude! + 0, p.latitude],
            proptype: p.proptype.toUpperCase(),
            line1: p.line1,
          };
        }),
      );
      // -0 is stored as 0, as the text cell wrote it ("0").
      const { rows: signs } = await c.query(`SELECT location::text AS l FROM records.${BY_BINARY} WHERE id = 5`);
      expect(signs[0].l).toBe('(0,38.5)');
    } finally {
      await dropTables(c);
      c.release();
    }
  });

  it('fills a writer sized for its rows without growing it, and grows one sized too small, multi-byte text included', () => {
    // Not read back by PostgreSQL, as the tests above are: the same rows written by a writer with room to spare.
    const write = (w: BinaryCopyWriter, texts: string[]) => {
      for (const t of texts) {
        w.row(1);
        w.text(t);
      }
      return w.finish();
    };
    const rowBytes = (texts: string[]) => texts.reduce((n, t) => n + 2 + 4 + Buffer.byteLength(t), 0);
    const texts = Array.from({ length: 50 }, (_, i) => `{"line1":"${i} MAIN ST","state":"PA"}`.repeat(3));
    const exact = write(new BinaryCopyWriter(rowBytes(texts)), texts);
    // Sized exactly, it never grew: where the bound of 3 bytes a character did not fit, the exact length was taken.
    expect(exact.buffer.byteLength).toBe(exact.byteLength);
    expect(exact).toEqual(write(new BinaryCopyWriter(1 << 20), texts));
    const wide = [...texts.slice(0, 10), 'ÅSA ÉLODIE 李 🏠'.repeat(40)];
    const sized = rowBytes(wide.slice(0, 10));
    const grown = write(new BinaryCopyWriter(sized), wide);
    // Its rows outgrew the buffer it was made with (an empty writer of that size shows the buffer's size).
    expect(grown.byteLength).toBeGreaterThan(new BinaryCopyWriter(sized).finish().buffer.byteLength);
    expect(grown).toEqual(write(new BinaryCopyWriter(1 << 20), wide));
  });

  it('refuses a time not as toISOString writes it, an unsafe id, and a row of more or fewer fields than it says', () => {
    const w = new BinaryCopyWriter();
    w.row(1);
    for (const t of [
      '2025-01-01T00:00:00',
      '2025-01-01',
      'yesterday',
      '2025-02-30T00:00:00.000Z',
      '2025-01-01T00:00:00.000+05:30',
    ])
      expect(() => w.timestamptz(t)).toThrow(/as toISOString writes it/);
    expect(() => w.int8(2 ** 53)).toThrow(/bigint/);
    expect(() => w.int8(1.5)).toThrow(/bigint/);
    w.int8(1);
    expect(() => w.text('one too many')).toThrow(/more fields than it declared/);
    const short = new BinaryCopyWriter();
    short.row(2);
    short.int8(1);
    expect(() => short.row(2)).toThrow(/1 field\(s\) short/);
    expect(() => short.finish()).toThrow(/1 field\(s\) short/);
  });
});
