// The county-file importer, for other packages' tests and tools: importCsv with a mapping, and the shipped mappings.
import { fileURLToPath } from 'node:url';

export { importCsv, type ImportSummary, type RowError } from './import-csv.js';
export { loadMapping, type Mapping } from './mapping.js';

const mapping = (name: string) => fileURLToPath(new URL(`../../mappings/${name}.json`, import.meta.url));
const sample = (name: string) => fileURLToPath(new URL(`../../samples/${name}`, import.meta.url));
/** Real county files shipped in services/ingest/samples (the Brooklyn file gzipped: the importer reads .gz). */
export const SAMPLE_FILES = {
  brooklynSales: sample('nyc-brooklyn-rolling-sales-2019.csv.gz'),
  sacramentoSales: sample('sacramento-2008-sales.csv'),
};

/** The mappings shipped in services/ingest/mappings. */
export const SHIPPED_MAPPINGS = {
  nycRollingSales: mapping('nyc-rolling-sales'),
  sacramento: mapping('sacramento-2008-sales'),
  dcTracts: mapping('dc-tract-demographics'),
};
