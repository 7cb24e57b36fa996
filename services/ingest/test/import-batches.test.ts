// The importer's reader (import-batches.ts) when it copies only the cells that tell a row's parcel, as it does for
// worker threads: batches still end where a parcel's rows end (else a re-import of the same file could not tell a
// parcel spanning two batches unchanged), and the cells it was not asked for come out empty.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readBatches } from '../src/importer/import-batches.js';
import type { RowBatch } from '../src/importer/import-work.js';
import { useTempFiles } from './temp-files.js';

const { write } = useTempFiles('pra-batches');

describe('the reader, copying only the parcel cells', () => {
  it('ends batches where a parcel ends, and leaves the other cells empty', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 1, maxLength: 30 }),
        fc.integer({ min: 1, max: 5 }),
        async (rowsPerParcel, batchSize) => {
          const lines = ['NOTE,PARCEL,PRICE'];
          rowsPerParcel.forEach((n, p) => {
            for (let r = 0; r < n; r++) lines.push(`"note, ${p}",P${p},${100 + r}`);
          });
          const file = write('roll.csv', `${lines.join('\n')}\n`);
          const seen: { cells: string[][]; rows: RowBatch }[] = [];
          const reader = readBatches(
            {
              file,
              delimiter: ',',
              batchSize,
              executors: ['worker'],
              parcelCells: [1],
              cellsRead: [false, false, false],
            },
            async (_e, _batch, rows, cells) => {
              seen.push({ cells, rows });
              return null;
            },
          );
          for (let b = await reader.take(); b; b = await reader.take()) await b.parsed;
          await reader.finished;
          const parcelsOf = seen.map((s) => s.cells.map((c) => c[1]!));
          // Every parcel's rows in one batch, in the file's order.
          const owner = new Map<string, number>();
          parcelsOf.forEach((ps, b) => {
            for (const p of ps) {
              expect(owner.get(p) ?? b, `parcel ${p}`).toBe(b);
              owner.set(p, b);
            }
          });
          expect(parcelsOf.flat()).toEqual(rowsPerParcel.flatMap((n, p) => Array(n).fill(`P${p}`)));
          // Only the parcel cell copied; the record's text whole, for the thread that parses it again.
          for (const s of seen) for (const c of s.cells) expect([c[0], c[2]]).toEqual(['', '']);
          expect(seen.map((s) => s.rows.text).join('')).toBe(lines.slice(1).join(''));
        },
      ),
      { numRuns: 60 },
    );
  });
});
