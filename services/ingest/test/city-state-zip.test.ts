// Combined city/state/ZIP cells as the rolls write them (Philadelphia `mailing_city_state` + `mailing_zip`,
// Charlottesville `OwnerCityState`) and the shapes issue 36 names.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_CITY_STATE_ZIP_CHARS, splitCityStateZip } from '../src/domain/city-state-zip.js';

const CASES: [string, [string | null, string | null, string | null, string | null] | null][] = [
  ['SPRINGFIELD IL 62704-1234', ['SPRINGFIELD', 'IL', '62704', '1234']],
  ['PHILADELPHIA PA', ['PHILADELPHIA', 'PA', null, null]],
  ['PHILADELPHIA, PA 19103', ['PHILADELPHIA', 'PA', '19103', null]],
  ['CHARLOTTESVILLE VA', ['CHARLOTTESVILLE', 'VA', null, null]],
  ['CHARLOTTESVILLE VA 229044726', ['CHARLOTTESVILLE', 'VA', '22904', '4726']],
  ['SAN JUAN PUERTO RICO 00901', ['SAN JUAN', 'PR', '00901', null]],
  ['RALEIGH NORTH CAROLINA', ['RALEIGH', 'NC', null, null]],
  ['WASHINGTON DC ', ['WASHINGTON', 'DC', null, null]],
  ['WASHINGTON, D.C. 20001', ['WASHINGTON', 'DC', '20001', null]],
  ['NEW YORK NY 10001 1234', ['NEW YORK', 'NY', '10001', '1234']],
  ['KING OF PRUSSIA PA', ['KING OF PRUSSIA', 'PA', null, null]],
  ['FALLS CHURCH VA', ['FALLS CHURCH', 'VA', null, null]],
  ['E SALT LAKE UT', ['E SALT LAKE', 'UT', null, null]],
  ['EAST STROUDSBURG PA', ['EAST STROUDSBURG', 'PA', null, null]],
  ['Virginia Beach Va', ['VIRGINIA BEACH', 'VA', null, null]],
  ['NEW YORK', [null, 'NY', null, null]],
  ['1052 LE MONT SUR LAUSANNE  SWITZERLAND', ['1052 LE MONT SUR LAUSANNE SWITZERLAND', null, null, null]],
  ['SEWELL N', ['SEWELL N', null, null, null]],
  ['19103', [null, null, '19103', null]],
  // The armed forces' post offices (Charlottesville's owners abroad): their own state codes, only after APO, FPO, DPO.
  ['APO AE 09012', ['APO', 'AE', '09012', null]],
  ['FPO AP 96349-1100', ['FPO', 'AP', '96349', '1100']],
  ['DPO AA', ['DPO', 'AA', null, null]],
  ['SPRINGFIELD AE', ['SPRINGFIELD AE', null, null, null]],
  ['', null],
  ['   ', null],
];

describe('splitCityStateZip', () => {
  it.each(CASES)('%s', (cell, want) => {
    const got = splitCityStateZip(cell);
    expect(got && [got.city, got.state, got.zip5, got.zip4]).toEqual(want);
  });

  it('gives back the parts a generated cell was built from', () => {
    const city = fc.constantFrom('SPRINGFIELD', 'SALT LAKE CITY', 'ST LOUIS', 'KING OF PRUSSIA', 'NEW YORK', 'LEBANON');
    const state = fc.constantFrom('IL', 'UT', 'MO', 'PA', 'NY', 'NH', 'DC', 'PR');
    const zip5 = fc.stringMatching(/^\d{5}$/);
    const zip4 = fc.option(fc.stringMatching(/^\d{4}$/), { nil: null });
    fc.assert(
      fc.property(city, fc.boolean(), state, fc.option(zip5, { nil: null }), zip4, (c, comma, s, z5, z4) => {
        const cell = `${c}${comma ? ',' : ''} ${s}${z5 ? ` ${z5}${z4 ? `-${z4}` : ''}` : ''}`;
        expect(splitCityStateZip(cell)).toEqual({ city: c, state: s, zip5: z5, zip4: z5 ? z4 : null });
      }),
    );
  });

  it('reads a cell of any length in bounded work: past the limit it is cut at a space', () => {
    const got = splitCityStateZip(`${'SPRINGFIELD '.repeat(100_000)}IL 62704`);
    expect(got?.city?.length ?? 0).toBeLessThanOrEqual(MAX_CITY_STATE_ZIP_CHARS);
    fc.assert(fc.property(fc.string({ maxLength: 400 }), (s) => void splitCityStateZip(s)));
  });
});
