// bench:scale's markdown: one table with a column per size and the ratio largest/smallest, then the targets
// (met / not met) under it. Figures only: nothing here is measured.
import { type LoadResult, markdownTable } from '@pra/platform/bench';
import { CALLS, type Call, type CallFigures } from './scale-calls.js';
import type { Footprint, Timed } from './scale-store.js';

export interface SizeResult {
  records: number;
  load: Timed | undefined;
  index: Timed | undefined;
  footprint: Footprint;
  calls: Record<Call, CallFigures>;
  paths: Record<Call, number>;
}

/** The targets. */
export const TARGETS = {
  p99Ratio: 1.3,
  throughputShare: 0.85,
  bytesPerRecord: 2_500,
  generateSecondsPer1M: 60,
};

const int = (n: number) => Math.round(n).toLocaleString('en-US');
const n1 = (n: number) => n.toLocaleString('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 });
const size = (records: number) => int(records);

/** Seconds a timed step would take for 1,000,000 records, at its measured rate. */
const per1M = (t: Timed) => (t.seconds / t.rows) * 1_000_000;

function loadCell(t: Timed | undefined): string {
  if (!t) return 'reused, not timed';
  const when = t.now ? '' : `, recorded ${t.measuredAt.slice(0, 10)}`;
  const partial = t.fromEmpty ? '' : `, ${int(t.rows)} added to a non-empty store`;
  return `${n1(t.seconds)} s (${int(t.rows / t.seconds)} records/s${partial}${when})`;
}

type Row = [label: string, cells: string[], ratio: string];

function ratioOf(values: (number | undefined)[], digits = 2): string {
  const first = values[0];
  const last = values.at(-1);
  if (values.length < 2 || first === undefined || last === undefined || first === 0) return '';
  return `${(last / first).toFixed(digits)}x`;
}

const numeric = (label: string, values: number[], fmt: (n: number) => string): Row => [
  label,
  values.map(fmt),
  ratioOf(values),
];

function storeRows(rs: SizeResult[]): Row[] {
  const rows: Row[] = [
    [
      'records in records.properties',
      rs.map((r) => int(r.footprint.records)),
      ratioOf(rs.map((r) => r.footprint.records)),
    ],
    ['load: generate + COPY + index rebuild', rs.map((r) => loadCell(r.load)), ''],
    ['type-ahead index build (system start to complete)', rs.map((r) => loadCell(r.index)), ''],
    ['**bytes per record**', rs.map(() => ''), ''],
  ];
  // Every relation any size has, in the order of the first size that has it (a missing one is 0 bytes); those under
  // a byte a record at every size (empty tables, fixed-size lookups at large sizes) summed on one line.
  const names = [...new Set(rs.flatMap((r) => r.footprint.relations.map((x) => x.name)))];
  const perRecord = (name: string) =>
    rs.map((r) => (r.footprint.relations.find((x) => x.name === name)?.bytes ?? 0) / r.footprint.records);
  const small = names.filter((name) => perRecord(name).every((b) => b < 1));
  for (const name of names.filter((n) => !small.includes(n))) rows.push(numeric(name, perRecord(name), n1));
  if (small.length > 0) {
    const sums = rs.map((_, i) => small.reduce((s, name) => s + perRecord(name)[i]!, 0));
    rows.push(numeric(`${small.length} more relations, each under 1 byte a record`, sums, n1));
  }
  rows.push(numeric('**all in (schemas records + search)**', rs.map(allInPerRecord), n1));
  return rows;
}

const allInPerRecord = (r: SizeResult) => r.footprint.allIn / r.footprint.records;

function callRows(rs: SizeResult[], connections: number): Row[] {
  const rows: Row[] = [];
  const add = (call: Call, which: 'one' | 'many', conns: number) => {
    const figures = rs.map((r) => r.calls[call][which]);
    const label = `${call}, ${conns} connection${conns === 1 ? '' : 's'}`;
    rows.push(
      numeric(
        `${label}: p50 ms`,
        figures.map((f) => f.p50),
        n1,
      ),
    );
    rows.push(
      numeric(
        `${label}: p99 ms`,
        figures.map((f) => f.p99),
        n1,
      ),
    );
    rows.push(
      numeric(
        `${label}: req/s`,
        figures.map((f) => f.rps),
        int,
      ),
    );
    rows.push([`${label}: non-2xx or failed`, figures.map((f) => int(f.errors)), '']);
  };
  for (const call of CALLS) {
    rows.push([`**${call}** (${rs.map((r) => r.paths[call]).join(' / ')} distinct paths)`, rs.map(() => ''), '']);
    add(call, 'one', 1);
    add(call, 'many', connections);
  }
  return rows;
}

function sizeTable(rs: SizeResult[], rows: Row[]): string {
  const ratioHead = rs.length > 1 ? `${size(rs.at(-1)!.records)} / ${size(rs[0]!.records)}` : 'ratio';
  return markdownTable(
    ['', ...rs.map((r) => `${size(r.records)} records`), ratioHead],
    rows.map(([label, cells, ratio]) => [label, ...cells, ratio]),
  );
}

const verdict = (ok: boolean) => (ok ? 'met' : '**not met**');

function targetLines(rs: SizeResult[], connections: number): string[] {
  const lines: string[] = [];
  const [small, large] = [rs[0]!, rs.at(-1)!];
  const pair = `${size(large.records)} vs ${size(small.records)}`;
  if (rs.length > 1) {
    const p99 = (which: 'one' | 'many', conns: number) => {
      const ratio = large.calls.address[which].p99 / small.calls.address[which].p99;
      lines.push(
        `- address p99 at ${conns} connection${conns === 1 ? '' : 's'}, ${pair}: ${ratio.toFixed(2)}x (target <= ${TARGETS.p99Ratio}x): ${verdict(ratio <= TARGETS.p99Ratio)}`,
      );
    };
    p99('one', 1);
    p99('many', connections);
    for (const call of CALLS) {
      const share = large.calls[call].many.rps / small.calls[call].many.rps;
      lines.push(
        `- ${call} req/s at ${connections} connections, ${pair}: ${(share * 100).toFixed(0)}% (target >= ${TARGETS.throughputShare * 100}%): ${verdict(share >= TARGETS.throughputShare)}`,
      );
    }
  } else lines.push('- ratios: one size only, no ratio targets to check');
  for (const r of rs) {
    const b = allInPerRecord(r);
    lines.push(
      `- all in at ${size(r.records)}: ${int(b)} bytes a record (target <= ${int(TARGETS.bytesPerRecord)}): ${verdict(b <= TARGETS.bytesPerRecord)}`,
    );
  }
  for (const r of rs) {
    const head = `- generate 1,000,000 records, at the rate of the ${size(r.records)} store's load`;
    if (!r.load) lines.push(`${head}: not timed (store reused, built before bench:scale recorded load times)`);
    else {
      const s = per1M(r.load);
      const note = r.load.fromEmpty ? '' : ' (added to a non-empty store: no full index rebuild, not comparable)';
      lines.push(
        `${head}: ${n1(s)} s (target <= ${TARGETS.generateSecondsPer1M} s): ${verdict(s <= TARGETS.generateSecondsPer1M)}${note}`,
      );
    }
  }
  return lines;
}

export function renderReport(
  rs: SizeResult[],
  o: { machine: string; refused: string[]; duration: number; warmup: number; connections: number; command: string },
): string {
  const out = [`### bench:scale, ${rs.map((r) => size(r.records)).join(' and ')} records`, '', `\`${o.command}\``, ''];
  out.push(`machine: ${o.machine}`, '');
  for (const line of o.refused) out.push(`not run: ${line}`, '');
  if (rs.length === 0) return out.join('\n');
  out.push(
    `Calls through the local gateway, ${o.duration} s at each connection count, each call type after ${o.warmup} s of warm-up at ${o.connections} connections; latencies as the client sees them (autocannon, 1 ms resolution).`,
    '',
  );
  out.push(sizeTable(rs, [...storeRows(rs), ...callRows(rs, o.connections)]), '');
  out.push('Targets:', '', ...targetLines(rs, o.connections));
  const errors = rs.flatMap((r) => CALLS.flatMap((c) => [r.calls[c].one, r.calls[c].many])).filter(hasErrors);
  if (errors.length > 0) out.push('', '**Some answers were not 2xx: those rates are not those of the calls named.**');
  return out.join('\n');
}

const hasErrors = (r: LoadResult) => r.errors > 0;
