// The rows the importer's reader holds past its limits in memory, written to disk by their parcel's part and read
// back (held-spill.ts): every row comes back once, its text and line as held, a parcel's rows in the order they were
// written and all in one part, however many writes they came in. Property-based; and a part cut short fails, naming it.
import { spawnSync } from 'node:child_process';
import {
  lutimesSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  truncateSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { afterAll, describe, expect, it, vi } from 'vitest';
import {
  ABANDONED_AFTER_MS,
  HeldSpill,
  type HeldRow,
  lastSweep,
  SPILL_HOST,
  SPILL_PARTS,
  touchLiveSpills,
} from '../src/importer/held-spill.js';
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

  it('fails naming the part when what it wrote was cut short, within a row or between two', async () => {
    for (const cut of [15, 21]) {
      const spill = new HeldSpill(parent);
      // Two rows of 21 bytes each (a head of 12, the key's 2, the text's 7), in one part.
      await spill.write(
        grouped([
          { parcel: 'A1', text: 'A1,100\n', line: 2 },
          { parcel: 'A1', text: 'A1,200\n', line: 3 },
        ]),
      );
      const [dir] = readdirSync(parent);
      const [file] = readdirSync(join(parent, dir!));
      truncateSync(join(parent, dir!, file!), cut);
      const part = Number(file!.replace('part-', ''));
      expect(spill.sizeOf(part)).toEqual({ rows: 2, bytes: 42 });
      const read = async () => {
        for await (const _ of spill.read(part));
      };
      await expect(read()).rejects.toThrow(
        new RegExp(`${file} are not as they were written \\(${cut < 21 ? 0 : 21} of 42 bytes\\)`),
      );
      await spill.close();
      expect(readdirSync(parent)).toEqual([]);
    }
  });

  it('after a write that failed, writes and reads back nothing more (a part may hold bytes its count does not)', async () => {
    const spill = new HeldSpill(parent);
    const rows = grouped([{ parcel: 'A1', text: 'A1,100\n', line: 2 }]);
    await spill.write(rows);
    // The disk fails under one part's append (as a short write then an error would leave it).
    const append = vi
      .spyOn(spill as unknown as { append: () => Promise<void> }, 'append')
      .mockRejectedValueOnce(Object.assign(new Error('no space left on device'), { code: 'ENOSPC' }));
    await expect(spill.write(rows)).rejects.toThrow(/no space left on device\): free space there, or set TMPDIR/);
    append.mockRestore();
    await expect(spill.write(rows)).rejects.toThrow(/not all written/);
    const part = spill.partOf('A1');
    await expect(
      (async () => {
        for await (const _ of spill.read(part));
      })(),
    ).rejects.toThrow(/not all written/);
    await spill.close();
    expect(readdirSync(parent)).toEqual([]);
  });

  it('is removed as the process exits without letting it go, or is stopped by SIGINT (which then stops it as before); one killed outright, by the next spill', async () => {
    // A process of its own that holds rows on disk, then exits as the CLI's failure handler does (before the reader's
    // clean-up ran), or is stopped by Ctrl-C during an import.
    const module = fileURLToPath(new URL('../src/importer/held-spill.ts', import.meta.url));
    const run = (end: string, where = parent) =>
      spawnSync(
        process.execPath,
        [
          '--import',
          'tsx',
          '--input-type=module',
          '-e',
          [
            `import { HeldSpill, removeHeldOnSignals } from ${JSON.stringify(module)};`,
            `import { readdirSync } from 'node:fs';`,
            'removeHeldOnSignals();',
            `const spill = new HeldSpill(${JSON.stringify(where)});`,
            `await spill.write(new Map([['A1', { texts: ['A1,100\\n'], lines: [2] }]]));`,
            `console.log(readdirSync(${JSON.stringify(where)}).length);`,
            end,
            'setTimeout(() => {}, 10_000);',
          ].join('\n'),
        ],
        { encoding: 'utf8', timeout: 60_000 },
      );
    const exited = run('process.exit(3);');
    expect([exited.status, exited.stdout.trim()], exited.stderr).toEqual([3, '1']);
    expect(readdirSync(parent)).toEqual([]);
    // Killed by the signal, as without the handler: a shell's loop of imports stops.
    const stopped = run("process.kill(process.pid, 'SIGINT');");
    expect([stopped.signal, stopped.stdout.trim()], stopped.stderr).toEqual(['SIGINT', '1']);
    expect(readdirSync(parent)).toEqual([]);

    // Killed outright (SIGKILL): its directory stays, until the next spill in the same place on this host, once it has
    // been left alone an hour; not one of a process still running, nor of another host, nor one touched lately. (A
    // place of its own, within `parent` so that it goes at the file's end whatever fails: this process swept
    // `parent` at its first spill there, and sweeps a place once an hour.)
    const place = mkdtempSync(join(parent, 'sweep-'));
    const killed = run("process.kill(process.pid, 'SIGKILL');", place);
    expect([killed.signal, killed.stdout.trim()], killed.stderr).toEqual(['SIGKILL', '1']);
    const [left] = readdirSync(place);
    expect(left).toMatch(new RegExp(`^pra-held-${SPILL_HOST.replace(/\./g, '\\.')}-${killed.pid}-`));
    const old = (Date.now() - ABANDONED_AFTER_MS - 60_000) / 1000;
    const age = (name: string) => {
      for (const f of readdirSync(join(place, name))) utimesSync(join(place, name, f), old, old);
      utimesSync(join(place, name), old, old);
    };
    const make = (name: string, aged: boolean) => {
      mkdirSync(join(place, name));
      writeFileSync(join(place, name, '0'), 'x');
      if (aged) age(name);
    };
    const others = [
      `pra-held-${SPILL_HOST}-${killed.pid}-recent`,
      `pra-held-${SPILL_HOST}-${process.ppid}-living`,
      `pra-held-another-host-${killed.pid}-elsewh`,
      `pra-held-${killed.pid}-old123`,
      'pra-held-not-a-spill',
    ];
    for (const [i, name] of others.entries()) make(name, i > 0);
    // Aged, but a file in it written lately: a spill still going on.
    const busy = `pra-held-${SPILL_HOST}-${killed.pid}-busy12`;
    make(busy, true);
    writeFileSync(join(place, busy, '1'), 'y');
    others.push(busy);
    // A symbolic link named as an abandoned spill is no spill: neither it nor what it points to is removed.
    const link = `pra-held-${SPILL_HOST}-${killed.pid}-linked`;
    make('elsewhere', true);
    symlinkSync(join(place, 'elsewhere'), join(place, link));
    lutimesSync(join(place, link), old, old);
    others.push(link, 'elsewhere');
    age(left!);
    const next = new HeldSpill(place);
    await next.write(new Map([['B1', { texts: ['B1,1\n'], lines: [2] }]]));
    // The sweep runs beside the spill, which does not wait for it.
    expect(await lastSweep(place)).toEqual([left]);
    const now = readdirSync(place);
    expect(now).not.toContain(left);
    expect(now.filter((n) => !others.includes(n))).toHaveLength(1);
    for (const name of others) expect(now).toContain(name);
    // A live spill's directory, however long since its last write, is touched every few minutes: never an hour old.
    const mine = now.find((n) => !others.includes(n))!;
    age(mine);
    await touchLiveSpills();
    expect(Date.now() - statSync(join(place, mine)).mtimeMs).toBeLessThan(ABANDONED_AFTER_MS / 2);
    await next.close();
    expect(readdirSync(join(place, link))).toEqual(['0']);
    for (const name of others) rmSync(join(place, name), { recursive: true });
    expect(readdirSync(place)).toEqual([]);
    rmSync(place, { recursive: true });
  });
});

describe('the parts of a parcel at each level', () => {
  it('spread parcels whose keys differ in their last characters: none of 2,000 neighbours share all four levels', () => {
    const spills = [0, 1, 2, 3].map((level) => new HeldSpill(parent, level));
    const pairs = Array.from({ length: 2_000 }, (_, i) => {
      const base = String(1_000_000_000 + i * 10);
      return [base, `${base.slice(0, -1)}${1 + (i % 9)}`] as const;
    });
    const shared = pairs.filter(([a, b]) => spills.every((s) => s.partOf(a) === s.partOf(b)));
    expect(shared).toEqual([]);
    // And a level's parts are all used, near evenly (64 parts of 2,000 keys: ~31 each).
    const counts = new Array<number>(SPILL_PARTS).fill(0);
    for (const [a] of pairs) counts[spills[0]!.partOf(a)]!++;
    expect(Math.min(...counts)).toBeGreaterThan(10);
  });
});

describe('HeldRows, past its limits', () => {
  it('keeps a small parcel together beside a large neighbour spread over the levels', async () => {
    // 40 rows of 1000000010 and 6 of a neighbour that shares its part at levels 0 and 1, read back 10 rows at most: the
    // large parcel goes down the levels and is sent in groups; its neighbour, once apart from it, comes whole.
    const large = '1000000010';
    const [level0, level1, level2] = [0, 1, 2].map((level) => new HeldSpill(parent, level));
    const together = (a: string, b: string) =>
      level0!.partOf(a) === level0!.partOf(b) && level1!.partOf(a) === level1!.partOf(b);
    let n = 1_000_000_011;
    while (!together(large, String(n)) || level2!.partOf(large) === level2!.partOf(String(n))) n++;
    const small = String(n);
    const keys = [...Array(40).fill(large), ...Array(6).fill(small)];
    const order = keys.map((_, i) => keys[(i * 7) % keys.length]!);
    const limits = { rows: 10, chars: 1e9 };
    const held = new HeldRows({ limits, spillParent: parent, readBackLimits: limits });
    for (const [i, k] of order.entries()) {
      held.hold(k, `${k},${i}\n`, i + 2, { rows: i, bytes: i });
      if (held.full) await held.spill();
    }
    const sent: string[] = [];
    for await (const row of held.take()) sent.push(row.parcel);
    const at = sent.flatMap((p, k) => (p === small ? [k] : []));
    expect(at).toEqual(at.map((_, j) => at[0]! + j));
    expect(sent).toHaveLength(46);
    expect(held.memoryPeak).toBeLessThanOrEqual(10);
    expect(readdirSync(parent)).toEqual([]);
  });

  it('sends every row once, in the file’s order, each parcel’s rows together unless it alone has more than the limits', async () => {
    // The levels spilled to, over the runs: parts read back past the limits were spread, some twice.
    const levels = new Set<number>();
    const write = HeldSpill.prototype.write;
    const spy = vi.spyOn(HeldSpill.prototype, 'write').mockImplementation(function (this: HeldSpill, groups) {
      levels.add(this.level);
      return write.call(this, groups);
    });
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 120 }),
        fc.integer({ min: 1, max: 6 }),
        async (parcels, memoryRows) => {
          const limits = { rows: memoryRows, chars: 1e9 };
          const held = new HeldRows({ limits, spillParent: parent, readBackLimits: limits });
          // As the reader holds them: spilled whenever full. A part read back of more rows than that is spread over a
          // spill of its own, by another hash, down to the parcels' own rows.
          for (const [i, p] of parcels.entries()) {
            held.hold(`P${p}`, `P${p},${i}\n`, i + 2, { rows: i, bytes: i * 8 });
            if (held.full) await held.spill();
          }
          // Past the rows held in memory, the rest are on disk.
          expect(readdirSync(parent)).toHaveLength(parcels.length >= memoryRows ? 1 : 0);
          expect(held.pending).toEqual({ rows: 0, bytes: 0 });
          const sent: HeldRow[] = [];
          for await (const row of held.take()) sent.push(row);
          // Held, and read back, no more than the limits in memory at once.
          expect(held.memoryPeak).toBeLessThanOrEqual(memoryRows);
          expect(held.pending).toBeNull();
          expect(readdirSync(parent)).toEqual([]);
          expect(sent.map((r) => r.line).sort((a, b) => a - b)).toEqual(parcels.map((_, i) => i + 2));
          for (const p of new Set(parcels)) {
            const at = sent.flatMap((r, k) => (r.parcel === `P${p}` ? [k] : []));
            expect(at.map((k) => sent[k]!.line)).toEqual([...at.map((k) => sent[k]!.line)].sort((a, b) => a - b));
            const runs = at.filter((k, j) => j === 0 || at[j - 1] !== k - 1).length;
            if (at.length <= memoryRows) expect(runs, `P${p}`).toBe(1);
          }
        },
      ),
      { numRuns: 150 },
    );
    spy.mockRestore();
    expect([...levels].sort()).toEqual([0, 1, 2, 3]);
  });
});
