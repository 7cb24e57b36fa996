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

/**
 * An SSA first-name list's rows (ssa-*-first-names-top1000.csv); throws, naming the file and the line, on a list
 * without rows or a row that is not `Name,share %,F|M` (a damaged list would else read every owner otherwise).
 */
export function firstNameRows(file: string): FirstNameRow[] {
  return checkedFirstNameRows(file, referenceRows(file));
}

/** firstNameRows of a list's cells (the header left out). */
export function checkedFirstNameRows(file: string, cells: readonly string[][]): FirstNameRow[] {
  const rows = cells.map((r, i): FirstNameRow => {
    const name = r[0]!.trim().toUpperCase();
    const percent = Number.parseFloat(r[1] ?? '');
    const sex = r[2]?.trim().toUpperCase();
    // A top 1,000's shares are thousandths of a per cent at the least (0.0046% on the older list): a smaller one is a
    // damaged cell, which would move the floor (name-frequencies.ts) and every odds with it.
    if (!/^[A-Z][A-Z'-]*$/.test(name) || !(percent >= 0.001 && percent <= 100) || (sex !== 'F' && sex !== 'M')) {
      throw new Error(
        `the reference list ${file}, line ${i + 2}, is not Name,share %,F|M (${JSON.stringify(r.join(','))}): restore it from the repository`,
      );
    }
    return { name, percent, sex };
  });
  if (rows.length === 0) throw new Error(`the reference list ${file} has no names: restore it from the repository`);
  return rows;
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
