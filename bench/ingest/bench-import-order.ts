// npm run bench:import-order [-- --rounds 3 --batch 2000 --workers N --held-rows 1000]
// A sales file's first load and re-load as it comes, grouped by parcel, against the same file sorted by sale date, as
// many counties publish theirs: Charlottesville's sales (58,937 rows, joined to its parcels by ParcelNumber). Each
// round, each order into a fresh database holding the city's parcels (their import not timed), the two orders
// alternated; the time is importCsv's alone. The ratio is the date-sorted file's rows/s over the grouped file's of the
// same round (these VMs drift within minutes). Both files are gzipped, as published, and are small enough to be worked
// in the main thread (--workers N: by N worker threads). The file is joined to parcels the store holds, so its
// import reads first which parcels' rows are apart and holds all of theirs to the file's end, each parcel's together
// (hold-policy.ts scatteredParcels). A third order is the date-sorted file again with at most --held-rows rows held in
// memory (1,000 by default, of the 500,000 an import holds): the rest wait on disk (held-spill.ts), what a state's
// sales file sorted by date costs. Each round also checks that both orders leave the same
// import state (a digest of every parcel's), and prints how many parcels a re-load found changed (none, if the
// re-import is idempotent).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { gunzipSync, gzipSync } from 'node:zlib';
import { createPool, dropDatabase, ensureDatabase, withDatabase } from '@pra/platform';
import { DEFAULT_DATABASE_URL } from '@pra/core/config';
import { useLocalStack } from '@pra/platform/local-stack';
import { migrateRecords } from '../../services/ingest/src/data/migrate.js';
import { parseRecord } from '../../services/ingest/src/importer/csv-records.js';
import { COUNTY_ROLLS, importCsv, loadMapping } from '../../services/ingest/src/importer/index.js';

useLocalStack('bench:import-order');

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '3' },
    batch: { type: 'string' },
    workers: { type: 'string' },
    'held-rows': { type: 'string', default: '1000' },
  },
});
const positive = (name: string, v: string | undefined) => {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} must be a positive integer`);
  return n;
};
const rounds = positive('rounds', values.rounds)!;
const batchSize = positive('batch', values.batch);
const workers = positive('workers', values.workers);
const heldRows = positive('held-rows', values['held-rows'])!;

const [parcels, , sales] = COUNTY_ROLLS.charlottesville;

/** The sales file's rows sorted by their SaleDate cell (the file's order kept within a day), written to `to`. */
function sortedByDate(to: string): void {
  const lines = gunzipSync(readFileSync(sales.file)).toString('utf8').split(/\r?\n/);
  const header = parseRecord(lines[0]!.replace(/^\uFEFF/, ''), ',');
  if (!('fields' in header)) throw new Error(`${sales.file}: no header`);
  const date = header.fields.indexOf('SaleDate');
  const rows = lines.slice(1).filter((l) => l.trim() !== '');
  const dateOf = (l: string) => {
    const r = parseRecord(l, ',');
    return 'fields' in r ? r.fields[date]! : '';
  };
  const keyed = rows.map((l, i) => ({ l, i, d: dateOf(l) }));
  keyed.sort((a, b) => (a.d < b.d ? -1 : a.d > b.d ? 1 : a.i - b.i));
  writeFileSync(to, gzipSync(`${[lines[0]!, ...keyed.map((k) => k.l)].join('\n')}\n`));
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'pra-bench-order-'));
  const byDate = join(dir, 'charlottesville-sales-by-date.csv.gz');
  sortedByDate(byDate);
  const orders = [
    { name: 'grouped by parcel (as published)', file: sales.file },
    { name: 'sorted by sale date', file: byDate },
    {
      name: `sorted by date, ${fmt(heldRows)} rows held in memory`,
      file: byDate,
      held: { limits: { rows: heldRows, chars: 2 ** 30 } },
    },
  ];
  const base = process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL;
  const parcelMapping = loadMapping(parcels.mapping);
  const salesMapping = loadMapping(sales.mapping);
  const rates = orders.map(() => ({ first: [] as number[], again: [] as number[] }));
  /** Each round's digest of the import state each order left. */
  const digests = orders.map(() => [] as string[]);
  console.log(
    `Charlottesville's sales (${salesMapping.name}) as published and sorted by date, each round into a fresh database ` +
      `holding the city's parcels; ${rounds} rounds, the order alternated; ${cpus().length} x ${cpus()[0]?.model ?? '?'}`,
  );
  try {
    for (let round = 1; round <= rounds; round++) {
      for (let k = 0; k < orders.length; k++) {
        const o = (k + round - 1) % orders.length;
        const url = withDatabase(base, `pra_bench_order_${process.pid}`);
        await ensureDatabase(url);
        const pool = createPool(url, 6, 'bench-import-order');
        try {
          await migrateRecords(pool);
          await importCsv(pool, parcelMapping, parcels.file, { batchSize, workers });
          const time = async () => {
            const started = performance.now();
            const { file, held } = orders[o]!;
            const s = await importCsv(pool, salesMapping, file, { batchSize, workers, held });
            return { rate: s.rowsRead / ((performance.now() - started) / 1000), s };
          };
          const first = await time();
          const again = await time();
          rates[o]!.first.push(first.rate);
          rates[o]!.again.push(again.rate);
          const { rows } = await pool.query<{ digest: string }>(
            `SELECT md5(string_agg(identity || ':' || input, '|' ORDER BY identity)) AS digest FROM records.import_state`,
          );
          digests[o]!.push(rows[0]!.digest);
          console.log(
            `round ${round}, ${orders[o]!.name}: first load ${fmt(first.rate)} rows/s (${fmt(first.s.updated)} parcels updated), ` +
              `re-load ${fmt(again.rate)} rows/s (${fmt(again.s.updated)} updated, ${fmt(again.s.unchanged)} unchanged)`,
          );
        } finally {
          await pool.end();
          await dropDatabase(url);
        }
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  console.log(`\n${'order'.padEnd(48)}${'first load'.padStart(12)}${'re-load'.padStart(12)}  (rows/s, means)`);
  orders.forEach((o, i) => {
    console.log(
      `${o.name.padEnd(48)}${fmt(mean(rates[i]!.first)).padStart(12)}${fmt(mean(rates[i]!.again)).padStart(12)}`,
    );
  });
  for (const i of [1, 2]) {
    const ratio = (phase: 'first' | 'again') =>
      rates[i]![phase].map((r, k) => (r / rates[0]![phase][k]!).toFixed(2)).join(', ');
    console.log(
      `${orders[i]!.name} / grouped, round by round: first load ${ratio('first')}; re-load ${ratio('again')}`,
    );
  }
  const same = digests.every((ds) => ds.every((d, i) => d === digests[0]![i]));
  console.log(`the same import state from every order, every round: ${same ? 'yes' : 'NO'}`);
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

main().catch((err: Error) => {
  console.error(`bench:import-order failed: ${err.stack ?? err.message}`);
  process.exit(1);
});
