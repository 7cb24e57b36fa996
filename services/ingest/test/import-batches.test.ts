// The importer's reader (import-batches.ts) for executors that read no cell, as worker threads (they parse the records'
// text again): it copies only the cells that tell a row's parcel, and batches still end where a parcel's rows end
// (else a re-import of the same file could not tell a parcel spanning two batches unchanged); the executors are given
// the records' text whole and no cells. Property-based, and so is a mask of the mapping's cells (inline executors).
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { readBatches } from '../src/importer/import-batches.js';
import { heldKey, holdScattered, scatteredParcels } from '../src/importer/hold-policy.js';
import type { RowBatch } from '../src/importer/import-work.js';
import { useTempFiles } from './temp-files.js';

const { write } = useTempFiles('pra-batches');
/** Where the reader writes the rows it holds past its limits in memory: empty again once it is done. */
const spillParent = mkdtempSync(join(tmpdir(), 'pra-batches-spill-'));
afterAll(() => rmSync(spillParent, { recursive: true, force: true }));

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
  it('sends each row once, a parcel in the order of the file and in at most two runs whatever is held (past the limits, on disk), no batch cut within a run', async () => {
    await fc.assert(
      fc.asyncProperty(
        // Each row's parcel (0: an empty APN, a parcel of its own), whether its APN is written with a dash, whether
        // its note spans two lines (a quoted field), whether an unreadable line comes before it, and whether its FIPS
        // cell is filled (the parcel's identity is the same either way: the ZIP tells the county).
        fc.array(fc.tuple(fc.integer({ min: 0, max: 6 }), fc.boolean(), fc.boolean(), fc.boolean(), fc.boolean()), {
          minLength: 1,
          maxLength: 40,
        }),
        fc.integer({ min: 1, max: 5 }),
        fc.boolean(),
        // Limits of the rows held: none (the defaults), or a few rows, or a few characters.
        fc.oneof(
          fc.constant(undefined),
          fc.integer({ min: 1, max: 6 }).map((rows) => ({ rows, chars: 1e9 })),
          fc.integer({ min: 20, max: 120 }).map((chars) => ({ rows: 1e9, chars })),
        ),
        async (rows, batchSize, inline, heldLimits) => {
          const apn = (p: number, dash: boolean) => (p === 0 ? '' : dash ? `7-${p}` : `7${p}`);
          const lines = ['NOTE,APN,PRICE,FIPS'];
          const fips = (filled: boolean) => (filled ? '42075' : '');
          // Each record's line (its first), as the file's lines are counted: a quoted note may take two.
          let physical = 1;
          const add = (record: string) => {
            lines.push(record);
            physical += record.split('\n').length;
            return physical - record.split('\n').length + 1;
          };
          const lineOf: number[] = [];
          const badLines: number[] = [];
          rows.forEach(([p, dash, twoLines, badBefore, filled], i) => {
            if (badBefore) badLines.push(add(`"bad"x,${apn(p, dash)},0,`));
            const note = twoLines ? `note, ${i}\nsecond line` : `note, ${i}`;
            lineOf.push(add(`"${note}",${apn(p, dash)},${100 + i},${fips(filled)}`));
          });
          const file = write('sales.csv', `${lines.join('\n')}\n`);
          const sent: { parcel: number; line: number; batch: number }[] = [];
          const unreadable: number[] = [];
          const reader = readBatches(
            {
              file,
              delimiter: ',',
              batchSize,
              executors: [inline ? 'inline' : 'worker'],
              parcelCells: [1, 3],
              cellsRead: [inline, inline, inline, inline],
              heldCell: 1,
              held: { spillParent, ...(heldLimits ? { limits: heldLimits } : {}) },
            },
            async (_e, batch, b, cells) => {
              b.ends.forEach((end, r) => {
                const text = b.text.slice(r === 0 ? 0 : b.ends[r - 1], end);
                const i = Number(/"note, (\d+)/.exec(text)![1]);
                const [p, dash, twoLines, , filled] = rows[i]!;
                // The row's line is its own; an inline executor gets its cells.
                expect(b.lines[r]).toBe(lineOf[i]);
                const note = twoLines ? `note, ${i}\nsecond line` : `note, ${i}`;
                if (inline) expect(cells[r]).toEqual([note, apn(p, dash), `${100 + i}`, fips(filled)]);
                sent.push({ parcel: p, line: b.lines[r]!, batch });
              });
              if (!inline) expect(cells).toEqual([]);
              return null;
            },
          );
          for (let b = await reader.take(); b; b = await reader.take()) {
            await b.parsed;
            for (const u of b.unreadable) unreadable.push(u.line);
            // A batch tells the rows sent in it and before it, and the file's first rows all among them (the reader
            // may have sent later batches already).
            const upTo = sent.filter((s) => s.batch <= b.batch);
            expect(b.rowsRead).toBe(upTo.length + unreadable.length);
            const whole = new Set([...upTo.map((s) => s.line), ...unreadable]);
            const firstLines = [...lineOf, ...badLines].sort((x, y) => x - y).slice(0, b.rowsWhole);
            expect(firstLines.every((l) => whole.has(l))).toBe(true);
          }
          await reader.finished;
          expect(readdirSync(spillParent)).toEqual([]);
          // Every row once, every unreadable line reported.
          expect(sent.map((s) => s.line).sort((a, b) => a - b)).toEqual(lineOf);
          expect(unreadable.sort((a, b) => a - b)).toEqual(badLines);
          for (let p = 1; p <= 6; p++) {
            // The rows sent with an APN, and this parcel's among them.
            const withApn = sent.filter((s) => s.parcel !== 0);
            const mine = withApn.map((s, k) => ({ ...s, k })).filter((s) => s.parcel === p);
            // In the file's order, whatever its spelling.
            expect(mine.map((s) => s.line)).toEqual([...mine.map((s) => s.line)].sort((a, b) => a - b));
            // Runs of the parcel's rows among the rows with an APN: two at most (its first rows, then the rest held),
            // whether what was held stayed in memory or went to disk past the limits.
            const runs = mine.filter((s, j) => j === 0 || mine[j - 1]!.k !== s.k - 1);
            expect(runs.length).toBeLessThanOrEqual(2);
            // Rows of the parcel next to each other as sent are in one batch (its rows are fewer than a batch holds).
            const all = sent.map((s, k) => ({ ...s, k }));
            all.forEach((s, k) => {
              if (k > 0 && s.parcel === p && all[k - 1]!.parcel === p) expect(s.batch).toBe(all[k - 1]!.batch);
            });
          }
        },
      ),
      { numRuns: 200 },
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
      { file, delimiter: ',', batchSize: 4, executors: ['worker'], parcelCells: [0], heldCell: 0 },
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
          // A FIPS column, and a row without an APN after every third parcel: a parcel of its own, never held, that
          // ends no parcel's rows (with its FIPS cell filled, as the others').
          const lines = ['APN,PRICE,FIPS'];
          rowsPerParcel.forEach((n, p) => {
            for (let r = 0; r < n; r++) lines.push(`${p}-${r % 2 === 0 ? 'A' : 'a'},${r},42075`);
            if (p % 3 === 2) lines.push(',0,42075');
          });
          const file = write('roll.csv', `${lines.join('\n')}\n`);
          const sent: { line: number; batch: number }[] = [];
          const reader = readBatches(
            { file, delimiter: ',', batchSize, executors: ['worker'], parcelCells: [0, 2], heldCell: 0 },
            async (_e, batch, b) => {
              for (const line of b.lines) sent.push({ line, batch });
              return null;
            },
          );
          for (let b = await reader.take(); b; b = await reader.take()) {
            await b.parsed;
            // Each batch the file's next rows, none held: every row before its end sent.
            const upTo = sent.filter((s) => s.batch <= b.batch).length;
            expect([b.rowsRead, b.rowsWhole]).toEqual([upTo, upTo]);
          }
          await reader.finished;
          expect(sent.map((s) => s.line)).toEqual(lines.slice(1).map((_, i) => i + 2));
        },
      ),
      { numRuns: 60 },
    );
  });

  it('holds only the stragglers of a file whose parcels mostly come together', async () => {
    // 40 parcels of two rows each, by parcel; a third row of parcels 5, 17 and 30 after parcel 35's: 3 rows of 83
    // held, fewer than an eighth. The others are sent as read, batch by batch; the stragglers at the end.
    const order: number[] = [];
    for (let p = 1; p <= 40; p++) {
      order.push(p, p);
      if (p === 35) order.push(17, 5, 30, 17);
    }
    const file = write('stragglers.csv', `APN,PRICE\n${order.map((p, i) => `${p},${i}`).join('\n')}\n`);
    const sent: number[] = [];
    const reader = readBatches(
      { file, delimiter: ',', batchSize: 10, executors: ['worker'], parcelCells: [0], heldCell: 0 },
      async (_e, _batch, b) => {
        sent.push(...b.lines);
        return null;
      },
    );
    let firstSent = -1;
    for (let b = await reader.take(); b; b = await reader.take()) {
      await b.parsed;
      if (firstSent < 0) firstSent = b.rowsRead;
    }
    await reader.finished;
    const stragglers = [72, 73, 74, 75]; // lines of 17, 5, 30, 17
    const kept = order.map((_, i) => i + 2).filter((l) => !stragglers.includes(l));
    // Parcel 17's two stragglers together, in the order the parcels were first held.
    expect(sent).toEqual([...kept, 72, 75, 73, 74]);
    expect(firstSent).toBeLessThan(order.length);
  });

  it('with the parcels whose rows are apart read first, sends each parcel in one run, its rows in one batch, whatever is held in memory', async () => {
    // A re-import reads first which parcels' rows are apart (scatteredParcels) and holds every row of theirs, the
    // first ones too: each parcel is then merged once, as in a file grouped by parcel. The others go as read.
    await fc.assert(
      fc.asyncProperty(
        // Each row's parcel (0: an empty APN, a parcel of its own), its APN's spelling, an unreadable line before it.
        fc.array(fc.tuple(fc.integer({ min: 0, max: 8 }), fc.boolean(), fc.boolean()), { minLength: 1, maxLength: 40 }),
        fc.integer({ min: 2, max: 5 }),
        // Rows held in memory at most (the rest on disk): the defaults, or a few.
        fc.option(fc.integer({ min: 1, max: 4 }), { nil: undefined }),
        async (rows, batchSize, heldRows) => {
          const apn = (p: number, dash: boolean) => (p === 0 ? '' : dash ? `9-${p}` : `9${p}`);
          const lines = ['APN,PRICE'];
          const lineOf: number[] = [];
          rows.forEach(([p, dash, badBefore], i) => {
            if (badBefore) lines.push(`"bad"x,0`);
            lines.push(`${apn(p, dash)},${i}`);
            lineOf.push(lines.length);
          });
          const file = write('apart.csv', `${lines.join('\n')}\n`);
          const scan = await scatteredParcels(file, ',', 2, 0);
          expect(scan!.rows).toBe(lines.length - 1);
          const sent: { parcel: number; line: number; batch: number }[] = [];
          const reader = readBatches(
            {
              file,
              delimiter: ',',
              batchSize,
              executors: ['worker'],
              parcelCells: [0],
              heldCell: 0,
              scattered: scan!.parcels,
              held: { spillParent, ...(heldRows ? { limits: { rows: heldRows, chars: 1e9 } } : {}) },
            },
            async (_e, batch, b) => {
              for (const line of b.lines) sent.push({ parcel: rows[lineOf.indexOf(line)]![0], line, batch });
              return null;
            },
          );
          for (let b = await reader.take(); b; b = await reader.take()) await b.parsed;
          await reader.finished;
          expect(readdirSync(spillParent)).toEqual([]);
          expect(sent.map((s) => s.line).sort((a, b) => a - b)).toEqual(lineOf);
          for (let p = 1; p <= 8; p++) {
            const at = sent.flatMap((s, k) => (s.parcel === p ? [k] : []));
            if (at.length === 0) continue;
            // One run, in the file's order, in one batch (a parcel here has fewer rows than a batch takes past its size).
            expect(at, `parcel ${p}`).toEqual(at.map((_, j) => at[0]! + j));
            expect(at.map((k) => sent[k]!.line)).toEqual(lineOf.filter((_, i) => rows[i]![0] === p));
            expect(new Set(at.map((k) => sent[k]!.batch)).size, `parcel ${p}`).toBe(1);
          }
          // A file whose parcels come together has none apart, and its rows go as read.
          const apart = new Set(
            rows.map(([p]) => p).filter((p, i, all) => p !== 0 && all.indexOf(p) < i && all[i - 1] !== p),
          );
          if (apart.size === 0) expect(sent.map((s) => s.line)).toEqual(lineOf);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('lets go of the rows it wrote to disk when the import fails, and says what to do when it cannot write them', async () => {
    // Parcels two by two, their rows interleaved: once an eighth of the rows were held, every row is, past one row in
    // memory on disk. The second batch's work fails; the reader is stopped as the pipeline stops it.
    const order = Array.from({ length: 40 }, (_, k) => [1, 2, 1, 2].map((j) => 2 * k + j)).flat();
    const file = write('by-date.csv', `APN,PRICE\n${order.map((p, i) => `${p},${i}`).join('\n')}\n`);
    const reading = {
      file,
      delimiter: ',',
      batchSize: 4,
      executors: ['worker'],
      parcelCells: [0],
      heldCell: 0,
    };
    const limits = { rows: 1, chars: 1e9 };
    let spilledAtFailure: string[] = [];
    const failing = readBatches({ ...reading, held: { limits, spillParent } }, async (_e, batch) => {
      if (batch < 1) return null;
      spilledAtFailure = readdirSync(spillParent);
      throw new Error('the batch could not be written');
    });
    for (let b = await failing.take(); b; b = await failing.take()) {
      if (
        !(await b.parsed.then(
          () => true,
          () => false,
        ))
      )
        break;
    }
    failing.stop();
    await failing.finished;
    expect(spilledAtFailure).toHaveLength(1);
    expect(readdirSync(spillParent)).toEqual([]);
    // A place it cannot write (a full disk alike): the reading fails, naming where and what to do.
    const unwritable = readBatches(
      { ...reading, held: { limits, spillParent: join(spillParent, 'missing') } },
      async () => null,
    );
    for (let b = await unwritable.take(); b; b = await unwritable.take()) await b.parsed;
    await expect(unwritable.finished).rejects.toThrow(/holding a parcel's rows back on disk.*set TMPDIR/);
  });

  it('counts the rows and finds the parcels apart, and gives up past the parcels it remembers', async () => {
    // 2 is apart (a row of 3 between its rows); an empty APN ends a run (the reader may cut a batch there): 4 is apart.
    const file = write('apart.csv', 'APN,PRICE\n1,1\n1,2\n2,3\n3,4\n3,5\n2,6\n4,7\n,8\n4,9\n"bad"x,0\n');
    const scan = await scatteredParcels(file, ',', 2, 0);
    expect(scan!.rows).toBe(10);
    expect(scan!.parcels.size).toBe(2);
    const held = holdScattered(scan!.parcels);
    expect(['1', '2', '3', '4'].filter((apn) => held.holds(heldKey(apn)))).toEqual(['2', '4']);
    // Three runs ended (1, 2, 3), then a fourth not remembered: no answer, and the reader holds as it does without.
    expect(await scatteredParcels(file, ',', 2, 0, 4)).not.toBeNull();
    expect(await scatteredParcels(file, ',', 2, 0, 3)).toBeNull();
  });

  it('stops reading as soon as it gives up', async () => {
    // A gzip cut short after its first rows: read to its end, it fails (not a whole gzip); past the parcels the scan
    // remembers, it has stopped before.
    const rows = Array.from({ length: 20_000 }, (_, i) => `${i},${i}`).join('\n');
    const whole = gzipSync(`APN,PRICE\n${rows}\n`);
    const file = write('cut.csv.gz', whole.subarray(0, Math.floor(whole.length / 2)));
    await expect(scatteredParcels(file, ',', 2, 0)).rejects.toThrow(/not a whole gzip/);
    expect(await scatteredParcels(file, ',', 2, 0, 100)).toBeNull();
  });
});
