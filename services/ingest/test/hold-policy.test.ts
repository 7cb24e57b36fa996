// Which mappings the importer's reader may hold rows apart for (hold-policy.ts heldApnColumn): only where every row of
// one parcel gives the reader one key, so that holding keeps the parcel's rows in the file's order; and the key.
import { describe, expect, it } from 'vitest';
import { heldApnColumn, heldKey } from '../src/importer/hold-policy.js';
import { Mapping } from '../src/importer/mapping.js';

const mapping = (fields: Record<string, unknown>, join?: Record<string, unknown>) => {
  const m = Mapping.parse({
    name: 'held-test',
    kind: 'property',
    delimiter: ',',
    ...(join ? { join } : {}),
    fields: { line1: { column: 'ADDR' }, zip: { column: 'ZIP' }, ...fields },
  });
  if (m.kind !== 'property') throw new Error('not a property mapping');
  return m;
};

describe('heldApnColumn', () => {
  it('holds the rows of an APN read from one cell as written, whatever its FIPS (the key leaves it out)', () => {
    expect(heldApnColumn(mapping({ apn: { column: 'APN', required: true } }))).toBe('APN');
    expect(heldApnColumn(mapping({ apn: { column: 'APN' }, fips: { value: '51540' } }))).toBe('APN');
    expect(heldApnColumn(mapping({ apn: { column: 'APN' }, fips: { column: 'FIPS', map: { X: '1' } } }))).toBe('APN');
    expect(heldApnColumn(mapping({ apn: { column: 'APN' } }, { mapping: 'held-parcels', on: 'apn' }))).toBe('APN');
  });

  it('holds none where two cells could be one APN, or a cell no APN, or parcels are found by address', () => {
    // Page 5 and 05 are one APN of a template ({PAGE:03}); a map or a fallback makes two cells one value; a nullIf
    // makes a cell no APN (the parcel is then known by its address).
    expect(heldApnColumn(mapping({ apn: { template: '{BOOK}-{PAGE:03}' } }))).toBeNull();
    expect(heldApnColumn(mapping({ apn: { column: 'APN', map: { 'A-1': 'A1' } } }))).toBeNull();
    expect(heldApnColumn(mapping({ apn: { column: 'APN', fallback: 'OLD_APN' } }))).toBeNull();
    expect(heldApnColumn(mapping({ apn: { column: 'APN', nullIf: ['0'] } }))).toBeNull();
    expect(heldApnColumn(mapping({ line2: { column: 'CITY' } }))).toBeNull();
    expect(heldApnColumn(mapping({ apn: { column: 'APN' } }, { mapping: 'held-parcels', on: 'address' }))).toBeNull();
  });
});

describe('heldKey', () => {
  it('reads the cell as apnKey does, and none that holds no letter or digit', () => {
    expect(heldKey('0123')).toBe('0123');
    expect(heldKey('01-23')).toBe('0123');
    expect(heldKey('ab 1')).toBe('AB1');
    expect(heldKey('')).toBeNull();
    expect(heldKey(' - ')).toBeNull();
  });
});
