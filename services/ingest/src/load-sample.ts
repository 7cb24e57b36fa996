// The sample data set of the embedded default: synthetic records, the Sacramento sales and the DC tracts.
import { fileURLToPath } from 'node:url';
import type { Pool } from '@pra/platform/db';
import { loadGenerated } from './generator/load-generated.js';
import { importCsv, type ImportSummary } from './importer/import-csv.js';
import { loadMapping } from './importer/mapping.js';

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));
/** Consecutive property ids drawn as every load draws them (benchmarks that insert records of their own). */
export { reserveIds } from './data/loader.js';

export const SAMPLE_FILES = {
  sacramento: {
    mapping: here('../mappings/sacramento-2008-sales.json'),
    file: here('../samples/sacramento-2008-sales.csv'),
  },
  dcTracts: {
    mapping: here('../mappings/dc-tract-demographics.json'),
    file: here('../samples/dc-tract-demographics.csv'),
  },
};

export async function importSample(pool: Pool, which: keyof typeof SAMPLE_FILES): Promise<ImportSummary> {
  const { mapping, file } = SAMPLE_FILES[which];
  return importCsv(pool, loadMapping(mapping), file);
}

export async function loadSampleDataset(
  pool: Pool,
  opts: { count: number; seed: number; quiet?: boolean },
): Promise<void> {
  // Generated first: into an empty store it loads with indexes built once at the end.
  await loadGenerated(pool, { seed: opts.seed, count: opts.count, quiet: opts.quiet });
  await importSample(pool, 'dcTracts');
  await importSample(pool, 'sacramento');
}

export async function propertyCount(pool: Pool): Promise<number> {
  const { rows } = await pool.query<{ n: number }>('SELECT property_count AS n FROM records.dataset_stats');
  return rows[0]?.n ?? 0;
}
