// The importer's reader (import-batches.ts) for executors that read no cell, as worker threads (they parse the records'
// text again): it copies only the cells that tell a row's parcel, and batches still end where a parcel's rows end
// (else a re-import of the same file could not tell a parcel spanning two batches unchanged); the executors are given
// the records' text whole and no cells. Property-based, and so is a mask of the mapping's cells (inline executors).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readBatches } from '../src/importer/import-batches.js';
import type { RowBatch } from '../src/importer/import-work.js';
import { useTempFiles } from './temp-files.js';

const { write } = useTempFiles('pra-batches');

describe('the reader, copying only the parcel cells', () => {
  it('ends batches where a parcel ends, and gives the executors the text alone', async () => {
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
          // Each batch's parcels, read from the text its records are sent as.
          const parcelsOf = seen.map((s) =>
            Array.from(
              s.rows.ends,
              (end, r) => s.rows.text.slice(r === 0 ? 0 : s.rows.ends[r - 1], end).split(',')[2]!,
            ),
          );
          // Every parcel's rows in one batch, in the file's order.
          const owner = new Map<string, number>();
          parcelsOf.forEach((ps, b) => {
            for (const p of ps) {
              expect(owner.get(p) ?? b, `parcel ${p}`).toBe(b);
              owner.set(p, b);
            }
          });
          expect(parcelsOf.flat()).toEqual(rowsPerParcel.flatMap((n, p) => Array(n).fill(`P${p}`)));
          // No cells kept for executors that read none; the records' text whole, for the thread that parses it again.
          for (const s of seen) expect(s.cells).toEqual([]);
          expect(seen.map((s) => s.rows.text).join('')).toBe(lines.slice(1).join(''));
        },
      ),
      { numRuns: 60 },
    );
  });
});
