// A first load writes each batch's import state as binary COPY data (import-work.ts, mentions): one buffer a batch,
// sized from the batch's own text. Sized for 1 KB a parcel, as it was, Lebanon's states (~1.2 KB) outgrew it near
// each batch's end, and the writer doubled its buffer: 2 MB more, copied into fresh memory, whose first touch costs
// ~12 us a 4 KB page on these VMs (docs/benchmarks.md, issue 36's eighteenth pass). Charlottesville's parcels hold
// text that is not ASCII ("COPENHAGEN Ø"): its bytes, not its characters, size the buffer.
import { describe, expect, it } from 'vitest';
import { cellMask, readHeader } from '../src/importer/csv-records.js';
import { readBatches } from '../src/importer/import-batches.js';
import { FILE_DIGEST_CHARS, mappedFields } from '../src/importer/import-merge.js';
import { ImportWork, type RowBatch, type WorkSetup } from '../src/importer/import-work.js';
import { COUNTY_ROLLS, loadMapping } from '../src/importer/index.js';
import { identityColumns } from '../src/importer/mapping-rules.js';
import { needsZipEvidence } from '../src/importer/zip-prescan.js';

/** The file's batches as the main thread reads them for a worker thread (no cells kept). */
async function batchesOf(file: string, setup: WorkSetup): Promise<RowBatch[]> {
  const { mapping, header } = setup;
  const reader = readBatches<number, RowBatch>(
    {
      file,
      delimiter: mapping.delimiter,
      batchSize: 2_000,
      executors: [0],
      cellsRead: cellMask(header, []),
      parcelCells: identityColumns(mapping).map((c) => header.lastIndexOf(c)),
    },
    async (_executor, _batch, rows) => rows,
  );
  const out: RowBatch[] = [];
  for (let b = await reader.take(); b !== null; b = await reader.take()) out.push(await b.parsed);
  await reader.finished;
  return out;
}

describe("a first load's import state", () => {
  it.each(['philadelphia', 'lebanon', 'charlottesville'] as const)(
    "sizes the buffer of each batch of %s's first file to its rows: never grown",
    async (county) => {
      const roll = COUNTY_ROLLS[county][0];
      const mapping = loadMapping(roll.mapping);
      if (mapping.kind !== 'property') throw new Error(`${mapping.name} is not a property mapping`);
      const setup: WorkSetup = {
        mapping,
        header: await readHeader(roll.file, mapping.delimiter),
        source: `import:${mapping.name}`,
        now: new Date().toISOString(),
        mapped: [...mappedFields(Object.keys(mapping.fields))],
      };
      const work = new ImportWork(setup);
      const batches = await batchesOf(roll.file, setup);
      // A roll without site ZIPs is read for its ZIP evidence first, as an import reads it (zip-prescan.ts).
      if (needsZipEvidence(mapping)) work.useZipEvidence(batches.flatMap((rows) => work.zipEvidence(rows)));
      expect(batches.length).toBeGreaterThan(2);
      let nextId = 1;
      for (const [batch, rows] of batches.entries()) {
        const parsed = work.parse(batch, rows);
        const ids = parsed.identities.map((_, i) => nextId + i);
        const mentions = work.mentions({
          batch,
          added: parsed.identities,
          firstId: nextId,
          stored: [],
          parcelIds: ids,
        });
        nextId += ids.length;
        const built = work.build({ batch, ownerIds: mentions.map((m, i) => (m ? i + 1 : null)) });
        expect(built.added.length).toBeGreaterThan(0);
        // The writer kept the buffer it was made with: the COPY data fills it, but for the file digests rows may lack.
        const left = built.newState.buffer.byteLength - built.newState.byteLength;
        expect(left).toBeGreaterThanOrEqual(0);
        expect(left).toBeLessThanOrEqual(FILE_DIGEST_CHARS * built.added.length);
      }
    },
  );
});
