// The postal-city fallback's directional fold (zip-places.ts postalCityKey) over the real GeoNames file: a postal
// city asked with its first directional abbreviated finds the post office's ZIPs as written out (W Lebanon is WEST
// LEBANON), and so does one whose next word is ST, FT or MT abbreviated (E St Louis and East St Louis are EAST SAINT
// LOUIS: normalizeCity writes out a first such word only). And no city of the file is read as another: each name's
// ZIPs are its own.
import { describe, expect, it } from 'vitest';
import { normalizeCity } from '@pra/core/address';
import { loadZipPlaces, postalZips } from '@pra/core/zip-places';

const zipsOf = (state: string, city: string) => [...postalZips(state, normalizeCity(city))].sort();

describe('a postal city asked with its first directional abbreviated', () => {
  it('finds the ZIPs of the city written out (the fold itself)', () => {
    expect(zipsOf('NH', 'W Lebanon')).toEqual(zipsOf('NH', 'West Lebanon'));
    expect(zipsOf('AR', 'N Little Rock')).toEqual(zipsOf('AR', 'North Little Rock'));
    expect(zipsOf('NH', 'W Lebanon')).not.toEqual([]);
    // The only abbreviated city in the file (S COFFEYVILLE, OK) answers both ways.
    expect(zipsOf('OK', 'South Coffeyville')).toEqual(['74072']);
    // A directional alone is not folded.
    expect(zipsOf('NH', 'W')).toEqual([]);
  });

  it('merges no two cities of the file: every name answers the ZIPs GeoNames gives it', () => {
    const byName = new Map<string, Set<string>>();
    for (const p of loadZipPlaces()) {
      if (!/^\d{5}$/.test(p.zip)) continue;
      const key = `${p.state}|${normalizeCity(p.city)}`;
      byName.set(key, (byName.get(key) ?? new Set()).add(p.zip));
    }
    expect(byName.size).toBeGreaterThan(29_000);
    for (const [key, zips] of byName) {
      const [state, city] = key.split('|') as [string, string];
      expect([...postalZips(state, city)].sort(), key).toEqual([...zips].sort());
    }
  });

  it('also when its next word is ST, FT or MT abbreviated (E St Louis is EAST SAINT LOUIS)', () => {
    for (const [state, asked, full] of [
      ['IL', 'E St Louis', 'East Saint Louis'],
      ['IL', 'East St Louis', 'East Saint Louis'],
      ['MN', 'S St Paul', 'South Saint Paul'],
      ['VT', 'E St Johnsbury', 'East Saint Johnsbury'],
      ['FL', 'N Ft Myers', 'North Fort Myers'],
    ] as const) {
      expect(zipsOf(state, full), full).not.toEqual([]);
      expect(zipsOf(state, asked), asked).toEqual(zipsOf(state, full));
    }
  });
});
