// Runs the owner-name parser over every owner cell of the three real county rolls and prints what comes out: owners
// by type, cells by how many owners they yield, and a sample to read by eye (`npx tsx services/ingest/scripts/owner-summary.ts [--sample N]`).
import { fileURLToPath } from 'node:url';
import { readCsvRecords } from '../src/importer/csv-records.js';
import { type NameOrder, type ParsedOwner, parseOwnerCells } from '../src/domain/owner-names.js';

const DIR = fileURLToPath(new URL('../../../../shared/data/reference/counties/', import.meta.url));

export const ROLLS: { file: string; columns: string[]; order: NameOrder }[] = [
  { file: 'philadelphia-opa-properties-sample.csv.gz', columns: ['owner_1', 'owner_2'], order: 'last-first' },
  { file: 'charlottesville-parcels.csv.gz', columns: ['OwnerName'], order: 'last-first' },
  { file: 'lebanon-nh-parcels.csv.gz', columns: ['nhdra_own name', 'nhdra_co own name'], order: 'last-first' },
];

export async function* rollOwnerCells(): AsyncGenerator<{ file: string; cells: string[]; owners: ParsedOwner[] }> {
  for (const r of ROLLS) {
    for await (const item of readCsvRecords(DIR + r.file, ',')) {
      if ('error' in item) continue;
      const cells = r.columns.map((c) => item.fields[c] ?? '');
      yield { file: r.file, cells, owners: parseOwnerCells(cells, r.order) };
    }
  }
}

async function main() {
  const sampleArg = process.argv.indexOf('--sample');
  const sample = sampleArg > 0 ? Number(process.argv[sampleArg + 1]) : 0;
  for (const r of ROLLS) {
    const byType = new Map<string, number>();
    const byCount = [0, 0, 0, 0];
    let rows = 0;
    const shown: string[] = [];
    for await (const { file, cells, owners } of rollOwnerCells()) {
      if (file !== r.file) continue;
      rows++;
      byCount[Math.min(owners.length, 3)]!++;
      for (const o of owners) byType.set(o.type, (byType.get(o.type) ?? 0) + 1);
      if (sample > 0 && rows % Math.max(1, Math.floor(5000 / sample)) === 0) {
        shown.push(
          `  ${cells.map((c) => JSON.stringify(c)).join(' / ')}\n    -> ${owners.map((o) => `${o.type}: ${o.fullName} [${o.lastName ?? '-'} | ${o.firstName ?? '-'}]`).join('; ')}`,
        );
      }
    }
    console.log(`${r.file}: ${rows} rows`);
    console.log(
      `  owners by type: ${[...byType]
        .sort((a, b) => b[1] - a[1])
        .map(([t, n]) => `${t} ${n}`)
        .join(', ')}`,
    );
    console.log(`  rows yielding 0/1/2/3+ owners: ${byCount.join(' / ')}`);
    if (shown.length > 0) console.log(shown.join('\n'));
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
