// The GeoNames file's index by ZIP (zip-places.ts indexZipRows: byte offsets over a Latin-1 view of the bytes, a row
// decoded as UTF-8 when asked) gives, for any file and any ZIP asked, the place the file's rows say: of the rows
// whose second cell is that ZIP, the last one that is a place. Files with UTF-8 names, odd or missing tabs, empty
// rows, CRLF, a byte-order mark, a last row with or without its newline, a ZIP in several rows or in none. And
// zipPlace over the real file gives each of its ZIPs the place loadZipPlaces lists for it.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { indexZipRows, loadZipPlaces, type ZipPlace, zipPlace, zipPlaceIn, zipPlaceOf } from './zip-places.js';

/** What the rows say: the last row (in the file's order) whose ZIP cell is `zip` and that is a place. */
function placeOfRows(file: string, zip: string): ZipPlace | undefined {
  let place: ZipPlace | undefined;
  for (const row of file.split('\n')) {
    const cells = row.split('\t');
    // The ZIP is the row's second cell, between its first two tabs.
    if (cells.length >= 3 && cells[1] === zip) place = zipPlaceOf(row) ?? place;
  }
  return place;
}

const ZIPS = ['19103', '87936', '00501', '99999', '00000', '1234', '123456', 'ABCDE', '1910Ω', '١٢٣٤٥', ''];
const zipCell = fc.constantFrom(...ZIPS);
const text = fc.constantFrom('Philadelphia', 'Doña Ana', 'Ñandú', '東京', 'Hawaii', '', ' ', 'Zoë\r');
const state = fc.constantFrom('PA', 'NM', 'HI', 'ZZ', '', 'Ω');
const countyCode = fc.constantFrom('101', '013', '003', '', '12', 'ABC', '١٠١');
const coord = fc.constantFrom('39.95', '-75.16', '', 'x', '21.3\r');
const row = fc.oneof(
  {
    weight: 8,
    arbitrary: fc
      .tuple(
        fc.constantFrom('US', '\uFEFFUS', ''),
        zipCell,
        text,
        text,
        state,
        text,
        countyCode,
        text,
        text,
        coord,
        coord,
      )
      .map((cells) => cells.join('\t')),
  },
  // Rows cut short or with tabs in odd places.
  {
    weight: 2,
    arbitrary: fc
      .array(fc.oneof(zipCell, text, state, fc.constant('')), { maxLength: 6 })
      .map((cells) => cells.join('\t')),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom('', '\t', '\t\t', 'US\t19103', '\t19103\t', 'Ω\t87936\tX\tY\tNM\tDoña Ana\t013'),
  },
);
const file = fc
  .tuple(fc.array(row, { maxLength: 12 }), fc.constantFrom('\n', '\r\n'), fc.boolean())
  .map(([rows, eol, lastNewline]) => rows.join(eol) + (lastNewline && rows.length > 0 ? eol : ''));

describe('the GeoNames file indexed by ZIP', () => {
  it('gives the place its rows say, for any file and any ZIP asked', () => {
    let places = 0;
    fc.assert(
      fc.property(file, (f) => {
        const index = indexZipRows(Buffer.from(f, 'utf8'));
        for (const zip of [...ZIPS, '19103\t', '19103\n', ' 19103', '__proto__', 'constructor']) {
          const place = zipPlaceIn(index, zip);
          expect(place, JSON.stringify([f, zip])).toEqual(placeOfRows(f, zip));
          if (place) places++;
        }
      }),
      { numRuns: 400 },
    );
    // The files drawn hold places, UTF-8 names among them: the comparison is not of nothing with nothing.
    expect(places).toBeGreaterThan(100);
  });

  it('gives each ZIP of the real file the place loadZipPlaces lists for it', () => {
    const last = new Map<string, ZipPlace>();
    for (const p of loadZipPlaces()) last.set(p.zip, p);
    expect(last.size).toBeGreaterThan(40_000);
    for (const [zip, place] of last) expect(zipPlace(zip), zip).toEqual(place);
    // Both sides read the same file, so a known row checks them against the file itself: a UTF-8 county name, whose
    // offsets would shift every later row were bytes and characters confused.
    expect(zipPlace('87936')).toMatchObject({ city: 'GARFIELD', state: 'NM', county: 'Doña Ana', fips: '35013' });
    for (const zip of ['00000', '1234', '123456', 'ABCDE', '', '19103\t']) expect(zipPlace(zip)).toBeUndefined();
  });
});
