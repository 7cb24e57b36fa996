// The reference lists in services/ingest/reference (census surnames, SSA first names, street names: ../shared's real
// data, copied with the project), read as text, and their CSV lines (quoted cells, commas inside them).
import { readFileSync } from 'node:fs';

const REF = new URL('../../reference/', import.meta.url);

/** A reference file's text, without a byte-order mark. */
export function readReference(file: string): string {
  return readFileSync(new URL(file, REF), 'utf8').replace(/^\uFEFF/, '');
}

/** A CSV file's data rows (the header left out), each as its cells. */
export function referenceRows(file: string): string[][] {
  return readReference(file).trim().split(/\r?\n/).slice(1).map(parseCsvLine);
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
