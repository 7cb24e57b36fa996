// The rows the importer's reader holds past its limits in memory, written to disk by their parcel's part and read
// back (held-spill.ts): every row comes back once, its text and line as held, a parcel's rows in the order they were
// written and all in one part, however many writes they came in. Property-based; and a part cut short fails, naming it.
import { mkdtempSync, readdirSync, rmSync, truncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { HeldSpill, type HeldRow, SPILL_PARTS } from '../src/importer/held-spill.js';
import { HeldRows } from '../src/importer/held-rows.js';

const parent = mkdtempSync(join(tmpdir(), 'pra-held-spill-test-'));
afterAll(() => rmSync(parent, { recursive: true, force: true }));

/** Rows as `write` takes them: grouped by parcel, each parcel's in the order given. */
const grouped = (rows: readonly HeldRow[]) => {
  const groups = new Map<string, { texts: string[]; lines: number[] }>();
  for (const r of rows) {
    const g = groups.get(r.parcel) ?? { texts: [], lines: [] };
    groups.set(r.parcel, g);
    g.texts.push(r.text);
    g.lines.push(r.line);
  }
  return groups;
};

// A record's text: any characters, new lines and quotes included (a quoted CSV field), empty too.
const text = fc.string({ unit: 'binary', maxLength: 40 });
const parcel = fc.oneof(
  fc.stringMatching(/^[0-9A-Z]{1,12}$/),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 6 }),
);

describe('HeldSpill', () => {
  it('gives back every row written once, a parcel’s rows in one part and in the order written', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(fc.record({ parcel, text }), { maxLength: 30 }), { minLength: 1, maxLength: 4 }),
        async (writes) => {
          const spill = new HeldSpill(parent);
          let line = 1;
          const written: HeldRow[] = [];
          for (const rows of writes) {
            const numbered = rows.map((r) => ({ ...r, line: line++ }));
            written.push(...numbered);
            await spill.write(grouped(numbered));
          }
          const back: (HeldRow & { part: number })[] = [];
          for (let part = 0; part < SPILL_PARTS; part++)
            for await (const row of spill.read(part)) back.push({ ...row, part });
          await spill.close();
          expect(readdirSync(parent)).toEqual([]);
          expect(back.map(({ part: _, ...r }) => r).sort((a, b) => a.line - b.line)).toEqual(written);
          for (const p of new Set(written.map((r) => r.parcel))) {
            const mine = back.filter((r) => r.parcel === p);
            expect(new Set(mine.map((r) => r.part)).size).toBe(1);
            expect(mine.map((r) => r.line)).toEqual([...mine.map((r) => r.line)].sort((a, b) => a - b));
          }
        },
      ),
      { numRuns: 100 },
    );
  });

  it('fails naming the part when what it wrote was cut short', async () => {
    const spill = new HeldSpill(parent);
    await spill.write(grouped([{ parcel: 'A1', text: 'A1,100\n', line: 2 }]));
    const [dir] = readdirSync(parent);
    const [file] = readdirSync(join(parent, dir!));
    truncateSync(join(parent, dir!, file!), 15);
    const part = Number(file!.replace('part-', ''));
    const read = async () => {
      for await (const _ of spill.read(part));
    };
    await expect(read()).rejects.toThrow(new RegExp(`${file} end cut short`));
    await spill.close();
    expect(readdirSync(parent)).toEqual([]);
  });
});

describe('HeldRows, past its limits', () => {
  it('sends every row once, a parcel’s rows together and in the file’s order (but for a part read back past its limits)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 1, max: 6 }), { minLength: 1, maxLength: 60 }),
        fc.integer({ min: 1, max: 5 }),
        fc.option(fc.integer({ min: 1, max: 8 }), { nil: undefined }),
        async (parcels, memoryRows, partRows) => {
          const partLimits = partRows === undefined ? undefined : { rows: partRows, chars: 1e9 };
          const held = new HeldRows({ rows: memoryRows, chars: 1e9 }, 1, undefined, parent, partLimits);
          // As the reader holds them: spilled whenever full.
          for (const [i, p] of parcels.entries()) {
            held.hold(`P${p}`, `P${p},${i}\n`, i + 2, { rows: i, bytes: i * 8 });
            if (held.full) await held.spill();
          }
          expect(held.pending).toEqual({ rows: 0, bytes: 0 });
          const sent: HeldRow[] = [];
          for await (const row of held.take()) sent.push(row);
          expect(held.pending).toBeNull();
          expect(readdirSync(parent)).toEqual([]);
          expect(sent.map((r) => r.line).sort((a, b) => a - b)).toEqual(parcels.map((_, i) => i + 2));
          for (const p of new Set(parcels)) {
            const at = sent.flatMap((r, k) => (r.parcel === `P${p}` ? [k] : []));
            expect(at.map((k) => sent[k]!.line)).toEqual([...at.map((k) => sent[k]!.line)].sort((a, b) => a - b));
            // Together, unless a part was read back past its limits (a part's parcels then sent as grouped so far).
            const runs = at.filter((k, j) => j === 0 || at[j - 1] !== k - 1).length;
            if (partRows === undefined) expect(runs, `P${p}`).toBe(1);
          }
        },
      ),
      { numRuns: 100 },
    );
  });
});
