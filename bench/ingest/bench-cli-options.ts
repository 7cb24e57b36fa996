// npm run bench:cli-options -- [--county philadelphia|lebanon] [--rounds 4] [--options="<node options>" ...]
// Node's options for the import CLI, compared: a one-file roll's first load run as a user runs it (`npm run ingest --
// import`, a fresh process and a fresh database each time: ingest's test/cli-run.ts), once with each set of options
// a round. The order of the sets turns round by round, so that neither a drift of the machine nor going first falls
// on one set. The first set is the baseline: each set's mean rows/s (the rate the CLI prints, importCsv's time) and
// mean process time (node's start to its exit) are given with their ratio to the baseline's of the same run, and the
// range of its rates. `--options=""` is node with no options; the `=` is needed, as options start with dashes.
// Without --options: the ingest script's own options, then none.
// A first load of a few thousand rows moves by 5-10% between runs on a 2-core VM: a difference of a few per cent needs
// rounds, and the ranges beside it, before it is believed.
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { withDatabase } from '@pra/platform';
import { DEFAULT_DATABASE_URL } from '@pra/core/config';
import { useLocalStack } from '@pra/platform/local-stack';
import { COUNTY_ROLLS } from '../../services/ingest/src/importer/index.js';
import { cliDatabaseName, cliFirstLoad, ingestOptions } from '@pra/ingest/testing/cli-run';

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

const sets = values.options ?? [ingestOptions(ROOT).join(' '), ''];
const split = (set: string) => set.split(/\s+/).filter((o) => o !== '');

const url = withDatabase(process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL, cliDatabaseName('bench'));
console.log(
  `${values.county}'s first load through the CLI, ${rounds} rounds, ${sets.length} sets of node options, their order turned each round; ` +
    `${cpus().length} x ${cpus()[0]?.model ?? 'unknown CPU'}`,
);
const rates = sets.map(() => [] as number[]);
const seconds = sets.map(() => [] as number[]);
for (let round = 1; round <= rounds; round++) {
  for (let k = 0; k < sets.length; k++) {
    const i = (k + round - 1) % sets.length;
    const load = await cliFirstLoad(ROOT, url, roll.mapping, roll.file, split(sets[i]!));
    rates[i]!.push(load.rowsPerSecond);
    seconds[i]!.push(load.processSeconds);
    console.log(
      `round ${round}  ${fmt(load.rowsPerSecond).padStart(7)} rows/s  (process ${load.processSeconds.toFixed(2)} s)  ${label(sets[i]!)}`,
    );
  }
}

const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const [baseRate, baseSeconds] = [mean(rates[0]!), mean(seconds[0]!)];
console.log(
  `\n${'rows/s'.padStart(7)}  ${'x first'.padStart(7)}  ${'range'.padStart(13)}  ${'process s'.padStart(9)}  ${'x first'.padStart(7)}  options`,
);
for (const [i, set] of sets.entries()) {
  const r = rates[i]!;
  const range = `${fmt(Math.min(...r))}-${fmt(Math.max(...r))}`;
  const s = mean(seconds[i]!);
  console.log(
    `${fmt(mean(r)).padStart(7)}  ${(mean(r) / baseRate).toFixed(3).padStart(7)}  ${range.padStart(13)}  ` +
      `${s.toFixed(2).padStart(9)}  ${(s / baseSeconds).toFixed(3).padStart(7)}  ${label(set)}`,
  );
}

function fmt(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

function label(set: string): string {
  return split(set).length === 0 ? '(none)' : set;
}
