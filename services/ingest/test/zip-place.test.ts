// The place of a ZIP as an import asks for it (generator/reference-data.ts zipPlace: the GeoNames file indexed by
// byte offset, a row decoded when asked) is the place the whole file lists for that ZIP (the last one that is a
// place), for every ZIP of the file: names written in UTF-8 (Doña Ana County) included.
import { describe, expect, it } from 'vitest';
import { loadZipPlaces, zipPlace } from '../src/generator/reference-data.js';

describe('zipPlace', () => {
  it('gives each ZIP the place the whole file lists for it', () => {
    const last = new Map<string, ReturnType<typeof zipPlace>>();
    for (const p of loadZipPlaces()) last.set(p.zip, p);
    expect(last.size).toBeGreaterThan(40_000);
    for (const [zip, place] of last) expect(zipPlace(zip), zip).toEqual(place);
    expect(zipPlace('87936')?.county).toBe('Doña Ana');
  });

  it('gives none for a ZIP the file does not hold, or that is no ZIP', () => {
    for (const zip of ['00000', '1234', '123456', 'ABCDE', '', '19103\t']) expect(zipPlace(zip)).toBeUndefined();
  });
});
