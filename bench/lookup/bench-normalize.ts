// npm run bench:normalize [-- --rounds 7 --sizes 25,50,100]
// How long the address normaliser takes on the adversarial inputs of shared/core/src/address/
// normalize.adversarial.test.ts, at 25, 50 and 100 KB, and how the time grows with the size: linear work doubles
// when the input doubles (a ratio near 2), quadratic work quadruples (near 4). The test checks what these inputs
// answer and measures no time; this prints the times, for a person to read. Each figure is the median of the rounds,
// after one warm-up run; single-digit milliseconds are noisy, so read the ratios of the larger cases first. A lone
// jump between two sizes followed by ratios near 2 again (try --sizes 50,100,200,400) is the engine's memory
// behaviour at that size (a garbage collection the larger input triggers), not work that grows with the square.
import { parseArgs } from 'node:util';
import {
  apnKey,
  countyKey,
  nameKey,
  normalizeCity,
  numericOrdinals,
  parseStreetLine,
  splitZip,
  tokenize,
} from '@pra/core/address';

const { values } = parseArgs({
  options: { rounds: { type: 'string', default: '7' }, sizes: { type: 'string', default: '25,50,100' } },
});
const rounds = Number(values.rounds);
/** Input sizes in characters (the options give KB). */
const SIZES = values.sizes.split(',').map((kb) => Number(kb) * 1000);

/** An adversarial case: the inputs of one size built first (not timed), then the work on them (timed). */
type Case = [name: string, build: (size: number) => () => unknown];
const repeatTo = (size: number, unit: string) => unit.repeat(Math.ceil(size / unit.length));
/** A case of one street line, parsed. */
const oneLine =
  (make: (size: number) => string) =>
  (size: number): (() => unknown) => {
    const line = make(size);
    return () => parseStreetLine(line);
  };

const CASES: Case[] = [
  ['unit designators, nothing after', oneLine((n) => `1 MAIN ST ${repeatTo(n, '# ')}`)],
  ['unit designators, then a unit', oneLine((n) => `1 MAIN ST ${repeatTo(n, 'APT ')}4B`)],
  ['designators after a comma', oneLine((n) => `1 Main St, ${repeatTo(n, 'Apt ')}`)],
  ['# glued in a run', oneLine((n) => `1 MAIN ST${repeatTo(n, '#')}7`)],
  [
    'zeros, not an ordinal',
    (n) => {
      const zeros = '0'.repeat(n);
      const line = `1 ${zeros}X ST`;
      const tokens = [`${zeros}X`, `${zeros}D1`, `${zeros}T`];
      return () => [parseStreetLine(line), numericOrdinals(tokens)];
    },
  ],
  [
    'zeros before an ordinal',
    (n) => {
      const zeros = '0'.repeat(n);
      const line = `1 ${zeros}5TH ST`;
      const tokens = [`${zeros}2D`, `${zeros}0TH`];
      return () => [parseStreetLine(line), numericOrdinals(tokens)];
    },
  ],
  ['NORTH EAST pairs', oneLine((n) => `1 ${'NORTH EAST '.repeat(Math.ceil(n / 11))}ST`)],
  ['spelled ordinals in a run', oneLine((n) => `1 ${repeatTo(n, 'TWENTY FIRST ')}ST`)],
  ['numbered streets in a run', oneLine((n) => `1 W ${repeatTo(n, '12 ')}`)],
  [
    'long house numbers',
    (n) => {
      const digits = '1'.repeat(n);
      const lines = [
        `${digits} MAIN ST`,
        `${digits}X1 MAIN ST`,
        `1-${digits}X1 MAIN ST`,
        `1 ${digits}/1 MAIN ST`,
        `1-${digits} MAIN ST`,
      ];
      return () => lines.map(parseStreetLine);
    },
  ],
  ['digit-dash runs', oneLine((n) => `${repeatTo(n, '1-')}1 MAIN ST`)],
  [
    'number glued to a name, slashes',
    (n) => {
      const digits = '1'.repeat(n / 2);
      const letters = 'A'.repeat(n / 2);
      const lines = [
        `${digits}${letters} ST`,
        `${digits}${letters}1 ST`,
        `${digits}X/1 MAIN ST`,
        `${digits}/1 MAIN ST`,
      ];
      return () => lines.map(parseStreetLine);
    },
  ],
  ['directional glued to a number', oneLine((n) => `1 EAST${'7'.repeat(n)}TH ST`)],
  [
    'long unit id, long word',
    (n) => {
      const lines = [`1 MAIN ST APT ${'0'.repeat(n)}4`, `1 ${'A'.repeat(n)} ST`];
      return () => lines.map(parseStreetLine);
    },
  ],
  [
    'punctuation runs, commas',
    (n) => {
      const a = `1${repeatTo(n, ".-'’")}2`;
      const b = repeatTo(n, '1/');
      const c = `1 MAIN ST${repeatTo(n, ',')}`;
      return () => [tokenize(a), tokenize(b), parseStreetLine(c)];
    },
  ],
  [
    'city, name, county, ZIP, APN',
    (n) => {
      const city = repeatTo(n, 'St. ');
      const name = repeatTo(n, "O'");
      const counties = [`${repeatTo(n, 'A ')}X COUNTY`, repeatTo(n, 'COUNTY'), `${repeatTo(n, 'CITY AND ')}BOROUGH`];
      const zip = repeatTo(n, '9-');
      const apn = repeatTo(n, '1-a ');
      return () => [normalizeCity(city), nameKey(name), counties.map(countyKey), splitZip(zip), apnKey(apn)];
    },
  ],
];

function medianMs(run: () => unknown): number {
  run(); // warm-up: compiled, caches filled
  const times: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const start = performance.now();
    run();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

const header = [
  'case',
  ...SIZES.map((s) => `${s / 1000} KB ms`),
  ...SIZES.slice(1).map((s, i) => `${s / 1000}/${SIZES[i]! / 1000}`),
];
const rows = CASES.map(([name, build]) => {
  const ms = SIZES.map((size) => medianMs(build(size)));
  return [name, ...ms.map((m) => m.toFixed(2)), ...ms.slice(1).map((m, i) => (m / ms[i]!).toFixed(2))];
});
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
const line = (cells: string[]) =>
  cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
console.log(
  `address normaliser, adversarial inputs: median of ${rounds} rounds (doubling the size: linear work takes ~2x, quadratic ~4x)`,
);
console.log(line(header));
for (const r of rows) console.log(line(r));
