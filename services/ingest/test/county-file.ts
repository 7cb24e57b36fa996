// A county file of a test's or a bench's own (`@pra/ingest/testing/county-file`: the webhooks' tests and
// bench:webhooks): records imported, then re-imported with other owners, through the real importer, so that each
// re-import writes the real change feed (records.change_events).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Pool } from '@pra/platform';
import { importCsv, loadMapping } from '../src/importer/index.js';

/** A county file's records, imported and re-imported with other owners: each re-import emits change events. */
export class CountyFile {
  private readonly dir = mkdtempSync(join(tmpdir(), 'pra-county-file-'));
  private files = 0;
  readonly source: string;
  private readonly mappingFile: string;

  constructor(
    readonly name: string,
    readonly zip = '95814',
  ) {
    this.source = `import:${name}`;
    this.mappingFile = join(this.dir, `${name}.json`);
    writeFileSync(
      this.mappingFile,
      JSON.stringify({
        kind: 'property',
        name,
        fields: {
          apn: { template: '{BOOK}-{PAGE:03}', required: true },
          line1: { column: 'SITUS', format: 'upper', required: true },
          zip: { column: 'ZIP', format: 'zip5', required: true },
          ownerName: { column: 'OWNER', order: 'first-last' },
        },
      }),
    );
  }

  /** Imports the file with these owners (one record per owner, by index). */
  async import(pool: Pool, owners: readonly string[]) {
    const street = this.name.toUpperCase().replace(/[^A-Z0-9]/g, '');
    const lines = [
      'BOOK,PAGE,SITUS,ZIP,OWNER',
      ...owners.map((o, i) => `1,${i + 1},${i + 1} ${street} ST,${this.zip},${o}`),
    ];
    const file = join(this.dir, `f${++this.files}.csv`);
    writeFileSync(file, lines.join('\n'));
    return importCsv(pool, loadMapping(this.mappingFile), file);
  }

  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}
