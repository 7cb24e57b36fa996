// The county-file importer, for other packages' tests and tools: importCsv with a mapping, and the shipped mappings.
import { fileURLToPath } from 'node:url';

export { importCsv, type ImportSummary, type RowError } from './import-csv.js';
export { loadMapping, type Mapping } from './mapping.js';
export { formatReport, type FieldReport } from './apply-rules.js';

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
  philadelphiaOpa: mapping('philadelphia-opa'),
  charlottesvilleParcels: mapping('charlottesville-parcels'),
  charlottesvilleDetails: mapping('charlottesville-details'),
  charlottesvilleSales: mapping('charlottesville-sales'),
  charlottesvilleAddressPoints: mapping('charlottesville-address-points'),
  lebanonNh: mapping('lebanon-nh'),
};

const county = (name: string) =>
  fileURLToPath(new URL(`../../../../../shared/data/reference/counties/${name}.csv.gz`, import.meta.url));
/**
 * The real county rolls of the hand-out (`../shared/data/reference/counties/` beside the repository), each with the
 * mapping that loads it; a county in several files loads them in this order (the first makes the parcels).
 */
export const COUNTY_ROLLS = {
  philadelphia: [{ mapping: SHIPPED_MAPPINGS.philadelphiaOpa, file: county('philadelphia-opa-properties-sample') }],
  charlottesville: [
    { mapping: SHIPPED_MAPPINGS.charlottesvilleParcels, file: county('charlottesville-parcels') },
    { mapping: SHIPPED_MAPPINGS.charlottesvilleDetails, file: county('charlottesville-residential-details') },
    { mapping: SHIPPED_MAPPINGS.charlottesvilleSales, file: county('charlottesville-sales') },
    { mapping: SHIPPED_MAPPINGS.charlottesvilleAddressPoints, file: county('charlottesville-address-points') },
  ],
  lebanon: [{ mapping: SHIPPED_MAPPINGS.lebanonNh, file: county('lebanon-nh-parcels') }],
} as const;
