// A small county roll for the change feed's tests: a mapping of its own per source, and rows written to a temp file
// and imported with the real importer, so that every event comes from an import as in production.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Pool } from '@pra/platform';
import { importCsv, type ImportSummary } from '../src/importer/import-csv.js';
import type { HeldOptions } from '../src/importer/held-rows.js';
import { loadMapping, type Mapping } from '../src/importer/mapping.js';

export const ROLL_HEADER = 'BOOK,PAGE,SITUS,ZIP,OWNER,ASSESSED,SALE DATE,SALE PRICE,YEAR';
const FIELDS = {
  apn: { template: '{BOOK}-{PAGE:03}', required: true },
  line1: { column: 'SITUS', format: 'upper', required: true },
  zip: { column: 'ZIP', format: 'zip5', required: true },
  ownerName: { column: 'OWNER', order: 'first-last' },
  assessedTotal: { column: 'ASSESSED', format: 'integer' },
  saleDate: { column: 'SALE DATE', format: 'date-us' },
  salePrice: { column: 'SALE PRICE', format: 'integer' },
  yearBuilt: { column: 'YEAR', format: 'integer' },
};

/** One parcel of the roll; the ZIP decides the county (95814: Sacramento, CA; 19103: Philadelphia, PA). */
export interface RollRow {
  book: number;
  page: number;
  street: string;
  zip: string;
  owner: string;
  assessed?: number;
  saleDate?: string;
  salePrice?: number;
  year?: number;
}

export const rollLine = (r: RollRow) =>
  [
    r.book,
    r.page,
    `${r.page} ${r.street} ST`,
    r.zip,
    r.owner,
    r.assessed ?? 300000,
    r.saleDate ?? '1/2/2020',
    r.salePrice ?? 410000,
    r.year ?? 1950,
  ].join(',');

/** Rolls imported into one store, each under a mapping (and so a source) of its own name. */
export class TestRolls {
  private readonly dir = mkdtempSync(join(tmpdir(), 'pra-rolls-'));
  private files = 0;
  private readonly mappings = new Map<string, Mapping>();

  constructor(
    private readonly pool: Pool,
    /** Fields of the rolls' mapping in place of these (an APN read from one cell, PAGE: rows held apart). */
    private readonly fields: Record<string, unknown> = {},
  ) {}

  mapping(name: string): Mapping {
    let m = this.mappings.get(name);
    if (!m) {
      const file = join(this.dir, `${name}.json`);
      writeFileSync(file, JSON.stringify({ kind: 'property', fields: { ...FIELDS, ...this.fields }, name }));
      m = loadMapping(file);
      this.mappings.set(name, m);
    }
    return m;
  }

  /** Imports the roll `rows` under source `import:<name>` (`batchSize` rows a transaction). */
  async import(
    name: string,
    rows: readonly RollRow[],
    opts: { batchSize?: number; dryRun?: boolean; held?: HeldOptions } = {},
  ): Promise<ImportSummary> {
    const file = join(this.dir, `roll-${++this.files}.csv`);
    writeFileSync(file, [ROLL_HEADER, ...rows.map(rollLine)].join('\n'));
    return importCsv(this.pool, this.mapping(name), file, { workers: 0, ...opts });
  }

  close(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}
