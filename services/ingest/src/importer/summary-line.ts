// The last line `npm run ingest -- import` prints: what was read, how long the import took (importCsv's time) and
// its rate, and what it made of the rows. The README shows it (test/readme-blocks.test.ts) and bench:import reads
// the rate back from it (test/cli-run.ts), so both go through here.
import type { ImportSummary } from './import-csv.js';

type Counts = Pick<ImportSummary, 'mapping' | 'rowsRead' | 'added' | 'updated' | 'unchanged' | 'skipped' | 'dryRun'>;

const fmt = (n: number) => n.toLocaleString('en-US');

export function summaryLine(s: Counts, kind: 'property' | 'tract', seconds: number): string {
  const what = kind === 'property' ? 'properties' : 'tract vintages';
  const time = `${seconds.toFixed(seconds < 10 ? 2 : 1)} s (${fmt(Math.round(s.rowsRead / Math.max(seconds, 0.001)))} rows/s)`;
  return (
    `${s.dryRun ? 'DRY RUN, nothing written: ' : ''}${s.mapping}: ${fmt(s.rowsRead)} rows read in ${time}; ` +
    `${what}: ${fmt(s.added)} new, ${fmt(s.updated)} updated, ${fmt(s.unchanged)} unchanged; ${fmt(s.skipped)} rows skipped`
  );
}

/** The rows read and the rate of a summary line in `output`, or null when it holds none. */
export function readSummaryLine(output: string): { rows: number; rowsPerSecond: number } | null {
  const m = /: ([\d,]+) rows read in [\d.]+ s \(([\d,]+) rows\/s\);/.exec(output);
  const num = (t: string) => Number(t.replaceAll(',', ''));
  return m ? { rows: num(m[1]!), rowsPerSecond: num(m[2]!) } : null;
}
