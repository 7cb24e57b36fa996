// npm run bench:owner-parser [-- --rounds 7 --passes 5]
// What the owner-name parser costs a row: every owner cell of the three real rolls (services/ingest/scripts/
// owner-summary.ts ROLLS, ../shared/data/reference/counties) read once (which parses each row once too), then parsed
// `--passes` times to warm the process, then `--passes` times a round, `--rounds` rounds; prints the microseconds a row
// of each round, their median and minimum, and the owners read a pass (a check that two runs parsed alike). A first load spends ~350 us of
// CPU a row on these VMs (bench:import), the parser a few: compare a change's figure with the code before it, run
// alternately on the same machine (these VMs differ by up to 2x and drift within minutes).
import { parseArgs } from 'node:util';
import { type NameOrder, parseOwnerCells } from '../../services/ingest/src/domain/owner-names.js';
import { ROLLS, rollOwnerCells } from '../../services/ingest/scripts/owner-summary.js';

const { values } = parseArgs({
  options: { rounds: { type: 'string', default: '7' }, passes: { type: 'string', default: '5' } },
});
const rounds = Number(values.rounds);
const passes = Number(values.passes);
if (!(Number.isInteger(rounds) && rounds > 0 && Number.isInteger(passes) && passes > 0)) {
  console.error('bench:owner-parser: --rounds and --passes take whole numbers above 0');
  process.exit(2);
}

const rows: { cells: string[]; order: NameOrder }[] = [];
for await (const { file, cells } of rollOwnerCells()) {
  rows.push({ cells, order: ROLLS.find((r) => r.file === file)!.order });
}
let owners = 0;
const parseAll = () => {
  for (let k = 0; k < passes; k++) for (const r of rows) owners += parseOwnerCells(r.cells, r.order).length;
};
parseAll();
owners = 0;
const perRow: number[] = [];
for (let round = 0; round < rounds; round++) {
  const start = process.hrtime.bigint();
  parseAll();
  perRow.push(Number(process.hrtime.bigint() - start) / 1_000 / (passes * rows.length));
  console.log(`round ${round + 1}: ${perRow[round]!.toFixed(2)} us a row`);
}
const sorted = [...perRow].sort((a, b) => a - b);
const mid = Math.floor(rounds / 2);
const median = rounds % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
console.log(
  `${rows.length.toLocaleString('en-US')} rows of the real rolls, ${passes} passes a round: median ${median.toFixed(2)} us a row, min ${sorted[0]!.toFixed(2)}; ${(owners / (rounds * passes)).toLocaleString('en-US')} owners a pass`,
);
