// The one-file county rolls for the import benchmarks (bench-import.ts, bench-import-stages.ts,
// bench-import-warmup.ts), and a roll at a county's size: its sample is a few thousand rows, too short for the
// importer's threads and V8's optimised code to pay.
import { writeFileSync } from 'node:fs';
import { readCsvValues } from '../../services/ingest/src/importer/csv-records.js';
import { COUNTY_ROLLS, type Mapping } from '../../services/ingest/src/importer/index.js';

/** Issue 36's target: rows a second of a one-file county roll's first load, on a 2-core machine. */
export const COUNTY_TARGET_ROWS_PER_SECOND = 10_000;

/** The counties of COUNTY_ROLLS whose roll is one file. */
export const ONE_FILE_COUNTIES = Object.keys(COUNTY_ROLLS).filter(
  (c) => COUNTY_ROLLS[c as keyof typeof COUNTY_ROLLS].length === 1,
);

/** The roll of a one-file county (its shipped mapping and its file); null for any other name. */
export function oneFileRoll(county: string): { mapping: string; file: string } | null {
  if (!ONE_FILE_COUNTIES.includes(county)) return null;
  return COUNTY_ROLLS[county as keyof typeof COUNTY_ROLLS][0]!;
}

/** A CSV cell as written: quoted when it holds the delimiter, a quote or a line break. */
export const csvField = (v: string, delimiter = ',') =>
  v.includes(delimiter) || /["\n\r]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;

/**
 * A one-file roll's sample `times` over, each copy with parcels, site addresses and owners of its own: the APN
 * prefixed with the copy's number and a Q, the house number with the copy's number, and a letter (or two) added to
 * the first word of the owner cell.
 */
export async function multiplyRoll(mapping: Mapping, file: string, times: number, out: string): Promise<number> {
  const fields = mapping.fields as Record<string, { column?: string } | undefined>;
  const rows: string[][] = [];
  let header: string[] = [];
  for await (const item of readCsvValues(file, mapping.delimiter)) {
    if ('header' in item) header = item.header;
    else if ('values' in item) rows.push(item.values);
  }
  const col = (target: string) => {
    const name = fields[target]?.column;
    return name === undefined ? -1 : header.lastIndexOf(name);
  };
  const [apn, line1, owner] = [col('apn'), col('line1'), col('ownerName')];
  if (apn < 0 || line1 < 0) throw new Error(`${mapping.name}: a roll to repeat needs APN and line1 columns`);
  const quote = (v: string) => csvField(v, mapping.delimiter);
  const letters = (c: number) =>
    String.fromCharCode(65 + (c % 26)) + (c >= 26 ? String.fromCharCode(65 + Math.floor(c / 26)) : '');
  const lines = [header.map(quote).join(mapping.delimiter)];
  for (let c = 0; c < times; c++) {
    for (const r of rows) {
      const f = [...r];
      if (c > 0) {
        // A letter no APN of the sample has: '1' + '2-11' would be another parcel's '12-11'.
        f[apn] = `${c}Q${f[apn]}`;
        f[line1] = f[line1]!.replace(/^(\d)/, `${c}$1`);
        if (owner >= 0) f[owner] = f[owner]!.replace(/^(\S+)/, `$1${letters(c)}`);
      }
      lines.push(f.map(quote).join(mapping.delimiter));
    }
  }
  writeFileSync(out, `${lines.join('\n')}\n`);
  return rows.length * times;
}
