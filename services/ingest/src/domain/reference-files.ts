// The reference lists in services/ingest/reference (census surnames, SSA first names, street names: copies of the
// hand-out's real data, and the SSA's first names of 1920-1999 births built from the SSA's own files by
// scripts/ssa-first-names-from-yob.ts; shipped with the project and its image), read as text, and their CSV lines
// (quoted cells, commas inside them). The generator reads them, and so does the owner-name parser (name-frequencies.ts).
import { readFileSync } from 'node:fs';

const REF = new URL('../../reference/', import.meta.url);

/** A reference file's text, without a byte-order mark. */
export function readReference(file: string): string {
  const url = new URL(file, REF);
  try {
    return readFileSync(url, 'utf8').replace(/^\uFEFF/, '');
  } catch (err) {
    throw new Error(
      `the reference list ${url.pathname} cannot be read (${(err as Error).message}): services/ingest/reference ships with the importer; restore it from the repository`,
      { cause: err },
    );
  }
}

/** A CSV file's data rows (the header left out), each as its cells. */
export function referenceRows(file: string): string[][] {
  return readReference(file).trim().split(/\r?\n/).slice(1).map(parseCsvLine);
}

/** A row of an SSA first-name list (`Name,share %,F|M`): the name upper-cased, its share of that sex's births in %. */
export interface FirstNameRow {
  name: string;
  percent: number;
  sex: 'F' | 'M';
}

/** An SSA first-name list's rows (ssa-*-first-names-top1000.csv). */
export function firstNameRows(file: string): FirstNameRow[] {
  return referenceRows(file).map((r) => ({
    name: r[0]!.trim().toUpperCase(),
    percent: Number.parseFloat(r[1]!),
    sex: r[2]?.trim().toUpperCase() === 'M' ? 'M' : 'F',
  }));
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
