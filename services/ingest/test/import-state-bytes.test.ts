// A first load writes each batch's import state as binary COPY data (import-work.ts, mentions): one buffer a batch,
// sized from the UTF-8 of the batch's own rows. Sized at 1 KB a parcel, as it was, Lebanon's states (~1.2 KB) outgrew
// it near each batch's end: the writer made a new 4 MB buffer and copied its first 2 MB over, and on this pass's VM
// the first write to each fresh 4 KB page cost ~12 us (docs/benchmarks.md, issue 36's eighteenth pass).
// Charlottesville's parcels hold text that is not ASCII ("COPENHAGEN Ø"): its bytes, not its characters, size it.
import { describe, expect, it } from 'vitest';
import { cellMask, readHeader } from '../src/importer/csv-records.js';
import { readBatches } from '../src/importer/import-batches.js';
import { FILE_DIGEST_CHARS, spokenFor } from '../src/importer/import-merge.js';
import { ImportWork } from '../src/importer/import-work.js';
import { COUNTY_ROLLS, loadMapping } from '../src/importer/index.js';
import { identityColumns } from '../src/importer/mapping-rules.js';
import { needsZipEvidence } from '../src/importer/zip-prescan.js';
import { firstLoadSetup, readAllBatches } from './work-batches.js';

const reader = { readHeader, cellMask, readBatches, identityColumns, spokenFor };

describe("a first load's import state", () => {
  it.each(['philadelphia', 'lebanon', 'charlottesville'] as const)(
    "sizes the buffer of each batch of %s's first file to its rows: never grown",
    async (county) => {
      const roll = COUNTY_ROLLS[county][0];
      const mapping = loadMapping(roll.mapping);
      if (mapping.kind !== 'property') throw new Error(`${mapping.name} is not a property mapping`);
      const setup = await firstLoadSetup(reader, mapping, roll.file);
      const work = new ImportWork(setup);
      const batches = await readAllBatches(reader, roll.file, setup, 2_000);
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
        // The writer kept the buffer it was made with (a grown one is twice the size): its data fills it, but for the
        // file digests rows may lack.
        const left = built.newState.buffer.byteLength - built.newState.byteLength;
        expect(left, `batch ${batch}: bytes of its buffer left unwritten`).toBeLessThanOrEqual(
          FILE_DIGEST_CHARS * built.added.length,
        );
      }
    },
  );
});
