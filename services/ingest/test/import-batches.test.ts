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

describe('the reader, holding back the rows of a parcel met again (APN cells: a sales file sorted by date)', () => {
  it('sends each row once, a parcel in the order of the file and in at most two runs, no batch cut within a run', async () => {
    await fc.assert(
      fc.asyncProperty(
        // Each row's parcel (0: an empty APN, a parcel of its own), and whether its APN is written with a dash.
        fc.array(fc.tuple(fc.integer({ min: 0, max: 6 }), fc.boolean()), { minLength: 1, maxLength: 40 }),
        fc.integer({ min: 1, max: 5 }),
        fc.boolean(),
        fc.option(fc.integer({ min: 1, max: 6 }), { nil: undefined }),
        async (rows, batchSize, inline, heldRows) => {
          const apn = (p: number, dash: boolean) => (p === 0 ? '' : dash ? `7-${p}` : `7${p}`);
          const lines = ['NOTE,APN,PRICE', ...rows.map(([p, dash], i) => `"note, ${i}",${apn(p, dash)},${100 + i}`)];
          const file = write('sales.csv', `${lines.join('\n')}\n`);
          const sent: { parcel: number; line: number; batch: number }[] = [];
          const reader = readBatches(
            {
              file,
              delimiter: ',',
              batchSize,
              executors: [inline ? 'inline' : 'worker'],
              parcelCells: [1],
              cellsRead: [inline, inline, inline],
              holdRowsApart: true,
              ...(heldRows ? { heldLimits: { rows: heldRows, chars: 1e9 } } : {}),
            },
            async (_e, batch, b, cells) => {
              b.ends.forEach((end, r) => {
                const text = b.text.slice(r === 0 ? 0 : b.ends[r - 1], end);
                const [, i] = /"note, (\d+)"/.exec(text)!;
                const [p] = rows[Number(i)]!;
                // The row's line is its own (the header is line 1); an inline executor gets its cells.
                expect(b.lines[r]).toBe(Number(i) + 2);
                if (inline) expect(cells[r]).toEqual([`note, ${i}`, apn(p, rows[Number(i)]![1]), `${100 + Number(i)}`]);
                sent.push({ parcel: p, line: b.lines[r]!, batch });
              });
              if (!inline) expect(cells).toEqual([]);
              return null;
            },
          );
          for (let b = await reader.take(); b; b = await reader.take()) await b.parsed;
          await reader.finished;
          // Every row once.
          expect(sent.map((s) => s.line).sort((a, b) => a - b)).toEqual(rows.map((_, i) => i + 2));
          for (let p = 1; p <= 6; p++) {
            const mine = sent.map((s, k) => ({ ...s, k })).filter((s) => s.parcel === p);
            // In the file's order, whatever its spelling.
            expect(mine.map((s) => s.line)).toEqual([...mine.map((s) => s.line)].sort((a, b) => a - b));
            // Runs of the parcel's rows as sent: two at most (its first rows, then the rest held) unless the rows
            // held were sent before the file's end (a limit met); each run in one batch (its rows are few).
            const runs = mine.filter((s, j) => j === 0 || mine[j - 1]!.k !== s.k - 1);
            if (heldRows === undefined) expect(runs.length).toBeLessThanOrEqual(2);
            mine.forEach((s, j) => {
              if (j > 0 && mine[j - 1]!.k === s.k - 1) expect(s.batch).toBe(mine[j - 1]!.batch);
            });
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it('once an eighth of the rows were held, sends each parcel first met after that whole, in one batch', async () => {
    // Parcels two by two, their rows interleaved (1 2 1 2 1 2, 3 4 3 4 3 4, ...), as a file sorted by date holds the
    // sales of a few parcels at a time: the second pair's rows and every later pair's are all held.
    const pairs = 12;
    const order = Array.from({ length: pairs }, (_, k) => [1, 2, 1, 2, 1, 2].map((j) => 2 * k + j)).flat();
    const file = write('by-date.csv', `APN,PRICE\n${order.map((p, i) => `${p},${i}`).join('\n')}\n`);
    const sent: { parcel: number; batch: number }[] = [];
    const reader = readBatches(
      { file, delimiter: ',', batchSize: 4, executors: ['worker'], parcelCells: [0], holdRowsApart: true },
      async (_e, batch, b) => {
        for (const line of b.lines) sent.push({ parcel: order[line - 2]!, batch });
        return null;
      },
    );
    for (let b = await reader.take(); b; b = await reader.take()) await b.parsed;
    await reader.finished;
    expect(sent.length).toBe(order.length);
    for (let p = 3; p <= 2 * pairs; p++) {
      const at = sent.flatMap((s, k) => (s.parcel === p ? [k] : []));
      expect(at, `parcel ${p}`).toEqual([at[0], at[0]! + 1, at[0]! + 2]);
      expect(new Set(at.map((k) => sent[k]!.batch)).size, `parcel ${p}`).toBe(1);
    }
  });

  it('holds nothing back from a file whose parcels come together', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 1, maxLength: 30 }),
        fc.integer({ min: 1, max: 5 }),
        async (rowsPerParcel, batchSize) => {
          const lines = ['APN,PRICE'];
          rowsPerParcel.forEach((n, p) => {
            for (let r = 0; r < n; r++) lines.push(`${p}-${r % 2 === 0 ? 'A' : 'a'},${r}`);
          });
          const file = write('roll.csv', `${lines.join('\n')}\n`);
          const sent: number[] = [];
          const reader = readBatches(
            { file, delimiter: ',', batchSize, executors: ['worker'], parcelCells: [0], holdRowsApart: true },
            async (_e, _batch, b) => {
              sent.push(...b.lines);
              return null;
            },
          );
          for (let b = await reader.take(); b; b = await reader.take()) await b.parsed;
          await reader.finished;
          expect(sent).toEqual(lines.slice(1).map((_, i) => i + 2));
        },
      ),
      { numRuns: 60 },
    );
  });
});
