// npm run bench:cli-options -- [--county philadelphia|lebanon] [--rounds 4] --options="<node options>" --options=...
// Node's options for the import CLI, compared: a one-file roll's first load run as a user runs it (`npm run ingest --
// import`, a fresh process and a fresh database each time: ingest's test/cli-run.ts), once with each set of options
// given (`--options=""`: none; the `=` is needed, as the options start with dashes), the sets alternated round by round so that a drift of the machine falls on all of
// them. The first set is the baseline: each set's mean rows/s (the rate the CLI prints, importCsv's time) is given
// with its ratio to the baseline's of the same run, and its spread. The ingest script's own options are the
// baseline when no set is given first (`--options` absent: the script's own against nothing else).
// A first load of a few thousand rows moves by ±10% between runs on a 2-core VM: a difference of a few per cent needs
// rounds (and the spread beside it) before it is believed.
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { withDatabase } from '@pra/platform';
import { DEFAULT_DATABASE_URL } from '@pra/core/config';
import { useLocalStack } from '@pra/platform/local-stack';
import { COUNTY_ROLLS } from '../../services/ingest/src/importer/index.js';
import { cliFirstLoad, ingestArgs } from '@pra/ingest/testing/cli-run';

useLocalStack('bench:cli-options');

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const ONE_FILE = Object.entries(COUNTY_ROLLS).filter(([, files]) => files.length === 1);

const { values } = parseArgs({
  options: {
    county: { type: 'string', default: 'philadelphia' },
    rounds: { type: 'string', default: '4' },
    options: { type: 'string', multiple: true },
  },
});
const roll = ONE_FILE.find(([county]) => county === values.county)?.[1][0];
if (!roll) throw new Error(`--county must be one of ${ONE_FILE.map(([c]) => c).join(', ')} (a one-file roll)`);
const rounds = Number(values.rounds);
if (!Number.isInteger(rounds) || rounds < 1) throw new Error('--rounds must be a positive integer');

const own = ingestArgs(ROOT);
const scriptOptions = own.slice(0, own.indexOf('--import')).join(' ');
const sets = values.options ?? [scriptOptions];
const split = (set: string) => set.split(/\s+/).filter((o) => o !== '');

const url = withDatabase(process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL, `pra_bench_${process.pid}_cli`);
console.log(
  `${values.county}'s first load through the CLI, ${rounds} rounds, ${sets.length} sets of node options alternated; ` +
    `${cpus().length} x ${cpus()[0]?.model ?? 'unknown CPU'}`,
);
const rates = sets.map(() => [] as number[]);
for (let round = 1; round <= rounds; round++) {
  for (const [i, set] of sets.entries()) {
    const load = await cliFirstLoad(ROOT, url, roll.mapping, roll.file, split(set));
    rates[i]!.push(load.rowsPerSecond);
    console.log(
      `round ${round}  ${fmt(load.rowsPerSecond).padStart(7)} rows/s  (process ${load.processSeconds.toFixed(1)} s)  ${label(set)}`,
    );
  }
}

const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const base = mean(rates[0]!);
console.log(`\n${'mean rows/s'.padStart(11)}  ${'x first'.padStart(7)}  ${'min-max'.padStart(13)}  options`);
for (const [i, set] of sets.entries()) {
  const r = rates[i]!;
  const range = `${fmt(Math.min(...r))}-${fmt(Math.max(...r))}`;
  console.log(
    `${fmt(mean(r)).padStart(11)}  ${(mean(r) / base).toFixed(3).padStart(7)}  ${range.padStart(13)}  ${label(set)}`,
  );
}

function fmt(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

function label(set: string): string {
  return split(set).length === 0 ? '(none)' : set;
}
